/** rm [-f] [-r|-R] [-d] [-v], GNU coreutils 9.1. A mounted netns mount point cannot be removed. */
import * as vfs from '../../fs/vfs';
import type { CommandContext } from '../types';
import { quoteAlways, parseOpts } from './coreutils';

export function rm(ctx: CommandContext): number {
  const o = parseOpts(ctx, 'rm', {
    flags: 'frRdvi',
    long: { force: 'f', recursive: 'r', dir: 'd', verbose: 'v' },
  });
  if (!o) return 1;
  const force = o.flags.has('f');
  const recursive = o.flags.has('r') || o.flags.has('R');
  if (o.operands.length === 0) {
    if (force) return 0;
    ctx.err("rm: missing operand\nTry 'rm --help' for more information.\n");
    return 1;
  }
  let status = 0;
  for (const f of o.operands) {
    const p = ctx.resolve(f);
    if (recursive && p === '/') {
      ctx.err(
        "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n",
      );
      status = 1;
      continue;
    }
    // unlink(2): a symbolic link goes itself, never what it points to.
    const e = vfs.lstat(ctx.fs(), p);
    if (!e) {
      if (!force) {
        ctx.err(`rm: cannot remove ${quoteAlways(f)}: No such file or directory\n`);
        status = 1;
      }
      continue;
    }
    if (e.kind !== 'dir') {
      if (e.kind === 'file' && e.nsfs) {
        ctx.err(`rm: cannot remove ${quoteAlways(f)}: Device or resource busy\n`);
        status = 1;
        continue;
      }
      ctx.changeFs((fs) => vfs.remove(fs, p));
      if (o.flags.has('v')) ctx.out(`removed ${quoteAlways(f)}\n`);
      continue;
    }
    if (!recursive) {
      if (o.flags.has('d')) {
        if (vfs.readDir(ctx.fs(), p).length > 0) {
          ctx.err(`rm: cannot remove ${quoteAlways(f)}: Directory not empty\n`);
          status = 1;
        } else ctx.changeFs((fs) => vfs.remove(fs, p));
        continue;
      }
      ctx.err(`rm: cannot remove ${quoteAlways(f)}: Is a directory\n`);
      status = 1;
      continue;
    }
    // Recursive: children first; mount points stay (and keep their directories).
    const paths = vfs.walk(ctx.fs(), p).reverse();
    const kept = new Set<string>();
    for (const q of paths) {
      const qe = vfs.lstat(ctx.fs(), q);
      if (!qe) continue;
      if (qe.kind === 'file' && qe.nsfs) {
        const shown = f + q.slice(p.length);
        ctx.err(`rm: cannot remove ${quoteAlways(shown)}: Device or resource busy\n`);
        status = 1;
        for (let d = vfs.dirname(q); d.startsWith(p); d = vfs.dirname(d)) {
          kept.add(d);
          if (d === p) break;
        }
        continue;
      }
      if (kept.has(q)) continue;
      ctx.changeFs((fs) => vfs.remove(fs, q));
      if (o.flags.has('v'))
        ctx.out(
          `removed ${qe.kind === 'dir' ? 'directory ' : ''}${quoteAlways(f + q.slice(p.length))}\n`,
        );
    }
  }
  return status;
}

// mv / cp
