/**
 * Where a walk's hops go: `TraceNet` records each hop as a `packet` event with its change (so a
 * person steps through them), `DraftNet` runs whole walks inside one change (the repeated packets
 * of `ping -c 100`, a what-if walk for the UI, the single-kernel `ping` of tests and replays).
 *
 * Grouping: a command's first packet is recorded hop by hop (request and reply); the packets
 * after it run together in one `repeat` event that says how many got through. Their counters,
 * conntrack and neighbour changes are all in that event's state.
 */
import { castDraft, type Draft } from 'immer';
import { produce } from '../sim/world';
import type { KernelState } from '../kernel/types';
import { tget } from '../state/table';
import type { Simulation, WorldState } from '../sim/world';
import { packetEvent } from '../trace/trace';
import {
  echoRequest,
  sendFromOutside,
  sendLocal,
  sourceAddress,
  tcpSyn,
  type Hop,
  type MutWorld,
  type Net,
  type NetWorld,
  type Outcome,
  type Where,
} from './walk';
import { type Packet, packetText } from './packet';

export class DraftNet implements Net {
  readonly hops: Hop[] = [];
  constructor(private readonly d: MutWorld) {}
  world(): NetWorld {
    return this.d;
  }
  hop(h: Hop, change?: (w: MutWorld) => void): void {
    this.hops.push(h);
    change?.(this.d);
  }
}

export class TraceNet implements Net {
  readonly hops: Hop[] = [];
  constructor(
    private readonly sim: Simulation,
    private readonly flow: { source: string; flow: number; seq: number; parent?: number },
  ) {}
  world(): NetWorld {
    return this.sim.state as NetWorld;
  }
  hop(h: Hop, change?: (w: MutWorld) => void): void {
    this.hops.push(h);
    const { flow, seq, source, parent } = this.flow;
    this.sim.apply(
      packetEvent({
        node: h.node,
        source,
        target: h.dev ?? 'kernel',
        level: 'kernel',
        summary: `${h.step}: ${h.text}`,
        payload: {
          op: 'hop',
          flow,
          seq,
          step: h.step,
          ns: h.ns,
          ...(h.dev !== undefined ? { dev: h.dev } : {}),
          packet: h.packet,
          text: h.text,
          ...(h.hook ? { hook: h.hook } : {}),
          ...(h.chains ? { chains: h.chains.map((c) => ({ ...c })) } : {}),
          ...(h.conntrack ? { conntrack: h.conntrack } : {}),
          ...(h.drop ? { drop: h.drop } : {}),
        },
        ...(parent !== undefined ? { parent } : {}),
      }),
      (d) => {
        if (change) {
          for (const n of Object.values(d.nodes)) (n.kernel as KernelState).now = d.clock;
          change(d as unknown as MutWorld);
        }
      },
    );
  }
}

/** One echo request and its reply, as ping sees them. */
export interface EchoResult {
  ok: boolean;
  /** The request's way (and the reply's, when the request arrived). */
  request: Outcome;
  reply?: Outcome;
  /** TTL of the reply as it arrived. */
  ttl?: number;
  /** The address the request was sent from. */
  src: string | null;
}

/** Sends one echo request from `at` to `dst` and, if it arrives, the echo reply back. */
export function echo(net: Net, at: Where, dst: string, id: number, size = 56, seq = 1): EchoResult {
  const w = net.world();
  const k = w.nodes[at.node]!.kernel;
  const ns = tget(k.netns, at.ns)!;
  const family = dst.includes(':') ? 6 : 4;
  const src = sourceAddress(k, ns, dst);
  const req = sendLocal(net, at, {
    ...echoRequest(family, src ?? '', dst, id, size),
    icmpSeq: seq,
  });
  if (!req.ok) return { ok: false, request: req, src };
  const p = req.packet;
  const reply = echoRequest(family, p.dst, p.src, id, size);
  reply.icmp = 'echo-reply';
  reply.icmpSeq = seq;
  reply.df = false;
  const back =
    req.at.ns === 'outside' ? sendFromOutside(net, reply) : sendLocal(net, req.at, reply);
  const ok = back.ok && back.at.node === at.node && back.at.ns === at.ns;
  return { ok, request: req, reply: back, src, ...(back.ok ? { ttl: back.packet.ttl } : {}) };
}

