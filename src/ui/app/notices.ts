/** Notices: the messages over the app (a subscriber drops those about a trace that is gone). */
import type { Session } from '../../engine';
import { subscribe, update, type AppState, type Notice } from './state';

let noticeId = 0;

export function notify(
  kind: Notice['kind'],
  text: string,
  download?: Notice['download'],
  about?: Session,
): void {
  const n: Notice = {
    id: ++noticeId,
    kind,
    text,
    ...(download ? { download } : {}),
    ...(about ? { about: { session: about, revision: about.revision } } : {}),
  };
  // The same message again (Play pressed at the end, twice) replaces the one shown, which then
  // lasts from now: notices never stack copies of themselves.
  const same = (o: Notice) => o.kind === kind && o.text === text && !o.download && !download;
  update((st) => ({ notices: [...st.notices.filter((o) => !same(o)).slice(-3), n] }));
}

/** Notices about a trace that is no longer the session's (see Notice.about). */
export function obsoleteNotices(st: Pick<AppState, 'notices' | 'session'>): Notice[] {
  return st.notices.filter(
    (n) =>
      n.about !== undefined &&
      (n.about.session !== st.session || n.about.revision !== st.session?.revision),
  );
}

subscribe((st, prev) => {
  if (st.session === prev.session && st.revision === prev.revision) return;
  const gone = obsoleteNotices(st);
  if (gone.length) update({ notices: st.notices.filter((n) => !gone.includes(n)) });
});

export function dismissNotice(id: number): void {
  update((st) => ({ notices: st.notices.filter((n) => n.id !== id) }));
}
