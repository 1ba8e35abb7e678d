/**
 * `nc` (netcat-openbsd 1.219, Debian 12), as a listener and as a TCP client.
 *
 * `nc -l PORT`: a listening TCP socket in the command's namespace. The shell cannot leave a
 * process waiting in the foreground, so `nc -l PORT` returns at once and the socket stays (as
 * `nc -l PORT &` would). In the background (`nc -lk PORT &`) it is a job that runs until `kill`
 * (`kill -0 $!` succeeds), and killing it closes the socket. Whatever was piped
 * into it is what it sends to each client before closing (as `nc -lk -N` would: -N closes at the
 * end of its input), which `curl` or `nc` then read (docs/dataplane.md). `nc -l` again on the port
 * replaces it.
 *
 * `nc [-v] [-z] [-w SECS] HOST PORT`: connect(2) walked through the kernels (dataplane/net.ts
 * `tcpSessionInSim`): the handshake, then the close from both ends (conntrack ends in TIME_WAIT),
 * or, without an answer, the SYN sent again until -w runs out. -z sends nothing; without it, what
 * the listener sends is printed. -v says how it went on stderr, with the port's /etc/services
 * name, as the recordings show (testdata/traffic); without -v a failure is silent. Exit 0
 * connected, 1 otherwise.
 *
 * Supported: nc -l [-p] PORT [-k] [-n] [-v] [-N]; nc [-v] [-z] [-n] [-N] [-w SECS] HOST PORT.
 */
import { tcpSessionInSim } from '../../dataplane/net';
import { nsById } from '../../kernel/kernel';
import { parseIP } from '../../net/ip';
import type { CommandContext, CommandSpec } from '../types';

/** Debian's /etc/services (netbase 6.4), the TCP names nc -v prints; `*` for the others. */
const SERVICES: Record<number, string> = {
  21: 'ftp',
  22: 'ssh',
  23: 'telnet',
  25: 'smtp',
  53: 'domain',
  80: 'http',
  110: 'pop3',
  143: 'imap2',
  443: 'https',
  3306: 'mysql',
  5432: 'postgresql',
  6379: 'redis',
  8080: 'http-alt',
};

export function ncCmd(ctx: CommandContext): number {
  const a = ctx.argv.slice(1);
  let listen = false;
  let verbose = false;
  let zero = false;
  let wait: number | null = null;
  let port: number | undefined;
  const operands: string[] = [];
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (x === '-p') {
      port = Number(a[++i]);
      continue;
    }
    if (/^-[lknvzNw]+\d*$/.test(x)) {
      for (let j = 1; j < x.length; j++) {
        const c = x[j]!;
        if (c === 'l') listen = true;
        else if (c === 'v') verbose = true;
        else if (c === 'z') zero = true;
        else if (c === 'w') {
          const rest = x.slice(j + 1);
          const v = rest !== '' ? rest : a[++i];
          if (v === undefined || !/^\d+$/.test(v)) {
            ctx.err(`nc: timeout invalid: ${v ?? ''}\n`);
            return 1;
          }
          wait = Number(v);
          break;
        }
      }
      continue;
    }
    if (x.startsWith('-')) {
      ctx.err(
        `nc: cnisim models only nc -l PORT and nc [-v] [-z] [-w SECS] HOST PORT (got ${x})\n`,
      );
      return 1;
    }
    operands.push(x);
  }
  if (listen) {
    if (operands.length === 1 && port === undefined) port = Number(operands[0]);
    else if (operands.length > 0) {
      ctx.err(`nc: cnisim models only nc -l [-p] PORT (got ${operands.join(' ')})\n`);
      return 1;
    }
    if (port === undefined || !(port >= 1 && port <= 65535)) {
      ctx.err(`nc: port number invalid: ${port ?? ''}\n`);
      return 1;
    }
    const response = ctx.stdin;
    const p = port;
    const netns = ctx.netns;
    ctx.changeKernel((k) => {
      const ns = nsById(k, netns);
      ns.listeners = [
        ...(ns.listeners ?? []).filter((l) => l.port !== p),
        { proto: 'tcp', port: p, response },
      ];
    });
    // In the background the listener is a job until killed; killing it closes the socket.
    ctx.keepRunning((kc) =>
      kc.changeKernel((k) => {
        const ns = nsById(k, netns);
        ns.listeners = (ns.listeners ?? []).filter((l) => l.port !== p);
      }),
    );
    return 0;
  }
  if (operands.length !== 2) {
    ctx.err(
      'usage: nc [-46CDdFhklNnrStUuvZz] [-I length] [-i interval] [-M ttl]\n\t  [-m minttl] [-O length] [-P proxy_username] [-p source_port]\n\t  [-q seconds] [-s sourceaddr] [-T keyword] [-V rtable] [-W recvlimit]\n\t  [-w timeout] [-X proxy_protocol] [-x proxy_address[:port]]\n\t  [destination] [port]\n',
    );
    return 1;
  }
  const [host, portArg] = operands as [string, string];
  if (!/^\d+$/.test(portArg) || Number(portArg) < 1 || Number(portArg) > 65535) {
    ctx.err(`nc: port number invalid: ${portArg}\n`);
    return 1;
  }
  const dport = Number(portArg);
  if (!parseIP(host)) {
    ctx.err(`nc: getaddrinfo for host "${host}" port ${dport}: Name or service not known\n`);
    return 1;
  }
  // An ephemeral port from ip_local_port_range (32768-60999), different for each connection.
  const sport = 32768 + (ctx.sim.events.length % 28232);
  const r = ctx.outside(() =>
    tcpSessionInSim(ctx.sim, { node: ctx.nodeName, ns: ctx.netns }, host, dport, {
      source: 'nc',
      sport,
      // Without -w the kernel gives up after tcp_syn_retries (6): 127 s.
      waitS: wait ?? 127,
    }),
  );
  const failed = (why: string): number => {
    if (verbose) ctx.err(`nc: connect to ${host} port ${dport} (tcp) ${why}\n`);
    return 1;
  };
  switch (r.end) {
    case 'connected':
      if (verbose)
        ctx.err(`Connection to ${host} ${dport} port [tcp/${SERVICES[dport] ?? '*'}] succeeded!\n`);
      if (!zero) ctx.out(r.response ?? '');
      return 0;
    case 'refused':
      return failed('failed: Connection refused');
    case 'no-route':
      return failed('failed: Network is unreachable');
    case 'unreachable':
      // ARP gives up after 3 s: a shorter -w runs out first.
      if (wait !== null && wait < 3) return failed('timed out: Operation now in progress');
      return failed('failed: No route to host');
    default:
      return wait !== null
        ? failed('timed out: Operation now in progress')
        : failed('failed: Connection timed out');
  }
}

export const NC_COMMANDS: readonly CommandSpec[] = [{ name: 'nc', dir: '/usr/bin', run: ncCmd }];
