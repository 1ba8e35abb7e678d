/**
 * `tcpdump -i IF` (tcpdump 4.99.3): the packets that crossed interface IF of the command's
 * namespace at the steps so far, read from the trace's `packet` events. A real tcpdump waits for
 * packets until interrupted; this one prints those already seen and exits, with the summary
 * tcpdump prints on Ctrl-C. The packets of a `repeat` step are the first packet's, once per
 * sequence number (they took the same way).
 *
 * Supported: tcpdump -i IF [-n] [-nn] [-c COUNT] [-l] [-q].
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

export function tcpdumpCmd(ctx: CommandContext): number {
  const a = ctx.argv.slice(1);
  let dev: string | undefined;
  let limit = Infinity;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (x === '-i' || x === '--interface') dev = a[++i];
    else if (x.startsWith('-i') && x.length > 2) dev = x.slice(2);
    else if (x === '-c') limit = Number(a[++i]);
    else if (x === '-n' || x === '-nn' || x === '-l' || x === '-q') continue;
    else {
      ctx.err(`tcpdump: cnisim models only -i IF, -n, -c COUNT (got ${x})\n`);
      return 1;
    }
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
  ctx.err(
    'tcpdump: verbose output suppressed, use -v[v]... for full protocol decode\n' +
      `listening on ${dev}, link-type EN10MB (Ethernet), snapshot length 262144 bytes\n`,
  );
  const lines: string[] = [];
  /** The hop of a packet on the wire of `dev`, or null. */
  const onDev = (e: TraceEvent) =>
    e.kind === 'packet' &&
    e.node === ctx.nodeName &&
    e.payload.op === 'hop' &&
    e.payload.ns === ctx.netns &&
    e.payload.dev === dev &&
    ON_WIRE.has(e.payload.step)
      ? e.payload
      : null;
  const events = ctx.sim.events;
  for (const e of events) {
    if (lines.length >= limit) break;
    const hop = onDev(e);
    if (hop) {
      lines.push(`${clock(e.time)} IP ${hop.packet}`);
      continue;
    }
    if (e.kind === 'packet' && e.payload.op === 'repeat') {
      const { flow, from, to } = e.payload;
      const first = events
        .map(onDev)
        .filter((h) => h !== null && h.op === 'hop' && h.flow === flow && h.seq === 1);
      for (let seq = from; seq <= to && lines.length < limit; seq++) {
        for (const f of first) {
          if (!f || f.op !== 'hop') continue;
          const text = f.packet.replace(/, seq \d+,/, `, seq ${seq},`);
          lines.push(`${clock(e.time + (seq - 1) * 1_000_000)} IP ${text}`);
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
}

export const TCPDUMP_COMMANDS: readonly CommandSpec[] = [
  { name: 'tcpdump', dir: '/usr/bin', run: tcpdumpCmd },
];
