/** What a node holds, as the injections and recoveries read it; each reader fails with the reason. */
import { type Cluster, defaultConflist } from '../cluster/cluster';
// Faults run shell lines on nodes (`shellLine`): clusters need their shell.
import '../cluster/with-shell';
import '../plugins/late';
import '../runtime/crio-late';
import * as vfs from '../fs/vfs';
import * as K from '../kernel/kernel';
import { type IP, ipEqual, ipString } from '../net/ip';
import * as inspect from '../node/inspect';
import { type IPAMConfig, hostLocalConfOf } from '../plugins/host-local';
import { lastReservedIP, networkDir } from '../plugins/host-local-disk';
import type { CniNetwork, ContainerdState, SandboxRec } from '../state/containerd';
import type { NodeState } from '../sim/world';
import { tvalues } from '../state/table';
import { type FaultView, fail, type Resolved } from './params';

export function nodeState(v: FaultView, node: string): NodeState {
  const n = v.state.nodes[node];
  if (!n) fail(`params.node: no node ${JSON.stringify(node)}`);
  return n;
}

export function ctrd(v: FaultView, node: string): ContainerdState {
  const s = nodeState(v, node).containerd;
  if (!s) fail(`node ${node}: it has no containerd`);
  return s;
}

export function podNetwork(v: FaultView, node: string): CniNetwork {
  const net = ctrd(v, node).cni.networks.find((n) => n.ifName === 'eth0');
  if (!net)
    fail(`node ${node}: containerd has no pod network loaded (CNI is not initialized there)`);
  return net;
}

export function readySandbox(v: FaultView, r: Resolved): SandboxRec {
  const sb = tvalues(ctrd(v, r.node).sandboxes)
    .sort((a, b) => a.createdAt - b.createdAt)
    .filter((s) => s.pod.uid === r.pod!.spec.uid && s.state === 'SANDBOX_READY')
    .pop();
  if (!sb) fail(`params.pod: pod ${r.podKey} has no ready sandbox`);
  return sb;
}

export function cacheFile(net: string, id: string): string {
  return inspect.resultCachePath(net, id, 'eth0');
}

export function binDir(v: FaultView, node: string): string {
  return ctrd(v, node).settings.binDirs[0] ?? '/opt/cni/bin';
}

export function nodeBuild(v: FaultView, node: string): string {
  return v.spec.nodes.find((n) => n.name === node)?.pluginBuild ?? 'v1.1.1';
}

export function originalConfigs(v: FaultView, node: string): Record<string, string> {
  const n = v.spec.nodes.find((x) => x.name === node)!;
  return n.cniConfigs ?? { '10-containerd-net.conflist': defaultConflist(n.podCIDR) };
}

export function sh(c: Cluster, node: string, line: string, did: string[]): void {
  const r = c.shell(node, line);
  if (r.exitCode !== 0) fail(`${node}: \`${line}\` failed: ${r.output.trim()}`);
  did.push(`${node}# ${line}`);
}

/** The netns of a sandbox in the kernel (by its mount). */
export function sandboxNetns(v: FaultView, node: string, sb: SandboxRec) {
  return inspect.netnsOfMount(nodeState(v, node).kernel, sb.netns);
}

/** host-local's first range of the node's pod network (IPv4), as host-local loads it. */
export interface HostLocalRange {
  dir: string;
  first: IP;
  last: IP;
  gateway: IP;
  prefix: number;
}

export function hostLocalRange(v: FaultView, node: string): HostLocalRange {
  const net = podNetwork(v, node);
  let conf: IPAMConfig | null;
  try {
    conf = hostLocalConfOf(net.bytes);
  } catch (e) {
    if (e instanceof SyntaxError) fail(`node ${node}: its conflist is not valid JSON`);
    fail(`node ${node}: host-local's first range is not an IPv4 subnet`);
  }
  if (!conf) fail(`node ${node}: network ${net.name} does not use host-local`);
  const r = conf.ranges[0]![0]!;
  if (r.subnet.ip.v !== 4) fail(`node ${node}: host-local's first range is not an IPv4 subnet`);
  return {
    dir: networkDir(conf.name, conf.dataDir),
    first: r.rangeStart,
    last: r.rangeEnd,
    gateway: r.gateway,
    prefix: r.subnet.prefix,
  };
}

/** Addresses of the range without a reservation, in the order host-local tries them next. */
export function freeAddresses(v: FaultView, node: string, r: HostLocalRange): IP[] {
  const fs = nodeState(v, node).fs;
  const taken = (ip: IP) => vfs.stat(fs, vfs.joinPath(r.dir, ipString(ip))) !== undefined;
  const lastIp = lastReservedIP(fs, r.dir, 0);
  const first = r.first.n;
  const start = lastIp?.v === 4 && lastIp.n >= first && lastIp.n < r.last.n ? lastIp.n + 1n : first;
  const out: IP[] = [];
  const n = r.last.n - first + 1n;
  for (let i = 0n; i < n; i++) {
    const ip: IP = { v: 4, n: first + ((start - first + i) % n) };
    if (!ipEqual(ip, r.gateway) && !taken(ip)) out.push(ip);
  }
  return out;
}

/** The bridges the node's pod network plugs pods into (bridge plugin, default cni0). */
export function bridgeNames(v: FaultView, node: string): string[] {
  const net = podNetwork(v, node);
  try {
    const conf = JSON.parse(net.bytes) as { plugins?: Array<Record<string, unknown>> };
    return (conf.plugins ?? [conf as Record<string, unknown>])
      .filter((p) => p['type'] === 'bridge')
      .map((p) => (typeof p['bridge'] === 'string' ? p['bridge'] : 'cni0'));
  } catch {
    return [];
  }
}

export function randomId(c: Cluster): string {
  return c.sim.random((r) => r.hex(32));
}

/** The host end of a sandbox's eth0 veth, and the netns and eth0 (failing when one is gone). */
export function podWiring(v: FaultView, r: Resolved) {
  const sb = readySandbox(v, r);
  const ns = sandboxNetns(v, r.node, sb);
  const eth0 = ns ? K.linkByName(ns, 'eth0') : undefined;
  if (!ns || !eth0) fail(`params.pod: pod ${r.podKey} has no eth0 in ${sb.netns}`);
  const root = inspect.hostNetns(nodeState(v, r.node).kernel);
  const host = K.linksOf(root).find(
    (l) => l.kind === 'veth' && l.peer?.ns === ns.id && l.peer.ifindex === eth0.ifindex,
  );
  return { sb, ns, eth0, root, host };
}

export function isPlugin(v: FaultView, node: string, plugin: string): boolean {
  const e = vfs.stat(nodeState(v, node).fs, `${binDir(v, node)}/${plugin}`);
  return e?.kind === 'file' && !!e.exec;
}
