/**
 * The walk through the rules the plugins wrote: portmap's hostPort DNAT (CNI-HOSTPORT-DNAT,
 * CNI-DN-*, SETMARK, MASQ), hairpin with and without br_netfilter, bridge's ipMasq chain, a
 * FORWARD policy DROP, rp_filter, counters and conntrack with NAT reversed on the reply.
 */
import { produce } from '../sim/world';
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { sysctlSet, nsById } from '../kernel/kernel';
import { tentries, tget, tvalues } from '../state/table';
import { DraftNet } from './net';
import { sendLocal, sourceAddress, tcpSyn, type MutWorld, type Outcome, type Where } from './walk';

function cluster() {
  const c = new Cluster(
    {
      nodes: [
        { name: 'node-1', podCIDR: '10.244.1.0/24' },
        { name: 'node-2', podCIDR: '10.244.2.0/24' },
      ],
      network: { mode: 'host-gw' },
    },
    { seed: 11 },
  );
  c.createPod({
    name: 'web',
    node: 'node-1',
    hostPorts: [{ containerPort: 80, hostPort: 8080, protocol: 'TCP' }],
  });
  c.createPod({ name: 'client', node: 'node-1' });
  c.createPod({ name: 'far', node: 'node-2' });
  c.runFor(5_000_000);
  const pod = (n: string) => tget(c.sim.state.api!.pods, `default/${n}`)!;
  const nsOf = (n: string): Where => {
    const p = pod(n);
    const sb = tvalues(c.sim.node(p.spec.nodeName).containerd!.sandboxes).find(
      (s) => s.pod.name === n,
    )!;
    return {
      node: p.spec.nodeName,
      ns: tget(c.sim.node(p.spec.nodeName).kernel.mounts, sb.netns)!,
    };
  };
  const root = (node: string): Where => ({ node, ns: c.sim.node(node).kernel.root });
  /** A SYN from `at` to dst:port, walked on a copy of the world: the outcome and the hops. */
  const syn = (at: Where, dst: string, port: number, before?: (d: MutWorld) => void) => {
    let out!: { o: Outcome; net: DraftNet };
    produce(c.sim.state, (d) => {
      const w = d as unknown as MutWorld;
      before?.(w);
      const k = w.nodes[at.node]!.kernel;
      const src = sourceAddress(k, nsById(k, at.ns), dst)!;
      const net = new DraftNet(w);
      out = { o: sendLocal(net, at, tcpSyn(src, dst, 40000, port)), net };
    });
    return out;
  };
  return { c, pod, nsOf, root, syn };
}

describe('a hostPort through portmap', () => {
  it('from another node: DNAT in PREROUTING to the pod, hits counted on the DN chain', () => {
    const { pod, nsOf, root, syn } = cluster();
    const { o, net } = syn(root('node-2'), '172.18.0.2', 8080);
    expect(o.ok).toBe(true);
    if (!o.ok) return;
    expect(o.at).toEqual(nsOf('web'));
    expect(o.packet).toMatchObject({ dst: pod('web').podIP, dport: 80 });
    const pre = net.hops.find((h) => h.hook === 'PREROUTING' && h.node === 'node-1')!;
    expect(pre.chains!.map((h) => h.chain)).toEqual(
      expect.arrayContaining(['PREROUTING', 'CNI-HOSTPORT-DNAT']),
    );
    expect(pre.chains!.some((h) => h.chain.startsWith('CNI-DN-') && h.target === 'DNAT')).toBe(
      true,
    );
    expect(pre.text).toMatch(/DNAT to 10\.244\.1\.\d+:80/);
  });

  it('from a pod on the same bridge: SETMARK marks it, MASQ masquerades it', () => {
    const { nsOf, syn } = cluster();
    const { o, net } = syn(nsOf('client'), '172.18.0.2', 8080);
    expect(o.ok).toBe(true);
    const hits = net.hops.flatMap((h) => h.chains ?? []).map((h) => h.chain);
    expect(hits).toContain('CNI-HOSTPORT-SETMARK');
    expect(hits).toContain('CNI-HOSTPORT-MASQ');
  });

  it('a pod to its own hostPort: hairpin off drops it on the bridge (br_netfilter on)', () => {
    const { nsOf, syn } = cluster();
    const { o } = syn(nsOf('web'), '172.18.0.2', 8080);
    expect(o).toMatchObject({ ok: false, drop: 'hairpin' });
    if (!o.ok) expect(o.text).toMatch(/hairpin mode is off on veth/);
  });

  it('with bridge-nf-call-iptables=0 the pod reaches its own hostPort through cni0', () => {
    const { nsOf, syn, root } = cluster();
    const { o } = syn(nsOf('web'), '172.18.0.2', 8080, (w) =>
      sysctlSet(
        w.nodes['node-1']!.kernel,
        root('node-1').ns,
        'net.bridge.bridge-nf-call-iptables',
        '0',
      ),
    );
    expect(o.ok).toBe(true);
  });
});

