/**
 * The state of a simulated node in the conformance fixtures' format (see conformance/fixtures/
 * README.md): what `ip -j`, `iptables-save`, sysctl and the data directories show after a step.
 */
import * as vfs from '../fs/vfs';
import { carrierOf, displayedOperstate, linkByIndex, linksOf, sysctlGet } from '../kernel/kernel';
import type { KernelState, Link, Netns } from '../kernel/types';
import { linkFlags, routeJson, routesInDumpOrder } from '../kernel/view';
import { iptablesSaveLines } from '../kernel/iptables';
import { tcShowLines } from '../kernel/tc';
import type { NodeState } from '../sim/world';
import { goParseLoose } from './json';
import { tget } from '../state/table';

export interface SnapshotShape {
  /** Logical namespace names -> path of their bind mount ("node" is the host namespace). */
  namespaces: Record<string, string | null>;
  /** Extra sysctl keys to read per logical namespace. */
  sysctls: Record<string, string[]>;
  /** Namespaces whose tc state is wanted. */
  tc: Record<string, boolean>;
  dataDir: string;
  cacheDir: string;
  tuningDir: string | null;
}

type Json = unknown;

function nsLogicalName(shape: SnapshotShape, k: KernelState, nsId: string): string {
  if (nsId === k.root) return 'node';
  for (const [name, path] of Object.entries(shape.namespaces)) {
    if (path && tget(k.mounts, path) === nsId) return name;
  }
  return nsId;
}

function linkJson(shape: SnapshotShape, k: KernelState, ns: Netns, l: Link): Json {
  const o: Record<string, Json> = {
    ifindex: l.ifindex,
    name: l.name,
    kind: l.kind,
    operstate: displayedOperstate(l),
    flags: [...linkFlags(k, ns, l)].sort(),
    mtu: l.mtu,
    mac: l.mac,
    promiscuity: l.promisc,
  };
  if (l.master !== null) {
    const m = linkByIndex(ns, l.master);
    if (m) o['master'] = m.name;
  }
  if (l.peer) {
    const pns = tget(k.netns, l.peer.ns);
    const p = pns && linkByIndex(pns, l.peer.ifindex);
    // `ip -j link` gives link_index only for a peer in another namespace (with link_netnsid);
    // for one in the same namespace it prints just the peer's name as "link", so the recording
    // holds only the namespace.
    if (pns && p) {
      o['peer'] =
        pns.id === ns.id
          ? { netns: nsLogicalName(shape, k, pns.id) }
          : { netns: nsLogicalName(shape, k, pns.id), ifindex: p.ifindex, name: p.name };
    }
  }
  if (l.bridge) o['bridge'] = { stp: l.bridge.stp, vlanFiltering: l.bridge.vlanFiltering };
  if (l.brport) {
    const br = l.master !== null ? linkByIndex(ns, l.master) : undefined;
    const fwd = !!br && br.adminUp && l.adminUp && carrierOf(k, ns, l);
    o['bridgePort'] = {
      state: fwd ? 'forwarding' : 'disabled',
      hairpin: l.brport.hairpin,
      learning: l.brport.learning,
      flood: l.brport.flood,
      isolated: l.brport.isolated,
    };
  }
  o['addresses'] = l.addrs.map((a) => {
    const x: Record<string, Json> = {
      family: a.family === 4 ? 'inet' : 'inet6',
      address: a.local,
      prefixlen: a.prefix,
      scope: a.scope,
    };
    if (a.broadcast) x['broadcast'] = a.broadcast;
    return x;
  });
  return o;
}

function nsJson(
  shape: SnapshotShape,
  node: NodeState,
  logical: string,
  nsId: string | undefined,
): Json {
  const k = node.kernel;
  const ns = nsId ? tget(k.netns, nsId) : undefined;
  if (!ns) return { exists: false };
  const o: Record<string, Json> = {
    exists: true,
    links: linksOf(ns).map((l) => linkJson(shape, k, ns, l)),
    routes: {
      ipv4: routesInDumpOrder(ns, 4).map((r) => routeJson(ns, r)),
      ipv6: routesInDumpOrder(ns, 6).map((r) => routeJson(ns, r)),
    },
  };
  const bridges = linksOf(ns).filter((l) => l.kind === 'bridge');
  if (bridges.length) {
    o['bridges'] = bridges.map((b) => ({
      name: b.name,
      ports: (b.bridge?.ports ?? []).map((i) => ns.links[i]?.name ?? ''),
    }));
  }
  const isNode = logical === 'node';
  const keys = [
    ...(isNode ? ['net.ipv4.ip_forward', 'net.ipv6.conf.all.forwarding'] : []),
    ...(shape.sysctls[logical] ?? []),
  ];
  if (keys.length) {
    const s: Record<string, string> = {};
    for (const key of keys) s[key] = sysctlGet(k, ns.id, key) ?? '<unreadable>';
    o['sysctls'] = s;
  }
  if (shape.tc[logical]) o['tc'] = tcShowLines(ns);
  if (isNode) {
    o['iptables'] = {
      ipv4: iptablesSaveLines(ns.iptables, 'ipv4'),
      ipv6: iptablesSaveLines(ns.iptables, 'ipv6'),
    };
  }
  return o;
}

function filesUnder(node: NodeState, dir: string): string[] {
  const out: string[] = [];
  for (const p of vfs.walk(node.fs, dir)) {
    if (vfs.stat(node.fs, p)?.kind === 'file') out.push(p);
  }
  return out;
}

export function snapshotNode(shape: SnapshotShape, node: NodeState): Record<string, Json> {
  const k = node.kernel;
  const namespaces: Record<string, Json> = {};
  for (const [logical, path] of Object.entries(shape.namespaces)) {
    const id = path === null ? k.root : tget(k.mounts, path);
    namespaces[logical] = nsJson(shape, node, logical, id);
  }
  const hostLocal: Record<string, string> = {};
  for (const p of filesUnder(node, shape.dataDir)) {
    hostLocal[p.slice(shape.dataDir.length + 1)] = vfs.readFile(node.fs, p);
  }
  const cacheFiles: Record<string, Json> = {};
  for (const p of filesUnder(node, vfs.joinPath(shape.cacheDir, 'results'))) {
    const text = vfs.readFile(node.fs, p);
    const parsed = goParseLoose(text);
    cacheFiles[p.slice(shape.cacheDir.length + 1)] = parsed.ok
      ? parsed.value
      : { unparsable: text };
  }
  const out: Record<string, Json> = {
    namespaces,
    hostLocalDataDir: hostLocal,
    cacheDir: { derived: 'from libcni source', files: cacheFiles },
  };
  if (shape.tuningDir) {
    const tuning: Record<string, string> = {};
    for (const p of filesUnder(node, shape.tuningDir)) {
      tuning[p.slice(shape.tuningDir.length + 1)] = vfs.readFile(node.fs, p);
    }
    if (Object.keys(tuning).length) out['tuningDataDir'] = tuning;
  }
  return out;
}
