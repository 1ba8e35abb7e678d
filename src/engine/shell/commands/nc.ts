/**
 * `nc -l` (OpenBSD netcat 1.219): a listening TCP socket in the command's namespace. The shell
 * cannot leave a process waiting, so `nc -l PORT` returns at once and the socket stays (as
 * `nc -l PORT &` would); whatever was piped into it is what it sends to each client before closing
 * (as `nc -lk -N` would: -N closes at the end of its input), which `curl` then reads (docs/dataplane.md). `nc -l` again on the port replaces it.
 *
 * Supported: nc -l [-p] PORT [-k] [-n] [-v]; nc without -l is not modelled.
 */
import { nsById } from '../../kernel/kernel';
import type { CommandContext, CommandSpec } from '../types';

export function ncCmd(ctx: CommandContext): number {
  const a = ctx.argv.slice(1);
  let listen = false;
  let port: number | undefined;
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (x === '-l') listen = true;
    else if (x === '-p') port = Number(a[++i]);
    else if (x === '-k' || x === '-n' || x === '-v' || x === '-lk' || x === '-lv' || x === '-lnv')
      listen ||= x.includes('l');
    else if (/^\d+$/.test(x)) port = Number(x);
    else {
      ctx.err(`nc: cnisim models only nc -l [-p] PORT (got ${x})\n`);
      return 1;
    }
  }
  if (!listen) {
    ctx.err('nc: cnisim models only nc -l [-p] PORT: use curl to connect\n');
    return 1;
  }
  if (port === undefined || !(port >= 1 && port <= 65535)) {
    ctx.err(`nc: port number invalid: ${port ?? ''}\n`);
    return 1;
  }
  const response = ctx.stdin;
  ctx.changeKernel((k) => {
    const ns = nsById(k, ctx.netns);
    ns.listeners = [
      ...(ns.listeners ?? []).filter((l) => l.port !== port),
      { proto: 'tcp', port: port!, response },
    ];
  });
  return 0;
}

export const NC_COMMANDS: readonly CommandSpec[] = [{ name: 'nc', dir: '/usr/bin', run: ncCmd }];
