/** What the app's packet walk offers and what a walk on a step's state says (api.ts). */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { endpoints, walkPacket } from './api';

function hostGw() {
  const c = new Cluster(
    {
      nodes: [
        { name: 'node-1', podCIDR: '10.244.1.0/24' },
        { name: 'node-2', podCIDR: '10.244.2.0/24' },
      ],
      network: { mode: 'host-gw' },
    },
    { seed: 7 },
  );
  c.createPod({ name: 'a', node: 'node-1' });
  c.createPod({ name: 'c', node: 'node-2' });
  c.runFor(5_000_000);
  return c;
}

describe('the packet walk', () => {
  it('offers every node (its root namespace and IP) and every pod with a mounted netns', () => {
    const c = hostGw();
    const eps = endpoints(c.sim.state);
    expect(eps.map((e) => [e.label, e.kind, e.ip])).toEqual([
      ['node node-1', 'node', '172.18.0.2'],
      ['node node-2', 'node', '172.18.0.3'],
      ['pod a (node-1)', 'pod', '10.244.1.2'],
      ['pod c (node-2)', 'pod', '10.244.2.2'],
    ]);
    const a = eps.find((e) => e.label.startsWith('pod a'))!;
    expect(a.ns).not.toBe(c.sim.node('node-1').kernel.root);
  });

  it('walks a ping from a pod to a pod on the other node, and back, changing nothing', () => {
    const c = hostGw();
    const before = c.sim.state;
    const a = endpoints(before).find((e) => e.label.startsWith('pod a'))!;
    const r = walkPacket(before, { from: { node: a.node, ns: a.ns }, dst: '10.244.2.2' });
    expect(r.request.ok).toBe(true);
    expect(r.reply?.ok).toBe(true);
    expect(new Set(r.hops.map((h) => h.node))).toEqual(new Set(['node-1', 'node-2']));
    expect(c.sim.state).toBe(before);
  });

  it('says where and why when ip_forward is off on the far node', () => {
    const c = hostGw();
    c.shell('node-2', 'sysctl -w net.ipv4.ip_forward=0');
    const a = endpoints(c.sim.state).find((e) => e.label.startsWith('pod a'))!;
    const r = walkPacket(c.sim.state, { from: { node: a.node, ns: a.ns }, dst: '10.244.2.2' });
    expect(r.request).toMatchObject({ ok: false, drop: 'ip-forward' });
    expect(r.hops.at(-1)).toMatchObject({ node: 'node-2', drop: 'ip-forward' });
  });
});
