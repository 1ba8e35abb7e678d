/**
 * Reading an immer draft without going through its proxy. A read through a draft makes a proxy
 * (and a copy of the parent) for every object it reaches, each one more thing for immer to
 * finalize at the end of the change; a loop that only reads (a bridge's ports, say) pays that
 * per element. `latest(x)` is what the draft `x` holds right now, as immer keeps it (its copy once
 * drafted or written, else its base): the values written earlier in the change included, no
 * proxy made. Its own children may still be drafts (written ones): read them with `latest` too.
 * Never write to what it returns.
 *
 * It reads immer's draft state: the Symbol.for('immer-state') property every draft answers, with
 * `base_` and `copy_` (immer 10 and 11). A value that is no draft is returned as it is.
 */
const DRAFT_STATE = Symbol.for('immer-state');

export interface DraftState {
  base_: unknown;
  copy_: unknown;
}

/** immer's state of the draft `x`; undefined when `x` is no draft. */
export function draftStateOf(x: unknown): DraftState | undefined {
  if (typeof x !== 'object' || x === null) return undefined;
  const st = (x as Record<symbol, unknown>)[DRAFT_STATE] as DraftState | undefined;
  return st !== undefined && typeof st === 'object' && 'base_' in st ? st : undefined;
}

/** What the draft `x` holds now, read without its proxy (`x` itself when it is no draft). */
export function latest<T>(x: T): T {
  const st = draftStateOf(x);
  return st === undefined ? x : (((st.copy_ ?? st.base_) as T | null) ?? x);
}
