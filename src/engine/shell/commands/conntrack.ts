/**
 * `conntrack` (conntrack-tools 1.4.7) over the namespace the command runs in: the entries the
 * dataplane's walks left in its connection tracking table.
 *
 * Supported: conntrack -L|--dump [-p PROTO] [-s ADDR] [-d ADDR]; conntrack -C|--count;
 * conntrack -F|--flush. The summary line goes to stderr, as the real tool prints it.
 */
import { nsById } from '../../kernel/kernel';
import { ctText } from '../../dataplane/walk';
import type { CommandContext, CommandSpec } from '../types';

const VERSION = 'conntrack v1.4.7 (conntrack-tools)';

export function conntrackCmd(ctx: CommandContext): number {
  const a = ctx.argv.slice(1);
  let cmd: 'L' | 'C' | 'F' | null = null;
  const filter: { p?: string; s?: string; d?: string } = {};
  for (let i = 0; i < a.length; i++) {
    const x = a[i]!;
    if (x === '-L' || x === '--dump') cmd = 'L';
    else if (x === '-C' || x === '--count') cmd = 'C';
    else if (x === '-F' || x === '--flush') cmd = 'F';
    else if (x === '-p' || x === '--proto') filter.p = a[++i];
    else if (x === '-s' || x === '--src' || x === '--orig-src') filter.s = a[++i];
    else if (x === '-d' || x === '--dst' || x === '--orig-dst') filter.d = a[++i];
    else {
      ctx.err(`${VERSION}: Unknown argument: ${x}\nTry \`conntrack -h' for more information.\n`);
      return 2;
    }
  }
  if (!cmd) {
    ctx.err(`${VERSION}: no command specified\nTry \`conntrack -h' for more information.\n`);
    return 2;
  }
  const ns = nsById(ctx.kernel(), ctx.netns);
  const all = ns.conntrack ?? [];
  if (cmd === 'C') {
    ctx.out(`${all.length}\n`);
    return 0;
  }
  if (cmd === 'F') {
    ctx.changeKernel((k) => {
      nsById(k, ctx.netns).conntrack = [];
    });
    ctx.err(`${VERSION}: connection tracking table has been emptied.\n`);
    return 0;
  }
  const shown = all.filter(
    (e) =>
      (filter.p === undefined || e.proto === filter.p) &&
      (filter.s === undefined || e.orig.src === filter.s) &&
      (filter.d === undefined || e.orig.dst === filter.d),
  );
  for (const e of shown) ctx.out(ctText(e) + '\n');
  ctx.err(`${VERSION}: ${shown.length} flow entries have been shown.\n`);
  return 0;
}

export const CONNTRACK_COMMANDS: readonly CommandSpec[] = [
  { name: 'conntrack', dir: '/usr/sbin', run: conntrackCmd },
];
