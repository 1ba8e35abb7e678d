/** cut -b LIST | -c LIST | -f LIST [-d C] [-s] [-n], GNU coreutils 9.1. */
import { FsView } from '../fsview';
import type { CommandContext } from '../types';
import { parseOpts } from './coreutils';
import { toUtf8Bytes, fromUtf8Bytes } from './text';
import { tryHelp, q, readInput, ERRTEXT, linesOf } from './textutils';

/** A cut LIST (1-based, ranges N, N-M, -M, N-): the selected positions test. */
function parseList(
  ctx: CommandContext,
  list: string,
  fields: boolean,
): ((n: number) => boolean) | null {
  const ranges: Array<[number, number]> = [];
  for (const part of list.split(',')) {
    const m = /^(\d*)(-?)(\d*)$/.exec(part);
    if (!m || part === '' || part === '-') {
      tryHelp(ctx, 'cut', `invalid ${fields ? 'field' : 'byte/character'} position ${q(part)}`);
      return null;
    }
    const lo = m[1] === '' ? 1 : Number(m[1]);
    const hi = m[2] === '' ? lo : m[3] === '' ? Infinity : Number(m[3]);
    if (lo === 0) {
      tryHelp(
        ctx,
        'cut',
        fields ? 'fields are numbered from 1' : 'byte/character positions are numbered from 1',
      );
      return null;
    }
    if (hi < lo) {
      tryHelp(ctx, 'cut', 'invalid decreasing range');
      return null;
    }
    ranges.push([lo, hi]);
  }
  return (n) => ranges.some(([a, b]) => n >= a && n <= b);
}

export function cut(ctx: CommandContext): number {
  const o = parseOpts(ctx, 'cut', {
    flags: 'sn',
    withValue: 'bcdf',
    long: { bytes: 'b', characters: 'c', delimiter: 'd', fields: 'f', 'only-delimited': 's' },
  });
  if (!o) return 1;
  const kinds = ['b', 'c', 'f'].filter((k) => o.values.has(k));
  if (kinds.length === 0)
    return tryHelp(ctx, 'cut', 'you must specify a list of bytes, characters, or fields');
  if (kinds.length > 1) return tryHelp(ctx, 'cut', 'only one type of list may be specified');
  const kind = kinds[0]!;
  const delim = o.values.get('d') ?? '\t';
  if ([...delim].length !== 1)
    return tryHelp(ctx, 'cut', 'the delimiter must be a single character');
  if (kind !== 'f' && o.values.has('d'))
    return tryHelp(ctx, 'cut', 'an input delimiter may be specified only when operating on fields');
  const sel = parseList(ctx, o.values.get(kind)!, kind === 'f');
  if (!sel) return 1;
  const view = new FsView(ctx);
  let status = 0;
  let out = '';
  for (const f of o.operands.length ? o.operands : ['-']) {
    const r = readInput(ctx, view, f);
    if (!r.ok) {
      ctx.err(`cut: ${f}: ${ERRTEXT[r.errno]}\n`);
      status = 1;
      continue;
    }
    for (const line of linesOf(r.data)) {
      const nl = line.endsWith('\n');
      const text = nl ? line.slice(0, -1) : line;
      if (kind === 'f') {
        const parts = text.split(delim);
        if (parts.length === 1) {
          if (!o.flags.has('s')) out += text + '\n';
          continue;
        }
        out += parts.filter((_, i) => sel(i + 1)).join(delim) + '\n';
      } else if (kind === 'c') {
        out += [...text].filter((_, i) => sel(i + 1)).join('') + '\n';
      } else {
        out += fromUtf8Bytes(toUtf8Bytes(text).filter((_, i) => sel(i + 1))) + '\n';
      }
    }
  }
  ctx.out(out);
  return status;
}
