/**
 * What one trace step keeps in memory must not grow with the cluster (issue 13): a record that
 * holds an entry per pod and is copied whole when one entry changes makes every step of a large
 * cluster cost more than the same step of a small one. Each test scales a one-node cluster to a
 * few pods and to many, and compares what the steps of one more pod copy of one part of the node.
 */
import { describe, expect, it } from 'vitest';
import '../kernel/iptables/late';
import type { NodeState } from '../sim/world';
import { unsharedSlots } from '../state/sharing';
import { tget } from '../state/table';
import { Cluster } from './cluster';

const SMALL = 4;
const LARGE = 80;

/** Clusters of SMALL and LARGE pods (built once: they take a while). */
const clusters = new Map<number, Cluster>();
function clusterOf(pods: number): Cluster {
  let c = clusters.get(pods);
  if (!c) {
    c = new Cluster({ nodes: [{ name: 'node-1', podCIDR: '10.244.0.0/22' }] }, { seed: 1 });
    c.scale('web', pods);
    c.run();
    clusters.set(pods, c);
  }
  return c;
}

/**
 * The most that one step copies of `part` of the node while a cluster of `pods` pods gets one
 * more pod, and while it then deletes one.
 */
function stepCost(pods: number, part: (n: NodeState) => unknown): number {
  const c = clusterOf(pods);
  let most = 0;
  for (const replicas of [pods + 1, pods]) {
    const from = c.sim.states.length;
    c.scale('web', replicas);
    c.run();
    const states = c.sim.states;
    for (let i = Math.max(from, 1); i < states.length; i++) {
      const a = states[i - 1]!.nodes['node-1']!;
      const b = states[i]!.nodes['node-1']!;
      most = Math.max(most, unsharedSlots(part(a), part(b)));
    }
  }
  return most;
}

const PARTS: Record<string, (n: NodeState) => unknown> = {
  "containerd's sandbox store": (n) => n.containerd?.sandboxes,
  "containerd's sandbox name index": (n) => n.containerd?.names,
  "the kernel's namespace mounts": (n) => n.kernel.mounts,
  "the root namespace's link names": (n) => tget(n.kernel.netns, n.kernel.root)?.names,
};

describe('one more pod copies as much of a node at 80 pods as at 4 (issue 13)', () => {
  for (const [name, part] of Object.entries(PARTS))
    it(name, () => {
      const small = stepCost(SMALL, part);
      const large = stepCost(LARGE, part);
      expect(small, 'the steps change it').toBeGreaterThan(0);
      // A table's change copies one path through its index (up to 16 + 16 slots and a leaf),
      // never a slot per pod.
      expect(large, `${large} slots at ${LARGE} pods, ${small} at ${SMALL}`).toBeLessThanOrEqual(
        small + 40,
      );
    });
});
