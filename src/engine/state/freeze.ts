/**
 * Freezes `x` and every object below it that is not frozen yet; a frozen object is taken as it
 * is, without visiting what is below it (the world's snapshots are frozen all the way down).
 *
 * For a new value made outside a draft from frozen parts (a persistent operation's result: the
 * file system's, an iptables state), before it is assigned into the world's draft: immer then
 * takes it as it is. Given an unfrozen value, immer walks all of it at the end of the change,
 * looking for drafts to finalize, and then again to freeze it. Never give it a draft, nor a
 * value its maker still changes.
 */
export function freezeFresh<T>(x: T): T {
  if (typeof x === 'object' && x !== null && !Object.isFrozen(x)) freezeObject(x);
  return x;
}

function freezeObject(o: object): void {
  Object.freeze(o);
  if (Array.isArray(o)) {
    for (const v of o as unknown[])
      if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) freezeObject(v);
    return;
  }
  for (const k in o) {
    const v = (o as Record<string, unknown>)[k];
    if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) freezeObject(v);
  }
}

/**
 * freezeFresh for the result of a change to `prev`: a child that is the same as `prev`'s at the
 * same key is shared, so it is frozen already and is skipped without asking (cheaper than
 * Object.isFrozen on each of a copied record's entries); anything else is frozen as freezeFresh
 * does.
 */
export function freezeChanged<T>(next: T, prev: unknown): T {
  if (typeof next === 'object' && next !== null && next !== prev && !Object.isFrozen(next))
    freezeAgainst(next, typeof prev === 'object' && prev !== null ? prev : undefined);
  return next;
}

function freezeAgainst(o: object, prev: object | undefined): void {
  if (prev === undefined) {
    freezeObject(o);
    return;
  }
  Object.freeze(o);
  const was = prev as Record<string, unknown>;
  for (const k in o) {
    const v = (o as Record<string, unknown>)[k];
    if (typeof v !== 'object' || v === null) continue;
    const p = was[k];
    if (v === p || Object.isFrozen(v)) continue;
    freezeAgainst(v, typeof p === 'object' && p !== null ? p : undefined);
  }
}
