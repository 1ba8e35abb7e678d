/**
 * The network faults of the catalogue (issue 18), each injected into a two-node cluster with a
 * network (host-gw or vxlan) and three pods (a with hostPort 8080 -> 80 and a listener, b on
 * node-1, c on node-2): the symptom shows in ping and curl exit codes and in the walk's drop
 * reason, the traffic the fault does not touch still flows, and the catalogue's recovery (shell
 * commands on the node) brings reachability back.
 */
import { describe, expect, it } from 'vitest';
import { Cluster, type NodeSpec } from '../cluster/cluster';
import { tget, tvalues } from '../state/table';
import { isKind } from '../trace/trace';
import { faultProblem } from './inject';
import { viewOf } from './params';
import { inject, netConflist, recover } from './testing';
import { faultById } from './catalogue';

type Mode = 'host-gw' | 'vxlan';

const HTTP = `printf 'HTTP/1.0 200 OK\\r\\n\\r\\nhello\\n'`;

function cluster(
  mode: Mode,
  o: { mtu?: number; snat?: boolean } = {},
  extra: Partial<NodeSpec> = {},
) {
  const node = (name: string, podCIDR: string): NodeSpec => ({
    name,
    podCIDR,
    cniConfigs: { '10-containerd-net.conflist': netConflist(podCIDR, o) },
    ...extra,
  });
  const c = new Cluster(
    {
      nodes: [node('node-1', '10.244.1.0/24'), node('node-2', '10.244.2.0/24')],
      network: { mode },
    },
    { seed: 11 },
  );
  const create = (name: string, n: string, hostPort?: boolean) =>
    c.createPod({
      name,
      node: n,
      ...(hostPort
        ? { hostPorts: [{ containerPort: 80, hostPort: 8080, protocol: 'TCP' as const }] }
        : {}),
    });
  create('a', 'node-1', true);
  create('b', 'node-1');
  create('c', 'node-2');
  c.runFor(5_000_000);
  const pod = (n: string) => tget(c.sim.state.api!.pods, `default/${n}`)!;
  const netns = (n: string) => {
    const p = pod(n);
    const sb = tvalues(c.sim.node(p.spec.nodeName).containerd!.sandboxes)
      .filter((s) => s.pod.name === n && s.state === 'SANDBOX_READY')
      .pop()!;
    return sb.netns.slice(sb.netns.lastIndexOf('/') + 1);
  };
  /** A command in the pod's namespace: exit code, output, and the walk's first drop. */
  const inPod = (n: string, line: string) => {
    const before = c.sim.events.length;
    const r = c.shell(pod(n).spec.nodeName, `ip netns exec ${netns(n)} ${line}`);
    const drop = c.sim.events
      .slice(before)
      .filter(isKind('packet'))
      .find((e) => e.payload.op === 'hop' && e.payload.drop);
    const hop = drop?.payload.op === 'hop' ? drop.payload : undefined;
    return { ...r, drop: hop?.drop, dropNode: drop?.node, dropText: drop?.summary ?? '' };
  };
  const ping = (from: string, to: string, opts = '') =>
    inPod(from, `ping -c 1 -W 1 ${opts}${to.includes('.') ? to : pod(to).podIP}`);
  const curl = (from: string, url: string) => inPod(from, `curl -s -m 2 ${url}`);
  // a listens on 80 and answers with a small HTTP response.
  expect(c.shell('node-1', `${HTTP} | ip netns exec ${netns('a')} nc -l 80`).exitCode).toBe(0);
  return { c, pod, netns, inPod, ping, curl, create };
}

const HOSTPORT = 'http://172.18.0.2:8080/';

describe('ip-forward-off', () => {
  it.each(['host-gw', 'vxlan'] as const)(
    '%s: cross-node traffic of the node fails in both directions, bridged traffic flows; sysctl -w brings it back',
    (mode) => {
      const t = cluster(mode);
      expect(t.ping('a', 'c').exitCode).toBe(0);
      const r = inject(t.c, 'ip-forward-off', { node: 'node-1' });
      expect(r.node).toBe('node-1');
      for (const [from, to] of [
        ['a', 'c'],
        ['c', 'a'],
      ] as const) {
        const p = t.ping(from, to);
        expect(p.exitCode).toBe(1);
        expect(p.stdout).toMatch(/1 packets transmitted, 0 received, 100% packet loss/);
        expect([p.drop, p.dropNode]).toEqual(['ip-forward', 'node-1']);
      }
      expect(t.ping('a', 'b').exitCode).toBe(0);
      expect(t.ping('a', '10.244.1.1').exitCode).toBe(0);
      expect(t.ping('c', '172.18.0.2').exitCode).toBe(0);
      recover(t.c, 'ip-forward-off', { node: 'node-1' });
      expect(t.ping('a', 'c').exitCode).toBe(0);
      expect(t.ping('c', 'a').exitCode).toBe(0);
    },
  );

  it('heals at the next pod ADD on the node: bridge with isGateway writes ip_forward=1', () => {
    const t = cluster('host-gw');
    inject(t.c, 'ip-forward-off', { node: 'node-1' });
    expect(t.ping('a', 'c').exitCode).toBe(1);
    t.create('d', 'node-1');
    t.c.runFor(5_000_000);
    expect(t.c.shell('node-1', 'sysctl -n net.ipv4.ip_forward').stdout).toBe('1\n');
    expect(t.ping('a', 'c').exitCode).toBe(0);
  });
});

