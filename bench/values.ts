/**
 * The values of one of the engine state's keyed collections (the API server's pods, say), whether
 * it is a plain record, as at 37de37a, or a table (src/engine/state/table.ts: `{ size, seq,
 * buckets }`, its index nodes and leaves holding `{ o, v }` entries), so that the bench reads the
 * state of both versions the same way. The table is walked here rather than through the engine's
 * own reader, which the baseline does not have.
 */
export function valuesOf<T>(c: object): T[] {
  const t = c as { size?: unknown; seq?: unknown; buckets?: unknown };
  if (typeof t.size !== 'number' || typeof t.seq !== 'number' || typeof t.buckets !== 'object')
    return Object.values(c as Record<string, T>);
  const out: Array<{ o: number; v: T }> = [];
  const walk = (node: object): void => {
    for (const x of Object.values(node) as object[]) {
      const e = x as { o?: unknown; v?: T };
      if (typeof e.o === 'number' && 'v' in e) out.push(e as { o: number; v: T });
      else walk(x);
    }
  };
  walk(t.buckets as object);
  return out.sort((a, b) => a.o - b.o).map((e) => e.v);
}
