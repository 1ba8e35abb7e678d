/**
 * Cluster presets (issue 18): bridge with ipMasq: false plus the agent's masquerade rule keeps a
 * pod's address across nodes and masquerades what leaves the cluster; bridge's own ipMasq: true
 * masquerades other nodes' pods too, and the walk shows it.
 */
import { describe, expect, it } from 'vitest';
import './with-shell';
import { Cluster, type ClusterSpec } from './cluster';
import { CLUSTER_PRESETS, clusterPreset } from './presets';
import { tget } from '../state/table';
import { isKind } from '../trace/trace';
import { newSandbox } from '../session/sandbox';
import { parseSavedSession, serializeSession } from '../session/serialize';
import { runScenario } from '../scenario';

function boot(spec: ClusterSpec) {
  const c = new Cluster(spec, { seed: 7 });
  c.createPod({ name: 'a', node: 'node-1' });
  c.createPod({ name: 'c', node: 'node-2' });
  c.runFor(5_000_000);
  const pod = (n: string) => tget(c.sim.state.api!.pods, `default/${n}`)!;
  const ns = c.shell('node-1', "ip netns list | head -n1 | cut -d' ' -f1").stdout.trim();
  const ping = (dst: string) => {
    const before = c.sim.events.length;
    const r = c.shell('node-1', `ip netns exec ${ns} ping -c 1 -W 1 ${dst}`);
    return { ...r, hops: c.sim.events.slice(before).filter(isKind('packet')) };
  };
  return { c, pod, ping };
}

/** The source address of the echo request as node-2's pod receives it. */
function arrivedFrom(hops: ReturnType<ReturnType<typeof boot>['ping']>['hops']): string {
  const d = hops.find(
    (e) =>
      e.node === 'node-2' &&
      e.payload.op === 'hop' &&
      e.payload.step === 'deliver' &&
      /echo request/.test(e.payload.packet),
  );
  if (!d || d.payload.op !== 'hop') throw new Error('not delivered on node-2');
  return d.payload.packet.split(' > ')[0]!;
}

