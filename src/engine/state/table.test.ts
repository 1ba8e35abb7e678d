import fc from 'fast-check';
import { produce } from 'immer';
import { describe, expect, it } from 'vitest';
import { fcParams } from '../properties/config';
import {
  emptyTable,
  tableOf,
  tableRecord,
  tchangedKeys,
  tdel,
  tentries,
  tget,
  thas,
  tset,
  withEntry,
  withoutEntry,
  type Table,
} from './table';

type Op = { set: string; v: number } | { del: string };

// Keys that meet Object.prototype's properties, plus enough others to fill many buckets.
const key = fc.oneof(
  fc.constantFrom('__proto__', 'valueOf', 'constructor', 'toString', 'hasOwnProperty', '', '#'),
  fc.string({ maxLength: 6 }),
  fc.integer({ min: 0, max: 400 }).map(String),
);
const ops = fc.array(
  fc.oneof(fc.record({ set: key, v: fc.integer() }), fc.record({ del: key })) as fc.Arbitrary<Op>,
  { maxLength: 300 },
);

/** A Map keeps insertion order as a table must: a set of an existing key keeps its place. */
function model(list: Op[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const o of list) {
    if ('set' in o) m.set(o.set, o.v);
    else m.delete(o.del);
  }
  return m;
}

function expectSame(t: Table<number>, m: Map<string, number>): void {
  expect(tentries(t)).toEqual([...m.entries()]);
  expect(t.size).toBe(m.size);
  for (const [k, v] of m) {
    expect(tget(t, k)).toBe(v);
    expect(thas(t, k)).toBe(true);
  }
}

describe('table', () => {
  it('in place, on immer drafts, behaves as a Map in insertion order', () => {
    fc.assert(
      fc.property(ops, (list) => {
        let t = emptyTable<number>();
        for (const o of list) {
          t = produce(t, (d) => {
            if ('set' in o) tset(d as Table<number>, o.set, o.v);
            else tdel(d as Table<number>, o.del);
          });
        }
        expectSame(t, model(list));
        expect(Object.getPrototypeOf(tableRecord(t))).toBe(Object.prototype);
        expect(Object.entries(tableRecord(t)).length).toBe(t.size);
      }),
      fcParams(150),
    );
  });

  it('persistent updates leave the old version as it was and agree with in-place ones', () => {
    fc.assert(
      fc.property(ops, ops, (a, b) => {
        const before = tableOf([...model(a).entries()]);
        const frozen = JSON.stringify(tentries(before));
        let after = before;
        for (const o of b)
          after = 'set' in o ? withEntry(after, o.set, o.v) : withoutEntry(after, o.del);
        expect(JSON.stringify(tentries(before))).toBe(frozen);
        expectSame(after, model([...a.map((o) => o), ...b]));
        // What changed between the two versions, and nothing else.
        const m0 = model(a);
        const m1 = model([...a, ...b]);
        const want = [...new Set([...m0.keys(), ...m1.keys()])]
          .filter((k) => m0.get(k) !== m1.get(k) || m0.has(k) !== m1.has(k))
          .sort();
        const got = tchangedKeys(before, after).sort();
        // A key set again to the value it had is a new entry object: it may be reported too.
        for (const k of want) expect(got).toContain(k);
        for (const k of got) expect(m0.has(k) || m1.has(k)).toBe(true);
      }),
      fcParams(150),
    );
  });

  it('an update copies a bounded number of keys, however many entries there are', () => {
    const big = tableOf(Array.from({ length: 5000 }, (_, i) => [`pod-${i}`, i] as const));
    const next = withEntry(big, 'pod-42', -1);
    const differ = <T extends object>(a: T, b: T) =>
      Object.keys(a).filter((n) => a[n as keyof T] !== b[n as keyof T]);
    // One top index node and one leaf below it are new; everything else is shared.
    const tops = differ(big.buckets, next.buckets);
    expect(tops).toHaveLength(1);
    const hi = tops[0]!;
    const lows = differ(big.buckets[hi]!, next.buckets[hi]!);
    expect(lows).toHaveLength(1);
    expect(Object.keys(next.buckets).length).toBeLessThanOrEqual(16);
    expect(Object.keys(next.buckets[hi]!).length).toBeLessThanOrEqual(16);
    // The new leaf holds about 5000 / 256 entries.
    expect(Object.keys(next.buckets[hi]![lows[0]!]!).length).toBeLessThan(60);
  });

  it('keeps its leaves as prototype-less objects, however they were made', () => {
    // V8 keeps such objects as hash tables: leaves keyed by unique names would otherwise get a
    // hidden class per version (npm run bench's 500-pod figure: peak RSS about 350 MB, not 265).
    const built = tableOf(Array.from({ length: 300 }, (_, i) => [`pod-${i}`, i] as const));
    const derived = withoutEntry(withEntry(built, 'pod-x', 1), 'pod-7');
    const drafted = produce(derived, (d) => void tset(d, 'pod-y', 2));
    for (const t of [built, derived, drafted])
      for (const mid of Object.values(t.buckets))
        for (const leaf of Object.values(mid)) expect(Object.getPrototypeOf(leaf)).toBeNull();
  });
});