/** The world of one kernel, for the single-node callers (plugin tests, conformance replay). */
function oneKernel(k: KernelState): NetWorld {
  return { nodes: { node: { kernel: k } } };
}

export interface PingResult {
  ok: boolean;
  /** ping's exit code: 0 replied, 1 no reply, 2 an error before sending (no route). */
  exitCode: number;
  /** Why it failed, in ping's or the kernel's words (e.g. "Network is unreachable"). */
  reason?: string;
  /** The hops the request and the reply took. */
  path: Hop[];
}

/** Would `ping -c 1 -W 1 <dst>` from namespace `fromNs` of kernel `k` get a reply? No change. */
export function ping(k: KernelState, fromNs: string, dst: string): PingResult {
  if (!tget(k.netns, fromNs) || !/^[0-9a-fA-F:.]+$/.test(dst))
    return { ok: false, exitCode: 2, reason: 'ping: unknown host', path: [] };
  let out!: PingResult;
  produce(oneKernel(k), (d) => {
    const net = new DraftNet(d as MutWorld);
    const r = echo(net, { node: 'node', ns: fromNs }, dst, 1);
    out = pingResultOf(r, net.hops);
  });
  return out;
}

export function pingResultOf(r: EchoResult, path: Hop[]): PingResult {
  if (r.ok) return { ok: true, exitCode: 0, path };
  const o = !r.request.ok ? r.request : r.reply;
  if (o && !o.ok && o.local && o.drop === 'no-route')
    return { ok: false, exitCode: 2, reason: 'connect: Network is unreachable', path };
  if (o && !o.ok && o.icmp?.kind === 'host-unreachable')
    return { ok: false, exitCode: 1, reason: 'Destination Host Unreachable', path };
  return { ok: false, exitCode: 1, reason: '100% packet loss', path };
}

/**
 * Records packets 2..`to` of a flow, already sent on `next` (a world computed from the current
 * one), as one `repeat` event: the further echoes of a ping, the SYNs a client sends again.
 */
function recordRepeat(
  sim: Simulation,
  at: Where,
  source: string,
  next: WorldState,
  r: { flow: number; to: number; delivered: number; text: string; parent?: number },
): void {
  sim.apply(
    packetEvent({
      node: at.node,
      source,
      target: 'kernel',
      level: 'kernel',
      summary: r.text,
      payload: {
        op: 'repeat',
        flow: r.flow,
        from: 2,
        to: r.to,
        delivered: r.delivered,
        text: r.text,
      },
      ...(r.parent !== undefined ? { parent: r.parent } : {}),
    }),
    (d) => {
      d.nodes = castDraft(next.nodes);
    },
  );
}

/**
 * Runs `count` echo requests from `at` in the simulation: the first one hop by hop as events,
 * the rest as one `repeat` event. Returns each packet's result.
 */
export function pingInSim(
  sim: Simulation,
  at: Where,
  dst: string,
  opts: { count: number; id: number; size?: number; source: string; parent?: number },
): EchoResult[] {
  const out: EchoResult[] = [];
  const first = new TraceNet(sim, {
    source: opts.source,
    flow: opts.id,
    seq: 1,
    ...(opts.parent !== undefined ? { parent: opts.parent } : {}),
  });
  out.push(echo(first, at, dst, opts.id, opts.size));
  if (opts.count > 1) {
    const rest: EchoResult[] = [];
    const next = produce(sim.state, (d: Draft<WorldState>) => {
      for (let i = 2; i <= opts.count; i++)
        rest.push(echo(new DraftNet(d as unknown as MutWorld), at, dst, opts.id, opts.size, i));
    });
    const delivered = rest.filter((r) => r.ok).length;
    const text = `icmp_seq 2-${opts.count}: ${rest.length} more echo requests, ${delivered} replied${delivered === rest.length ? ' (the same way as the first)' : ''}`;
    recordRepeat(sim, at, opts.source, next, {
      flow: opts.id,
      to: opts.count,
      delivered,
      text,
      ...(opts.parent !== undefined ? { parent: opts.parent } : {}),
    });
    out.push(...rest);
  }
  return out;
}

/** How a TCP connect ended, as connect(2) reports it. */
export type ConnectEnd = 'connected' | 'refused' | 'timeout' | 'unreachable' | 'no-route';

export interface ConnectResult {
  end: ConnectEnd;
  /** What the listener sends (connected only). */
  response?: string;
  request: Outcome;
  reply?: Outcome;
}