describe('pod-route-missing', () => {
  it('host-gw: the node’s pods lose the other node’s pods (lost beyond the gateway); ip route add brings them back', () => {
    const t = cluster('host-gw');
    const r = inject(t.c, 'pod-route-missing', { node: 'node-1' });
    expect(r.did).toEqual(['node-1# ip route del 10.244.2.0/24']);
    const p = t.ping('a', 'c');
    expect(p.exitCode).toBe(1);
    expect([p.drop, p.dropNode]).toEqual(['outside', 'node-1']);
    expect(p.dropText).toMatch(/underlay gateway 172\.18\.0\.1/);
    // The other way round the packets come masqueraded to node-2's address: answered.
    expect(t.ping('c', 'a').exitCode).toBe(0);
    expect(t.ping('a', 'b').exitCode).toBe(0);
    expect(t.ping('a', '172.18.0.3').exitCode).toBe(0);
    const rec = recover(t.c, 'pod-route-missing', { node: 'node-1' });
    expect(rec.did).toEqual(['node-1# ip route add 10.244.2.0/24 via 172.18.0.3 dev eth0']);
    expect(t.ping('a', 'c').exitCode).toBe(0);
  });

  it('is refused where the node routes no pod CIDR via a node address (vxlan)', () => {
    const t = cluster('vxlan');
    expect(faultProblem(viewOf(t.c), 'pod-route-missing', { node: 'node-1' })).toMatch(
      /no route to another node's pod CIDR via its node address dev eth0/,
    );
  });
});

describe('br-netfilter-unloaded', () => {
  it('the sysctl disappears; with portmap snat false another pod’s hostPort fails, the rest flows; modprobe brings it back', () => {
    const t = cluster('host-gw', { snat: false });
    expect(t.curl('b', HOSTPORT).exitCode).toBe(0);
    inject(t.c, 'br-netfilter-unloaded', { node: 'node-1' });
    const s = t.c.shell('node-1', 'sysctl net.bridge.bridge-nf-call-iptables');
    expect([s.exitCode, s.stderr]).toEqual([
      1,
      'sysctl: cannot stat /proc/sys/net/bridge/bridge-nf-call-iptables: No such file or directory\n',
    ]);
    const hp = t.curl('b', HOSTPORT);
    expect(hp.exitCode).toBe(28);
    expect(hp.drop).toBe('no-socket');
    expect(hp.dropText).toMatch(/the connection went to 172\.18\.0\.2:8080/);
    expect(t.ping('a', 'b').exitCode).toBe(0);
    expect(t.ping('a', 'c').exitCode).toBe(0);
    recover(t.c, 'br-netfilter-unloaded', { node: 'node-1' });
    expect(t.c.shell('node-1', 'sysctl -n net.bridge.bridge-nf-call-iptables').stdout).toBe('1\n');
    expect(t.curl('b', HOSTPORT).exitCode).toBe(0);
  });

  it('with portmap’s default snat the hostPort still answers (recorded: hostport-bridge-nf-off)', () => {
    const t = cluster('host-gw');
    inject(t.c, 'br-netfilter-unloaded', { node: 'node-1' });
    expect(t.curl('b', HOSTPORT).exitCode).toBe(0);
    expect(t.curl('a', HOSTPORT).exitCode).toBe(0);
  });
});

