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
  add({
    kind,
    text,
    ...(download ? { download } : {}),
    ...(about ? { about: { session: about, revision: about.revision } } : {}),
  });
}

/**
 * How a run ended (it stopped on a repeated failure, nothing was left to happen): said until the
 * user acts on the cluster, since an action (a fix, a new pod) can make it untrue.
 */
export function notifyRunEnd(kind: Notice['kind'], text: string, session: Session): void {
  add({
    kind,
    text,
    about: { session, revision: session.revision, actions: session.actions.length },
  });
}

function add(notice: Omit<Notice, 'id'>): void {
  const n: Notice = { id: ++noticeId, ...notice };
  // The same message again (Play pressed at the end, twice) replaces the one shown, which then
  // lasts from now: notices never stack copies of themselves.
  const same = (o: Notice) => o.kind === n.kind && o.text === n.text && !o.download && !n.download;
  update((st) => ({ notices: [...st.notices.filter((o) => !same(o)).slice(-3), n] }));
}

/** Notices about a trace that is no longer the session's (see Notice.about). */
export function obsoleteNotices(st: Pick<AppState, 'notices' | 'session'>): Notice[] {
  return st.notices.filter(
    (n) =>
      n.about !== undefined &&
      (n.about.session !== st.session ||
        n.about.revision !== st.session?.revision ||
        (n.about.actions !== undefined && n.about.actions !== st.session.actions.length)),
  );
}

subscribe((st, prev) => {
  if (st.session === prev.session && st.revision === prev.revision && st.version === prev.version)
    return;
  const gone = obsoleteNotices(st);
  if (gone.length) update({ notices: st.notices.filter((n) => !gone.includes(n)) });
});

export function dismissNotice(id: number): void {
  update((st) => ({ notices: st.notices.filter((n) => n.id !== id) }));
}
