import { describe, expect, it } from 'vitest';
import { runDemo } from '../demo';
import { TestNode } from '../testkit';
import { tget } from '../state/table';

function traceOf(seed: number): string {
  const n = new TestNode({ seed });
  for (let i = 0; i < 5; i++) n.add(`pod-${i}`);
  n.del('pod-2');
  n.add('pod-9');
  return JSON.stringify({ events: n.sim.events, state: n.sim.state }, (_k, v: unknown) =>
    typeof v === 'bigint' ? v.toString() : v,
  );
}

describe('determinism', () => {
  it('the same seed and the same actions give a byte-identical trace', () => {
    expect(traceOf(7)).toBe(traceOf(7));
    expect(JSON.stringify(runDemo(3).sim.events)).toBe(JSON.stringify(runDemo(3).sim.events));
  });

  it('another seed gives other random values (MACs, veth names), same structure', () => {
    const a = new TestNode({ seed: 1 });
    const b = new TestNode({ seed: 2 });
    a.add('p');
    b.add('p');
    expect(a.sim.events.map((e) => e.kind)).toEqual(b.sim.events.map((e) => e.kind));
    expect(JSON.stringify(a.sim.events)).not.toBe(JSON.stringify(b.sim.events));
  });

  it('every state change is one event, and states[i] is the world after events[i]', () => {
    const n = new TestNode({ seed: 4 });
    n.add('p');
    expect(n.sim.states).toHaveLength(n.sim.events.length);
    expect(n.sim.states[n.sim.states.length - 1]).toBe(n.sim.state);
    // Stepping back is reading an earlier snapshot: before the ADD the pod had no eth0.
    const addCall = n.sim.events.findIndex((e) => e.kind === 'libcni.call');
    const before = n.sim.states[addCall]!.nodes[n.node]!.kernel;
    const podNs = tget(before.netns, tget(before.mounts, n.netnsPath('p'))!)!;
    expect(Object.values(podNs.links).map((l) => l.name)).toEqual(['lo']);
  });
});

describe('snapshots', () => {
  /** Every object reachable from `root` that is not frozen, by path (the first few). */
  function unfrozen(root: unknown): string[] {
    const out: string[] = [];
    const seen = new Set<object>();
    const visit = (x: unknown, path: string) => {
      if (typeof x !== 'object' || x === null || seen.has(x) || out.length >= 5) return;
      seen.add(x);
      if (!Object.isFrozen(x)) out.push(path);
      for (const [k, v] of Object.entries(x)) visit(v, `${path}.${k}`);
    };
    visit(root, 'world');
    return out;
  }

  it('are frozen all the way down, in a cluster as on a bare node', () => {
    // A cluster: kubelet, containerd, API server, plugins; and a node driven directly.
    const demo = runDemo(5).sim;
    const node = new TestNode({ seed: 5 });
    node.add('a');
    node.add('b');
    node.del('a');
    for (const sim of [demo, node.sim]) {
      // Every snapshot: a change's new objects are frozen as it ends, shared ones already were.
      for (const [i, s] of sim.states.entries()) expect(unfrozen(s), `state ${i}`).toEqual([]);
      expect(() => {
        (sim.state as { clock: number }).clock = 0;
      }).toThrow(TypeError);
    }
  });
});
