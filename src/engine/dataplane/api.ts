/**
 * What the app's packet walk calls: a what-if walk on a recorded state, changing nothing. Give it
 * the world after any step, a source namespace and a destination; it returns every hop of the
 * request and, when the request arrives, of the reply (each hop with its netfilter chains, the
 * rules that matched and the conntrack entry), and where and why a packet was dropped.
 */
import { produce } from 'immer';
import { nsById } from '../kernel/kernel';
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
