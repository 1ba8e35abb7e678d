/**
 * truncate -s SIZE (N, +N, -N, <N, >N, /N, %N; K M G T, KB MB.., KiB MiB..) [-c], GNU coreutils
 * 9.1. File data is text: sizes count UTF-8 bytes.
 */
import * as vfs from '../../fs/vfs';
import type { CommandContext } from '../types';
import { STRERROR } from '../types';
import { quoteAlways, quoteLocale, parseOpts, errnoOf } from './coreutils';
import { fromUtf8Bytes, toUtf8Bytes } from './text';

const SIZE_SUFFIX: Record<string, number> = {
  '': 1,
  K: 1024,
  M: 1024 ** 2,
  G: 1024 ** 3,
  T: 1024 ** 4,
  P: 1024 ** 5,
  E: 1024 ** 6,
};

function parseSize(s: string): { op: string; n: number } | null {
  const m = /^([+\-<>/%]?)\s*([0-9]+)([KMGTPE]?)(iB|B)?$/i.exec(s);
  if (!m) return null;
  const unit = m[3]!.toUpperCase();
  if (m[4] && !unit) return null;
  const base = m[4] === 'B' || m[4] === 'b' ? 1000 : 1024;
  const mult = unit === '' ? 1 : base ** Object.keys(SIZE_SUFFIX).indexOf(unit);
  return { op: m[1]!, n: Number(m[2]) * mult };
}

export function truncate(ctx: CommandContext): number {
  const o = parseOpts(ctx, 'truncate', {
    flags: 'co',
    withValue: 'sr',
    long: { size: 's', 'no-create': 'c', reference: 'r', 'io-blocks': 'o' },
  });
  if (!o) return 1;
  const sizeArg = o.values.get('s');
  if (sizeArg === undefined && !o.values.has('r')) {
    ctx.err(
      "truncate: you must specify either ‘--size’ or ‘--reference’\nTry 'truncate --help' for more information.\n",
    );
    return 1;
  }
  if (o.values.has('r')) {
    ctx.err('truncate: cnisim: --reference is not supported\n');
    return 1;
  }
  const size = parseSize(sizeArg!);
  if (!size) {
    ctx.err(`truncate: Invalid number: ${quoteLocale(sizeArg!)}\n`);
    return 1;
  }
  if (o.operands.length === 0) {
    ctx.err("truncate: missing file operand\nTry 'truncate --help' for more information.\n");
    return 1;
  }
  let status = 0;
  for (const f of o.operands) {
    const p = ctx.resolve(f);
    const e = vfs.stat(ctx.fs(), p);
    if (!e && o.flags.has('c')) continue;
    const fail = (errno: string) => {
      ctx.err(`truncate: cannot open ${quoteAlways(f)} for writing: ${STRERROR[errno]}\n`);
      status = 1;
    };
    if (e?.kind === 'dir') {
      fail('EISDIR');
      continue;
    }
    if (e?.kind === 'file' && e.nsfs) {
      fail('EPERM');
      continue;
    }
    if (!e) {
      const parent = vfs.stat(ctx.fs(), vfs.dirname(p));
      if (!parent || parent.kind !== 'dir') {
        fail(parent ? 'ENOTDIR' : 'ENOENT');
        continue;
      }
    }
    const bytes = toUtf8Bytes(e?.kind === 'file' ? e.data : '');
    const cur = bytes.length;
    let n: number;
    switch (size.op) {
      case '+':
        n = cur + size.n;
        break;
      case '-':
        n = Math.max(0, cur - size.n);
        break;
      case '<':
        n = Math.min(cur, size.n);
        break;
      case '>':
        n = Math.max(cur, size.n);
        break;
      case '/':
        n = size.n === 0 ? cur : Math.floor(cur / size.n) * size.n;
        break;
      case '%':
        n = size.n === 0 ? cur : Math.ceil(cur / size.n) * size.n;
        break;
      default:
        n = size.n;
    }
    if (size.n === 0 && (size.op === '/' || size.op === '%')) {
      ctx.err('truncate: division by zero\n');
      return 1;
    }
    if (n > 1 << 26) {
      ctx.err(`truncate: cnisim: a file of ${n} bytes is too large for the simulation\n`);
      status = 1;
      continue;
    }
    const out = n <= cur ? bytes.slice(0, n) : [...bytes, ...new Array<number>(n - cur).fill(0)];
    try {
      ctx.changeFs((fs) => vfs.writeFile(fs, p, fromUtf8Bytes(out)));
    } catch (err) {
      fail(errnoOf(err));
    }
  }
  return status;
}
