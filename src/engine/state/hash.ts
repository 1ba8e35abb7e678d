/**
 * FNV-1a (32 bits) of a string's UTF-16 code units, from `seed` (the FNV offset basis by
 * default): the table's bucket index, a namespace's link-name chunks, the runaway watch's shapes.
 */
export function fnv1a(s: string, seed = 0x811c9dc5): number {
  let h = seed;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
