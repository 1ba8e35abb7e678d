/**
 * Every recording of the real plugins in conformance/local/ (made by tools/record/record.ts from
 * tools/record/scenarios/*.json, through the real libcni v1.1.2) replays without a difference, as
 * `npm run conformance -- conformance/local` checks. The flannel recordings replay in
 * plugins/flannel.test.ts; the recordings listed in conformance/pending.json are not held here.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Fixture, replayFixture } from './replay';

const dir = new URL('../../../conformance/local/', import.meta.url);
const pending = new Set(
  (
    JSON.parse(
      readFileSync(new URL('../../../conformance/pending.json', import.meta.url), 'utf8'),
    ) as {
      name: string;
    }[]
  ).map((p) => p.name),
);
const names = readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map((f) => f.slice(0, -'.json'.length))
  .filter((n) => !n.startsWith('flannel-') && !pending.has(n))
  .sort();

describe('conformance/local: the recordings of the real plugins', () => {
  it('holds the recordings', () => {
    expect(names.length).toBeGreaterThan(70);
  });
  for (const name of names) {
    it(`${name} replays without a difference`, () => {
      const fx = JSON.parse(readFileSync(new URL(`${name}.json`, dir), 'utf8')) as Fixture;
      expect(fx.name).toBe(name);
      expect(replayFixture(fx).differences).toEqual([]);
    });
  }
});