/**
 * A TCP connect from `at` to dst:port in the simulation, hop by hop: the SYN, then the SYN-ACK
 * from a listener (`Netns.listeners`) or a RST from a closed port, walked back.
 */
export function connectInSim(
  sim: Simulation,
  at: Where,
  dst: string,
  port: number,
  opts: { source: string; sport: number },
): ConnectResult {
  const net = new TraceNet(sim, { source: opts.source, flow: opts.sport, seq: 1 });
  const k = sim.state.nodes[at.node]!.kernel;
  const src = sourceAddress(k, tget(k.netns, at.ns)!, dst) ?? '';
  const request = sendLocal(net, at, tcpSyn(src, dst, opts.sport, port));
  if (!request.ok) {
    if (request.local && request.drop === 'no-route') return { end: 'no-route', request };
    if (request.icmp && request.icmp.kind !== 'frag-needed') return { end: 'unreachable', request };
    return { end: 'timeout', request };
  }
  const p = request.packet;
  const there = net.world().nodes[request.at.node]?.kernel;
  const ns = there && tget(there.netns, request.at.ns);
  const listener = ns?.listeners?.find((l) => l.port === p.dport);
  const back = {
    ...tcpSyn(p.dst, p.src, p.dport, p.sport),
    tcp: listener ? 'SYN-ACK' : 'RST',
  } as const;
  const reply = sendLocal(net, request.at, back);
  // The answer must come from the address and port the socket connected to: one whose source
  // was not translated back (a DNAT'd connection whose reply bypassed conntrack, as across a
  // bridge without br_netfilter) matches no socket; the client answers it with a RST and keeps
  // retrying its SYN until it gives up.
  const back2me = reply.ok && reply.at.node === at.node && reply.at.ns === at.ns;
  if (back2me && (reply.packet.src !== dst || reply.packet.sport !== port)) {
    const q = reply.packet;
    const text = `no socket for ${q.src}:${q.sport} → ${q.dst}:${q.dport}: the connection went to ${dst}:${port} and this answer's source was not translated back (it bypassed conntrack's NAT): answered with a RST`;
    net.hop({
      node: at.node,
      ns: at.ns,
      step: 'drop',
      packet: packetText(q),
      text,
      drop: 'no-socket',
    });
    return { end: 'timeout', request, reply };
  }
  if (!back2me) return { end: 'timeout', request, reply };
  return listener
    ? { end: 'connected', response: listener.response, request, reply }
    : { end: 'refused', request, reply };
}

/** When Linux sends a SYN again without an answer: 1 s, then doubling (tcp_syn_retries 6). */
const SYN_RETRANSMITS_S = [1, 3, 7, 15, 31, 63];

/**
 * A whole TCP connection as `nc -z` makes it, in the simulation: the handshake hop by hop
 * (connectInSim); then either the rest of the connection hop by hop (the ACK that completes the
 * handshake and the FIN exchange of a close from both ends, so conntrack ends in TIME_WAIT
 * [ASSURED]) or, without an answer, in one `repeat` event, the SYN sent again at 1, 3, 7... s
 * while the client still waits (`waitS`; a SYN whose conntrack entry was never confirmed is NEW
 * again and meets the nat table again, as the kernel counts it).
 */
export function tcpSessionInSim(
  sim: Simulation,
  at: Where,
  dst: string,
  port: number,
  opts: { source: string; sport: number; waitS: number },
): ConnectResult {
  const r = connectInSim(sim, at, dst, port, opts);
  if (r.end !== 'connected' && r.end !== 'timeout') return r;
  const k = sim.state.nodes[at.node]!.kernel;
  const src = sourceAddress(k, tget(k.netns, at.ns)!, dst) ?? '';
  const seg = (flag: 'ACK' | 'FIN' | 'SYN'): Packet => ({
    ...tcpSyn(src, dst, opts.sport, port),
    tcp: flag,
  });
  if (r.end === 'connected') {
    // Four segments, each hop by hop like the handshake (tcpdump shows them).
    const net = (seq: number) => new TraceNet(sim, { source: opts.source, flow: opts.sport, seq });
    sendLocal(net(2), at, seg('ACK'));
    const fin = sendLocal(net(3), at, seg('FIN'));
    if (r.request.ok && fin.ok) {
      const q = fin.packet;
      sendLocal(net(4), r.request.at, { ...tcpSyn(q.dst, q.src, q.dport, q.sport), tcp: 'FIN' });
      sendLocal(net(5), at, seg('ACK'));
    }
    return r;
  }
  let count = 0;
  const next = produce(sim.state, (d: Draft<WorldState>) => {
    const net = new DraftNet(d as unknown as MutWorld);
    for (const t of SYN_RETRANSMITS_S) {
      if (t >= opts.waitS) break;
      sendLocal(net, at, seg('SYN'));
      count++;
    }
  });
  if (count === 0) return r;
  const text = `no answer: the SYN sent again ${count} time${count > 1 ? 's' : ''} (after ${SYN_RETRANSMITS_S.slice(0, count).join(', ')} s)`;
  recordRepeat(sim, at, opts.source, next, {
    flow: opts.sport,
    to: count + 1,
    delivered: 0,
    text,
  });
  return r;
}

