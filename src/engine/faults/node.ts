/** What a node holds, as the injections and recoveries read it; each reader fails with the reason. */
import { type Cluster, defaultConflist } from '../cluster/cluster';
import * as vfs from '../fs/vfs';
import * as K from '../kernel/kernel';
import type { CniNetwork, ContainerdState, SandboxRec } from '../runtime/types';
import type { NodeState } from '../sim/world';
import { type FaultView, fail, type Resolved } from './params';
import { tget } from '../state/table';

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
  const sb = Object.values(ctrd(v, r.node).sandboxes)
    .sort((a, b) => a.createdAt - b.createdAt)
    .filter((s) => s.pod.uid === r.pod!.spec.uid && s.state === 'SANDBOX_READY')
    .pop();
  if (!sb) fail(`params.pod: pod ${r.podKey} has no ready sandbox`);
  return sb;
}

export function cacheFile(net: string, id: string): string {
  return `/var/lib/cni/results/${net}-${id}-eth0`;
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
  const k = nodeState(v, node).kernel;
  const id = k.mounts[sb.netns];
  return id ? tget(k.netns, id) : undefined;
}

export interface HostLocalRange {
  dir: string;
  first: number;
  last: number;
  gateway: number;
  prefix: number;
}

function v4(s: string): number | null {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((x) => x > 255)) return null;
  return ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0;
}

export function v4s(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** host-local's first range of the node's pod network, IPv4 (defaults as range.Canonicalize). */
export function hostLocalRange(v: FaultView, node: string): HostLocalRange {
  const net = podNetwork(v, node);
  let conf: {
    plugins?: Array<{ ipam?: Record<string, unknown> }>;
    ipam?: Record<string, unknown>;
  };
  try {
    conf = JSON.parse(net.bytes);
  } catch {
    fail(`node ${node}: its conflist is not valid JSON`);
  }
  const ipam = [...(conf.plugins ?? []), conf]
    .map((p) => p.ipam)
    .find((i) => i && i['type'] === 'host-local');
  if (!ipam) fail(`node ${node}: network ${net.name} does not use host-local`);
  const ranges = ipam['ranges'] as Array<Array<Record<string, string>>> | undefined;
  const r = ranges?.[0]?.[0] ?? (ipam as Record<string, string>);
  const m = /^([0-9.]+)\/(\d+)$/.exec(String(r['subnet'] ?? ''));
  const base = m ? v4(m[1]!) : null;
  if (!m || base === null) fail(`node ${node}: host-local's first range is not an IPv4 subnet`);
  const prefix = Number(m[2]);
  const size = 2 ** (32 - prefix);
  const network = base - (base % size);
  const first = (r['rangeStart'] && v4(r['rangeStart'])) || network + 1;
  const last = (r['rangeEnd'] && v4(r['rangeEnd'])) || network + size - 2;
  const gateway = (r['gateway'] && v4(r['gateway'])) || network + 1;
  const dataDir = typeof ipam['dataDir'] === 'string' ? ipam['dataDir'] : '/var/lib/cni/networks';
  return { dir: `${dataDir}/${net.name}`, first, last, gateway, prefix };
}

/** Addresses of the range without a reservation, in the order host-local tries them next. */
export function freeAddresses(v: FaultView, node: string, r: HostLocalRange): number[] {
  const fs = nodeState(v, node).fs;
  const taken = (ip: number) => vfs.stat(fs, `${r.dir}/${v4s(ip)}`) !== undefined;
  const lastFile = vfs.stat(fs, `${r.dir}/last_reserved_ip.0`);
  const lastIp = lastFile?.kind === 'file' ? v4(lastFile.data.trim()) : null;
  const start = lastIp !== null && lastIp >= r.first && lastIp < r.last ? lastIp + 1 : r.first;
  const out: number[] = [];
  const n = r.last - r.first + 1;
  for (let i = 0; i < n; i++) {
    const ip = r.first + ((start - r.first + i) % n);
    if (ip !== r.gateway && !taken(ip)) out.push(ip);
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
  const k = nodeState(v, r.node).kernel;
  const root = tget(k.netns, k.root)!;
  const host = K.linksOf(root).find(
    (l) => l.kind === 'veth' && l.peer?.ns === ns.id && l.peer.ifindex === eth0.ifindex,
  );
  return { sb, ns, eth0, root, host };
}

export function isPlugin(v: FaultView, node: string, plugin: string): boolean {
  const e = vfs.stat(nodeState(v, node).fs, `${binDir(v, node)}/${plugin}`);
  return e?.kind === 'file' && !!e.exec;
}