describe('cluster presets', () => {
  it('give two nodes with the preset network mode and bridge ipMasq: false', () => {
    expect(CLUSTER_PRESETS.map((p) => p.id)).toEqual(['host-gw', 'vxlan', 'none']);
    for (const p of CLUSTER_PRESETS) {
      expect(p.spec.nodes).toHaveLength(2);
      expect(p.spec.network?.mode).toBe(p.id);
      const c = new Cluster(p.spec, { seed: 1 });
      const conf = c.shell('node-1', 'cat /etc/cni/net.d/10-containerd-net.conflist').stdout;
      expect(JSON.parse(conf).plugins[0]).toMatchObject({ type: 'bridge', ipMasq: false });
    }
    expect(
      JSON.parse(clusterPreset('vxlan')!.spec.nodes[0]!.cniConfigs!['10-containerd-net.conflist']!)
        .plugins[0].mtu,
    ).toBe(1450);
  });

  it("host-gw: kindnetd's masquerade chain is in iptables-save, named for its agent", () => {
    const { c } = boot(clusterPreset('host-gw')!.spec);
    const save = c.shell('node-2', 'iptables-save -t nat').stdout;
    expect(save).toContain(':KIND-MASQ-AGENT - [0:0]\n');
    expect(save).toContain(
      '-A POSTROUTING -m addrtype ! --dst-type LOCAL -m comment --comment "kind-masq-agent: ensure nat POSTROUTING directs all non-LOCAL destination traffic to our custom KIND-MASQ-AGENT chain" -j KIND-MASQ-AGENT\n',
    );
    expect(save).toContain(
      '-A KIND-MASQ-AGENT -d 10.244.0.0/16 -m comment --comment "kind-masq-agent: local traffic is not subject to MASQUERADE" -j RETURN\n',
    );
    expect(save).toMatch(
      /-A KIND-MASQ-AGENT -m comment --comment "kind-masq-agent: outbound[^\n]*-j MASQUERADE\n/,
    );
    // bridge with ipMasq: false wrote no CNI- masquerade chain.
    expect(save).not.toMatch(/CNI-[0-9a-f]{24}/);
  });

  it("vxlan: flanneld's FLANNEL-POSTRTG chain, for this node's subnet", () => {
    const { c } = boot(clusterPreset('vxlan')!.spec);
    const save = c.shell('node-2', 'iptables-save -t nat').stdout;
    expect(save).toContain(
      '-A POSTROUTING -m comment --comment "flanneld masq" -j FLANNEL-POSTRTG\n',
    );
    expect(save).toContain(
      '-A FLANNEL-POSTRTG -s 10.244.2.0/24 -d 10.244.0.0/16 -m comment --comment "flanneld masq" -j RETURN\n',
    );
    expect(save).toContain(
      '-A FLANNEL-POSTRTG -s 10.244.0.0/16 ! -d 224.0.0.0/4 -m comment --comment "flanneld masq" -j MASQUERADE --random-fully\n',
    );
  });

  it.each(['host-gw', 'vxlan'] as const)(
    '%s preset: a cross-node ping keeps the pod IP; egress to the outside is masqueraded',
    (id) => {
      const { c, pod, ping } = boot(clusterPreset(id)!.spec);
      const r = ping(pod('c').podIP!);
      expect(r.exitCode).toBe(0);
      expect(arrivedFrom(r.hops)).toBe(pod('a').podIP);
      const out = ping('172.18.0.1');
      expect(out.exitCode).toBe(0);
      expect(c.shell('node-1', 'conntrack -L').stdout).toMatch(
        new RegExp(
          `src=${pod('a').podIP!.replace(/\./g, '\\.')} dst=172\\.18\\.0\\.1 .* src=172\\.18\\.0\\.1 dst=172\\.18\\.0\\.2 `,
        ),
      );
    },
  );

  it("bridge's ipMasq: true masquerades other nodes' pods too: the ping arrives from node-1's IP", () => {
    const spec: ClusterSpec = { ...clusterPreset('host-gw')!.spec };
    spec.nodes = spec.nodes.map((n) => ({ name: n.name, podCIDR: n.podCIDR }));
    spec.network = { mode: 'host-gw' };
    const { pod, ping } = boot(spec);
    const r = ping(pod('c').podIP!);
    expect(r.exitCode).toBe(0);
    expect(arrivedFrom(r.hops)).toBe('172.18.0.2');
    const masq = r.hops.find(
      (e) =>
        e.node === 'node-1' &&
        e.payload.op === 'hop' &&
        e.payload.chains?.some((h) => h.target === 'MASQUERADE' && /^CNI-/.test(h.chain)),
    );
    expect(masq?.summary).toMatch(/SNAT to 172\.18\.0\.2|MASQUERADE/);
  });

  it('without the agent and with ipMasq: false, a pod gets no answer from the outside', () => {
    const spec: ClusterSpec = { ...clusterPreset('host-gw')!.spec, network: { mode: 'host-gw' } };
    const { ping } = boot(spec);
    expect(ping('172.18.0.1').exitCode).toBe(1);
  });

  it('a preset sandbox saves and loads with its network', () => {
    const s = newSandbox({ cluster: clusterPreset('vxlan')!.spec });
    const parsed = parseSavedSession(serializeSession(s));
    expect(parsed.ok && parsed.saved.cluster.network).toEqual({
      mode: 'vxlan',
      masqAgent: 'flanneld',
    });
  });

  it('a scenario names the agent: network.masqAgent', () => {
    const r = runScenario({
      version: 1,
      nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }],
      network: { mode: 'none', masqAgent: 'kindnetd' },
      actions: [],
    });
    expect(r.ok && r.cluster.shell('node-1', 'iptables -t nat -S').stdout).toContain(
      '-N KIND-MASQ-AGENT',
    );
    const bad = runScenario({ version: 1, network: { mode: 'none', masqAgent: 'calico' } });
    expect(bad.ok ? [] : bad.errors).toEqual([
      'network.masqAgent: expected "kindnetd" or "flanneld", got "calico"',
    ]);
  });
});
