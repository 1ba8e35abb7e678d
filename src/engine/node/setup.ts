/**
 * Building a simulated node: its filesystem layout, installed plugin binaries, and network
 * namespaces created the way `ip netns add` creates them (a namespace bind-mounted at
 * /var/run/netns/<name>). Each change is an `env` event in the trace.
 */
import { produce } from '../sim/world';
import * as vfs from '../fs/vfs';
import * as K from '../kernel/kernel';
import type { KernelState } from '../kernel/types';
import { type Simulation, type WorldState, newNodeState } from '../sim/world';
import { envEvent } from '../trace/trace';
import { ipString, parseIP } from '../net/ip';
import { iptablesModule } from '../kernel/iptables/provider';
import { tget, tscanPeek, type Table } from '../state/table';

export const NETNS_DIR = '/var/run/netns';

export interface NodeSetup {
  name: string;
  /** Directory the CNI plugins are installed in (CNI_PATH). */
  pluginDir?: string;
  build?: string;
  plugins?: string[];
  /** Bring the host's `lo` up (a booted node has it up). */
  loUp?: boolean;
  files?: Record<string, string>;
}

const BASE_DIRS = [
  '/etc/cni/net.d',
  '/opt/cni/bin',
  '/var/lib/cni',
  '/run/netns',
  '/tmp',
  '/proc/sys',
  // root's home: the node shell's default working directory.
  '/root',
];

/** Directories whose mode is not 0755 (Debian's /root is 0700). */
const DIR_MODES: Record<string, number> = { '/root': 0o700 };

function binaryText(program: string, build: string): string {
  return `\u007fELF (cnisim simulated binary: ${program} ${build})\n`;
}

export function installPluginFiles(
  fs: vfs.FsState,
  dir: string,
  build: string,
  plugins: readonly string[],
): vfs.FsState {
  let out = vfs.mkdirAll(fs, dir);
  for (const p of plugins) {
    out = vfs.writeFile(out, vfs.joinPath(dir, p), binaryText(p, build), {
      mode: 0o755,
      exec: { program: p, build },
    });
  }
  return out;
}

/** Adds a node to the world (no event: the node exists before the story starts). */
export function addNode(w: WorldState, setup: NodeSetup): WorldState {
  return produce(w, (d) => {
    const n = newNodeState(setup.name);
    let fs = n.fs;
    for (const dir of BASE_DIRS) fs = vfs.mkdirAll(fs, dir, DIR_MODES[dir]);
    // As on Debian: /var/run is a link to /run (the engine names namespace mounts /var/run/netns/...).
    fs = vfs.symlink(fs, '/run', '/var/run');
    if (setup.plugins?.length) {
      fs = installPluginFiles(
        fs,
        setup.pluginDir ?? '/opt/cni/bin',
        setup.build ?? 'v1.1.1',
        setup.plugins,
      );
    }
    for (const [path, data] of Object.entries(setup.files ?? {})) {
      fs = vfs.writeFile(vfs.mkdirAll(fs, vfs.dirname(path)), path, data);
    }
    n.fs = fs;
    const k = n.kernel as KernelState;
    if (setup.loUp !== false) K.linkSetUp(k, k.root, 1);
    d.nodes[setup.name] = n as never;
  });
}

/** The parts of a (draft) node that mounting a namespace changes: its kernel and its files. */
export interface NetnsDraft {
  kernel: KernelState;
  fs: vfs.FsState;
}

/**
 * What `ip netns add` does, on a draft node: a new namespace bind-mounted on `path` (an nsfs file
 * of mode 0444; its directory is made if needed). Returns the namespace's id.
 */
export function netnsCreate(n: NetnsDraft, path: string): string {
  const id = K.createNetns(n.kernel);
  K.mountNetns(n.kernel, path, id);
  n.fs = vfs.writeFile(vfs.mkdirAll(n.fs, vfs.dirname(path)), path, '', {
    mode: 0o444,
    nsfs: true,
  });
  return id;
}

/**
 * What `ip netns del` does, on a draft node: unmounts `path` and removes the file. The namespace
 * is destroyed (its veths take their peers with them) unless another mount still holds it.
 */
