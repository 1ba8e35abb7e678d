/**
 * The packet walk: one packet from a namespace's local output, through neighbour resolution,
 * veth pairs, bridges (FDB, hairpin, br_netfilter), routing (ip_forward, rp_filter, TTL),
 * netfilter's hooks with conntrack and NAT, MTU with DF, VXLAN encapsulation and the underlay
 * wire between nodes, to local delivery in some namespace or a drop with the kernel's reason.
 *
 * Every step is a `Hop` given to a `Net`, with the change it makes (counters, conntrack, neigh,
 * FDB): `net.ts` records each hop as a trace event, or runs a whole walk inside one change.
 */
import {
  carrierOf,
  interfaceSysctl,
  linkByIndex,
  linksOf,
  nsById,
  routeLookup,
  sysctlGet,
} from '../kernel/kernel';
import type { Hook } from '../kernel/iptables/types';
import type { CtEntry, CtTuple, KernelState, Link, Netns, Route } from '../kernel/types';
import { ipString, isLoopback, netContains, parseIP, parseCIDR } from '../net/ip';
import { tentries, tget, tscan, tvalues } from '../state/table';
import {
  bumpCounters,
  CT_DNAT,
  CT_ESTABLISHED,
  CT_INVALID,
  CT_NEW,
  CT_RELATED,
  CT_SNAT,
  runHook,
  type ChainHit,
  type HookEnv,
  type NatChange,
} from './netfilter';
import { packetText, type Packet } from './packet';

import type { Underlay } from '../sim/world';

/** What the walk reads: every node's kernel, and the underlay. */
export interface NetWorld {
  nodes: Record<string, { kernel: KernelState }>;
  underlay?: Underlay;
}

export type DropReason =
  | 'no-route'
  | 'ip-forward'
  | 'rp-filter'
  | 'netfilter'
  | 'neigh'
  | 'hairpin'
  | 'mtu'
  | 'ttl'
  | 'link-down'
  | 'no-listener'
  | 'no-socket'
  | 'outside'
  | 'loop';

export type HopStep =
  | 'output'
  | 'netfilter'
  | 'neigh'
  | 'xmit'
  | 'wire'
  | 'bridge'
  | 'recv'
  | 'forward'
  | 'deliver'
  | 'encap'
  | 'decap'
  | 'drop';

/** One step of a packet's way, as the trace and the packet walk show it. */
export interface Hop {
  node: string;
  /** The namespace's id in its node's kernel. */
  ns: string;
  step: HopStep;
  /** The device the step is about, if any. */
  dev?: string;
  /** The packet as it is at this step (tcpdump's one line). */
  packet: string;
  /** What happened, in the kernel's terms. */
  text: string;
  hook?: Hook;
  /** The rules that matched (and the policy that applied), in order. */
  chains?: ChainHit[];
  /** The conntrack entry this step created or matched, as `conntrack -L` shows it. */
  conntrack?: string;
  drop?: DropReason;
}

/** A mutable world (an immer draft) that a hop's change writes to. */
export type MutWorld = NetWorld;

export interface Net {
  /** The world as it is now. */
  world(): NetWorld;
  /** Records a step; `change` makes its effects on a draft of the world. */
  hop(h: Hop, change?: (w: MutWorld) => void): void;
}

export interface Where {
  node: string;
  ns: string;
}

export type Outcome =
  | { ok: true; at: Where; packet: Packet }
  | {
      ok: false;
      drop: DropReason;
      text: string;
      /** Where the packet was dropped, and as it was then. */
      at?: Where;
      packet?: Packet;
      /** An ICMP error the sender gets back (ping prints it), from this address. */
      icmp?: {
        from: string;
        kind:
          | 'host-unreachable'
          | 'net-unreachable'
          | 'frag-needed'
          | 'time-exceeded'
          | 'port-unreachable';
        mtu?: number;
      };
      /** The kernel refused to send at all (ping exits 2: "connect: Network is unreachable"). */
      local?: boolean;
    };

const MAX_STEPS = 64;

// ---------------------------------------------------------------------------------------------
// Reading the world

function kernelOf(w: NetWorld, node: string): KernelState {
  const n = w.nodes[node];
  if (!n) throw new Error(`no such node: ${node}`);
  return n.kernel;
}

function nsOf(w: NetWorld, at: Where): Netns {
  return nsById(kernelOf(w, at.node), at.ns);
}

function usable(k: KernelState, ns: Netns, l: Link): boolean {
  return l.adminUp && carrierOf(k, ns, l);
}

/** The namespace's link that has `ip`, if any (up). */
export function ownerLink(ns: Netns, ip: string): Link | undefined {
  return linksOf(ns).find((l) => l.adminUp && l.addrs.some((a) => a.local === ip));
}

/** The source address the kernel picks for `dst` (the route's prefsrc, its device's address). */
export function sourceAddress(k: KernelState, ns: Netns, dst: string): string | null {
  const d = parseIP(dst);
  if (!d) return null;
  if (ownerLink(ns, dst)) return dst;
  const r = routeLookup(k, ns, d);
  if (!r) return null;
  if (r.prefsrc) return r.prefsrc;
  const dev = linkByIndex(ns, r.dev);
  const a = dev?.addrs.find((x) => x.family === d.v && x.scope === 'global');
  if (a) return a.local;
  for (const l of linksOf(ns)) {
    const g = l.addrs.find((x) => x.family === d.v && x.scope === 'global');
    if (g) return g.local;
  }
  return null;
}

function label(w: NetWorld, at: Where): string {
  const k = kernelOf(w, at.node);
  if (at.ns === k.root) return `${at.node}`;
  const mount = tentries(k.mounts).find(([, id]) => id === at.ns)?.[0];
  const name = mount ? mount.slice(mount.lastIndexOf('/') + 1) : at.ns;
  return `${at.node} netns ${name}`;
}

interface L2End {
  node: string;
  ns: Netns;
  link: Link;
}

/**
 * The interfaces one broadcast domain joins from `dev`: veth peers, bridge ports and the
 * bridge itself, and every NIC plugged into the same underlay segment (on every node).
 */
