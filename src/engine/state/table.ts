/**
 * A keyed collection for the world's large records (state machines, pods, namespaces, ...) whose
 * update costs the same at 10 entries as at 10,000, stored as plain data.
 *
 * Why not a plain record: immer copies a record whole when one of its keys changes, and then
 * walks and freezes every key of the copy, so a record of n entries costs O(n) per change and a
 * cluster's every step grows with its size. Here entries hang in a two-level index (16 x 16) by a
 * hash of the key, so a change copies two index nodes of at most 16 keys and one leaf of about
 * n/256 entries.
 *
 * Why not a persistent-map library: the world stays plain, frozen data that immer drafts
 * natively, structured cloning copies (a Web Worker can hold it) and views diff field by field;
 * and it costs no bytes of bundle.
 *
 * Order is behaviour (which actor gets an event first, the order `kubectl get` lists): a table
 * iterates in insertion order, as a JavaScript object does for string keys. Each entry carries
 * its insertion number; setting an existing key keeps its place, deleting and setting again moves
 * it to the end.
 *
 * The mutating operations (`tset`, `tdel`) are for immer drafts and for tables being built; use
 * `withEntry` / `withoutEntry` to derive a new table from a frozen one.
 */

import { draftStateOf, latest } from './draft';
import { fnv1a } from './hash';

export interface TableEntry<V> {
  /** Insertion number: iteration order. */
  readonly o: number;
  readonly v: V;
}

type Leaf<V> = Readonly<Record<string, TableEntry<V>>>;
type Mid<V> = Readonly<Record<string, Leaf<V>>>;

export interface Table<V> {
  readonly size: number;
  /** The next insertion number. */
  readonly seq: number;
  /**
   * A two-level index by a hash of the key (16 x 16, slots named 'a'..'p'), then '#' + key ->
   * entry. Index nodes and leaves exist only while they hold an entry. Slots are letters, not
   * numbers: V8 keeps integer keys as elements, and copying a frozen object of 16 elements (what
   * a change does to two index nodes) costs about five times as much as one of 16 named keys.
   */
  readonly buckets: Readonly<Record<string, Mid<V>>>;
}

/** Index slot names, by 4 bits of the hash. */
const SLOT = 'abcdefghijklmnop'.split('');

/**
 * Inside a leaf every key is stored behind a '#', so that no key ("__proto__", "valueOf") is
 * special to an object. A leaf has no prototype (newLeaf), so what it does not hold reads as
 * undefined: no own-property check is needed (through an immer draft, a plain read is also the
 * cheaper trap).
 */
function own<V>(b: Leaf<V> | undefined, slot: string): TableEntry<V> | undefined {
  return b?.[slot];
}

function leafOf<V>(t: Table<V>, h: number): Leaf<V> | undefined {
  return t.buckets[SLOT[h & 15]!]?.[SLOT[(h >>> 4) & 15]!];
}

/**
 * A new leaf. Leaves have no prototype, which puts them in V8's dictionary mode: their keys are
 * unique names (pods, sandboxes, links), and an ordinary object gets a hidden class per set of
 * names, so every version of a leaf (and its frozen twin) would make a class of its own: about
 * a fifth of a 200-pod cluster's heap was hidden classes and their descriptors. A dictionary
 * object is a hash table that shares its class with every other.
 */
function newLeaf<V>(from?: Leaf<V>): Record<string, TableEntry<V>> {
  const b = Object.create(null) as Record<string, TableEntry<V>>;
  if (from !== undefined) for (const k in from) b[k] = from[k]!;
  return b;
}

function empty(o: object): boolean {
  for (const _ in o) return false;
  return true;
}

export function emptyTable<V>(): Table<V> {
  return { size: 0, seq: 0, buckets: {} };
}

/** A table of `entries`, in their order. */
export function tableOf<V>(entries: Iterable<readonly [string, V]>): Table<V> {
  const t = emptyTable<V>();
  for (const [k, v] of entries) tset(t, k, v);
  return t;
}

/** The value at `key`; undefined if there is none (or no table: `tget(api?.pods, key)`). */
export function tget<V>(t: Table<V> | undefined, key: string): V | undefined {
  return t ? own(leafOf(t, fnv1a(key)), '#' + key)?.v : undefined;
}

