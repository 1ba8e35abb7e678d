/**
 * The packet walk on the topology (issue 18): both nodes and the underlay are drawn, and every
 * hop of a cross-node ping lands on something drawn: a link chip, a namespace, the underlay.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../../../engine/cluster/cluster';
import { walkPacket } from '../../../engine/dataplane/api';
import { tget, tvalues } from '../../../engine/state/table';
import type { WorldState } from '../../../engine/sim/world';
import { DROP_WORDS, hopBox, hopLabel, hopPosition, hopTarget } from './hops';
import { layout, structureOf } from './model';

function cluster(mode: 'host-gw' | 'vxlan' | null) {
  const c = new Cluster(
    {
      nodes: [
        { name: 'node-1', podCIDR: '10.244.1.0/24' },
        { name: 'node-2', podCIDR: '10.244.2.0/24' },
      ],
      ...(mode ? { network: { mode } } : {}),
    },
    { seed: 7 },
  );
  c.createPod({ name: 'a', node: 'node-1' });
  c.createPod({ name: 'c', node: 'node-2' });
  c.runFor(5_000_000);
  return c;
}

function podWalk(state: WorldState, from: string, to: string) {
  const pods = tvalues(state.api!.pods);
  const p = pods.find((x) => x.spec.name === from)!;
  const q = pods.find((x) => x.spec.name === to)!;
  const n = state.nodes[p.spec.nodeName]!;
  const sb = tvalues(n.containerd!.sandboxes).find((s) => s.pod.name === from)!;
  return walkPacket(state, {
    from: { node: p.spec.nodeName, ns: tget(n.kernel.mounts, sb.netns)! },
    dst: q.podIP!,
  });
}

describe('the topology of a cluster with an underlay', () => {
  it('draws both nodes, each NIC wired to the underlay band, and the router at its edge', () => {
    const s = structureOf(cluster('host-gw').sim.state);
    expect(s.underlay).toEqual({
      segment: 'underlay',
      cidr: '172.18.0.0/16',
      gateway: '172.18.0.1',
      mode: 'host-gw',
    });
    expect(s.nodes.map((n) => n.name)).toEqual(['node-1', 'node-2']);
    const lay = layout(s);
    const u = lay.underlay!;
    expect(u.drops.map((d) => [d.node, d.tunnel])).toEqual([
      ['node-1', false],
      ['node-2', false],
    ]);
    for (const nl of lay.nodes) {
      // The NIC comes first among the host links, and its wire ends at its chip, under the band.
      expect(nl.node.hostLinks[0]).toBe(nl.node.uplinks[0]);
      const d = u.drops.find((x) => x.node === nl.node.name)!;
      const chip = nl.hostChips[0]!.box;
      expect(d.x).toBeGreaterThan(chip.x);
      expect(d.x).toBeLessThan(chip.x + chip.w);
      expect(d.y2).toBe(chip.y);
      expect(nl.box.y).toBeGreaterThanOrEqual(u.box.y + u.box.h);
    }
    expect(u.router.x + u.router.w).toBeLessThanOrEqual(lay.width);
  });

  it('wires flannel.1 to the underlay too in a vxlan cluster (one wire per device, not per pair)', () => {
    const lay = layout(structureOf(cluster('vxlan').sim.state));
    expect(lay.underlay!.info.mode).toBe('vxlan');
    expect(lay.underlay!.drops.map((d) => [d.node, d.tunnel])).toEqual([
      ['node-1', false],
      ['node-1', true],
      ['node-2', false],
      ['node-2', true],
    ]);
  });

  it('has no underlay when the scenario wires no network', () => {
    const s = structureOf(cluster(null).sim.state);
    expect(s.underlay).toBeNull();
    expect(layout(s).underlay).toBeNull();
    expect(layout(s).nodes[0]!.box.y).toBe(0);
  });
});

describe('a packet walk on the topology', () => {
  it('puts every hop of a cross-node ping on something drawn, the wire on the underlay', () => {
    const state = cluster('host-gw').sim.state;
    const res = podWalk(state, 'a', 'c');
    expect(res.request.ok).toBe(true);
    const lay = layout(structureOf(state));
    const targets = res.hops.map((h) => hopTarget(state, h));
    for (const [i, t] of targets.entries()) {
      expect(hopBox(lay, state, t), `hop ${i + 1}: ${res.hops[i]!.text}`).not.toBeNull();
    }
    // Both nodes are visited, and the underlay twice (request, reply).
    expect(new Set(targets.map((t) => t.node))).toEqual(new Set(['node-1', 'node-2']));
    const wires = targets.filter((t) => t.underlay);
    expect(wires.map((t) => t.node)).toEqual(['node-1', 'node-2']);
    // A wire hop is eth0's chip in the host namespace.
    const k1 = state.nodes['node-1']!.kernel;
    const eth0 = Object.values(tget(k1.netns, k1.root)!.links).find((l) => l.name === 'eth0')!;
    expect(wires[0]!.linkKey).toBe(`node-1/${k1.root}/${eth0.ifindex}`);
    // The bridge hop is cni0's chip; a netfilter hop is its namespace, named by its hook.
    const bridge = res.hops.findIndex((h) => h.step === 'bridge');
    expect(targets[bridge]!.label).toBe('bridge cni0');
    expect(targets[bridge]!.linkKey).toMatch(/^node-1\/ns\d+\/\d+$/);
    const nf = res.hops.findIndex((h) => h.step === 'netfilter' && h.hook === 'POSTROUTING');
    expect(targets[nf]!).toMatchObject({
      linkKey: null,
      nsKey: `node-1/${k1.root}`,
      label: 'netfilter POSTROUTING',
    });
    // The first hop is in the pod's own namespace, on its eth0.
    expect(targets[0]!.nsKey).not.toBe(`node-1/${k1.root}`);
    expect(hopBox(lay, state, targets[0]!)).toEqual(
      lay.nodes[0]!.cells.find((c) => `node-1/${c.ns.id}` === targets[0]!.nsKey)!.slots[
        Object.values(tget(k1.netns, lay.nodes[0]!.cells[0]!.ns.id)!.links).findIndex(
          (l) => l.name === 'eth0',
        )
      ],
    );
    expect(hopPosition(res.replyFrom, res.hops.length, res.replyFrom)).toBe(
      `Hop ${res.replyFrom + 1} of ${res.hops.length} (reply)`,
    );
  });

  it('marks where a packet drops, with the kernel reason: ip_forward off on node-2', () => {
    const c = cluster('host-gw');
    expect(c.shell('node-2', 'sysctl -w net.ipv4.ip_forward=0').exitCode).toBe(0);
    const state = c.sim.state;
    const res = podWalk(state, 'a', 'c');
    expect(res.request.ok).toBe(false);
    const last = res.hops[res.hops.length - 1]!;
    const t = hopTarget(state, last);
    expect(t.node).toBe('node-2');
    expect(t.drop).toBe(DROP_WORDS['ip-forward']);
    expect(hopLabel(last)).toBe('dropped: ip_forward is off');
    expect(hopBox(layout(structureOf(state)), state, t)).not.toBeNull();
  });

  it('puts a hop beyond the nodes on the router at the underlay edge', () => {
    const state = cluster('host-gw').sim.state;
    const t = hopTarget(state, {
      node: '',
      ns: 'outside',
      step: 'recv',
      packet: '',
      text: 'the outside',
    });
    expect(t).toMatchObject({ router: true, underlay: true, nsKey: null });
    const lay = layout(structureOf(state));
    expect(hopBox(lay, state, t)).toBe(lay.underlay!.router);
  });
});
