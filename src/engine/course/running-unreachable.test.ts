/**
 * "Running but unreachable": each hidden network fault is fixed only by its own remedy. The
 * remedies of the other two leave the node's pods cut off (the checker refuses them with the
 * right cause), except that recreating the pods turns ip_forward back on: the bridge plugin
 * writes 1 at every ADD with isGateway, as the debrief says.
 */
import { describe, expect, it } from 'vitest';
import { openChallenge, submitAnswer } from './challenge';
import { challengeById } from './content';
import { drawHidden } from './hidden';

const ch = challengeById('running-unreachable')!;

function seedOf(fault: string): number {
  for (let s = 1; s <= 200; s++) if (drawHidden(ch, s).variant.fault === fault) return s;
  throw new Error(`no seed hides ${fault}`);
}

const REMEDY: Record<string, string> = {
  'ip-forward-off': 'enable-ip-forward',
  'pod-route-missing': 'add-pod-cidr-routes',
  'forward-policy-drop': 'forward-policy-accept',
};

describe('running-unreachable', () => {
  it.each(Object.keys(REMEDY))(
    '%s: the other faults’ remedies do not bring the pods back',
    { timeout: 120_000 },
    (fault) => {
      const seed = seedOf(fault);
      const v = drawHidden(ch, seed).variant;
      for (const other of Object.values(REMEDY).filter((f) => f !== REMEDY[fault])) {
        const run = openChallenge(ch, seed);
        const verdict = submitAnswer(run, { cause: v.cause, fixes: [other] });
        expect([other, verdict.accepted]).toEqual([other, false]);
        if (!verdict.accepted)
          expect(verdict.reason).toMatch(/^That is the root cause, but the node did not recover/);
      }
    },
  );

  it('recreating the pods turns ip_forward back on (bridge with isGateway), nothing else', () => {
    for (const fault of Object.keys(REMEDY)) {
      const seed = seedOf(fault);
      const run = openChallenge(ch, seed);
      const v = drawHidden(ch, seed).variant;
      const verdict = submitAnswer(run, { cause: v.cause, fixes: ['recreate-pods'] });
      expect([fault, verdict.accepted]).toEqual([fault, fault === 'ip-forward-off']);
    }
  }, 240_000);
});