/** Whether a mount still refers to namespace `id` (read without the draft's proxies). */
function stillMounted(mounts: Table<string>, id: string): boolean {
  for (const [, nid] of tscanPeek(mounts)) if (nid === id) return true;
  return false;
}

export function netnsRemove(n: NetnsDraft, path: string): void {
  const k = n.kernel;
  const id = tget(k.mounts, path);
  if (id) {
    K.unmountNetns(k, path);
    if (id !== k.root && !stillMounted(k.mounts, id)) K.destroyNetns(k, id);
  }
  n.fs = vfs.remove(n.fs, path);
}

/** `ip netns add <name>`: a new namespace mounted at /var/run/netns/<name>. */
export function netnsAdd(sim: Simulation, node: string, path: string, source = 'operator'): string {
  return sim.apply(
    envEvent({
      node,
      source,
      target: 'kernel',
      level: 'kernel',
      summary: `ip netns add ${vfs.basename(path)}`,
      payload: { op: 'netns.add', path },
    }),
    (d) => {
      const n = d.nodes[node]!;
      if (tget(n.kernel.mounts, path))
        throw new Error(`Cannot create namespace file "${path}": File exists`);
      return netnsCreate(n, path);
    },
  );
}

/** `ip netns del <name>`: unmounts and destroys the namespace (its veths go with it). */
export function netnsDel(sim: Simulation, node: string, path: string, source = 'operator'): void {
  sim.apply(
    envEvent({
      node,
      source,
      target: 'kernel',
      level: 'kernel',
      summary: `ip netns del ${vfs.basename(path)}`,
      payload: { op: 'netns.del', path },
    }),
    (d) => {
      const n = d.nodes[node]!;
      if (!tget(n.kernel.mounts, path))
        throw new Error(`Cannot remove namespace file "${path}": No such file or directory`);
      netnsRemove(n, path);
    },
  );
}

/** Time passes on every node: deferred link events are processed (linkwatch). */
export function settle(sim: Simulation, us = 1_000_000): void {
  sim.advance(us);
  sim.state = produce(sim.state, (d) => {
    for (const n of Object.values(d.nodes)) K.settleKernel(n.kernel as KernelState);
  });
}

/** The underlay every networked cluster gets: kind's docker network (172.18.0.0/16, router .1). */
export const UNDERLAY = { segment: 'underlay', cidr: '172.18.0.0/16', gateway: '172.18.0.1' };

/** The address of the i-th node (0-based) on the underlay: 172.18.0.2, .3, ... as kind gives them. */
export function underlayAddress(i: number): string {
  return `172.18.${Math.floor((i + 2) / 256)}.${(i + 2) % 256}`;
}

/**
 * A node's defaults for pod networking, as a kubeadm/kind node has them: eth0 on the underlay
 * with its address and a default route via the underlay's router, and `net.ipv4.ip_forward=1`
 * (kubeadm's preflight requires it). br_netfilter is loaded (bridge-nf-call-iptables=1 is the
 * kernel model's default), rp_filter stays 0 as Debian leaves it (its systemd ships no
 * rp_filter setting; Ubuntu's procps sets 2), and the FORWARD policy is ACCEPT (no Docker).
 */
export function wireUnderlay(w: WorldState, node: string, i: number): WorldState {
  return produce(w, (d) => {
    const k = d.nodes[node]!.kernel as KernelState;
    const ip = underlayAddress(i);
    const mac = `02:42:ac:12:${((i + 2) >> 8).toString(16).padStart(2, '0')}:${((i + 2) & 0xff).toString(16).padStart(2, '0')}`;
    const idx = K.linkAdd(
      k,
      k.root,
      { kind: 'ether', name: 'eth0', segment: UNDERLAY.segment, mac },
      { mac: () => mac },
    );
    K.linkSetUp(k, k.root, idx);
    K.addrAdd(k, k.root, idx, { ip: parseIP(ip)!, prefix: 16 });
    K.routeAdd(k, k.root, {
      family: 4,
      dst: parseIP('0.0.0.0')!,
      prefix: 0,
      gateway: parseIP(UNDERLAY.gateway)!,
    });
    K.sysctlSet(k, k.root, 'net.ipv4.ip_forward', '1');
    K.settleKernel(k);
  });
}

