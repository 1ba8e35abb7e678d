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