function l2Domain(w: NetWorld, node: string, ns: Netns, dev: Link): L2End[] {
  const seen = new Set<string>();
  const out: L2End[] = [];
  const queue: L2End[] = [{ node, ns, link: dev }];
  while (queue.length) {
    const e = queue.shift()!;
    const key = `${e.node}/${e.ns.id}/${e.link.ifindex}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const k = kernelOf(w, e.node);
    if (!usable(k, e.ns, e.link)) continue;
    out.push(e);
    if (e.link.peer) {
      const pns = tget(k.netns, e.link.peer.ns);
      const pl = pns && linkByIndex(pns, e.link.peer.ifindex);
      if (pns && pl) queue.push({ node: e.node, ns: pns, link: pl });
    }
    if (e.link.master !== null) {
      const br = linkByIndex(e.ns, e.link.master);
      if (br && br.adminUp) queue.push({ node: e.node, ns: e.ns, link: br });
    }
    if (e.link.kind === 'bridge') {
      for (const i of e.link.bridge?.ports ?? []) {
        const p = e.ns.links[i];
        if (p) queue.push({ node: e.node, ns: e.ns, link: p });
      }
    }
    if (e.link.kind === 'ether' && e.link.segment) {
      for (const [n, st] of Object.entries(w.nodes)) {
        for (const ons of tvalues(st.kernel.netns)) {
          for (const l of linksOf(ons)) {
            if (l.kind === 'ether' && l.segment === e.link.segment)
              queue.push({ node: n, ns: ons, link: l });
          }
        }
      }
    }
  }
  return out;
}

/** ARP: who on `dev`'s segment answers for `nh` (an interface that has the address). */
function resolve(w: NetWorld, node: string, ns: Netns, dev: Link, nh: string): L2End | null {
  for (const e of l2Domain(w, node, ns, dev)) {
    if (e.ns === ns && e.link === dev) continue;
    if (e.link.master !== null) continue;
    if (e.link.addrs.some((a) => a.local === nh)) return e;
  }
  return null;
}

/** One entry as `conntrack -L` (conntrack-tools 1.4.7) prints it. */
function ctText(e: CtEntry): string {
  const proto =
    e.proto === 'icmp'
      ? 'icmp     1'
      : e.proto === 'tcp'
        ? 'tcp      6'
        : e.proto === 'udp'
          ? 'udp      17'
          : 'icmpv6   58';
  const icmp = e.proto === 'icmp' || e.proto === 'icmpv6';
  const type = (orig: boolean) => (e.proto === 'icmp' ? (orig ? 8 : 0) : orig ? 128 : 129);
  const tup = (t: CtTuple, orig: boolean) =>
    icmp
      ? `src=${t.src} dst=${t.dst} type=${type(orig)} code=0 id=${t.sport}`
      : `src=${t.src} dst=${t.dst} sport=${t.sport} dport=${t.dport}`;
  return `${proto} ${e.timeout} ${e.tcpState ? `${e.tcpState} ` : ''}${tup(e.orig, true)}${e.replied ? '' : ' [UNREPLIED]'} ${tup(e.reply, false)}${e.assured ? ' [ASSURED]' : ''} mark=${e.mark} use=1`;
}

export { ctText };

// ---------------------------------------------------------------------------------------------
// Conntrack

interface CtState {
  /** The entry (a copy being built for a new connection). */
  entry: CtEntry;
  /** An ICMP error quoting a packet of the connection (never changes the entry). */
  related?: boolean;
  dir: 'orig' | 'reply';
  isNew: boolean;
  index: number;
  /** tcp: the segment's flags (they move the entry's state). */
  tcp?: Packet['tcp'];
}

function tupleOf(p: Packet): CtTuple {
  return { src: p.src, dst: p.dst, sport: p.sport, dport: p.dport };
}

function sameTuple(a: CtTuple, b: CtTuple): boolean {
  return a.src === b.src && a.dst === b.dst && a.sport === b.sport && a.dport === b.dport;
}

function ctProto(p: Packet): CtEntry['proto'] {
  return p.proto;
}

const ICMP_ERRORS = new Set([
  'frag-needed',
  'time-exceeded',
  'port-unreachable',
  'host-unreachable',
]);

function ctLookup(ns: Netns, p: Packet): CtState {
  const st = ctLookup1(ns, p);
  return p.tcp ? { ...st, tcp: p.tcp } : st;
}

function ctLookup1(ns: Netns, p: Packet): CtState {
  const t = tupleOf(p);
  const list = ns.conntrack ?? [];
  if (p.icmp && ICMP_ERRORS.has(p.icmp)) {
    // An ICMP error is RELATED to the connection of the packet it quotes (NAT applies to it as
    // to a reply); without one it is not tracked.
    const q = p.embedded;
    for (let i = 0; q && i < list.length; i++) {
      const e = list[i]!;
      if (e.proto !== q.proto) continue;
      const inv = { src: q.dst, dst: q.src, sport: q.dport, dport: q.sport };
      if (
        sameTuple(e.reply, inv) ||
        (e.proto !== 'tcp' && e.proto !== 'udp' && e.reply.src === q.dst && e.reply.dst === q.src)
      )
        return { entry: e, dir: 'reply', isNew: false, index: i, related: true };
    }
    return {
      entry: {
        proto: ctProto(p),
        orig: t,
        reply: { src: t.dst, dst: t.src, sport: t.sport, dport: t.dport },
        replied: false,
        mark: 0,
        timeout: 0,
      },
      dir: 'orig',
      isNew: false,
      index: -1,
      related: true,
    };
  }
  // An echo's type is part of its tuple: a request matches only as the original direction, a
  // reply only as the reply (a ping to the namespace's own address has the same addresses both
  // ways).
  const echo = p.icmp === 'echo-request' ? 'orig' : p.icmp === 'echo-reply' ? 'reply' : null;
  for (let i = 0; i < list.length; i++) {
    const e = list[i]!;
    if (e.proto !== ctProto(p)) continue;
    if (echo !== 'reply' && sameTuple(e.orig, t))
      return { entry: e, dir: 'orig', isNew: false, index: i };
    if (echo !== 'orig' && sameTuple(e.reply, t))
      return { entry: e, dir: 'reply', isNew: false, index: i };
  }
  // As `conntrack -L` lists a new entry a moment later: icmp and udp 30 s, a SYN 120 s.
  const timeout = p.proto === 'tcp' ? 119 : 29;
  return {
    entry: {
      proto: ctProto(p),
      orig: t,
      reply: {
        src: t.dst,
        dst: t.src,
        sport: t.dport === 0 && p.proto !== 'tcp' && p.proto !== 'udp' ? t.sport : t.dport,
        dport: p.proto === 'tcp' || p.proto === 'udp' ? t.sport : 0,
      },
      replied: false,
      ...(p.proto === 'tcp' ? { tcpState: 'SYN_SENT' } : {}),
      mark: 0,
      timeout,
    },
    dir: 'orig',
    isNew: true,
    index: -1,
  };
}

function ctBits(ct: CtState): number {
  if (ct.related) return ct.index < 0 ? CT_INVALID : CT_RELATED;
  let b = ct.isNew ? CT_NEW : CT_ESTABLISHED;
  if (ct.entry.reply.src !== ct.entry.orig.dst) b |= CT_DNAT;
  if (ct.entry.reply.dst !== ct.entry.orig.src) b |= CT_SNAT;
  return b;
}

/**
 * Whether conntrack runs in a namespace: nf_conntrack registers its hooks in a namespace only
 * once something there needs it (a nat table, a conntrack or state match), so a pod's namespace
 * without rules keeps no entries.
 */
export function tracks(ns: Netns): boolean {
  for (const fam of [ns.iptables.ipv4, ns.iptables.ipv6]) {
    if (fam.nat) return true;
    for (const t of Object.values(fam)) {
      for (const c of t ? tscan(t.chains) : [])
        if (
          c.rules.some((r) => r.matches.some((m) => m.name === 'conntrack' || m.name === 'state'))
        )
          return true;
    }
  }
  return false;
}

/** Writes a confirmed entry to the namespace's table (a new one is appended). */
function ctConfirm(w: MutWorld, at: Where, ct: CtState): void {
  const ns = nsOf(w, at);
  if (!tracks(ns) || ct.related) return;
  const list = [...(ns.conntrack ?? [])];
  const e: CtEntry = { ...ct.entry };
  if (!ct.isNew && ct.dir === 'reply') e.replied = true;
  if (!ct.isNew && e.proto === 'tcp') tcpTransition(e, ct.dir, ct.tcp ?? 'SYN-ACK');
  if (ct.isNew) list.push(e);
  else list[ct.index] = e;
  ns.conntrack = list;
}

/**
 * nf_conntrack_proto_tcp's state table (tcp_conntracks), for the segments the walk sends: the
 * handshake, the ACK that completes it (ESTABLISHED, `[ASSURED]`), the FIN exchange
 * (FIN_WAIT, CLOSE_WAIT, LAST_ACK, TIME_WAIT) and RST (CLOSE). The timeouts are
 * nf_conntrack_tcp_timeout_* less the second `conntrack -L` comes after.
 */
function tcpTransition(e: CtEntry, dir: 'orig' | 'reply', flag: NonNullable<Packet['tcp']>): void {
  const s = e.tcpState ?? 'SYN_SENT';
  let next = s;
  if (flag === 'RST') next = 'CLOSE';
  else if (flag === 'SYN-ACK') next = dir === 'reply' && s === 'SYN_SENT' ? 'SYN_RECV' : s;
  else if (flag === 'ACK') {
    if (s === 'SYN_RECV' && dir === 'orig') {
      next = 'ESTABLISHED';
      e.assured = true;
    } else if (s === 'LAST_ACK') next = 'TIME_WAIT';
    else if (s === 'FIN_WAIT') next = 'CLOSE_WAIT';
  } else if (flag === 'FIN') {
    if (s === 'ESTABLISHED') next = 'FIN_WAIT';
    else if (s === 'FIN_WAIT' || s === 'CLOSE_WAIT') next = 'LAST_ACK';
  }
  if (next === s) return;
  e.tcpState = next;
  e.timeout = TCP_TIMEOUTS[next] ?? e.timeout;
}

const TCP_TIMEOUTS: Record<string, number> = {
  SYN_SENT: 119,
  SYN_RECV: 59,
  ESTABLISHED: 431999,
  FIN_WAIT: 119,
  CLOSE_WAIT: 59,
  LAST_ACK: 29,
  TIME_WAIT: 119,
  CLOSE: 9,
};

// ---------------------------------------------------------------------------------------------
// Counters

function bumpLink(
  w: MutWorld,
  node: string,
  nsId: string,
  ifindex: number,
  dir: 'rx' | 'tx',
  bytes: number,
  dropped = false,
): void {
  const ns = nsById(kernelOf(w, node), nsId);
  const l = ns.links[ifindex];
  if (!l) return;
  const s = l.stats ?? {
    rxPackets: 0,
    rxBytes: 0,
    rxDropped: 0,
    txPackets: 0,
    txBytes: 0,
    txDropped: 0,
  };
  const n = { ...s };
  if (dropped) {
    if (dir === 'rx') n.rxDropped++;
    else n.txDropped++;
  } else if (dir === 'rx') {
    n.rxPackets++;
    n.rxBytes += bytes + 14;
  } else {
    n.txPackets++;
    n.txBytes += bytes + 14;
  }
  l.stats = n;
}

function bumpRules(
  w: MutWorld,
  at: Where,
  family: 4 | 6,
  hits: readonly ChainHit[],
  bytes: number,
): void {
  if (hits.length === 0) return;
  const ns = nsOf(w, at);
  ns.iptables = bumpCounters(ns.iptables, family, hits, bytes) as never;
}

function learnNeigh(w: MutWorld, at: Where, dev: number, ip: string, mac: string | null): void {
  const ns = nsOf(w, at);
  const list = (ns.neigh ?? []).filter((n) => !(n.ip === ip && n.dev === dev));
  list.push({ ip, dev, mac, state: mac ? 'REACHABLE' : 'FAILED' });
  ns.neigh = list;
}

function learnFdb(w: MutWorld, at: Where, bridge: number, port: number, mac: string): void {
  const ns = nsOf(w, at);
  const list = ns.fdb ?? [];
  const i = list.findIndex((f) => f.master === bridge && f.mac === mac);
  if (i >= 0 && list[i]!.dev === port) return;
  const next = list.filter((f) => !(f.master === bridge && f.mac === mac));
  next.push({ mac, dev: port, master: bridge, permanent: false });
  ns.fdb = next;
}

// ---------------------------------------------------------------------------------------------
// The walk

interface Walk {
  net: Net;
  steps: number;
}

function hookEnv(w: NetWorld, at: Where, ct: CtState, o: Partial<HookEnv>, outDev?: Link): HookEnv {
  const ns = nsOf(w, at);
  return {
    ...o,
    ct: ctBits(ct),
    isLocal: (ip) => !!ownerLink(ns, ip),
    masqAddress: () =>
      outDev?.addrs.find((a) => a.family === 4 && a.scope === 'global' && !a.secondary)?.local ??
      null,
  };
}

function applyNat(ct: CtState, p: Packet, nat: NatChange | null): void {
  if (!nat) return;
  if (nat.kind === 'dnat') {
    ct.entry = {
      ...ct.entry,
      reply: { ...ct.entry.reply, src: nat.addr, sport: nat.port ?? ct.entry.reply.sport },
    };
    p.dst = nat.addr;
    if (nat.port !== null) p.dport = nat.port;
  } else {
    ct.entry = { ...ct.entry, reply: { ...ct.entry.reply, dst: nat.addr } };
    p.src = nat.addr;
  }
}

/** NAT of an existing connection at a destination hook (PREROUTING, OUTPUT). */
function ctDstManip(ct: CtState, p: Packet): string | null {
  if (ct.isNew) return null;
  const e = ct.entry;
  if (ct.dir === 'orig' && e.reply.src !== e.orig.dst) {
    p.dst = e.reply.src;
    if (p.proto === 'tcp' || p.proto === 'udp') p.dport = e.reply.sport;
    return `DNAT of the connection: dst ${p.dst}`;
  }
  if (ct.dir === 'reply' && e.reply.dst !== e.orig.src) {
    p.dst = e.orig.src;
    if (p.proto === 'tcp' || p.proto === 'udp') p.dport = e.orig.sport;
    return `reply to a masqueraded connection: dst back to ${p.dst}`;
  }
  return null;
}

/** NAT of an existing connection at a source hook (POSTROUTING, INPUT). */
function ctSrcManip(ct: CtState, p: Packet): string | null {
  if (ct.isNew) return null;
  const e = ct.entry;
  if (ct.dir === 'orig' && e.reply.dst !== e.orig.src) {
    p.src = e.reply.dst;
    return `SNAT of the connection: src ${p.src}`;
  }
  if (ct.dir === 'reply' && e.reply.src !== e.orig.dst) {
    p.src = e.orig.dst;
    if (p.proto === 'tcp' || p.proto === 'udp') p.sport = e.orig.dport;
    return `reply to a DNAT'd connection: src back to ${p.src}`;
  }
  return null;
}

