/** sort [-r] [-n] [-u] [-k N[,M]] [-t C], GNU coreutils 9.1. */
import * as vfs from '../../fs/vfs';
import { FsView } from '../fsview';
import type { CommandContext } from '../types';
import { parseOpts } from './coreutils';
import { readInput } from './textutils';

/** The number at the start of a string as sort -n reads it (0 when there is none). */
function numericKey(s: string): number {
  const m = /^[ \t]*(-?)(\d*)(?:\.(\d*))?/.exec(s);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return 0;
  const v = Number(`${m[2] || '0'}.${m[3] || '0'}`);
  return m[1] === '-' ? -v : v;
}

export function sort(ctx: CommandContext): number {
  const o = parseOpts(ctx, 'sort', {
    flags: 'rnufbsV',
    withValue: 'kto',
    long: { reverse: 'r', 'numeric-sort': 'n', unique: 'u', key: 'k', 'field-separator': 't' },
  });
  if (!o) return 2;
  if (o.flags.has('V') || o.values.has('o')) {
    ctx.err('sort: cnisim: -V and -o are not supported\n');
    return 2;
  }
  const view = new FsView(ctx);
  let data = '';
  for (const f of o.operands.length ? o.operands : ['-']) {
    const r = readInput(ctx, view, f);
    if (!r.ok) {
      ctx.err(
        r.errno === 'EISDIR'
          ? `sort: read failed: ${f}: Is a directory\n`
          : `sort: cannot read: ${f}: No such file or directory\n`,
      );
      return 2;
    }
    data += r.data && !r.data.endsWith('\n') ? r.data + '\n' : r.data;
  }
  const lines = data === '' ? [] : data.slice(0, -1).split('\n');
  const sep = o.values.get('t');
  const keySpec = o.values.get('k');
  let keyField: { start: number; end: number | null; numeric: boolean } | null = null;
  if (keySpec !== undefined) {
    const m = /^(\d+)(?:\.\d+)?([a-z]*)(?:,(\d+)(?:\.\d+)?([a-z]*))?$/.exec(keySpec);
    if (!m || Number(m[1]) === 0) {
      ctx.err(`sort: invalid number at field start: invalid count at start of ‘${keySpec}’\n`);
      return 2;
    }
    keyField = {
      start: Number(m[1]),
      end: m[3] ? Number(m[3]) : null,
      numeric: (m[2] ?? '').includes('n') || (m[4] ?? '').includes('n'),
    };
  }
  const numeric = o.flags.has('n') || !!keyField?.numeric;
  const keyOf = (line: string): string => {
    if (!keyField) return line;
    // Fields: separated by -t C, else by blank-to-nonblank transitions (leading blanks included).
    let fields: string[];
    if (sep !== undefined) fields = line.split(sep);
    else fields = line.match(/[ \t]*[^ \t]+|[ \t]+$/g) ?? [''];
    const end = keyField.end ?? fields.length;
    return fields.slice(keyField.start - 1, end).join(sep ?? '');
  };
  const bytes = (a: string, b: string) => vfs.byteCompare(a, b);
  const cmpKey = (a: string, b: string): number => {
    if (numeric) {
      const d = numericKey(keyOf(a)) - numericKey(keyOf(b));
      return d < 0 ? -1 : d > 0 ? 1 : 0;
    }
    return bytes(keyOf(a), keyOf(b));
  };
  const rev = o.flags.has('r') ? -1 : 1;
  const sorted = [...lines].sort((a, b) => {
    const k = cmpKey(a, b);
    if (k !== 0) return rev * k;
    if (o.flags.has('u') || o.flags.has('s')) return 0;
    return rev * bytes(a, b);
  });
  const out: string[] = [];
  for (const l of sorted) {
    if (o.flags.has('u') && out.length && cmpKey(out[out.length - 1]!, l) === 0) continue;
    out.push(l);
  }
  ctx.out(out.map((l) => l + '\n').join(''));
  return 0;
}
