/**
 * `ping` (iputils-ping 20221126, Debian 12): ICMP echo requests from the namespace the command
 * runs in (the node's, or a pod's through `ip netns exec`), walked through the kernels by
 * dataplane/. The first packet's hops are steps of the trace; the rest are one step (net.ts).
 *
 * Supported: ping [-c COUNT] [-W TIMEOUT] [-s SIZE] [-M do|dont|want] [-i INTERVAL] [-q] [-n]
 * [-4|-6] DESTINATION (a numeric address: there is no DNS). Exit codes: 0 when a reply came
 * back, 1 when none did, 2 for an error (bad option, unknown host, "Network is unreachable").
 */
import { pingInSim, type EchoResult } from '../../dataplane/net';
import { parseIP } from '../../net/ip';
import type { CommandContext, CommandSpec } from '../types';

const USAGE = `
Usage
  ping [options] <destination>

Options:
  <destination>      dns name or ip address
  -c <count>         stop after <count> replies
  -i <interval>      seconds between sending each packet
  -M <pmtud opt>     define path mtu discovery, can be one of <do|dont|want>
  -n                 no dns name resolution
  -q                 quiet output
  -s <size>          use <size> as number of data bytes to be sent
  -W <timeout>       time to wait for response
  -4                 use IPv4
  -6                 use IPv6

For more details see ping(8).
`;

interface Opts {
  /** -W: seconds to wait for a reply after the last request (ping's linger, 10 by default). */
  wait: number;
  count: number;
  size: number;
  quiet: boolean;
  df: boolean;
  dst: string;
}

function parseArgs(ctx: CommandContext): Opts | number {
  const a = ctx.argv.slice(1);
  const o: Opts = { wait: 10, count: Infinity, size: 56, quiet: false, df: true, dst: '' };
  for (let i = 0; i < a.length; i++) {
    const arg = a[i]!;
    if (!arg.startsWith('-') || arg === '-') {
      if (o.dst) {
        ctx.err(USAGE);
        return 2;
      }
      o.dst = arg;
      continue;
    }
    const flag = arg[1]!;
    const inline = arg.length > 2 ? arg.slice(2) : undefined;
    const value = (): string | undefined => inline ?? a[++i];
    switch (flag) {
      case 'c': {
        const v = value();
        const n = v !== undefined && /^\d+$/.test(v) ? Number(v) : NaN;
        if (!(n >= 1 && n <= Number.MAX_SAFE_INTEGER)) {
          ctx.err(
            `ping: invalid argument: '${v ?? ''}': out of range: 1 <= value <= 9223372036854775807\n`,
          );
          return 2;
        }
        o.count = n;
        break;
      }
      case 's': {
        const v = value();
        const n = v !== undefined && /^\d+$/.test(v) ? Number(v) : NaN;
        if (!(n >= 0 && n <= 65507)) {
          ctx.err(`ping: invalid argument: '${v ?? ''}': out of range: 0 <= value <= 65507\n`);
          return 2;
        }
        o.size = n;
        break;
      }
      case 'M': {
        const v = value();
        if (v !== 'do' && v !== 'dont' && v !== 'want') {
          ctx.err(`ping: invalid -M argument: ${v ?? ''}\n`);
          return 2;
        }
        o.df = v !== 'dont';
        break;
      }
      case 'W':
      case 'i': {
        const v = value();
        if (v === undefined || !/^\d+(\.\d+)?$/.test(v)) {
          ctx.err(`ping: bad ${flag === 'W' ? 'linger time' : 'timing interval'}: ${v ?? ''}\n`);
          return 2;
        }
        if (flag === 'W') o.wait = Number(v);
        break;
      }
      case 'q':
        o.quiet = true;
        break;
      case 'n':
      case '4':
      case '6':
        break;
      default:
        ctx.err(`ping: invalid option -- '${flag}'\n${USAGE}`);
        return 2;
    }
  }
  if (!o.dst) {
    ctx.err(`ping: usage error: Destination address required\n`);
    return 1;
  }
  return o;
}

/** A deterministic round-trip time from the number of hops (there is no real clock). */
function rtt(r: EchoResult, hops: number): number {
  return r.ok ? 0.03 + 0.004 * hops : 0;
}

const ICMP_TEXT: Record<string, string> = {
  'host-unreachable': 'Destination Host Unreachable',
  'net-unreachable': 'Destination Net Unreachable',
  'time-exceeded': 'Time to live exceeded',
  'port-unreachable': 'Destination Port Unreachable',
};

