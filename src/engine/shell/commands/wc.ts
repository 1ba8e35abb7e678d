/** wc [-l] [-w] [-c] [-m] [-L], GNU coreutils 9.1. */
import { FsView } from '../fsview';
import type { CommandContext } from '../types';
import { parseOpts } from './coreutils';
import { toUtf8Bytes } from './text';
import { readInput, ERRTEXT } from './textutils';

export function wc(ctx: CommandContext): number {
  const o = parseOpts(ctx, 'wc', {
    flags: 'lwcmL',
    long: { lines: 'l', words: 'w', bytes: 'c', chars: 'm', 'max-line-length': 'L' },
  });
  if (!o) return 1;
  let want = ['l', 'w', 'm', 'c', 'L'].filter((f) => o.flags.has(f));
  if (want.length === 0) want = ['l', 'w', 'c'];
  const files = o.operands.length ? o.operands : [null];
  const view = new FsView(ctx);
  const inputs = files.map((f) =>
    f === null ? readInput(ctx, view, '-') : readInput(ctx, view, f),
  );
  // Column width: the digits of the regular files' total size (7 at least if one is not a
  // regular file); no padding for one count of one input.
  let width = 1;
  if (!(files.length === 1 && want.length === 1)) {
    let min = 1;
    let total = 0;
    inputs.forEach((r, i) => {
      if (r.ok) {
        if (r.regular && files[i] !== null && files[i] !== '-') total += r.size;
        else min = 7;
      } else if (r.errno === 'EISDIR') min = 7;
    });
    width = Math.max(String(total).length, min);
  }
  const totals = { l: 0, w: 0, m: 0, c: 0, L: 0 };
  let status = 0;
  const line = (c: typeof totals, name: string | null) =>
    want.map((k) => String(c[k as keyof typeof c]).padStart(width)).join(' ') +
    (name !== null ? ` ${name}` : '') +
    '\n';
  inputs.forEach((r, i) => {
    const f = files[i]!;
    let data = '';
    if (!r.ok) {
      ctx.err(`wc: ${f}: ${ERRTEXT[r.errno]}\n`);
      status = 1;
      if (r.errno === 'ENOENT') return;
    } else data = r.data;
    const c = {
      l: (data.match(/\n/g) ?? []).length,
      w: data.split(/[ \t\n\v\f\r]+/).filter((x) => x !== '').length,
      m: [...data].length,
      c: toUtf8Bytes(data).length,
      L: Math.max(0, ...data.split('\n').map((x) => [...x.replace(/\t/g, '        ')].length)),
    };
    for (const k of Object.keys(totals) as Array<keyof typeof totals>)
      totals[k] = k === 'L' ? Math.max(totals.L, c.L) : totals[k] + c[k];
    ctx.out(line(c, f));
  });
  if (files.length > 1) ctx.out(line(totals, 'total'));
  return status;
}

// sort / uniq
