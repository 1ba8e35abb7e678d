/**
 * The catalogue's `failsNewPods`, checked against the simulation: each fault is injected with
 * its default parameters on a node that runs a pod, then a new pod is created on that node. It
 * must stay short of Running exactly when the field says the fault fails new pods.
 */
import { describe, expect, it } from 'vitest';
import { FAULTS, parseCatalogue } from './catalogue';
import { podStatus } from './observe';
import { clusterFor, inject, NODE, runningPod } from './testing';

/** Long enough for a new pod on a healthy node to run, even just after a reboot. */
const WAIT_US = 60_000_000;

function newPodRuns(id: string): { status: string; runs: boolean } {
  const f = FAULTS.find((x) => x.id === id)!;
  const c = clusterFor(id);
  const on = c.spec.nodes.length > 1 ? { node: NODE } : {};
  if (f.when === 'during-add') {
    c.createPod({ name: 'web-0', ...on });
    inject(c, id, { pod: 'web-0' });
  } else {
    runningPod(c);
    inject(c, id, f.params['pod'] ? { pod: 'web-0' } : { node: NODE });
  }
  c.createPod({ name: 'new-0', ...on });
  c.runFor(WAIT_US);
  const status = podStatus(c, 'new-0');
  return { status, runs: status === 'Running' };
}

describe('failsNewPods', () => {
  it.each(FAULTS.map((f) => [f.id, f.failsNewPods] as const))(
    '%s: a new pod on its node fails = %s',
    (id, fails) => {
      const { status, runs } = newPodRuns(id);
      expect({ id, status, fails: !runs }).toEqual({ id, status, fails });
    },
  );

  it('names faults of both kinds (the check can fail either way)', () => {
    expect(FAULTS.some((f) => f.failsNewPods)).toBe(true);
    expect(FAULTS.some((f) => !f.failsNewPods)).toBe(true);
  });

  it('is a field the schema requires of every fault', () => {
    const without = structuredClone(FAULTS).map((f, i) => {
      if (i !== 2) return f;
      const { failsNewPods: _, ...rest } = f;
      return rest;
    });
    expect(() => parseCatalogue(without)).toThrow(
      /faults\[2\] \(cni-version-unsupported\)\.failsNewPods: expected boolean, got nothing/,
    );
  });
});
