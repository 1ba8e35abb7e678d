/** mkdir [-p] [-m MODE] [-v], GNU coreutils 9.1. */
import * as vfs from '../../fs/vfs';
import type { CommandContext } from '../types';
import { quoteAlways, quoteLocale, parseOpts } from './coreutils';

export function mkdir(ctx: CommandContext): number {
  const o = parseOpts(ctx, 'mkdir', {
    flags: 'pv',
    withValue: 'm',
    long: { parents: 'p', verbose: 'v', mode: 'm' },
  });
  if (!o) return 1;
  if (o.operands.length === 0) {
    ctx.err("mkdir: missing operand\nTry 'mkdir --help' for more information.\n");
    return 1;
  }
  let mode = 0o755;
  const m = o.values.get('m');
  if (m !== undefined) {
    if (!/^[0-7]{1,4}$/.test(m)) {
      ctx.err(`mkdir: invalid mode ${quoteLocale(m)}\n`);
      return 1;
    }
    mode = parseInt(m, 8);
  }
  let status = 0;
  for (const d of o.operands) {
    const p = ctx.resolve(d);
    const e = vfs.stat(ctx.fs(), p);
    if (o.flags.has('p')) {
      // The first component that exists but is not a directory stops it.
      let cur = '/';
      let bad: string | null = null;
      for (const seg of p.split('/').filter(Boolean)) {
        cur = vfs.joinPath(cur, seg);
        const ce = vfs.stat(ctx.fs(), cur);
        if (ce && ce.kind !== 'dir') {
          bad = cur;
          break;
        }
      }
      if (bad !== null) {
        const shown =
          bad === p ? d : d.startsWith('/') ? bad : bad.slice(ctx.cwd.length + 1) || bad;
        ctx.err(
          `mkdir: cannot create directory ${quoteLocale(shown)}: ${bad === p ? 'File exists' : 'Not a directory'}\n`,
        );
        status = 1;
        continue;
      }
      if (!e) {
        // Each missing component is made (and, with -v, reported) in turn.
        const segs = d.split('/');
        for (let i = 1; i <= segs.length; i++) {
          const part = segs.slice(0, i).join('/');
          if (part === '' || segs[i - 1] === '') continue;
          const abs = ctx.resolve(part);
          if (vfs.stat(ctx.fs(), abs)) continue;
          ctx.changeFs((fs) => vfs.mkdirAll(fs, abs, mode));
          if (o.flags.has('v')) ctx.out(`mkdir: created directory ${quoteAlways(part)}\n`);
        }
      }
      continue;
    }
    if (e) {
      ctx.err(`mkdir: cannot create directory ${quoteLocale(d)}: File exists\n`);
      status = 1;
      continue;
    }
    const parent = vfs.stat(ctx.fs(), vfs.dirname(p));
    if (!parent || parent.kind !== 'dir') {
      ctx.err(
        `mkdir: cannot create directory ${quoteLocale(d)}: ${parent ? 'Not a directory' : 'No such file or directory'}\n`,
      );
      status = 1;
      continue;
    }
    ctx.changeFs((fs) => vfs.mkdirAll(fs, p, mode));
    if (o.flags.has('v')) ctx.out(`mkdir: created directory ${quoteAlways(d)}\n`);
  }
  return status;
}