export function thas(t: Table<unknown>, key: string): boolean {
  return own(leafOf(t, fnv1a(key)), '#' + key) !== undefined;
}

type Mut<V> = {
  size: number;
  seq: number;
  buckets: Record<string, Record<string, Record<string, TableEntry<V>>>>;
};

/** Sets `key` (in place: a draft or a table being built). An existing key keeps its place. */
export function tset<V>(t: Table<V>, key: string, v: V): void {
  if (putInto(t)) {
    tput(t, key, v);
    return;
  }
  const m = t as Mut<V>;
  const h = fnv1a(key);
  const hi = SLOT[h & 15]!;
  const lo = SLOT[(h >>> 4) & 15]!;
  // Re-read after creating: inside immer, what was assigned is then reached through its draft.
  if (!m.buckets[hi]) m.buckets[hi] = {};
  const mid = m.buckets[hi]!;
  if (!mid[lo]) mid[lo] = newLeaf();
  const b = mid[lo]!;
  const slot = '#' + key;
  const old = own(b, slot);
  if (old) {
    b[slot] = { o: old.o, v };
    return;
  }
  b[slot] = { o: m.seq, v };
  m.seq += 1;
  m.size += 1;
}

/** Deletes `key` (in place); true if it was there. */
export function tdel(t: Table<unknown>, key: string): boolean {
  if (putInto(t)) return tdrop(t, key);
  const m = t as Mut<unknown>;
  const h = fnv1a(key);
  const hi = SLOT[h & 15]!;
  const lo = SLOT[(h >>> 4) & 15]!;
  const slot = '#' + key;
  if (!own(m.buckets[hi]?.[lo], slot)) return false;
  const mid = m.buckets[hi]!;
  const b = mid[lo]!;
  delete b[slot];
  m.size -= 1;
  // Keep no empty index nodes, so that a table that shrinks is as small as one that never grew.
  if (empty(b)) {
    delete mid[lo];
    if (empty(mid)) delete m.buckets[hi];
  }
  return true;
}

/*
 * Setting into a draft without drafting the path. `tset` on an immer draft reads its way down
 * through the draft (index, index, leaf, entry): each read makes a proxy and a copy, and each
 * proxy is one more thing to finalize and freeze at the end of the change. For a table whose
 * values are only ever replaced whole, `tput` instead derives the new index path from the
 * table's current plain parts, freezes the few new objects, and assigns them to the draft: three
 * writes to one draft. What was put is plain frozen data from then on: reading it back gives the
 * frozen value, not a draft, so never change a value of such a table in place (PodObj-like
 * records that are changed through `tget` must use `tset`).
 *
 * It reads immer's draft state (draft.ts); when that is not there, or when a part of the path is
 * already drafted, it falls back to `tset`.
 */
/**
 * The table's size, seq and index as plain data, when `t` is a draft whose index is not drafted
 * (no proxy on it): what `tput` and `tdrop` can derive from. undefined: use tset / tdel.
 */
function plainParts<V>(t: Table<V>): Table<V> | undefined {
  const st = draftStateOf(t);
  if (st === undefined) return undefined;
  const src = (st.copy_ ?? st.base_) as Table<V>;
  if (draftStateOf(src.buckets) !== undefined) return undefined;
  return src;
}

/**
 * True when `tput` already replaced this draft's index in the current change: it is frozen plain
 * data, so `tset` and `tdel` must go on deriving, as `tput` and `tdrop` do.
 */
function putInto(t: Table<unknown>): boolean {
  const st = draftStateOf(t);
  if (st === undefined || st.copy_ === null || st.copy_ === undefined) return false;
  const b = (st.copy_ as Table<unknown>).buckets;
  return b !== (st.base_ as Table<unknown>).buckets && draftStateOf(b) === undefined;
}

/**
 * Freezes `v` as freezeFresh does, unless a draft hangs somewhere in its new (unfrozen) parts:
 * then it changes nothing and answers false (such a value must go through the draft, which
 * finalizes the drafts inside it).
 */
