import { Immer, isDraft, produce } from 'immer';
import { describe, expect, it } from 'vitest';
import { draftStateOf, latest } from './draft';

describe('latest', () => {
  const base: { readonly links: Readonly<Record<number, { mtu: number }>> } = Object.freeze({
    links: Object.freeze({ 1: Object.freeze({ mtu: 1500 }), 2: Object.freeze({ mtu: 9000 }) }),
  });

  it("reads a draft's current values, writes of the same change included, making no proxy", () => {
    for (const im of [new Immer({ autoFreeze: false }), new Immer()]) {
      im.produce(base, (d) => {
        // Nothing drafted yet: the base itself.
        expect(latest(d)).toBe(base);
        expect(latest(latest(d).links)).toBe(base.links);
        d.links[2]!.mtu = 1400;
        const links = latest(latest(d).links);
        expect(isDraft(links)).toBe(false);
        // A written child is a draft in its parent's copy; latest reads through it.
        expect(latest(links[2])!.mtu).toBe(1400);
        expect(isDraft(latest(links[2]))).toBe(false);
        expect(latest(links[1])).toBe(base.links[1]);
      });
    }
  });

  it('gives back what is no draft, and knows no draft state there', () => {
    const plain = { a: 1 };
    expect(latest(plain)).toBe(plain);
    expect(latest(undefined)).toBeUndefined();
    expect(draftStateOf(plain)).toBeUndefined();
    produce(plain, (d) => void expect(draftStateOf(d)).toBeDefined());
  });
});
