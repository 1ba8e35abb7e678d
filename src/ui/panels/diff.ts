/**
 * What one step changed in the world, as "object before / after". Snapshots share every subtree
 * that did not change (immer), so the walk only descends where identities differ.
 */
import { isTable, tchangedKeys, tget } from '../../engine';

export interface Change {
  /** Where, e.g. `netns.cni-1a2b.links.3`. */
  path: string;
  before: unknown;
  after: unknown;
  /** For lists (routes, events): the items added and removed, compared by content. */
  added?: unknown[];
  removed?: unknown[];
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Changes between two values, each reported at a depth of at most `depth` keys below the root
 * (a kernel link, a file entry), lists compared as a whole. `skip` names keys to ignore.
 */
export function diff(
  before: unknown,
  after: unknown,
  opts: {
    depth: number;
    skip?: readonly string[];
    max?: number;
    /** Below a key of this name, changes are reported down to `depth` keys instead. */
    deeper?: { key: string; depth: number };
  },
): Change[] {
  const out: Change[] = [];
  const max = opts.max ?? 40;
  const limit = (path: string[]) =>
    opts.deeper && path.includes(opts.deeper.key) ? opts.deeper.depth : opts.depth;
  const walk = (a: unknown, b: unknown, path: string[]) => {
    if (a === b || out.length >= max) return;
    const depth = limit(path);
    // A table (engine/state/table.ts) reads as the record it stands for.
    if (isTable(a) && isTable(b) && path.length < depth) {
      for (const k of tchangedKeys(a, b)) walk(tget(a, k), tget(b, k), [...path, k]);
      return;
    }
    if (isObject(a) && isObject(b) && path.length < depth) {
      for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
        if (path.length === 0 && opts.skip?.includes(k)) continue;
        walk(a[k], b[k], [...path, k]);
      }
      return;
    }
    const change: Change = { path: path.join('.'), before: a, after: b };
    if (Array.isArray(a) && Array.isArray(b)) {
      const as = new Set(a.map((x) => JSON.stringify(x)));
      const bs = new Set(b.map((x) => JSON.stringify(x)));
      change.added = b.filter((x) => !as.has(JSON.stringify(x)));
      change.removed = a.filter((x) => !bs.has(JSON.stringify(x)));
      if (change.added.length === 0 && change.removed.length === 0) return; // reordered only
    }
    out.push(change);
  };
  walk(before, after, []);
  return out;
}

export { json } from '../format';