function ctHop(wk: Walk, at: Where, p: Packet, text: string | null): void {
  if (text)
    wk.net.hop({
      node: at.node,
      ns: at.ns,
      step: 'netfilter',
      packet: packetText(p),
      text: `conntrack: ${text}`,
    });
}

function drop(
  wk: Walk,
  at: Where,
  p: Packet,
  reason: DropReason,
  text: string,
  extra: Partial<Hop> = {},
  change?: (w: MutWorld) => void,
): Outcome {
  wk.net.hop(
    { node: at.node, ns: at.ns, step: 'drop', packet: packetText(p), text, drop: reason, ...extra },
    change,
  );
  return { ok: false, drop: reason, text, at, packet: { ...p } };
}

function hookStep(
  wk: Walk,
  at: Where,
  p: Packet,
  hook: Hook,
  ct: CtState,
  env: Partial<HookEnv>,
  outDev?: Link,
): { dropped: Outcome | null; nat: NatChange | null } {
  const w = wk.net.world();
  const ns = nsOf(w, at);
  const r = runHook(ns.iptables, p.family, hook, p, hookEnv(w, at, ct, env, outDev), ct.isNew);
  if (r.hits.length === 0 && r.verdict === 'ACCEPT') return { dropped: null, nat: null };
  const hits = r.hits;
  const bytes = p.len;
  if (r.verdict === 'DROP') {
    const by = r.dropBy!;
    const text =
      by.rule < 0
        ? `${hook}: the ${by.table} table's ${by.chain} policy is DROP and no rule accepted the packet`
        : `${hook}: dropped by ${by.table} ${by.chain} rule ${by.rule + 1}: ${by.text}${r.reject ? ` (${r.reject})` : ''}`;
    return {
      dropped: drop(wk, at, p, 'netfilter', text, { hook, chains: hits }, (d) =>
        bumpRules(d, at, p.family, hits, bytes),
      ),
      nat: null,
    };
  }
  p.mark = r.mark;
  const natText = r.nat
    ? `; ${r.nat.kind === 'dnat' ? 'DNAT to' : 'SNAT to'} ${r.nat.addr}${r.nat.port !== null ? `:${r.nat.port}` : ''}`
    : '';
  wk.net.hop(
    {
      node: at.node,
      ns: at.ns,
      step: 'netfilter',
      hook,
      packet: packetText(p),
      text: `${hook} (${r.tables.join(', ')}): ${hits.map((h) => `${h.table}/${h.chain} → ${h.target}`).join(', ')}${natText}`,
      chains: hits,
    },
    (d) => bumpRules(d, at, p.family, hits, bytes),
  );
  return { dropped: null, nat: r.nat };
}

