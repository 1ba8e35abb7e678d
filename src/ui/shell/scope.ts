import type { AppState } from '../store';

const ids = new WeakMap<object, number>();
let next = 0;

/**
 * Which terminals the shell shows: the user's own sandbox has its terminals, each lesson and
 * challenge its own, and any other session (a shared link, a scenario file) its own, so that a
 * lesson's shell never shows what was typed in the sandbox, nor the other way round.
 */
export function shellScope(st: Pick<AppState, 'source' | 'course' | 'session'>): string {
  const c = st.course;
  if (st.source === 'course' && c) {
    if (c.kind === 'lesson') return `lesson:${c.id}`;
    if (c.kind === 'challenge') return `challenge:${c.id}:${c.seed ?? ''}`;
  }
  if (st.source === 'own') return 'sandbox';
  const s = st.session;
  if (!s) return 'none';
  let id = ids.get(s);
  if (id === undefined) ids.set(s, (id = ++next));
  return `session:${id}`;
}