export function pingCmd(ctx: CommandContext): number {
  const o = parseArgs(ctx);
  if (typeof o === 'number') return o;
  const ip = parseIP(o.dst);
  if (!ip) {
    ctx.err(`ping: ${o.dst}: Name or service not known\n`);
    return 2;
  }
  // Without -c ping runs until interrupted: the shell cannot interrupt, so it sends 4 and says so.
  const count = Number.isFinite(o.count) ? o.count : 4;
  if (!Number.isFinite(o.count))
    ctx.err('cnisim: ping without -c runs until Ctrl-C; this one sends 4 (use -c N)\n');
  const id = ctx.sim.events.length & 0xffff;
  ctx.note('kernel', 'kernel');
  const before = ctx.sim.events.length;
  const results = ctx.outside(() =>
    pingInSim(ctx.sim, { node: ctx.nodeName, ns: ctx.netns }, o.dst, {
      count,
      id,
      size: o.size,
      source: 'ping',
    }),
  );
  const hops = ctx.sim.events.length - before;
  const first = results[0]!;
  const req = first.request;
  if (!req.ok && req.local && req.drop === 'no-route') {
    ctx.err('ping: connect: Network is unreachable\n');
    return 2;
  }
  if (!req.ok && req.local && req.icmp?.kind === 'frag-needed') {
    // The kernel refuses to send a DF packet larger than the route's MTU.
    ctx.out(`PING ${o.dst} (${o.dst}) ${o.size}(${o.size + 28}) bytes of data.\n`);
    ctx.err(`ping: local error: message too long, mtu=${req.icmp.mtu}\n`);
  } else {
    ctx.out(`PING ${o.dst} (${o.dst}) ${o.size}(${o.size + 28}) bytes of data.\n`);
  }
  let received = 0;
  let errors = 0;
  const times: number[] = [];
  results.forEach((r, i) => {
    const seq = i + 1;
    if (r.ok) {
      received++;
      const t = rtt(r, hops);
      times.push(t);
      if (!o.quiet)
        ctx.out(
          `${o.size + 8} bytes from ${o.dst}: icmp_seq=${seq} ttl=${r.ttl} time=${t.toFixed(3)} ms\n`,
        );
      return;
    }
    const bad = !r.request.ok ? r.request : r.reply;
    if (bad && !bad.ok && bad.icmp) {
      if (bad.local && bad.icmp.kind === 'frag-needed') {
        errors++;
        if (i > 0 && !o.quiet)
          ctx.err(`ping: local error: message too long, mtu=${bad.icmp.mtu}\n`);
        return;
      }
      // A neighbour fails after 3 unanswered ARP probes (3 s): ping hears of it only if it is
      // still waiting then (request i+1 went out at i s; it waits -W s after the last one).
      if (bad.icmp.kind === 'host-unreachable' && i + 3 > count - 1 + o.wait) return;
      errors++;
      if (!o.quiet) {
        const text =
          bad.icmp.kind === 'frag-needed'
            ? `Frag needed and DF set (mtu = ${bad.icmp.mtu})`
            : ICMP_TEXT[bad.icmp.kind];
        ctx.out(`From ${bad.icmp.from} icmp_seq=${seq} ${text}\n`);
      }
    }
  });
  const n = results.length;
  const loss = Math.round(((n - received) * 100) / n);
  ctx.out(`\n--- ${o.dst} ping statistics ---\n`);
  ctx.out(
    `${n} packets transmitted, ${received} received, ${errors ? `+${errors} errors, ` : ''}${loss}% packet loss, time ${(n - 1) * 1001}ms\n`,
  );
  if (times.length) {
    const min = Math.min(...times);
    const max = Math.max(...times);
    const avg = times.reduce((s, x) => s + x, 0) / times.length;
    const mdev = Math.sqrt(times.reduce((s, x) => s + (x - avg) ** 2, 0) / times.length);
    ctx.out(
      `rtt min/avg/max/mdev = ${min.toFixed(3)}/${avg.toFixed(3)}/${max.toFixed(3)}/${mdev.toFixed(3)} ms\n`,
    );
  } else {
    ctx.out('\n');
  }
  return received > 0 ? 0 : 1;
}

export const PING_COMMANDS: readonly CommandSpec[] = [
  { name: 'ping', dir: '/usr/bin', run: pingCmd },
];
