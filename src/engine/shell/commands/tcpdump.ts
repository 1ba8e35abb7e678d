/**
 * `tcpdump -i IF` (tcpdump 4.99.3): the packets that crossed interface IF of the command's
 * namespace at the steps so far, read from the trace's `packet` events. A real tcpdump waits for
 * packets until interrupted; this one prints those already seen and exits, with the summary
 * tcpdump prints on Ctrl-C. The packets of a `repeat` step are the first packet's, once per
 * sequence number (they took the same way). In the background (`tcpdump ... &`) it captures from
 * the moment it starts and prints when the job is waited for (`wait`, or the end of the line),
 * so it shows the packets of the commands run in between, as the recordings do
 * (testdata/traffic). A VXLAN datagram shows the packet inside on its own line.
 *
 * Supported: tcpdump -i IF [-n] [-nn] [-t] [-c COUNT] [-l] [-q] [EXPRESSION], the expression made
 * of icmp, tcp, udp, ip, [src|dst] [host] ADDR, [tcp|udp] [src|dst] port N, and/or/not (&&, ||,
 * !) and parentheses, matched against the outer header.
 */
import { linkByName, nsById } from '../../kernel/kernel';
import type { TraceEvent } from '../../trace/trace';
import type { CommandContext, CommandSpec } from '../types';

/** Steps at which a packet is on the wire of an interface (sent or received there). */
const ON_WIRE = new Set(['xmit', 'recv', 'decap', 'encap']);

function clock(us: number): string {
  const s = Math.floor(us / 1e6);
  const hh = String(Math.floor(s / 3600) % 24).padStart(2, '0');
  const mm = String(Math.floor(s / 60) % 60).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return `${hh}:${mm}:${ss}.${String(us % 1e6).padStart(6, '0')}`;
}

/** What a filter looks at: the outer header of a packet's tcpdump line. */
interface Hdr {
  proto: 'icmp' | 'tcp' | 'udp' | 'other';
  src: string;
  dst: string;
  sport: number | null;
  dport: number | null;
}

function headerOf(line: string): Hdr | null {
  const m = /^(\S+) > (\S+): (.*)$/.exec(line.split('\n')[0]!);
  if (!m) return null;
  const ap = (x: string): [string, number | null] => {
    const v4 = /^(\d+\.\d+\.\d+\.\d+)(?:\.(\d+))?$/.exec(x);
    if (v4) return [v4[1]!, v4[2] !== undefined ? Number(v4[2]) : null];
    return [x, null];
  };
  const [src, sport] = ap(m[1]!);
  const [dst, dport] = ap(m[2]!.replace(/:$/, ''));
  const rest = m[3]!;
  const proto = rest.startsWith('ICMP')
    ? 'icmp'
    : rest.startsWith('Flags [')
      ? 'tcp'
      : /^(UDP|OTV|VXLAN)/.test(rest)
        ? 'udp'
        : 'other';
  return { proto, src, dst, sport, dport };
}

type Filter = (h: Hdr) => boolean;

/** The filter expression (pcap-filter's grammar, the part listed above), or an error text. */
function parseFilter(words: string[]): Filter | string {
  const t = words
    .join(' ')
    .replace(/([()!])/g, ' $1 ')
    .replace(/&&/g, ' and ')
    .replace(/\|\|/g, ' or ')
    .split(/\s+/)
    .filter(Boolean);
  if (t.length === 0) return () => true;
  let i = 0;
  const fail = (): never => {
    throw new Error('syntax error');
  };
  const expr = (): Filter => {
    let f = term();
    while (t[i] === 'or') {
      i++;
      const a = f;
      const b = term();
      f = (h) => a(h) || b(h);
    }
    return f;
  };
  const term = (): Filter => {
    let f = factor();
    while (t[i] === 'and') {
      i++;
      const a = f;
      const b = factor();
      f = (h) => a(h) && b(h);
    }
    return f;
  };
  const factor = (): Filter => {
    const w = t[i++];
    if (w === undefined) return fail();
    if (w === 'not' || w === '!') {
      const f = factor();
      return (h) => !f(h);
    }
    if (w === '(') {
      const f = expr();
      if (t[i++] !== ')') fail();
      return f;
    }
    let proto: 'tcp' | 'udp' | 'icmp' | null = null;
    let dir: 'src' | 'dst' | null = null;
    let cur: string | undefined = w;
    if (cur === 'tcp' || cur === 'udp' || cur === 'icmp' || cur === 'ip') {
      if (cur !== 'ip') proto = cur;
      const next = t[i];
      if (
        cur === 'icmp' ||
        cur === 'ip' ||
        !(next === 'port' || next === 'src' || next === 'dst')
      ) {
        const p = proto;
        return (h) => p === null || h.proto === p;
      }
      cur = t[i++];
    }
    if (cur === 'src' || cur === 'dst') {
      dir = cur;
      cur = t[i++];
    }
    if (cur === 'port') {
      const n = Number(t[i++]);
      if (!Number.isInteger(n) || n < 0 || n > 65535) return fail();
      const p = proto;
      const d = dir;
      return (h) =>
        (p === null ? h.proto === 'tcp' || h.proto === 'udp' : h.proto === p) &&
        ((d !== 'dst' && h.sport === n) || (d !== 'src' && h.dport === n));
    }
    if (proto !== null) return fail();
    if (cur === 'host') cur = t[i++];
    if (cur === undefined || !/^[0-9a-fA-F:.]+$/.test(cur)) return fail();
    const a = cur;
    const d = dir;
    return (h) => (d !== 'dst' && h.src === a) || (d !== 'src' && h.dst === a);
  };
  try {
    const f = expr();
    if (i < t.length) fail();
    return f;
  } catch {
    return 'syntax error';
  }
}

