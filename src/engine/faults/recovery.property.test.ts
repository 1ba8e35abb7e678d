/**
 * Any fault of the catalogue, injected into a node with a few pods and followed by its
 * documented recovery, leaves a node that works: no address held by two live pods, new pods
 * start, and once every pod is deleted nothing is left behind (but what the fault's entry says
 * stays: netns-deleted's masquerade chain).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FC_SEED, fcParams } from '../properties/config';
import { FAULTS } from './catalogue';
import { injectFault, recoverFault } from './inject';
import { podStatus } from './observe';
import { clusterFor, NODE } from './testing';
import { tkeys, tvalues } from '../state/table';

/** Runs per fault: 29 faults, about a second each on CI. */
const RUNS = 2;

/** What the catalogue says stays after recovery and deletion, by fault. */
const LEFT: Record<string, string[]> = { 'netns-deleted': ['orphan-iptables'] };

/** Its recovery is libcni v1.2's GC. */
const NEEDS_GC = new Set(['stale-attachment']);

describe.each(FAULTS.map((f) => f.id))('%s, then its recovery', (fault) => {
  it(`leaves a node that works and, once its pods are gone, clean (seed ${FC_SEED})`, () => {
    fc.assert(
      fc.property(
        fc.record({
          seed: fc.integer({ min: 1, max: 10_000 }),
          pods: fc.integer({ min: 1, max: 3 }),
          target: fc.nat(2),
        }),
        ({ seed, pods, target }) => {
          const f = FAULTS.find((x) => x.id === fault)!;
          // A network fault gets the network it needs, and a second node where it needs one:
          // the pods, the fault and the audit are on NODE.
          const c = clusterFor(
            fault,
            NEEDS_GC.has(fault) ? { containerd: { libcni: '1.2' } } : {},
            seed,
          );
          const on = c.spec.nodes.length > 1 ? { node: NODE } : {};
          const names = Array.from({ length: pods }, (_, i) => `web-${i}`);
          for (const n of names) c.createPod({ name: n, ...on });
          c.runFor(5_000_000);
          for (const n of names) expect(podStatus(c, n)).toBe('Running');

          let params: Record<string, unknown>;
          if (f.when === 'during-add') {
            c.createPod({ name: 'web-new', ...on });
            names.push('web-new');
            params = { pod: 'web-new' };
          } else if (f.params['pod']) params = { pod: names[target % pods]! };
          else params = { ...on };
          const r = injectFault(c, fault, params);
          expect(r.ok ? null : r.error).toBeNull();
          c.runFor(40_000_000);
          const rec = recoverFault(c, fault, params);
          expect(rec.ok ? null : rec.error).toBeNull();
          c.runFor(60_000_000);

          // Working again: a new pod starts, and no two live pods share an address.
          c.createPod({ name: 'after', ...on });
          c.runFor(30_000_000);
          expect(podStatus(c, 'after')).toBe('Running');
          const live = tvalues(c.sim.state.api!.pods).filter((p) => p.podIP);
          expect(new Set(live.map((p) => p.podIP)).size).toBe(live.length);

          for (const p of tvalues(c.sim.state.api!.pods)) c.deletePod(p.spec.name);
          c.runFor(120_000_000);
          expect(tkeys(c.sim.state.api!.pods)).toEqual([]);
          const audit = c.audit().find((a) => a.node === NODE)!;
          expect(audit.findings.map((x) => x.kind)).toEqual(LEFT[fault] ?? []);
        },
      ),
      fcParams(RUNS),
    );
  }, 150_000);
});