function freezePlain(v: unknown): boolean {
  if (typeof v !== 'object' || v === null || Object.isFrozen(v)) return true;
  const fresh: object[] = [];
  const todo: object[] = [v];
  while (todo.length > 0) {
    const o = todo.pop()!;
    if (draftStateOf(o) !== undefined) return false;
    fresh.push(o);
    for (const k in o) {
      const c = (o as Record<string, unknown>)[k];
      if (typeof c === 'object' && c !== null && !Object.isFrozen(c)) todo.push(c);
    }
  }
  for (const o of fresh) Object.freeze(o);
  return true;
}

/** `tset` for a table whose values are replaced whole, never changed in place (see above). */
export function tput<V>(t: Table<V>, key: string, v: V): void {
  const src = plainParts(t);
  if (src === undefined || !freezePlain(v)) {
    tset(t, key, v);
    return;
  }
  adopt(t, withEntry(src, key, v), key);
}

/** `tdel` for a table `tput` writes to (see above); true if `key` was there. */
export function tdrop(t: Table<unknown>, key: string): boolean {
  const src = plainParts(t);
  if (src === undefined) return tdel(t, key);
  const next = withoutEntry(src, key);
  if (next === src) return false;
  adopt(t, next, key);
  return true;
}

/**
 * Makes the draft `t` hold `next`, derived from its plain parts by withEntry or withoutEntry:
 * the new nodes on `key`'s path (index, index, leaf, entry) are frozen, then assigned.
 */
function adopt<V>(t: Table<V>, next: Table<V>, key: string): void {
  const h = fnv1a(key);
  const mid = next.buckets[SLOT[h & 15]!];
  if (mid !== undefined) {
    const leaf = mid[SLOT[(h >>> 4) & 15]!];
    if (leaf !== undefined) {
      const e = leaf['#' + key];
      if (e !== undefined) Object.freeze(e);
      Object.freeze(leaf);
    }
    Object.freeze(mid);
  }
  const m = t as Mut<V>;
  m.buckets = Object.freeze(next.buckets) as Mut<V>['buckets'];
  m.size = next.size;
  m.seq = next.seq;
}

/** `tget` that reads a draft's current values without making proxies (a value that is itself a draft is returned as one). */
export function tpeek<V>(t: Table<V> | undefined, key: string): V | undefined {
  if (t === undefined) return undefined;
  const h = fnv1a(key);
  const tab = latest(t);
  const mid = latest(latest(tab.buckets)[SLOT[h & 15]!]);
  const leaf = latest(mid?.[SLOT[(h >>> 4) & 15]!]);
  const e = latest(leaf?.['#' + key]);
  return e?.v;
}

/**
 * [key, value] pairs in no particular order, read as `tpeek` reads (a draft's current values,
 * no proxy made; a value that is itself a draft comes as one): for loops that only read a table
 * inside a change (which namespaces are still mounted). Never write to what it gives.
 */
export function* tscanPeek<V>(t: Table<V>): Generator<readonly [string, V]> {
  const index = latest(latest(t).buckets);
  for (const hi in index) {
    const mid = latest(index[hi]!);
    for (const lo in mid) {
      const leaf = latest(mid[lo]!);
      for (const slot in leaf) yield [slot.slice(1), latest(leaf[slot]!).v] as const;
    }
  }
}

/** A new table with `key` set; `t` is unchanged. */
export function withEntry<V>(t: Table<V>, key: string, v: V): Table<V> {
  const h = fnv1a(key);
  const hi = SLOT[h & 15]!;
  const lo = SLOT[(h >>> 4) & 15]!;
  const mid = t.buckets[hi] ?? {};
  const b = mid[lo];
  const slot = '#' + key;
  const old = own(b, slot);
  const nb = newLeaf(b);
  nb[slot] = { o: old ? old.o : t.seq, v };
  return {
    size: old ? t.size : t.size + 1,
    seq: old ? t.seq : t.seq + 1,
    buckets: { ...t.buckets, [hi]: { ...mid, [lo]: nb } },
  };
}