export function tcpdumpCmd(ctx: CommandContext): number {
  const a = ctx.argv.slice(1);
  let dev: string | undefined;
  let limit = Infinity;
  let stamps = true;
  const expression: string[] = [];
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (x === '-i' || x === '--interface') dev = a[++i];
    else if (x.startsWith('-i') && x.length > 2) dev = x.slice(2);
    else if (x === '-c') limit = Number(a[++i]);
    else if (x === '-t') stamps = false;
    else if (x === '-n' || x === '-nn' || x === '-l' || x === '-q') continue;
    else if (x.startsWith('-')) {
      ctx.err(`tcpdump: cnisim models only -i IF, -n, -t, -c COUNT (got ${x})\n`);
      return 1;
    } else expression.push(x);
  }
  if (!dev) {
    ctx.err('tcpdump: cnisim needs -i IF (the interface to read)\n');
    return 1;
  }
  const ns = nsById(ctx.kernel(), ctx.netns);
  if (!linkByName(ns, dev)) {
    ctx.err(`tcpdump: ${dev}: No such device exists\n(No such device exists)\n`);
    return 1;
  }
  const filter = parseFilter(expression);
  if (typeof filter === 'string') {
    ctx.err(`tcpdump: can't parse filter expression: ${filter}\n`);
    return 1;
  }
  ctx.err(
    'tcpdump: verbose output suppressed, use -v[v]... for full protocol decode\n' +
      `listening on ${dev}, link-type EN10MB (Ethernet), snapshot length 262144 bytes\n`,
  );
  const node = ctx.nodeName;
  const netns = ctx.netns;
  const since = ctx.background ? ctx.sim.events.length : 0;
  const sim = ctx.sim;
  const capture = (): number => {
    const lines: string[] = [];
    /** The hop of a packet on the wire of `dev`, or null. */
    const onDev = (e: TraceEvent) =>
      e.kind === 'packet' &&
      e.node === node &&
      e.payload.op === 'hop' &&
      e.payload.ns === netns &&
      e.payload.dev === dev &&
      ON_WIRE.has(e.payload.step)
        ? e.payload
        : null;
    const pass = (packet: string) => {
      const h = headerOf(packet);
      return h !== null && filter(h);
    };
    const line = (time: number, packet: string) =>
      stamps ? `${clock(time)} IP ${packet}` : `IP ${packet}`;
    const events = sim.events;
    for (let i = since; i < events.length; i++) {
      const e = events[i]!;
      if (lines.length >= limit) break;
      const hop = onDev(e);
      if (hop) {
        if (pass(hop.packet)) lines.push(line(e.time, hop.packet));
        continue;
      }
      if (e.kind === 'packet' && e.payload.op === 'repeat') {
        const { flow, from, to } = e.payload;
        const first = events
          .map(onDev)
          .filter((h) => h !== null && h.op === 'hop' && h.flow === flow && h.seq === 1);
        for (let seq = from; seq <= to && lines.length < limit; seq++) {
          for (const f of first) {
            if (!f || f.op !== 'hop' || !pass(f.packet)) continue;
            const text = f.packet.replace(/, seq \d+,/, `, seq ${seq},`);
            lines.push(line(e.time + (seq - 1) * 1_000_000, text));
          }
        }
      }
    }
    const shown = lines.slice(0, limit);
    for (const l of shown) ctx.out(l + '\n');
    ctx.err(
      `${Number.isFinite(limit) ? '' : '\n'}${shown.length} packets captured\n${shown.length} packets received by filter\n0 packets dropped by kernel\n`,
    );
    return 0;
  };
  return ctx.defer(capture);
}

export const TCPDUMP_COMMANDS: readonly CommandSpec[] = [
  { name: 'tcpdump', dir: '/usr/bin', run: tcpdumpCmd },
];
