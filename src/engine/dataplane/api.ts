/**
 * What the app's packet walk calls: a what-if walk on a recorded state, changing nothing. Give it
 * the world after any step, a source namespace and a destination; it returns every hop of the
 * request and, when the request arrives, of the reply (each hop with its netfilter chains, the
 * rules that matched and the conntrack entry), and where and why a packet was dropped.
 */
import { produce } from '../sim/world';
import { nsById } from '../kernel/kernel';
import { tget, tvalues } from '../state/table';
import type { WorldState } from '../sim/world';
import { DraftNet } from './net';
import {
  echoRequest,
  sendFromOutside,
  sendLocal,
  sourceAddress,
  tcpSyn,
  type Hop,
  type MutWorld,
  type Outcome,
  type Where,
} from './walk';

export interface WalkSpec {
  /** The sending namespace: a node and the id of one of its kernel's namespaces. */
  from: Where;
  /** The destination address (a pod, a node IP with a hostPort, an outside address). */
  dst: string;
  /** icmp: an echo request (ping); tcp: a SYN to `port` (curl). Default icmp. */
  proto?: 'icmp' | 'tcp';
  port?: number;
  /** Bytes of ICMP payload (ping -s); default 56. */
  size?: number;
}

export interface WalkResult {
  request: Outcome;
  /** The echo reply or SYN-ACK, when the request arrived. */
  reply?: Outcome;
  /** Every hop in order, the reply's after the request's. */
  hops: Hop[];
  /** The reply's first hop in `hops` (hops.length when there is none). */
  replyFrom: number;
}

/** Walks one packet (and its answer) through `world` without changing it. */
export function walkPacket(world: WorldState, spec: WalkSpec): WalkResult {
  let out!: WalkResult;
  produce(world, (d) => {
    const w = d as unknown as MutWorld;
    const net = new DraftNet(w);
    const k = w.nodes[spec.from.node]!.kernel;
    const src = sourceAddress(k, nsById(k, spec.from.ns), spec.dst) ?? '';
    const family = spec.dst.includes(':') ? 6 : 4;
    const first =
      spec.proto === 'tcp'
        ? tcpSyn(src, spec.dst, 40000, spec.port ?? 80)
        : echoRequest(family, src, spec.dst, 1, spec.size);
    const request = sendLocal(net, spec.from, first);
    const replyFrom = net.hops.length;
    let reply: Outcome | undefined;
    if (request.ok) {
      const p = request.packet;
      const back =
        p.proto === 'tcp'
          ? { ...tcpSyn(p.dst, p.src, p.dport, p.sport), tcp: 'SYN-ACK' as const }
          : { ...echoRequest(family, p.dst, p.src, 1, spec.size), icmp: 'echo-reply' as const };
      reply =
        request.at.ns === 'outside' ? sendFromOutside(net, back) : sendLocal(net, request.at, back);
    }
    out = { request, ...(reply ? { reply } : {}), hops: net.hops, replyFrom };
  });
  return out;
}

/** A place a packet walk can start from or go to, as the app offers it. */
export interface Endpoint {
  /** What a person picks: `pod web-0 (node-1)` or `node node-1`. */
  label: string;
  node: string;
  /** The namespace's id in the node's kernel (a pod's netns, or the node's root namespace). */
  ns: string;
  /** The address a packet to it goes to (the pod IP, the node IP); null when it has none. */
  ip: string | null;
  kind: 'pod' | 'node';
  /** hostPorts a pod maps (TCP), to try on its node's IP. */
  hostPorts: number[];
}

/**
 * Pods with a sandbox whose netns is mounted, and nodes (their root namespace and first global
 * IPv4 address), in the order the API server and the cluster list them.
 */
export function endpoints(world: WorldState): Endpoint[] {
  const out: Endpoint[] = [];
  for (const [name, n] of Object.entries(world.nodes)) {
    const k = n.kernel;
    const root = tget(k.netns, k.root);
    const ip =
      root &&
      Object.values(root.links)
        .flatMap((l) => l.addrs)
        .find((a) => a.family === 4 && a.scope === 'global')?.local;
    out.push({
      label: `node ${name}`,
      node: name,
      ns: k.root,
      ip: ip ?? null,
      kind: 'node',
      hostPorts: [],
    });
  }
  for (const p of world.api ? tvalues(world.api.pods) : []) {
    const n = world.nodes[p.spec.nodeName];
    if (!n || !p.podIP) continue;
    const sb = (n.containerd ? tvalues(n.containerd.sandboxes) : []).find(
      (s) => s.pod.uid === p.spec.uid && s.ip === p.podIP,
    );
    // /var/run is a link to /run: the mount may be recorded under either name.
    const ns = sb
      ? (tget(n.kernel.mounts, sb.netns) ??
        tget(n.kernel.mounts, sb.netns.replace(/^\/var\/run\//, '/run/')))
      : undefined;
    if (!ns || !tget(n.kernel.netns, ns)) continue;
    out.push({
      label: `pod ${p.spec.namespace === 'default' ? p.spec.name : `${p.spec.namespace}/${p.spec.name}`} (${p.spec.nodeName})`,
      node: p.spec.nodeName,
      ns,
      ip: p.podIP,
      kind: 'pod',
      hostPorts: p.spec.hostPorts.filter((h) => h.protocol === 'TCP').map((h) => h.hostPort),
    });
  }
  return out;
}