/** host-gw: a route to another node's pod CIDR via that node's underlay address. */
export function hostGwRoute(w: WorldState, node: string, podCIDR: string, via: string): WorldState {
  return produce(w, (d) => {
    const k = d.nodes[node]!.kernel as KernelState;
    const [net, prefix] = podCIDR.split('/');
    K.routeAdd(k, k.root, {
      family: 4,
      dst: parseIP(net!)!,
      prefix: Number(prefix),
      gateway: parseIP(via)!,
    });
  });
}

/** flannel's VXLAN device on the i-th node: its MAC (flanneld picks one and keeps it). */
function flannelMac(i: number): string {
  return `0e:66:6c:00:${((i + 2) >> 8).toString(16).padStart(2, '0')}:${((i + 2) & 0xff).toString(16).padStart(2, '0')}`;
}

/**
 * What flanneld (vxlan backend) sets up on node `i` once it holds its lease: /run/flannel/subnet.env,
 * `flannel.1` (VXLAN VNI 1, UDP 8472, local = the node's underlay address, dev eth0, nolearning,
 * MTU 1450 = 1500 - 50) with the subnet's network address as a /32, and for every other node: a
 * route `<pod CIDR> via <its network address> dev flannel.1 onlink`, a permanent neighbour entry
 * for that address with the remote flannel.1's MAC, and an FDB entry sending that MAC to the
 * remote node's underlay address.
 */
export function flannelVxlan(
  w: WorldState,
  nodes: readonly { name: string; podCIDR: string }[],
  i: number,
): WorldState {
  const me = nodes[i]!;
  const [net, prefix] = me.podCIDR.split('/');
  const first = parseIP(net!)!;
  const gw = ipString({ v: 4, n: first.n + 1n });
  const cluster = clusterCidr(me.podCIDR);
  return produce(w, (d) => {
    const n = d.nodes[me.name]!;
    const k = n.kernel as KernelState;
    n.fs = vfs.writeFile(
      vfs.mkdirAll(n.fs as vfs.FsState, '/run/flannel'),
      '/run/flannel/subnet.env',
      `FLANNEL_NETWORK=${cluster}\nFLANNEL_SUBNET=${gw}/${prefix}\nFLANNEL_MTU=1450\nFLANNEL_IPMASQ=true\n`,
    ) as never;
    const eth0 = K.linkByName(K.nsById(k, k.root), 'eth0')!.ifindex;
    const mac = flannelMac(i);
    const idx = K.linkAdd(
      k,
      k.root,
      {
        kind: 'vxlan',
        name: 'flannel.1',
        id: 1,
        port: 8472,
        local: underlayAddress(i),
        dev: eth0,
        mtu: 1450,
        mac,
      },
      { mac: () => mac },
    );
    K.addrAdd(k, k.root, idx, { ip: first, prefix: 32 });
    K.linkSetUp(k, k.root, idx);
    const ns = K.nsById(k, k.root);
    nodes.forEach((o, j) => {
      if (j === i) return;
      const [onet, oprefix] = o.podCIDR.split('/');
      // flanneld adds these with RTNH_F_ONLINK: the gateway is not on any connected subnet.
      ns.routes.push({
        family: 4,
        dst: onet!,
        prefix: Number(oprefix),
        dev: idx,
        gateway: onet!,
        protocol: 'boot',
        scope: 'universe',
        prefsrc: null,
        metric: 0,
        origin: 'user',
        onlink: true,
      });
      ns.neigh = [
        ...(ns.neigh ?? []),
        { ip: onet!, dev: idx, mac: flannelMac(j), state: 'PERMANENT' },
      ];
      ns.fdb = [
        ...(ns.fdb ?? []),
        { mac: flannelMac(j), dev: idx, master: null, dst: underlayAddress(j), permanent: true },
      ];
    });
    K.settleKernel(k);
  });
}

/** The cluster's pod network, as flanneld's `Network` or kindnetd's pod subnet: the /16 of a node's pod CIDR. */
export function clusterCidr(podCIDR: string): string {
  const first = parseIP(podCIDR.split('/')[0]!)!;
  return `${ipString({ v: 4, n: first.n & 0xffff0000n })}/16`;
}

