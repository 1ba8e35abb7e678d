/** uniq [-c] [-d] [-u] [-i], GNU coreutils 9.1. */
import * as vfs from '../../fs/vfs';
import { FsView } from '../fsview';
import type { CommandContext } from '../types';
import { parseOpts } from './coreutils';
import { tryHelp, q, readInput, ERRTEXT } from './textutils';

export function uniq(ctx: CommandContext): number {
  const o = parseOpts(ctx, 'uniq', {
    flags: 'cdui',
    long: { count: 'c', repeated: 'd', unique: 'u', 'ignore-case': 'i' },
  });
  if (!o) return 1;
  if (o.operands.length > 2) return tryHelp(ctx, 'uniq', `extra operand ${q(o.operands[2]!)}`);
  const view = new FsView(ctx);
  const input = o.operands[0] ?? '-';
  const r = readInput(ctx, view, input);
  if (!r.ok) {
    ctx.err(`uniq: ${input}: ${ERRTEXT[r.errno]}\n`);
    return 1;
  }
  const data = r.data && !r.data.endsWith('\n') ? r.data + '\n' : r.data;
  const lines = data === '' ? [] : data.slice(0, -1).split('\n');
  const same = (a: string, b: string) =>
    o.flags.has('i') ? a.toLowerCase() === b.toLowerCase() : a === b;
  let out = '';
  for (let i = 0; i < lines.length;) {
    let j = i + 1;
    while (j < lines.length && same(lines[i]!, lines[j]!)) j++;
    const n = j - i;
    const show = o.flags.has('d') ? n > 1 : o.flags.has('u') ? n === 1 : true;
    if (show) out += o.flags.has('c') ? `${String(n).padStart(7)} ${lines[i]}\n` : `${lines[i]}\n`;
    i = j;
  }
  const dest = o.operands[1];
  if (dest !== undefined) {
    const p = ctx.resolve(dest);
    ctx.changeFs((fs) => vfs.writeFile(fs, p, out));
    return 0;
  }
  ctx.out(out);
  return 0;
}

// find