/** A packet leaves namespace `at` from its own stack (ping, curl, a reply). */
export function sendLocal(net: Net, at: Where, p0: Packet): Outcome {
  const wk: Walk = { net, steps: 0 };
  return output(wk, at, { ...p0 });
}

function output(wk: Walk, at: Where, p: Packet): Outcome {
  const w = wk.net.world();
  const k = kernelOf(w, at.node);
  const ns = nsOf(w, at);
  const dst = parseIP(p.dst)!;
  if (ownerLink(ns, p.dst)) {
    const lo = ns.links[1];
    if (!lo?.adminUp)
      return drop(wk, at, p, 'link-down', 'the destination is local but lo is down');
    // The local route still passes OUTPUT: a DNAT there (portmap's hostPort on the node's own
    // address) sends the packet elsewhere.
    const ct = ctLookup(ns, p);
    const manip = ctDstManip(ct, p);
    ctHop(wk, at, p, manip);
    const o = hookStep(wk, at, p, 'OUTPUT', ct, { outDev: 'lo' }, lo);
    if (o.dropped) return o.dropped;
    applyNat(ct, p, o.nat);
    if (!ownerLink(ns, p.dst)) {
      const r2 = routeLookup(k, ns, parseIP(p.dst)!);
      if (!r2) return drop(wk, at, p, 'no-route', `after NAT, no route to ${p.dst}`);
      return postrouting(wk, at, p, r2, linkByIndex(ns, r2.dev)!, ct, undefined);
    }
    // Out through lo: POSTROUTING as for any output (nat sees the connection's first packet).
    ctHop(wk, at, p, ctSrcManip(ct, p));
    const po = hookStep(wk, at, p, 'POSTROUTING', ct, { outDev: 'lo' }, lo);
    if (po.dropped) return po.dropped;
    applyNat(ct, p, po.nat);
    wk.net.hop(
      {
        node: at.node,
        ns: at.ns,
        step: 'deliver',
        dev: 'lo',
        packet: packetText(p),
        text: `${p.dst} is an address of this namespace: delivered through lo`,
      },
      (d) => {
        // Confirmed as it leaves through lo: its next packets and the answer are not NEW.
        ctConfirm(d, at, ct);
        bumpLink(d, at.node, at.ns, 1, 'tx', p.len);
        bumpLink(d, at.node, at.ns, 1, 'rx', p.len);
      },
    );
    return { ok: true, at, packet: p };
  }
  const r = routeLookup(k, ns, dst);
  if (!r) {
    const o = drop(
      wk,
      at,
      p,
      'no-route',
      `no route to ${p.dst} in the routing table (ENETUNREACH: "Network is unreachable")`,
    );
    return { ...o, local: true } as Outcome;
  }
  if (isLoopback(dst))
    return drop(
      wk,
      at,
      p,
      'link-down',
      `${p.dst} is a loopback address, which never leaves a namespace, and lo is down`,
    );
  const dev = linkByIndex(ns, r.dev)!;
  wk.net.hop({
    node: at.node,
    ns: at.ns,
    step: 'output',
    dev: dev.name,
    packet: packetText(p),
    text: `${label(w, at)}: route ${routeText(r, dev)} → out ${dev.name}`,
  });
  const ct = ctLookup(ns, p);
  const manip = ctDstManip(ct, p);
  ctHop(wk, at, p, manip);
  const o = hookStep(wk, at, p, 'OUTPUT', ct, { outDev: dev.name }, dev);
  if (o.dropped) return o.dropped;
  applyNat(ct, p, o.nat);
  let route = r;
  let out = dev;
  if (o.nat || manip) {
    const r2 = routeLookup(k, ns, parseIP(p.dst)!);
    if (!r2) return drop(wk, at, p, 'no-route', `after NAT, no route to ${p.dst}`);
    route = r2;
    out = linkByIndex(ns, r2.dev)!;
    if (ownerLink(ns, p.dst)) {
      wk.net.hop(
        {
          node: at.node,
          ns: at.ns,
          step: 'deliver',
          dev: 'lo',
          packet: packetText(p),
          text: `after DNAT ${p.dst} is local: delivered through lo`,
        },
        (d) => ctConfirm(d, at, ct),
      );
      return { ok: true, at, packet: p };
    }
  }
  return postrouting(wk, at, p, route, out, ct, undefined);
}

