/**
 * `traceroute` (Debian's traceroute 2.1.2): UDP probes from port 33434 up with TTL 1, 2, ...
 * walked through the kernels; each router's ICMP "time exceeded" and the destination's "port
 * unreachable" walked back (conntrack relates them to the probe's connection, so masquerade is
 * undone for them as for a reply). One step of the trace per TTL.
 *
 * Supported: traceroute [-n] [-m MAX_TTL] [-q NQUERIES] [-w WAIT] HOST (a numeric address).
 */
import { tracerouteInSim } from '../../dataplane/net';
import { parseIP } from '../../net/ip';
import type { CommandContext, CommandSpec } from '../types';

export function tracerouteCmd(ctx: CommandContext): number {
  const a = ctx.argv.slice(1);
  let numeric = false;
  let maxHops = 30;
  let queries = 3;
  let host: string | undefined;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (x === '-n') numeric = true;
    else if (x === '-m') maxHops = Number(a[++i]);
    else if (x === '-q') queries = Number(a[++i]);
    else if (x === '-w') i++;
    else if (!x.startsWith('-')) host = x;
    else {
      ctx.err(`Bad option \`${x}' (argc ${i + 1})\n`);
      return 2;
    }
  }
  if (!host) {
    ctx.err('Specify "host" missing argument.\n');
    return 2;
  }
  if (!parseIP(host)) {
    ctx.err(
      `${host}: Name or service not known\nCannot handle "host" cmdline arg \`${host}' on position 1 (argc 1)\n`,
    );
    return 2;
  }
  const rows = ctx.outside(() =>
    tracerouteInSim(ctx.sim, { node: ctx.nodeName, ns: ctx.netns }, host!, {
      maxHops,
      queries,
      source: 'traceroute',
    }),
  );
  ctx.out(`traceroute to ${host} (${host}), ${maxHops} hops max, 60 byte packets\n`);
  rows.forEach((row, i) => {
    let line = `${String(i + 1).padStart(2)} `;
    let last: string | null = null;
    row.forEach((r, q) => {
      if (!r.from) {
        line += ' *';
        return;
      }
      if (r.from !== last) line += numeric ? ` ${r.from}` : ` ${r.from} (${r.from})`;
      last = r.from;
      line += `  ${(0.03 + 0.01 * (i + 1) + 0.002 * q).toFixed(3)} ms`;
    });
    ctx.out(line + '\n');
  });
  return 0;
}

export const TRACEROUTE_COMMANDS: readonly CommandSpec[] = [
  { name: 'traceroute', dir: '/usr/bin', run: tracerouteCmd },
];