/** The agents that write a node's masquerade rule for pod traffic (docs/dataplane.md). */
export type MasqAgent = 'kindnetd' | 'flanneld';
export const MASQ_AGENTS: readonly MasqAgent[] = ['kindnetd', 'flanneld'];

/**
 * The nat rules a cluster's agent writes at start so that pods keep their addresses inside the
 * cluster and are masqueraded leaving it (bridge then runs with `ipMasq: false`), as `iptables`
 * argument lists in the agent's order:
 *
 * - `kindnetd` (kind's CNI daemon; its copy of ip-masq-agent, kindnetd's masq.go): chain
 *   `KIND-MASQ-AGENT` with `-d <cluster CIDR> -j RETURN` and a last `-j MASQUERADE`, jumped to
 *   from POSTROUTING for every non-LOCAL destination;
 * - `flanneld --ip-masq` (flannel's trafficmngr/iptables `masqRules`, one cluster CIDR): chain
 *   `FLANNEL-POSTRTG`: RETURN for kube-proxy's mark 0x4000, pod subnet to cluster and cluster
 *   to pod subnet; MASQUERADE (`--random-fully`) for the cluster leaving it (but multicast) and
 *   for others entering it; all with the comment "flanneld masq".
 */
export function masqAgentRules(agent: MasqAgent, podCIDR: string): string[][] {
  const cluster = clusterCidr(podCIDR);
  if (agent === 'kindnetd') {
    const c = (t: string) => ['-m', 'comment', '--comment', `kind-masq-agent: ${t}`];
    return [
      ['-t', 'nat', '-N', 'KIND-MASQ-AGENT'],
      [
        '-t',
        'nat',
        '-A',
        'KIND-MASQ-AGENT',
        '-d',
        cluster,
        '-j',
        'RETURN',
        ...c('local traffic is not subject to MASQUERADE'),
      ],
      [
        '-t',
        'nat',
        '-A',
        'KIND-MASQ-AGENT',
        '-j',
        'MASQUERADE',
        ...c('outbound traffic is subject to MASQUERADE (must be last in chain)'),
      ],
      [
        '-t',
        'nat',
        '-A',
        'POSTROUTING',
        '-m',
        'addrtype',
        '!',
        '--dst-type',
        'LOCAL',
        '-j',
        'KIND-MASQ-AGENT',
        ...c(
          'ensure nat POSTROUTING directs all non-LOCAL destination traffic to our custom KIND-MASQ-AGENT chain',
        ),
      ],
    ];
  }
  const c = ['-m', 'comment', '--comment', 'flanneld masq'];
  const f = (...spec: string[]) => ['-t', 'nat', '-A', 'FLANNEL-POSTRTG', ...spec];
  return [
    ['-t', 'nat', '-N', 'FLANNEL-POSTRTG'],
    ['-t', 'nat', '-A', 'POSTROUTING', ...c, '-j', 'FLANNEL-POSTRTG'],
    f('-m', 'mark', '--mark', '0x4000/0x4000', ...c, '-j', 'RETURN'),
    f('-s', podCIDR, '-d', cluster, ...c, '-j', 'RETURN'),
    f('-s', cluster, '-d', podCIDR, ...c, '-j', 'RETURN'),
    f('!', '-s', cluster, '-d', podCIDR, ...c, '-j', 'RETURN'),
    f('-s', cluster, '!', '-d', '224.0.0.0/4', ...c, '-j', 'MASQUERADE', '--random-fully'),
    f('!', '-s', cluster, '-d', cluster, ...c, '-j', 'MASQUERADE', '--random-fully'),
  ];
}

/** The agent's masquerade rules written into the node's root namespace (before it boots). */
export function writeMasqAgent(
  w: WorldState,
  node: string,
  agent: MasqAgent,
  podCIDR: string,
): WorldState {
  return produce(w, (d) => {
    const k = d.nodes[node]!.kernel as KernelState;
    const ns = K.nsById(k, k.root);
    for (const argv of masqAgentRules(agent, podCIDR)) {
      const r = iptablesModule().run(ns.iptables, 'ipv4', argv);
      if (r.exitCode !== 0) throw new Error(`${agent}: iptables ${argv.join(' ')}: ${r.stderr}`);
      ns.iptables = r.state as never;
    }
  });
}
