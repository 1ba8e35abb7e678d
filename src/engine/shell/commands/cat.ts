/** cat [-n] [-E] [-A] [-u], GNU coreutils 9.1 (Debian bookworm, LANG=C.UTF-8). A mounted netns (nsfs) cannot be read. */
import type { CommandContext } from '../types';
import { FsView } from '../fsview';
import { quoteIfNeeded, parseOpts } from './coreutils';

export function cat(ctx: CommandContext): number {
  const o = parseOpts(ctx, 'cat', {
    flags: 'nEAuvest',
    long: { number: 'n', 'show-ends': 'E', 'show-all': 'A' },
  });
  if (!o) return 1;
  const files = o.operands.length ? o.operands : ['-'];
  let status = 0;
  let text = '';
  for (const f of files) {
    if (f === '-') {
      text += ctx.stdin;
      continue;
    }
    const e = new FsView(ctx).stat(ctx.resolve(f));
    if (!e) {
      ctx.err(`cat: ${quoteIfNeeded(f)}: No such file or directory\n`);
      status = 1;
    } else if (e.kind === 'dir') {
      ctx.err(`cat: ${quoteIfNeeded(f)}: Is a directory\n`);
      status = 1;
    } else if (e.nsfs) {
      ctx.err(`cat: ${quoteIfNeeded(f)}: Invalid argument\n`);
      status = 1;
    } else text += e.data;
  }
  if (o.flags.has('E') || o.flags.has('A')) text = text.replace(/\n/g, '$\n');
  if (o.flags.has('n')) {
    let n = 0;
    text = text.replace(/^(.*)(\n|$)/gm, (m, line: string, nl: string) =>
      m === '' ? '' : `${String(++n).padStart(6)}\t${line}${nl}`,
    );
  }
  ctx.out(text);
  return status;
}

// rm