describe('vxlan-mtu-mismatch', () => {
  it('pods created since send 1500-byte DF packets that flannel.1 refuses; small ones pass; the recovery brings the MTU back', () => {
    const t = cluster('vxlan', { mtu: 1450 });
    // Before: a full-size packet of a pod (its MTU, 1450) crosses.
    expect(t.ping('a', 'c', '-M do -s 1422 ').exitCode).toBe(0);
    inject(t.c, 'vxlan-mtu-mismatch', { node: 'node-1' });
    t.create('d', 'node-1');
    t.c.runFor(5_000_000);
    expect(t.inPod('d', 'ip link show eth0').stdout).toMatch(/ mtu 1500 /);
    const big = t.ping('d', 'c', '-M do -s 1472 ');
    expect(big.exitCode).toBe(1);
    expect(big.stdout).toMatch(
      /From 10\.244\.1\.1 icmp_seq=1 Frag needed and DF set \(mtu = 1450\)/,
    );
    expect([big.drop, big.dropNode]).toEqual(['mtu', 'node-1']);
    expect(t.ping('d', 'c', '-M do -s 1422 ').exitCode).toBe(0);
    expect(t.ping('d', 'c').exitCode).toBe(0);
    recover(t.c, 'vxlan-mtu-mismatch', { node: 'node-1' });
    expect(t.inPod('d', 'ip link show eth0').stdout).toMatch(/ mtu 1450 /);
    expect(
      t.c.shell('node-1', 'grep -c \'"mtu": 1450\' /etc/cni/net.d/10-containerd-net.conflist')
        .stdout,
    ).toBe('1\n');
    // A full-size packet of the pod crosses again.
    expect(t.ping('d', 'c', '-M do -s 1422 ').exitCode).toBe(0);
  });

  it('is refused on a node without VXLAN, or whose conflist sets no mtu', () => {
    expect(
      faultProblem(viewOf(cluster('host-gw', { mtu: 1450 }).c), 'vxlan-mtu-mismatch', {
        node: 'node-1',
      }),
    ).toMatch(/no VXLAN device/);
    expect(
      faultProblem(viewOf(cluster('vxlan').c), 'vxlan-mtu-mismatch', { node: 'node-1' }),
    ).toMatch(/sets no "mtu"/);
  });
});

describe('forward-policy-drop', () => {
  it.each(['host-gw', 'vxlan'] as const)(
    '%s: forwarded and bridged pod traffic dies on the policy, the node itself answers; -P ACCEPT brings it back',
    (mode) => {
      const t = cluster(mode);
      inject(t.c, 'forward-policy-drop', { node: 'node-1' });
      for (const [from, to] of [
        ['a', 'b'],
        ['a', 'c'],
        ['c', 'a'],
      ] as const) {
        const p = t.ping(from, to);
        expect(p.exitCode).toBe(1);
        expect([p.drop, p.dropNode]).toEqual(['netfilter', 'node-1']);
        expect(p.dropText).toMatch(/FORWARD policy is DROP/);
      }
      expect(t.ping('a', '10.244.1.1').exitCode).toBe(0);
      expect(t.ping('a', '172.18.0.2').exitCode).toBe(0);
      expect(t.ping('c', '172.18.0.3').exitCode).toBe(0);
      recover(t.c, 'forward-policy-drop', { node: 'node-1' });
      for (const [from, to] of [
        ['a', 'b'],
        ['a', 'c'],
        ['c', 'a'],
      ] as const)
        expect(t.ping(from, to).exitCode).toBe(0);
    },
  );

  it('its other recovery step, accepting the pod network explicitly, works with the policy left at DROP', () => {
    const steps = faultById('forward-policy-drop')!.recovery.steps.join(' ');
    const rules = [
      'iptables -I FORWARD -s 10.244.0.0/16 -j ACCEPT',
      'iptables -I FORWARD -d 10.244.0.0/16 -j ACCEPT',
    ];
    for (const r of rules) expect(steps).toContain(r);
    const t = cluster('host-gw');
    inject(t.c, 'forward-policy-drop', { node: 'node-1' });
    expect(t.ping('a', 'c').exitCode).toBe(1);
    for (const r of rules) expect(t.c.shell('node-1', r).exitCode).toBe(0);
    expect(t.c.shell('node-1', 'iptables -S FORWARD').stdout).toMatch(/^-P FORWARD DROP$/m);
    for (const [from, to] of [
      ['a', 'b'],
      ['a', 'c'],
      ['c', 'a'],
    ] as const)
      expect([from, to, t.ping(from, to).exitCode]).toEqual([from, to, 0]);
  });

  it('counts the dropped packets on the policy (iptables -L FORWARD -v)', () => {
    const t = cluster('host-gw');
    inject(t.c, 'forward-policy-drop', { node: 'node-1' });
    t.ping('a', 'b');
    expect(t.c.shell('node-1', 'iptables -L FORWARD -v -n').stdout).toMatch(
      /^Chain FORWARD \(policy DROP 1 packets, 84 bytes\)/,
    );
  });
});