/** What answered one traceroute probe: an address, or nothing (`*`). */
export interface ProbeAnswer {
  from: string | null;
  /** The destination answered (port unreachable): the trace is done. */
  done: boolean;
}

/**
 * One traceroute probe (UDP to `port` with `ttl`) and the ICMP error it draws (time exceeded
 * from a router, port unreachable from the destination), walked back to the sender.
 */
export function probe(net: Net, at: Where, dst: string, ttl: number, port: number): ProbeAnswer {
  const k = net.world().nodes[at.node]!.kernel;
  const src = sourceAddress(k, tget(k.netns, at.ns)!, dst) ?? '';
  const p: Packet = {
    ...tcpSyn(src, dst, 40000 + (port % 20000), port),
    proto: 'udp',
    ttl,
    len: 60,
    df: false,
  };
  delete p.tcp;
  const o = sendLocal(net, at, p);
  let err: Packet | null = null;
  let from: Where | null = null;
  let done = false;
  if (o.ok) {
    const q = o.packet;
    err = icmpError(q.dst, q, 'port-unreachable');
    from = o.at;
    done = true;
  } else if (o.drop === 'ttl' && o.at && o.packet && o.icmp) {
    err = icmpError(o.icmp.from, o.packet, 'time-exceeded');
    from = o.at;
  }
  if (!err || !from) return { from: null, done: false };
  const back = sendLocal(net, from, err);
  if (!back.ok || back.at.node !== at.node || back.at.ns !== at.ns) return { from: null, done };
  return { from: back.packet.src, done };
}

function icmpError(src: string, q: Packet, kind: 'time-exceeded' | 'port-unreachable'): Packet {
  return {
    family: 4,
    src,
    dst: q.src,
    proto: 'icmp',
    sport: 0,
    dport: 0,
    icmp: kind,
    ttl: 64,
    len: 56 + 28,
    df: false,
    mark: 0,
    embedded: { proto: q.proto, src: q.src, dst: q.dst, sport: q.sport, dport: q.dport },
  };
}

/**
 * `traceroute` in the simulation: for each TTL, its probes walked inside one `repeat`-style
 * event (one step per TTL, not per hop of every probe).
 */
export function tracerouteInSim(
  sim: Simulation,
  at: Where,
  dst: string,
  opts: { maxHops: number; queries: number; source: string },
): ProbeAnswer[][] {
  const rows: ProbeAnswer[][] = [];
  for (let ttl = 1; ttl <= opts.maxHops; ttl++) {
    const row: ProbeAnswer[] = [];
    const next = produce(sim.state, (d: Draft<WorldState>) => {
      const net = new DraftNet(d as unknown as MutWorld);
      for (let q = 0; q < opts.queries; q++)
        row.push(probe(net, at, dst, ttl, 33434 + (ttl - 1) * opts.queries + q));
    });
    const who = row.map((r) => r.from ?? '*').join(' ');
    const text = `traceroute probes with ttl ${ttl}: ${who}`;
    sim.apply(
      packetEvent({
        node: at.node,
        source: opts.source,
        target: 'kernel',
        level: 'kernel',
        summary: text,
        payload: {
          op: 'repeat',
          flow: 33434,
          from: ttl,
          to: ttl,
          delivered: row.filter((r) => r.from).length,
          text,
        },
      }),
      (d) => {
        d.nodes = castDraft(next.nodes);
      },
    );
    rows.push(row);
    if (row.some((r) => r.done)) break;
  }
  return rows;
}
