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
  if (typeof x !== 'object' || x === null || Object.isFrozen(x)) return x;
  Object.freeze(x);
  if (Array.isArray(x)) for (const v of x) freezeFresh(v);
  else for (const k in x) freezeFresh((x as Record<string, unknown>)[k]);
  return x;
}
