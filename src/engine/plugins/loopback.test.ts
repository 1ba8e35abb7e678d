/**
 * loopback against the real binary (testdata/loopback.json): ADD brings lo up and reports
 * 127.0.0.1/8 and ::1/128 (or echoes a prevResult), CHECK fails once lo is down, DEL takes lo
 * down (keeping 127.0.0.1, losing ::1) and is idempotent, also without a netns or with a missing
 * one; results in every spec version, and the error texts.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type Scenario, replayScenario, stepLabel } from './harness';

const LOOPBACK_SCENARIOS = JSON.parse(
  readFileSync(new URL('./testdata/loopback.json', import.meta.url), 'utf8'),
) as Scenario[];

describe('loopback (real binary recordings)', () => {
  describe.each(LOOPBACK_SCENARIOS.map((sc) => [sc.name, sc] as const))('%s', (_name, sc) => {
    const got = replayScenario(sc, 'loopback', '/tmp/cnisim-ut-lo');
    it.each(sc.steps.map((s, i) => [stepLabel(s, i), i] as const))('%s', (_l, i) => {
      expect(got[i]).toEqual(sc.want[i]);
    });
  });
});