describe('masquerade-missing', () => {
  it('the pod’s egress goes out unmasqueraded and gets no answer; other pods and pod traffic are fine; the rule comes back', () => {
    const t = cluster('host-gw');
    expect(t.ping('a', '172.18.0.1').exitCode).toBe(0);
    const r = inject(t.c, 'masquerade-missing', { pod: 'a' });
    expect(r.node).toBe('node-1');
    expect(r.did[0]).toMatch(
      /^node-1# iptables -t nat -D POSTROUTING -s 10\.244\.1\.\d+\/32 -m comment --comment "name: \\"containerd-net\\" id: \\"[0-9a-f]{64}\\"" -j CNI-[0-9a-f]{24}$/,
    );
    const p = t.ping('a', '172.18.0.1');
    expect(p.exitCode).toBe(1);
    expect(p.drop).toBe('outside');
    expect(p.dropText).toMatch(/no route back to 10\.244\.1\.\d+: the source was not masqueraded/);
    expect(t.ping('b', '172.18.0.1').exitCode).toBe(0);
    expect(t.ping('a', 'c').exitCode).toBe(0);
    expect(t.ping('c', 'a').exitCode).toBe(0);
    const rec = recover(t.c, 'masquerade-missing', { pod: 'a' });
    expect(rec.did[0]).toBe(r.did[0]!.replace(' -D ', ' -A '));
    expect(t.ping('a', '172.18.0.1').exitCode).toBe(0);
  });

  it('is refused for a pod whose network does not masquerade (ipMasq false)', () => {
    const c = new Cluster(
      {
        nodes: [
          {
            name: 'node-1',
            podCIDR: '10.244.1.0/24',
            cniConfigs: {
              '10-containerd-net.conflist': netConflist('10.244.1.0/24').replace(
                '"ipMasq": true',
                '"ipMasq": false',
              ),
            },
          },
        ],
      },
      { seed: 3 },
    );
    c.createPod({ name: 'web-0' });
    c.runFor(3_000_000);
    expect(faultProblem(viewOf(c), 'masquerade-missing', { pod: 'web-0' })).toMatch(
      /has no masquerade chain in nat/,
    );
  });
});

describe('hairpin-off', () => {
  it('the pod cannot reach its own hostPort (dropped at the bridge), others can; bridge link set … hairpin on brings it back', () => {
    const t = cluster('host-gw');
    expect(t.curl('a', HOSTPORT).exitCode).toBe(0);
    const r = inject(t.c, 'hairpin-off', { pod: 'a' });
    expect(r.did[0]).toMatch(/^node-1# bridge link set dev veth[0-9a-f]{8} hairpin off$/);
    const own = t.curl('a', HOSTPORT);
    expect(own.exitCode).toBe(28);
    expect(own.drop).toBe('hairpin');
    expect(own.dropText).toMatch(/the port it came in on, and hairpin mode is off/);
    expect(t.curl('b', HOSTPORT).exitCode).toBe(0);
    expect(t.ping('a', 'b').exitCode).toBe(0);
    recover(t.c, 'hairpin-off', { pod: 'a' });
    expect(t.curl('a', HOSTPORT).exitCode).toBe(0);
  });

  it('is refused where hairpin is already off (a conflist without hairpinMode)', () => {
    const c = new Cluster({ nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }] }, { seed: 3 });
    c.createPod({ name: 'web-0' });
    c.runFor(3_000_000);
    expect(faultProblem(viewOf(c), 'hairpin-off', { pod: 'web-0' })).toMatch(
      /hairpin mode is already off on veth/,
    );
  });
});

describe('the network faults on CRI-O nodes', () => {
  it('are offered there (the kernel’s alone), unlike the runtime’s faults', () => {
    const c = new Cluster(
      {
        nodes: [
          {
            name: 'node-1',
            podCIDR: '10.244.1.0/24',
            runtime: { name: 'cri-o', version: '1.31.x' },
            cniConfigs: { '10-containerd-net.conflist': netConflist('10.244.1.0/24') },
          },
        ],
        network: { mode: 'host-gw' },
      },
      { seed: 5 },
    );
    c.createPod({ name: 'web-0' });
    c.runFor(5_000_000);
    expect(faultProblem(viewOf(c), 'ip-forward-off', { node: 'node-1' })).toBeNull();
    expect(faultProblem(viewOf(c), 'forward-policy-drop', { node: 'node-1' })).toBeNull();
    expect(faultProblem(viewOf(c), 'plugin-missing', { node: 'node-1' })).toMatch(/CRI-O/);
    inject(c, 'ip-forward-off', { node: 'node-1' });
    expect(c.shell('node-1', 'sysctl -n net.ipv4.ip_forward').stdout).toBe('0\n');
  });
});
