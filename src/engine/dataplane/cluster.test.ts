/**
 * Packets across a cluster (issue 18's "done when"): in host-gw and vxlan clusters, two pods on
 * node-1 and one on node-2 ping each other from inside their namespaces; with ip_forward off on
 * node-2 only the cross-node pings fail, and the walk says where and why.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { tget, tvalues } from '../state/table';
import { isKind } from '../trace/trace';

type Mode = 'host-gw' | 'vxlan' | 'none';

function cluster(mode: Mode) {
  const c = new Cluster(
    {
      nodes: [
        { name: 'node-1', podCIDR: '10.244.1.0/24' },
        { name: 'node-2', podCIDR: '10.244.2.0/24' },
      ],
      network: { mode },
    },
    { seed: 7 },
  );
  c.createPod({ name: 'a', node: 'node-1' });
  c.createPod({ name: 'b', node: 'node-1' });
  c.createPod({ name: 'c', node: 'node-2' });
  c.runFor(5_000_000);
  const pod = (n: string) => tget(c.sim.state.api!.pods, `default/${n}`)!;
  const netns = (n: string) => {
    const p = pod(n);
    const sb = tvalues(c.sim.node(p.spec.nodeName).containerd!.sandboxes).find(
      (s) => s.pod.name === n,
    )!;
    return sb.netns.slice(sb.netns.lastIndexOf('/') + 1);
  };
  /** `ip netns exec <ns> ping -c 1 -W 1 <ip>` on the pod's node: its exit code and the new events. */
  const ping = (from: string, to: string, extra = '') => {
    const before = c.sim.events.length;
    const r = c.shell(
      pod(from).spec.nodeName,
      `ip netns exec ${netns(from)} ping -c 1 -W 1 ${extra}${pod(to).podIP}`,
    );
    return { ...r, events: c.sim.events.slice(before).filter(isKind('packet')) };
  };
  return { c, pod, ping };
}

const PAIRS: Array<[string, string, boolean]> = [
  ['a', 'b', false],
  ['b', 'a', false],
  ['a', 'c', true],
  ['c', 'a', true],
  ['b', 'c', true],
  ['c', 'b', true],
];

describe.each(['host-gw', 'vxlan'] as const)('a %s cluster', (mode) => {
  it('every pod reaches every other pod, on its node and across nodes', () => {
    const { ping } = cluster(mode);
    for (const [from, to] of PAIRS) {
      const r = ping(from, to);
      expect(r.exitCode, `${from} -> ${to}: ${r.stdout}${r.stderr}`).toBe(0);
      expect(r.stdout).toMatch(/1 packets transmitted, 1 received, 0% packet loss/);
    }
  });

  it('with ip_forward=0 on node-2 only the cross-node pings fail, and the walk says why', () => {
    const { c, ping } = cluster(mode);
    expect(c.shell('node-2', 'sysctl -w net.ipv4.ip_forward=0').exitCode).toBe(0);
    for (const [from, to, cross] of PAIRS) {
      const r = ping(from, to);
      expect(r.exitCode, `${from} -> ${to}`).toBe(cross ? 1 : 0);
      if (cross) {
        expect(r.stdout).toMatch(/1 packets transmitted, 0 received, 100% packet loss/);
        const dropped = r.events.find((e) => e.payload.op === 'hop' && e.payload.drop);
        expect(dropped?.node).toBe('node-2');
        expect(dropped?.payload).toMatchObject({ drop: 'ip-forward' });
        expect(dropped?.summary).toMatch(/net\.ipv4\.ip_forward=0/);
      }
    }
  });
});

describe('the underlay and network modes', () => {
  it('gives every node eth0 on 172.18.0.0/16 with a default route via 172.18.0.1', () => {
    const { c } = cluster('host-gw');
    expect(c.shell('node-2', 'ip -4 -o addr show dev eth0').stdout).toMatch(
      /eth0 +inet 172\.18\.0\.3\/16/,
    );
    expect(c.shell('node-1', 'ip route').stdout).toMatch(
      /default via 172\.18\.0\.1 dev eth0 \n[^]*10\.244\.2\.0\/24 via 172\.18\.0\.3 dev eth0 /,
    );
    expect(c.shell('node-1', 'sysctl net.ipv4.ip_forward').stdout).toBe(
      'net.ipv4.ip_forward = 1\n',
    );
  });

  it('mode none: pods reach only their own node; the walk ends at the underlay gateway', () => {
    const { ping } = cluster('none');
    expect(ping('a', 'b').exitCode).toBe(0);
    const r = ping('a', 'c');
    expect(r.exitCode).toBe(1);
    const d = r.events.find((e) => e.payload.op === 'hop' && e.payload.drop);
    expect(d?.payload).toMatchObject({ drop: 'outside' });
  });

  it('vxlan: flanneld wrote subnet.env and flannel.1 encapsulates in UDP 8472', () => {
    const { c, ping } = cluster('vxlan');
    expect(c.shell('node-1', 'cat /run/flannel/subnet.env').stdout).toBe(
      'FLANNEL_NETWORK=10.244.0.0/16\nFLANNEL_SUBNET=10.244.1.1/24\nFLANNEL_MTU=1450\nFLANNEL_IPMASQ=true\n',
    );
    const r = ping('a', 'c');
    const encap = r.events.find((e) => e.payload.op === 'hop' && e.payload.step === 'encap');
    expect(encap?.summary).toMatch(/VTEP is 172\.18\.0\.3 \(fdb\).*:8472, VNI 1/);
    expect(r.events.some((e) => e.payload.op === 'hop' && e.payload.step === 'decap')).toBe(true);
  });

  it('a cluster without `network` has no eth0 and no packet events in its build', () => {
    const c = new Cluster({ nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }] }, { seed: 1 });
    expect(c.sim.state.underlay).toBeUndefined();
    const k = c.sim.node('node-1').kernel;
    const root = tvalues(k.netns)[0]!;
    expect(Object.values(root.links).map((l) => l.name)).toEqual(['lo']);
  });
});

