/**
 * Reachability as Linux decides it for `ping -c 1 <dst>` from a namespace: route lookup, next
 * hop resolution across veth pairs and bridges (layer 2), forwarding in a namespace that owns
 * the next hop (only with ip_forward=1), local delivery, and the same for the reply.
 */
import { type IP, ipString, isLoopback, netContains, parseIP } from '../net/ip';
import { carrierOf, linkByIndex, linksOf, sysctlGet } from './kernel';
import type { KernelState, Link, Netns, Route } from './types';
import { tget } from '../state/table';

export interface PingResult {
  ok: boolean;
  /** ping's exit code: 0 replied, 1 no reply, 2 an error before sending (no route). */
  exitCode: number;
  /** Why it failed, in ping's or the kernel's words (e.g. "Network is unreachable"). */
  reason?: string;
  /** Hops the request took: namespace / interface pairs. */
  path: string[];
}

interface Endpoint {
  ns: Netns;
  link: Link;
}

function linkUsable(k: KernelState, ns: Netns, l: Link): boolean {
  return l.adminUp && carrierOf(k, ns, l);
}

function ownsAddress(ns: Netns, ip: IP): Link | undefined {
  const s = ipString(ip);
  return linksOf(ns).find((l) => l.adminUp && l.addrs.some((a) => a.local === s));
}

/** fib lookup (`ip route get`): the longest matching usable route (lowest metric on ties). */
export function routeLookup(k: KernelState, ns: Netns, dst: IP): Route | undefined {
  let best: Route | undefined;
  for (const r of ns.routes) {
    if (r.family !== dst.v) continue;
    if (!netContains({ ip: parseIP(r.dst)!, prefix: r.prefix }, dst)) continue;
    const l = linkByIndex(ns, r.dev);
    if (!l || !linkUsable(k, ns, l)) continue;
    if (!best || r.prefix > best.prefix || (r.prefix === best.prefix && r.metric < best.metric))
      best = r;
  }
  return best;
}

/** Every interface reachable at layer 2 from `start` (veth peers and bridge ports). */
function l2Domain(k: KernelState, start: Endpoint): Endpoint[] {
  const seen = new Set<string>();
  const out: Endpoint[] = [];
  const queue: Endpoint[] = [start];
  const key = (e: Endpoint) => `${e.ns.id}/${e.link.ifindex}`;
  while (queue.length) {
    const e = queue.shift()!;
    if (seen.has(key(e))) continue;
    seen.add(key(e));
    if (!linkUsable(k, e.ns, e.link)) continue;
    out.push(e);
    if (e.link.peer) {
      const pns = tget(k.netns, e.link.peer.ns);
      const pl = pns && linkByIndex(pns, e.link.peer.ifindex);
      if (pns && pl) queue.push({ ns: pns, link: pl });
    }
    if (e.link.master !== null) {
      const br = linkByIndex(e.ns, e.link.master);
      if (br && br.adminUp) queue.push({ ns: e.ns, link: br });
    }
    if (e.link.kind === 'bridge') {
      for (const i of e.link.bridge?.ports ?? []) {
        const p = e.ns.links[i];
        if (p) queue.push({ ns: e.ns, link: p });
      }
    }
  }
  return out;
}

type Delivery = { ok: true; ns: Netns } | { ok: false; reason: string; exitCode: number };

const LOSS: Delivery = { ok: false, reason: '100% packet loss', exitCode: 1 };

/** Carries a packet from `from` towards `dst`; `fromSource` when `from` is the sender itself. */
function deliver(
  k: KernelState,
  from: Netns,
  dst: IP,
  hops: string[],
  depth: number,
  fromSource: boolean,
): Delivery {
  if (depth > 8) return LOSS;
  if (ownsAddress(from, dst)) {
    // A namespace talking to one of its own addresses goes through its loopback device.
    return from.links[1]?.adminUp ? { ok: true, ns: from } : LOSS;
  }
  const r = routeLookup(k, from, dst);
  if (!r)
    return fromSource
      ? { ok: false, reason: 'connect: Network is unreachable', exitCode: 2 }
      : LOSS;
  // Loopback destinations never leave a namespace (martians anywhere else).
  if (isLoopback(dst)) return LOSS;
  const dev = linkByIndex(from, r.dev)!;
  const nextHop = r.gateway ? parseIP(r.gateway)! : dst;
  hops.push(`${from.id}:${dev.name}`);
  const nh = ipString(nextHop);
  for (const e of l2Domain(k, { ns: from, link: dev })) {
    if (e.ns === from && e.link === dev) continue;
    if (!e.link.addrs.some((a) => a.local === nh)) continue;
    // Any local address of the receiving namespace is accepted there (weak host model).
    if (ownsAddress(e.ns, dst)) return { ok: true, ns: e.ns };
    // Otherwise the next hop is a router: it forwards only with forwarding on.
    const fwd = sysctlGet(
      k,
      e.ns.id,
      dst.v === 4 ? 'net.ipv4.ip_forward' : 'net.ipv6.conf.all.forwarding',
    );
    if (fwd !== '1') return LOSS;
    return deliver(k, e.ns, dst, hops, depth + 1, false);
  }
  return { ok: false, reason: 'Destination Host Unreachable', exitCode: 1 };
}

function sourceAddress(k: KernelState, ns: Netns, dst: IP): IP | null {
  const r = routeLookup(k, ns, dst);
  if (!r) return null;
  if (r.prefsrc) return parseIP(r.prefsrc);
  const dev = linkByIndex(ns, r.dev);
  const a = dev?.addrs.find((x) => x.family === dst.v && x.scope === 'global');
  if (a) return parseIP(a.local);
  for (const l of linksOf(ns)) {
    const g = l.addrs.find((x) => x.family === dst.v && x.scope === 'global');
    if (g) return parseIP(g.local);
  }
  return null;
}

/** Would `ping -c 1 -W 1 <dst>` from namespace `fromNs` get a reply? */
export function ping(k: KernelState, fromNs: string, dstText: string): PingResult {
  const ns = tget(k.netns, fromNs);
  const dst = parseIP(dstText);
  if (!ns || !dst) return { ok: false, exitCode: 2, reason: 'ping: unknown host', path: [] };
  const hops: string[] = [];
  const src = sourceAddress(k, ns, dst);
  const there = deliver(k, ns, dst, hops, 0, true);
  if (!there.ok) return { ok: false, exitCode: there.exitCode, reason: there.reason, path: hops };
  if (there.ns === ns) return { ok: true, exitCode: 0, path: hops };
  if (!src) return { ok: false, exitCode: 1, reason: '100% packet loss', path: hops };
  const back = deliver(k, there.ns, src, hops, 0, false);
  if (!back.ok || back.ns !== ns)
    return { ok: false, exitCode: 1, reason: '100% packet loss', path: hops };
  return { ok: true, exitCode: 0, path: hops };
}
