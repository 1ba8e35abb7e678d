/** touch [-c], GNU coreutils 9.1 (times are not modelled). */
import * as vfs from '../../fs/vfs';
import type { CommandContext } from '../types';
import { quoteAlways, parseOpts } from './coreutils';

export function touch(ctx: CommandContext): number {
  const o = parseOpts(ctx, 'touch', {
    flags: 'acmhf',
    withValue: 'drt',
    long: { 'no-create': 'c' },
  });
  if (!o) return 1;
  if (o.operands.length === 0) {
    ctx.err("touch: missing file operand\nTry 'touch --help' for more information.\n");
    return 1;
  }
  let status = 0;
  for (const f of o.operands) {
    const p = ctx.resolve(f);
    const e = vfs.stat(ctx.fs(), p);
    if (e) {
      if (e.kind === 'file' && e.nsfs) {
        ctx.err(`touch: cannot touch ${quoteAlways(f)}: Operation not permitted\n`);
        status = 1;
      }
      continue;
    }
    if (o.flags.has('c')) continue;
    const parent = vfs.stat(ctx.fs(), vfs.dirname(p));
    if (!parent || parent.kind !== 'dir') {
      ctx.err(
        `touch: cannot touch ${quoteAlways(f)}: ${parent ? 'Not a directory' : 'No such file or directory'}\n`,
      );
      status = 1;
      continue;
    }
    ctx.changeFs((fs) => vfs.writeFile(fs, p, ''));
  }
  return status;
}

// truncate