function routeText(r: Route, dev: Link): string {
  const dst = r.prefix === 0 ? 'default' : `${r.dst}/${r.prefix}`;
  return `${dst}${r.gateway ? ` via ${r.gateway}` : ''} dev ${dev.name}`;
}

function postrouting(
  wk: Walk,
  at: Where,
  p: Packet,
  route: Route,
  dev: Link,
  ct: CtState,
  inDev: Link | undefined,
): Outcome {
  ctHop(wk, at, p, ctSrcManip(ct, p));
  const o = hookStep(wk, at, p, 'POSTROUTING', ct, { outDev: dev.name }, dev);
  if (o.dropped) return o.dropped;
  applyNat(ct, p, o.nat);
  // MTU: a packet larger than the device's MTU is fragmented, or, with DF, dropped with ICMP
  // "fragmentation needed" to its source.
  if (p.len > dev.mtu && p.df) {
    const text = `${p.len} bytes > mtu ${dev.mtu} of ${dev.name} with DF set: dropped, ICMP fragmentation needed (mtu ${dev.mtu})`;
    const o2 = drop(wk, at, p, 'mtu', text, { dev: dev.name });
    return {
      ...(o2 as Extract<Outcome, { ok: false }>),
      icmp: { from: localAddr(wk, at, inDev) ?? p.src, kind: 'frag-needed', mtu: dev.mtu },
      local: !inDev,
    };
  }
  const nh = route.gateway ?? p.dst;
  return xmit(wk, at, p, dev, nh, ct);
}

function localAddr(wk: Walk, at: Where, l: Link | undefined): string | null {
  if (!l) return null;
  const ns = nsOf(wk.net.world(), at);
  const a = ns.links[l.ifindex]?.addrs.find((x) => x.family === 4 && x.scope === 'global');
  return a?.local ?? null;
}

function xmit(wk: Walk, at: Where, p: Packet, dev: Link, nh: string, ct: CtState): Outcome {
  if (++wk.steps > MAX_STEPS)
    return drop(wk, at, p, 'loop', 'the packet went round in circles (routing loop)');
  const w = wk.net.world();
  const ns = nsOf(w, at);
  if (dev.kind === 'vxlan') return vxlanXmit(wk, at, p, dev, nh, ct);
  const confirm = (d: MutWorld) => ctConfirm(d, at, ct);
  const target = resolve(w, at.node, ns, dev, nh);
  const u = w.underlay;
  if (!target && u && dev.kind === 'ether' && nh === u.gateway) {
    // The router at the underlay's edge: the outside, not modelled beyond it.
    wk.net.hop(
      {
        node: at.node,
        ns: at.ns,
        step: 'xmit',
        dev: dev.name,
        packet: packetText(p),
        text: `out ${dev.name} to the underlay gateway ${u.gateway}`,
      },
      (d) => {
        confirm(d);
        learnNeigh(d, at, dev.ifindex, nh, 'outside');
        bumpLink(d, at.node, at.ns, dev.ifindex, 'tx', p.len);
      },
    );
    if (p.dst === u.gateway && p.proto === 'icmp' && p.icmp === 'echo-request') {
      const back = parseCIDR(u.cidr);
      const src = parseIP(p.src);
      if (back.ok && src && netContains(back.net, src)) {
        return { ok: true, at: { node: '', ns: 'outside' }, packet: p };
      }
      return drop(
        wk,
        at,
        p,
        'outside',
        `${u.gateway} (outside the cluster) has no route back to ${p.src}: the source was not masqueraded`,
      );
    }
    return drop(
      wk,
      at,
      p,
      'outside',
      `the network beyond the underlay gateway ${u.gateway} is not modelled`,
    );
  }
  if (!target) {
    return {
      ...(drop(
        wk,
        at,
        p,
        'neigh',
        `ARP for ${nh} on ${dev.name}: no reply (neighbour FAILED): Destination Host Unreachable`,
        { dev: dev.name },
        (d) => learnNeigh(d, at, dev.ifindex, nh, null),
      ) as Extract<Outcome, { ok: false }>),
      icmp: {
        from: sourceAddress(kernelOf(w, at.node), ns, nh) ?? p.src,
        kind: 'host-unreachable',
      },
    };
  }
  const hadNeigh = (ns.neigh ?? []).some(
    (n) => n.ip === nh && n.dev === dev.ifindex && n.mac === target.link.mac,
  );
  wk.net.hop(
    {
      node: at.node,
      ns: at.ns,
      step: 'xmit',
      dev: dev.name,
      packet: packetText(p),
      text: `${hadNeigh ? 'neighbour' : 'ARP: '}${nh} is ${target.link.mac}${hadNeigh ? '' : ' (learned)'}; out ${dev.name}`,
    },
    (d) => {
      confirm(d);
      if (!hadNeigh) learnNeigh(d, at, dev.ifindex, nh, target.link.mac);
      bumpLink(d, at.node, at.ns, dev.ifindex, 'tx', p.len);
    },
  );
  return l2Send(
    wk,
    { node: at.node, ns: at.ns },
    dev,
    target,
    p,
    (ns.links[dev.ifindex] ?? dev).mac,
  );
}