/** A new table without `key`; `t` itself if it has no such key. */
export function withoutEntry<V>(t: Table<V>, key: string): Table<V> {
  const h = fnv1a(key);
  const hi = SLOT[h & 15]!;
  const lo = SLOT[(h >>> 4) & 15]!;
  const slot = '#' + key;
  const mid = t.buckets[hi];
  const b = mid?.[lo];
  if (!own(b, slot)) return t;
  const rest = newLeaf(b);
  delete rest[slot];
  const nextMid: Record<string, Leaf<V>> = { ...mid, [lo]: rest };
  if (empty(rest)) delete nextMid[lo];
  const buckets: Record<string, Mid<V>> = { ...t.buckets, [hi]: nextMid };
  if (empty(nextMid)) delete buckets[hi];
  return { size: t.size - 1, seq: t.seq, buckets };
}

/** Every leaf of a table. */
function* leaves<V>(t: Table<V>): Generator<Leaf<V>> {
  for (const hi in t.buckets) {
    const mid = t.buckets[hi]!;
    for (const lo in mid) yield mid[lo]!;
  }
}

/**
 * Frozen tables never change: their sorted entries are computed once, for the most recently
 * listed ones. The cache is bounded: every version of a table stays alive in the trace's
 * snapshots, so a cache keyed by version (a WeakMap) would keep a sorted copy per step of every
 * table listed at that step, memory that grows with the table's size.
 */
const ORDER = new Map<object, ReadonlyArray<readonly [string, unknown]>>();
const ORDER_MAX = 64;

/** [key, value] pairs in insertion order. */
export function tentries<V>(t: Table<V>): ReadonlyArray<readonly [string, V]> {
  const cached = ORDER.get(t);
  if (cached) {
    // Most recently used last, so that the oldest goes first.
    ORDER.delete(t);
    ORDER.set(t, cached);
    return cached as ReadonlyArray<readonly [string, V]>;
  }
  const all: Array<[number, string, V]> = [];
  for (const b of leaves(t)) {
    for (const slot in b) {
      const e = b[slot]!;
      all.push([e.o, slot.slice(1), e.v]);
    }
  }
  all.sort((x, y) => x[0] - y[0]);
  const out = all.map(([, k, v]) => [k, v] as const);
  if (Object.isFrozen(t)) {
    ORDER.set(t, out);
    if (ORDER.size > ORDER_MAX) ORDER.delete(ORDER.keys().next().value!);
  }
  return out;
}

/** Every value, in no particular order: for callers that sort or only test (no copy, no cache). */
export function* tscan<V>(t: Table<V>): Generator<V> {
  for (const b of leaves(t)) for (const slot in b) yield b[slot]!.v;
}

export function tvalues<V>(t: Table<V>): V[] {
  return tentries(t).map(([, v]) => v);
}

export function tkeys(t: Table<unknown>): string[] {
  return tentries(t).map(([k]) => k);
}

/** The table as a plain record (for views and tests that want one; integer-like keys come first, as in any object). */
export function tableRecord<V>(t: Table<V>): Record<string, V> {
  const out: Record<string, V> = {};
  for (const [k, v] of tentries(t))
    Object.defineProperty(out, k, {
      value: v,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  return out;
}

export function isTable(x: unknown): x is Table<unknown> {
  if (typeof x !== 'object' || x === null) return false;
  const t = x as Partial<Table<unknown>>;
  return (
    typeof t.size === 'number' &&
    typeof t.seq === 'number' &&
    typeof t.buckets === 'object' &&
    Object.keys(x).length === 3
  );
}

/**
 * The keys whose values differ between two versions of a table (set, changed or deleted), found
 * by descending only into the buckets that are not shared.
 */
export function tchangedKeys<V>(a: Table<V>, b: Table<V>): string[] {
  if (a === b || a.buckets === b.buckets) return [];
  const out: string[] = [];
  const keysOf = (o: object | undefined) => (o ? Object.keys(o) : []);
  for (const hi of new Set([...keysOf(a.buckets), ...keysOf(b.buckets)])) {
    const ma = a.buckets[hi];
    const mb = b.buckets[hi];
    if (ma === mb) continue;
    for (const lo of new Set([...keysOf(ma), ...keysOf(mb)])) {
      const x = ma?.[lo] ?? {};
      const y = mb?.[lo] ?? {};
      if (x === y) continue;
      for (const k of new Set([...Object.keys(x), ...Object.keys(y)])) {
        const p = own(x, k);
        const q = own(y, k);
        if (p?.v !== q?.v || !p !== !q) out.push(k.slice(1));
      }
    }
  }
  return out;
}
