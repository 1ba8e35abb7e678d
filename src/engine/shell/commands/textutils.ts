/** What the read-only coreutils share: --help hints, quoting, reading operands or stdin, errno texts. */
import { FsView } from '../fsview';
import type { CommandContext } from '../types';
import { quoteAlways } from './coreutils';
import { toUtf8Bytes } from './text';

export function tryHelp(ctx: CommandContext, prog: string, msg: string): number {
  ctx.err(`${prog}: ${msg}\nTry '${prog} --help' for more information.\n`);
  return prog === 'ls' || prog === 'sort' ? 2 : 1;
}

/** coreutils' quote() in messages: 'name' (with C.UTF-8's ‘name’ where GNU uses quote()). */
export function q(s: string): string {
  return quoteAlways(s);
}

// ls

/** Reads a file operand for head/tail/wc/sort/uniq; `-` is stdin. */
export function readInput(
  ctx: CommandContext,
  view: FsView,
  f: string,
):
  | { ok: true; data: string; regular: boolean; size: number }
  | { ok: false; errno: 'ENOENT' | 'EISDIR' | 'EINVAL' } {
  if (f === '-') return { ok: true, data: ctx.stdin, regular: false, size: 0 };
  const e = view.stat(ctx.resolve(f));
  if (!e) return { ok: false, errno: 'ENOENT' };
  if (e.kind === 'dir') return { ok: false, errno: 'EISDIR' };
  if (e.nsfs) return { ok: false, errno: 'EINVAL' };
  // A /proc/sys file is a regular file of size 0 whose reads give its value.
  return { ok: true, data: e.data, regular: true, size: e.proc ? 0 : toUtf8Bytes(e.data).length };
}

export const ERRTEXT = {
  ENOENT: 'No such file or directory',
  EISDIR: 'Is a directory',
  EINVAL: 'Invalid argument',
};

/** Splits into lines keeping their terminators (the last may have none). */
export function linesOf(s: string): string[] {
  const out = s.match(/[^\n]*\n|[^\n]+$/g);
  return out ?? [];
}