/**
 * A frame leaves `dev` (in `at`) for the interface `target`: over a veth pair, a bridge the
 * device is, or the underlay wire.
 */
function l2Send(wk: Walk, at: Where, dev: Link, target: L2End, p: Packet, srcMac: string): Outcome {
  const w = wk.net.world();
  const ns = nsOf(w, at);
  if (dev.kind === 'bridge') {
    // The bridge's own stack sends: the FDB says which port leads to the target.
    const port = portTowards(w, at.node, ns, dev, target);
    if (!port) return drop(wk, at, p, 'neigh', `${dev.name}: no port leads to ${target.link.mac}`);
    const known = (ns.fdb ?? []).some(
      (f) => f.master === dev.ifindex && f.mac === target.link.mac && f.dev === port.ifindex,
    );
    wk.net.hop(
      {
        node: at.node,
        ns: at.ns,
        step: 'bridge',
        dev: dev.name,
        packet: packetText(p),
        text: `bridge ${dev.name}: ${target.link.mac} ${known ? `is on port ${port.name} (fdb)` : `not in the fdb: flooded, reaches port ${port.name}`}`,
      },
      (d) => bumpLink(d, at.node, at.ns, port.ifindex, 'tx', p.len),
    );
    return l2Send(wk, at, port, target, p, srcMac);
  }
  if (dev.kind === 'veth' && dev.peer) {
    const k = kernelOf(w, at.node);
    const pns = tget(k.netns, dev.peer.ns);
    const pl = pns && linkByIndex(pns, dev.peer.ifindex);
    if (!pns || !pl) return drop(wk, at, p, 'link-down', `${dev.name}'s peer is gone`);
    return arrive(wk, { node: at.node, ns: pns.id }, pl, target, p, srcMac);
  }
  if (dev.kind === 'ether') {
    wk.net.hop({
      node: at.node,
      ns: at.ns,
      step: 'wire',
      dev: dev.name,
      packet: packetText(p),
      text: `on the underlay (${dev.segment}) from ${at.node} to ${target.node}`,
    });
    return arrive(wk, { node: target.node, ns: target.ns.id }, target.link, target, p, srcMac);
  }
  return drop(
    wk,
    at,
    p,
    'link-down',
    `${dev.name} (${dev.kind}) does not carry packets in this model`,
  );
}

function portTowards(
  w: NetWorld,
  node: string,
  ns: Netns,
  br: Link,
  target: L2End,
): Link | undefined {
  for (const i of br.bridge?.ports ?? []) {
    const port = ns.links[i];
    if (!port) continue;
    if (target.ns === ns && target.link.ifindex === port.ifindex) return port;
    if (
      port.peer &&
      port.peer.ns === target.ns.id &&
      port.peer.ifindex === target.link.ifindex &&
      node === target.node
    )
      return port;
    if (port.kind === 'ether' && target.link.kind === 'ether') return port;
  }
  return undefined;
}

/** A frame arrives on `link` of namespace `at`. */
function arrive(
  wk: Walk,
  at: Where,
  link: Link,
  target: L2End,
  p: Packet,
  srcMac: string,
): Outcome {
  const w = wk.net.world();
  const k = kernelOf(w, at.node);
  const ns = nsOf(w, at);
  if (!usable(k, ns, link)) return drop(wk, at, p, 'link-down', `${link.name} is down`);
  if (link.master !== null) {
    const br = linkByIndex(ns, link.master);
    if (!br || !br.adminUp) return drop(wk, at, p, 'link-down', `${link.name}'s bridge is down`);
    return bridgeInput(wk, at, br, link, target, p, srcMac);
  }
  wk.net.hop(
    {
      node: at.node,
      ns: at.ns,
      step: 'recv',
      dev: link.name,
      packet: packetText(p),
      text: `${label(w, at)}: received on ${link.name}`,
    },
    (d) => bumpLink(d, at.node, at.ns, link.ifindex, 'rx', p.len),
  );
  return ipReceive(wk, at, link, p, null);
}

function bridgeInput(
  wk: Walk,
  at: Where,
  br: Link,
  port: Link,
  target: L2End,
  p: Packet,
  srcMac: string,
): Outcome {
  const w = wk.net.world();
  const k = kernelOf(w, at.node);
  const ns = nsOf(w, at);
  const learn = (d: MutWorld) => {
    bumpLink(d, at.node, at.ns, port.ifindex, 'rx', p.len);
    if (port.brport?.learning !== false) learnFdb(d, at, br.ifindex, port.ifindex, srcMac);
  };
  const brnf =
    p.family === 4
      ? sysctlGet(k, at.ns, 'net.bridge.bridge-nf-call-iptables') === '1'
      : sysctlGet(k, at.ns, 'net.bridge.bridge-nf-call-ip6tables') === '1';
  const toSelf = target.ns === ns && target.link.ifindex === br.ifindex && target.node === at.node;
  wk.net.hop(
    {
      node: at.node,
      ns: at.ns,
      step: 'bridge',
      dev: br.name,
      packet: packetText(p),
      text: `bridge ${br.name}: in on port ${port.name}, ${srcMac} learned on ${port.name}; ${toSelf ? `to the bridge's own address (${br.mac}): up to ${br.name}'s IP stack` : `to ${target.link.mac}`}${brnf ? ' (br_netfilter: bridge-nf-call-iptables=1)' : ''}`,
    },
    learn,
  );
  let ct: CtState | null = null;
  if (brnf) {
    // br_netfilter runs iptables PREROUTING for a frame entering the bridge, before the
    // forwarding decision; a DNAT re-routes it (and may send it back out of its own port).
    ct = ctLookup(ns, p);
    const before = p.dst;
    ctHop(wk, at, p, ctDstManip(ct, p));
    const o = hookStep(wk, at, p, 'PREROUTING', ct, {
      inDev: br.name,
      physIn: port.name,
      bridged: false,
    });
    if (o.dropped) return o.dropped;
    applyNat(ct, p, o.nat);
    if (
      p.dst !== before ||
      (!ct.isNew && ct.dir === 'orig' && ct.entry.reply.src !== ct.entry.orig.dst)
    ) {
      const dst = parseIP(p.dst)!;
      const r = routeLookup(k, ns, dst);
      if (r && r.dev === br.ifindex && !ownerLink(ns, p.dst)) {
        const nt = resolve(w, at.node, ns, br, p.dst);
        if (!nt)
          return drop(wk, at, p, 'neigh', `after DNAT, ARP for ${p.dst} on ${br.name}: no reply`);
        return bridgeForward(wk, at, br, port, nt, p, ct, true);
      }
      // Routed after DNAT: up to the bridge's IP stack, PREROUTING already done.
      return ipReceive(wk, at, br, p, ct);
    }
  }
  if (toSelf) return ipReceive(wk, at, br, p, ct);
  return bridgeForward(wk, at, br, port, target, p, ct, brnf);
}

