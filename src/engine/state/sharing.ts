/**
 * The slots (an object's header and each of its keys or elements) of the objects of `b` that `a`
 * does not share: what one more trace step keeps in memory when `b` is the state after `a`. For
 * tests that check a change copies a bounded amount, however large the state.
 */
export function unsharedSlots(a: unknown, b: unknown): number {
  if (a === b || b === null || typeof b !== 'object') return 0;
  let n = 1 + Object.keys(b).length;
  for (const k of Object.keys(b)) {
    const prev =
      a !== null && typeof a === 'object' ? (a as Record<string, unknown>)[k] : undefined;
    n += unsharedSlots(prev, (b as Record<string, unknown>)[k]);
  }
  return n;
}
