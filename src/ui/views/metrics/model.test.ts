import { describe, expect, it } from 'vitest';
import { Cluster } from '../../../engine/cluster/cluster';
import type { WorldState } from '../../../engine/sim/world';
import { loadEngine } from '../../../engine';
import { MetricsIndex, metricsOf } from './model';

// The model reads a node through the engine's inspect readers, which load with the engine.
await loadEngine();

const ONE_NODE = { nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }] };

/**
 * A pod whose ADD hangs in portmap while containerd restarts: its sandbox is lost, its IP leaks
 * (containerd ≤ 1.6.8; later releases recover the sandbox).
 */
function leaky(): Cluster {
  const c = new Cluster(
    { nodes: [{ ...ONE_NODE.nodes[0]!, containerd: { version: '1.6.8' } }] },
    { seed: 1 },
  );
  c.createPod({ name: 'web-0' });
  c.runFor(3_000_000);
  c.hangPlugin('node-1', 'portmap', ['ADD']);
  c.createPod({ name: 'web-1' });
  c.run({ stop: (e) => e.kind === 'exec' && e.target === 'portmap', maxEvents: 5000 });
  c.runFor(100_000);
  c.restartContainerd('node-1');
  c.runFor(10_000_000);
  return c;
}

function fromAudit(c: Cluster, s: WorldState) {
  return c.audit(s).map((a) => ({
    node: a.node,
    pods: a.pods,
    reservations: a.reservations,
    capacity: a.ipamCapacity,
    orphanVeths: a.findings.filter((f) => f.kind === 'orphan-veth').length,
    leakedIps: a.findings.filter((f) => f.kind === 'orphan-reservation').length,
  }));
}

describe('metrics model', () => {
  const c = leaky();
  const states = c.sim.states;

  it('agrees with the cluster audit at every step', () => {
    const idx = new MetricsIndex();
    idx.update(states);
    for (let i = 0; i < states.length; i += 3) {
      const want = fromAudit(c, states[i]!);
      for (const w of want) {
        const { step: _s, ...got } = idx.at(w.node, i)!;
        expect({ node: w.node, ...got }, `step ${i}`).toEqual(w);
      }
      const ref = metricsOf(states[i]!);
      for (const { node, ...rest } of want) expect(ref.get(node)).toEqual(rest);
    }
  });

  it('finds the leaked IP and the orphan veth of the lost sandbox', () => {
    const idx = new MetricsIndex();
    idx.update(states);
    const end = idx.at('node-1', states.length - 1)!;
    expect(end.leakedIps).toBeGreaterThanOrEqual(1);
    expect(end.orphanVeths).toBeGreaterThanOrEqual(1);
    const pts = idx.series('node-1');
    // A step function: few points, each differing from the one before.
    expect(pts.length).toBeLessThan(states.length / 10);
    expect(pts[0]!.step).toBe(0);
  });

  it('extends itself as the trace grows, and starts over for another trace', () => {
    const whole = new MetricsIndex();
    whole.update(states);
    const inc = new MetricsIndex();
    for (let n = 1; n <= states.length; n += 97) inc.update(states.slice(0, n));
    inc.update(states);
    expect(inc.series('node-1')).toEqual(whole.series('node-1'));
    const other = new Cluster(ONE_NODE, { seed: 2 });
    other.runFor(1_000_000);
    inc.update(other.sim.states);
    expect(inc.length).toBe(other.sim.states.length);
    expect(inc.at('node-1', other.sim.states.length - 1)!.pods).toBe(0);
  });

  it('indexes a long trace with many pods, working out the costly part only where it changes', () => {
    const big = new Cluster(ONE_NODE, { seed: 1 });
    for (let i = 0; i < 40; i++) big.createPod({ name: `web-${i}` });
    big.runFor(20_000_000);
    for (let i = 0; i < 20; i++) big.deletePod(`web-${i}`);
    big.runFor(20_000_000);
    const n = big.sim.states.length;
    expect(n).toBeGreaterThan(3000);
    const idx = new MetricsIndex();
    idx.update(big.sim.states);
    // The costly part (reservations on disk, orphan veths: what the audit of one state does) is
    // worked out again only at the steps that change what it reads, not at every step.
    expect(idx.recomputed.reservations).toBeLessThan(n / 4);
    expect(idx.recomputed.veths).toBeLessThan(n / 4);
    expect(idx.at('node-1', n - 1)).toMatchObject({ pods: 20, reservations: 20, leakedIps: 0 });
    // Spot-check against the audit.
    for (const i of [Math.floor(n / 3), Math.floor(n / 2), n - 1]) {
      const [a] = fromAudit(big, big.sim.states[i]!);
      const { step: _s, ...got } = idx.at('node-1', i)!;
      expect({ node: 'node-1', ...got }).toEqual(a);
    }
  }, 120_000);
});