function bridgeForward(
  wk: Walk,
  at: Where,
  br: Link,
  inPort: Link,
  target: L2End,
  p: Packet,
  ct: CtState | null,
  brnf: boolean,
): Outcome {
  const w = wk.net.world();
  const ns = nsOf(w, at);
  const out = portTowards(w, at.node, ns, br, target);
  if (!out)
    return drop(wk, at, p, 'neigh', `bridge ${br.name}: no port leads to ${target.link.mac}`);
  if (out.ifindex === inPort.ifindex && !out.brport?.hairpin) {
    return drop(
      wk,
      at,
      p,
      'hairpin',
      `bridge ${br.name}: the frame would leave by ${out.name}, the port it came in on, and hairpin mode is off on ${out.name}`,
      { dev: br.name },
    );
  }
  if (brnf && ct) {
    const f = hookStep(
      wk,
      at,
      p,
      'FORWARD',
      ct,
      { inDev: br.name, outDev: br.name, physIn: inPort.name, physOut: out.name, bridged: true },
      br,
    );
    if (f.dropped) return f.dropped;
    ctHop(wk, at, p, ctSrcManip(ct, p));
    const po = hookStep(
      wk,
      at,
      p,
      'POSTROUTING',
      ct,
      { outDev: br.name, physIn: inPort.name, physOut: out.name, bridged: true },
      br,
    );
    if (po.dropped) return po.dropped;
    applyNat(ct, p, po.nat);
  }
  const c = ct;
  wk.net.hop(
    {
      node: at.node,
      ns: at.ns,
      step: 'bridge',
      dev: br.name,
      packet: packetText(p),
      text: `bridge ${br.name}: forwarded from ${inPort.name} to ${out.name}`,
    },
    (d) => {
      if (c && brnf) ctConfirm(d, at, c);
      bumpLink(d, at.node, at.ns, out.ifindex, 'tx', p.len);
    },
  );
  return l2Send(wk, at, out, target, p, inPort.mac);
}

/** The IP layer receives `p` on `dev` (PREROUTING already run when `ct` is given). */
function ipReceive(wk: Walk, at: Where, dev: Link, p: Packet, pre: CtState | null): Outcome {
  if (++wk.steps > MAX_STEPS)
    return drop(wk, at, p, 'loop', 'the packet went round in circles (routing loop)');
  const w = wk.net.world();
  const k = kernelOf(w, at.node);
  const ns = nsOf(w, at);
  const d0 = parseIP(p.dst);
  const s0 = parseIP(p.src);
  if ((d0 && isLoopback(d0)) || (s0 && isLoopback(s0)))
    return drop(
      wk,
      at,
      p,
      'no-route',
      `martian packet (a loopback address) received on ${dev.name}: dropped`,
    );
  let ct = pre;
  if (!ct) {
    ct = ctLookup(ns, p);
    ctHop(wk, at, p, ctDstManip(ct, p));
    const o = hookStep(wk, at, p, 'PREROUTING', ct, { inDev: dev.name });
    if (o.dropped) return o.dropped;
    applyNat(ct, p, o.nat);
  }
  // VXLAN: a UDP datagram to a vxlan device's port is decapsulated.
  if (p.proto === 'udp' && ownerLink(ns, p.dst)) {
    const vx = linksOf(ns).find(
      (l) => l.kind === 'vxlan' && l.vxlan?.port === p.dport && l.adminUp,
    );
    const inner = (p as Packet & { inner?: Packet }).inner;
    if (vx && inner) {
      const c = ct;
      wk.net.hop(
        {
          node: at.node,
          ns: at.ns,
          step: 'decap',
          dev: vx.name,
          packet: packetText(inner),
          text: `UDP ${p.dport} is ${vx.name} (VNI ${vx.vxlan!.id}): decapsulated, received on ${vx.name}`,
        },
        (d) => {
          ctConfirm(d, at, c);
          bumpLink(d, at.node, at.ns, vx.ifindex, 'rx', inner.len);
        },
      );
      return ipReceive(wk, at, vx, { ...inner }, null);
    }
  }
  // rp_filter (IPv4): the route back to the source must leave by the interface the packet came
  // in on (1, strict) or by any interface (2, loose).
  if (p.family === 4) {
    const mode = Math.max(
      Number(sysctlGet(k, at.ns, 'net.ipv4.conf.all.rp_filter') ?? '0'),
      Number(interfaceSysctl(ns, dev, 'ipv4.conf.rp_filter') ?? '0'),
    );
    if (mode > 0 && !ownerLink(ns, p.src)) {
      const back = routeLookup(k, ns, parseIP(p.src)!);
      const fail = !back || (mode === 1 && back.dev !== dev.ifindex);
      if (fail) {
        return drop(
          wk,
          at,
          p,
          'rp-filter',
          `rp_filter=${mode} on ${dev.name}: ${back ? `the route back to ${p.src} leaves by ${linkByIndex(ns, back.dev)?.name}, not ${dev.name}` : `no route back to ${p.src}`} (reverse path check failed)`,
          { dev: dev.name },
          (d) => bumpLink(d, at.node, at.ns, dev.ifindex, 'rx', p.len, true),
        );
      }
    }
  }
  if (ownerLink(ns, p.dst)) {
    const o = hookStep(wk, at, p, 'INPUT', ct, { inDev: dev.name });
    if (o.dropped) return o.dropped;
    applyNat(ct, p, o.nat);
    ctHop(wk, at, p, ctSrcManip(ct, p));
    const c = ct;
    wk.net.hop(
      {
        node: at.node,
        ns: at.ns,
        step: 'deliver',
        dev: dev.name,
        packet: packetText(p),
        text: `${label(w, at)}: ${p.dst} is local: delivered`,
        conntrack: ctText(confirmed(c)),
      },
      (d) => ctConfirm(d, at, c),
    );
    return { ok: true, at, packet: p };
  }
  const fwdKey = p.family === 4 ? 'net.ipv4.ip_forward' : 'net.ipv6.conf.all.forwarding';
  if (sysctlGet(k, at.ns, fwdKey) !== '1') {
    return drop(
      wk,
      at,
      p,
      'ip-forward',
      `${label(w, at)}: ${p.dst} is not local and ${fwdKey}=0: the kernel does not forward, the packet is dropped`,
      { dev: dev.name },
    );
  }
  const r = routeLookup(k, ns, parseIP(p.dst)!);
  if (!r) {
    const o = drop(
      wk,
      at,
      p,
      'no-route',
      `${label(w, at)}: no route to ${p.dst}: dropped, ICMP network unreachable to ${p.src}`,
    );
    return {
      ...(o as Extract<Outcome, { ok: false }>),
      icmp: { from: localAddr(wk, at, dev) ?? '', kind: 'net-unreachable' },
    };
  }
  const out = linkByIndex(ns, r.dev)!;
  if (p.ttl <= 1) {
    const o = drop(
      wk,
      at,
      p,
      'ttl',
      `${label(w, at)}: TTL expired in transit: ICMP time exceeded to ${p.src}`,
    );
    return {
      ...(o as Extract<Outcome, { ok: false }>),
      icmp: { from: sourceAddress(k, ns, p.src) ?? '', kind: 'time-exceeded' },
    };
  }
  p.ttl -= 1;
  wk.net.hop({
    node: at.node,
    ns: at.ns,
    step: 'forward',
    dev: out.name,
    packet: packetText(p),
    text: `${label(w, at)}: forwarding (ip_forward=1): route ${routeText(r, out)}, ttl ${p.ttl}`,
  });
  const f = hookStep(wk, at, p, 'FORWARD', ct, { inDev: dev.name, outDev: out.name }, out);
  if (f.dropped) return f.dropped;
  return postrouting(wk, at, p, r, out, ct, dev);
}