describe('forwarding decisions', () => {
  it('FORWARD policy DROP (as Docker leaves it) drops forwarded pod traffic, naming the policy', () => {
    const { c, nsOf } = cluster();
    expect(c.shell('node-1', 'iptables -P FORWARD DROP').exitCode).toBe(0);
    const r = c.shell(
      'node-1',
      `ip netns exec ${netnsName(c, nsOf('client'))} ping -c 1 -W 1 10.244.2.9`,
    );
    expect(r.exitCode).toBe(1);
    const drop = c.sim.events.filter((e) => e.kind === 'packet').at(-1)!;
    expect(drop.summary).toMatch(/FORWARD: the filter table's FORWARD policy is DROP/);
    expect(c.shell('node-1', 'iptables -L FORWARD -v -n').stdout).toMatch(
      /^Chain FORWARD \(policy DROP 1 packets, 84 bytes\)/,
    );
  });

  it('rp_filter=1 drops a packet whose way back leaves by another interface', () => {
    const { c, root, syn } = cluster();
    // node-1 routes node-2's pod CIDR out of cni0 instead: replies would not leave by eth0.
    const { o } = syn(root('node-2'), '10.244.1.2', 80, (w) => {
      const k = w.nodes['node-1']!.kernel;
      sysctlSet(k, root('node-1').ns, 'net.ipv4.conf.all.rp_filter', '1');
      const ns = nsById(k, k.root);
      const cni0 = Object.values(ns.links).find((l) => l.name === 'cni0')!;
      ns.routes = ns.routes.map((r) =>
        r.dst === '172.18.0.0' ? { ...r, dst: '172.18.0.0', prefix: 16, dev: cni0.ifindex } : r,
      );
    });
    expect(o).toMatchObject({ ok: false, drop: 'rp-filter' });
    void c;
  });
});

describe('conntrack and counters', () => {
  it('masquerade to another node is reversed on the reply; conntrack -L shows the entry', () => {
    const { c, nsOf, pod } = cluster();
    const far = pod('far').podIP!.replace(/\./g, '\\.');
    const r = c.shell(
      'node-1',
      `ip netns exec ${netnsName(c, nsOf('client'))} ping -c 2 ${pod('far').podIP}`,
    );
    expect(r.exitCode).toBe(0);
    const ct = c.shell('node-1', 'conntrack -L');
    expect(ct.stdout).toMatch(
      new RegExp(
        `^icmp {5}1 29 src=10\\.244\\.1\\.\\d+ dst=${far} type=8 code=0 id=\\d+ src=${far} dst=172\\.18\\.0\\.2 type=0 code=0 id=\\d+ mark=0 use=1\n`,
      ),
    );
    expect(ct.stderr).toBe('conntrack v1.4.7 (conntrack-tools): 1 flow entries have been shown.\n');
    // A pod's namespace has no nat table: conntrack does not run there.
    expect(
      c.shell('node-1', `ip netns exec ${netnsName(c, nsOf('client'))} conntrack -L`).stderr,
    ).toMatch(/: 0 flow entries/);
    expect(c.shell('node-1', 'iptables-save -c -t nat').stdout).toMatch(
      /\n\[1:84\] -A CNI-[0-9a-f]+ ! -d 224\.0\.0\.0\/4 .* -j MASQUERADE\n/,
    );
    expect(c.shell('node-1', 'ip -s link show eth0').stdout).toMatch(
      /RX: {2}bytes packets errors dropped {2}missed {3}mcast {11}\n {11}196 {7}2 {6}0 {7}0 {7}0 {7}0 \n/,
    );
    expect(c.shell('node-2', 'tcpdump -i eth0 -n').stdout).toMatch(
      new RegExp(
        `^\\d\\d:\\d\\d:\\d\\d\\.\\d{6} IP 172\\.18\\.0\\.2 > ${far}: ICMP echo request, id \\d+, seq 1, length 64\n`,
      ),
    );
  });
});

function netnsName(c: Cluster, at: Where): string {
  const k = c.sim.node(at.node).kernel;
  const m = tentries(k.mounts).find(([, id]) => id === at.ns)![0];
  return m.slice(m.lastIndexOf('/') + 1);
}

describe('walkPacket (the app packet walk)', () => {
  it('walks a SYN to a hostPort and its SYN-ACK back, leaving the state untouched', async () => {
    const { walkPacket } = await import('./api');
    const { c, root, nsOf } = cluster();
    const before = c.sim.state;
    const r = walkPacket(before, {
      from: root('node-2'),
      dst: '172.18.0.2',
      proto: 'tcp',
      port: 8080,
    });
    expect(c.sim.state).toBe(before);
    expect(r.request).toMatchObject({ ok: true, at: nsOf('web') });
    expect(r.reply).toMatchObject({ ok: true, at: root('node-2') });
    // The SYN-ACK comes back from the node address: DNAT reversed by conntrack.
    expect(r.reply!.ok && r.reply!.packet.src).toBe('172.18.0.2');
    expect(
      r.hops
        .slice(r.replyFrom)
        .some((h) => /DNAT'd connection: src back to 172\.18\.0\.2/.test(h.text)),
    ).toBe(true);
  });
});

describe('curl and nc -l', () => {
  it('curl to a hostPort on the node IP reaches nc -l in the pod; a closed port is refused', () => {
    const { c, nsOf, pod } = cluster();
    const web = netnsName(c, nsOf('web'));
    const nc = c.shell(
      'node-1',
      `printf 'HTTP/1.0 200 OK\\r\\n\\r\\nhello from web\\n' | ip netns exec ${web} nc -l 80`,
    );
    expect(nc.exitCode).toBe(0);
    expect(c.shell('node-2', 'curl -s http://172.18.0.2:8080/')).toMatchObject({
      exitCode: 0,
      stdout: 'hello from web\n',
    });
    expect(c.shell('node-2', `curl http://${pod('web').podIP}:81/`)).toMatchObject({
      exitCode: 7,
      stderr: `curl: (7) Failed to connect to ${pod('web').podIP} port 81 after 0 ms: Couldn't connect to server\n`,
    });
    expect(c.shell('node-2', 'curl -s http://172.18.0.2:8080/').exitCode).toBe(0);
  });

  it('a listener that sends nothing, or not HTTP: curl 52 and 1', () => {
    const { c, nsOf, pod } = cluster();
    const web = netnsName(c, nsOf('web'));
    c.shell('node-1', `ip netns exec ${web} nc -l 80`);
    expect(c.shell('node-2', `curl http://${pod('web').podIP}/`)).toMatchObject({
      exitCode: 52,
      stderr: 'curl: (52) Empty reply from server\n',
    });
    c.shell('node-1', `echo hello | ip netns exec ${web} nc -l 80`);
    expect(c.shell('node-2', `curl http://${pod('web').podIP}/`)).toMatchObject({
      exitCode: 1,
      stderr: 'curl: (1) Received HTTP/0.9 when not allowed\n',
    });
  });
});