describe('repeated packets', () => {
  it('ping -c 100: the first packet hop by hop, the other 99 as one step', () => {
    const { ping } = cluster('host-gw');
    const one = ping('a', 'c').events.length;
    const r = ping('a', 'c', '-c 100 ');
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toMatch(/100 packets transmitted, 100 received, 0% packet loss/);
    const repeats = r.events.filter((e) => e.payload.op === 'repeat');
    expect(repeats).toHaveLength(1);
    expect(repeats[0]!.payload).toMatchObject({ from: 2, to: 100, delivered: 99 });
    expect(r.events.length).toBeLessThanOrEqual(one + 1);
  });
});

describe("ping's messages, as iputils prints them (checked against a real ping in netns)", () => {
  it('an address nobody answers ARP for: no error within -W 1, Destination Host Unreachable after 3 s', () => {
    const { c } = cluster('host-gw');
    const ns = c.shell('node-1', "ip netns list | head -n1 | cut -d' ' -f1").stdout.trim();
    const quick = c.shell('node-1', `ip netns exec ${ns} ping -c 1 -W 1 10.244.1.77`);
    expect(quick.exitCode).toBe(1);
    expect(quick.stdout).toBe(
      'PING 10.244.1.77 (10.244.1.77) 56(84) bytes of data.\n\n--- 10.244.1.77 ping statistics ---\n1 packets transmitted, 0 received, 100% packet loss, time 0ms\n\n',
    );
    const slow = c.shell('node-1', `ip netns exec ${ns} ping -c 1 10.244.1.77`);
    expect(slow.stdout).toMatch(/\nFrom 10\.244\.1\.\d+ icmp_seq=1 Destination Host Unreachable\n/);
    expect(slow.stdout).toMatch(/1 packets transmitted, 0 received, \+1 errors, 100% packet loss/);
  });

  it('vxlan: a 1430-byte ping with DF meets flannel.1 (MTU 1450) on the node: Frag needed', () => {
    const { c } = cluster('vxlan');
    const ns = c.shell('node-1', "ip netns list | head -n1 | cut -d' ' -f1").stdout.trim();
    const r = c.shell('node-1', `ip netns exec ${ns} ping -c 1 -s 1430 10.244.2.2`);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(
      /\nFrom 10\.244\.1\.1 icmp_seq=1 Frag needed and DF set \(mtu = 1450\)\n/,
    );
    expect(c.shell('node-1', `ip netns exec ${ns} ping -c 1 -s 1422 10.244.2.2`).exitCode).toBe(0);
  });

  it('no route at all: connect: Network is unreachable, exit 2', () => {
    const { c } = cluster('host-gw');
    const r = c.shell('node-1', 'ip route del default; ping -c 1 8.8.8.8');
    expect(r).toMatchObject({ exitCode: 2, stderr: 'ping: connect: Network is unreachable\n' });
  });
});

describe('traceroute', () => {
  it('from a pod across nodes: its gateway, the other node, the pod (host-gw)', () => {
    const { c } = cluster('host-gw');
    const ns = c.shell('node-1', "ip netns list | head -n1 | cut -d' ' -f1").stdout.trim();
    const r = c.shell('node-1', `ip netns exec ${ns} traceroute -n 10.244.2.2`);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.replace(/\d+\.\d{3} ms/g, 'T ms')).toBe(
      'traceroute to 10.244.2.2 (10.244.2.2), 30 hops max, 60 byte packets\n' +
        ' 1  10.244.1.1  T ms  T ms  T ms\n' +
        ' 2  172.18.0.3  T ms  T ms  T ms\n' +
        ' 3  10.244.2.2  T ms  T ms  T ms\n',
    );
  });

  it('with ip_forward=0 on node-2 only node-1 answers (node-2 drops before the TTL check)', () => {
    const { c } = cluster('host-gw');
    c.shell('node-2', 'sysctl -w net.ipv4.ip_forward=0');
    const ns = c.shell('node-1', "ip netns list | head -n1 | cut -d' ' -f1").stdout.trim();
    const lines = c
      .shell('node-1', `ip netns exec ${ns} traceroute -n -m 4 10.244.2.2`)
      .stdout.split('\n');
    expect(lines[1]).toMatch(/^ 1 {2}10\.244\.1\.1 /);
    expect(lines.slice(2, 5)).toEqual([' 2  * * *', ' 3  * * *', ' 4  * * *']);
  });
});