function confirmed(ct: CtState): CtEntry {
  return ct.dir === 'reply' ? { ...ct.entry, replied: true } : ct.entry;
}

// ---------------------------------------------------------------------------------------------
// VXLAN

const VXLAN_OVERHEAD = 50;

function vxlanXmit(wk: Walk, at: Where, p: Packet, dev: Link, nh: string, ct: CtState): Outcome {
  const w = wk.net.world();
  const k = kernelOf(w, at.node);
  const ns = nsOf(w, at);
  const neigh = (ns.neigh ?? []).find((n) => n.ip === nh && n.dev === dev.ifindex && n.mac);
  if (!neigh) {
    return drop(
      wk,
      at,
      p,
      'neigh',
      `${dev.name}: no neighbour entry for ${nh} (a VXLAN device does not ARP: the flannel daemon adds them)`,
      { dev: dev.name },
    );
  }
  const fdb = (ns.fdb ?? []).find((f) => f.dev === dev.ifindex && f.mac === neigh.mac && f.dst);
  if (!fdb) {
    return drop(
      wk,
      at,
      p,
      'neigh',
      `${dev.name}: no fdb entry for ${neigh.mac}: the remote VTEP is unknown`,
      { dev: dev.name },
    );
  }
  const info = dev.vxlan!;
  const local = info.local ?? sourceAddress(k, ns, fdb.dst!) ?? '';
  const outer: Packet & { inner: Packet } = {
    family: 4,
    src: local,
    dst: fdb.dst!,
    proto: 'udp',
    sport: 32768 + (p.sport % 28232),
    dport: info.port,
    ttl: 64,
    len: p.len + VXLAN_OVERHEAD,
    df: false,
    mark: 0,
    inner: { ...p },
    vni: info.id,
  };
  wk.net.hop(
    {
      node: at.node,
      ns: at.ns,
      step: 'encap',
      dev: dev.name,
      packet: packetText(p),
      text: `${dev.name}: ${nh} is ${neigh.mac} (neigh), whose VTEP is ${fdb.dst} (fdb): encapsulated in UDP ${local} → ${fdb.dst}:${info.port}, VNI ${info.id}`,
    },
    (d) => {
      ctConfirm(d, at, ct);
      bumpLink(d, at.node, at.ns, dev.ifindex, 'tx', p.len);
    },
  );
  return output(wk, at, outer);
}

/** A ping-style ICMP echo request. */
export function echoRequest(
  family: 4 | 6,
  src: string,
  dst: string,
  id: number,
  size = 56,
): Packet {
  return {
    family,
    src,
    dst,
    proto: family === 4 ? 'icmp' : 'icmpv6',
    sport: id,
    dport: 0,
    icmp: 'echo-request',
    ttl: 64,
    len: size + 8 + (family === 4 ? 20 : 40),
    df: true,
    mark: 0,
  };
}

export { ipString };

/** The underlay's gateway (the outside) sends `p` to a node's address on the underlay. */
export function sendFromOutside(net: Net, p0: Packet): Outcome {
  const wk: Walk = { net, steps: 0 };
  const p = { ...p0 };
  const w = net.world();
  for (const [node, st] of Object.entries(w.nodes)) {
    for (const ns of tvalues(st.kernel.netns)) {
      for (const l of linksOf(ns)) {
        if (
          l.kind === 'ether' &&
          l.segment === w.underlay?.segment &&
          l.addrs.some((a) => a.local === p.dst)
        ) {
          const target: L2End = { node, ns, link: l };
          return arrive(wk, { node, ns: ns.id }, l, target, p, 'outside');
        }
      }
    }
  }
  return { ok: false, drop: 'outside', text: `${p.dst} is not on the underlay` };
}

/** A TCP SYN from `src:sport` to `dst:dport` (curl's first packet). */
export function tcpSyn(src: string, dst: string, sport: number, dport: number): Packet {
  return {
    family: dst.includes(':') ? 6 : 4,
    src,
    dst,
    proto: 'tcp',
    sport,
    dport,
    tcp: 'SYN',
    ttl: 64,
    len: 60,
    df: true,
    mark: 0,
  };
}
