/** head / tail [-n [-+]N] [-c N] [-N] [-q] [-v], GNU coreutils 9.1 (tail -f is refused: the simulation has no Ctrl-C). */
import { FsView } from '../fsview';
import type { CommandContext } from '../types';
import { toUtf8Bytes, fromUtf8Bytes } from './text';
import { tryHelp, q, readInput, ERRTEXT, linesOf } from './textutils';

function parseCount(s: string): { neg: boolean; plus: boolean; n: number } | null {
  const m = /^([+-]?)(\d+)([bkKmMgG]?|[kKmMgG]B|[kKmMgG]iB)?$/.exec(s);
  if (!m) return null;
  const unit = (m[3] ?? '').toUpperCase();
  const mult: Record<string, number> = {
    '': 1,
    B: 512,
    K: 1024,
    KB: 1000,
    KIB: 1024,
    M: 1024 ** 2,
    MB: 1000 ** 2,
    MIB: 1024 ** 2,
    G: 1024 ** 3,
    GB: 1000 ** 3,
    GIB: 1024 ** 3,
  };
  return { neg: m[1] === '-', plus: m[1] === '+', n: Number(m[2]) * (mult[unit] ?? 1) };
}

export function headTail(ctx: CommandContext, prog: 'head' | 'tail'): number {
  // The obsolete forms: head -5, tail -5 / +5 (as the first argument).
  let args = ctx.argv.slice(1);
  let lines: { neg: boolean; plus: boolean; n: number } = { neg: false, plus: false, n: 10 };
  let bytes: typeof lines | null = null;
  const first = args[0];
  if (first !== undefined && /^-\d+$/.test(first)) {
    lines = { neg: false, plus: false, n: Number(first.slice(1)) };
    args = args.slice(1);
    if (prog === 'tail' && args.filter((a) => !a.startsWith('-')).length > 1) {
      ctx.err(`tail: option used in invalid context -- ${first.slice(1)}\n`);
      return 1;
    }
  }
  let quiet = false;
  let verbose = false;
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      files.push(...args.slice(i + 1));
      break;
    }
    const m = /^(-n|-c|--lines=|--bytes=)(.*)$/.exec(a);
    if (m) {
      let v = m[2]!;
      if (v === '' && !m[1]!.endsWith('=')) {
        const nx = args[++i];
        if (nx === undefined)
          return tryHelp(ctx, prog, `option requires an argument -- '${m[1]![1]}'`);
        v = nx;
      }
      const isLines = m[1] === '-n' || m[1] === '--lines=';
      const c = parseCount(v);
      if (!c) {
        ctx.err(`${prog}: invalid number of ${isLines ? 'lines' : 'bytes'}: ‘${v}’\n`);
        return 1;
      }
      if (isLines) {
        lines = c;
        bytes = null;
      } else bytes = c;
      continue;
    }
    if (a === '-f' || a === '-F' || a === '--follow' || a.startsWith('--follow=')) {
      ctx.err(
        `${prog}: cnisim: ${a} is not supported (a shell command of the simulation cannot run forever)\n`,
      );
      return 1;
    }
    if (a === '-q' || a === '--quiet' || a === '--silent') {
      quiet = true;
      verbose = false;
      continue;
    }
    if (a === '-v' || a === '--verbose') {
      verbose = true;
      quiet = false;
      continue;
    }
    if (a.startsWith('--') && a.length > 2) {
      ctx.err(`${prog}: unrecognized option '${a}'\nTry '${prog} --help' for more information.\n`);
      return 1;
    }
    if (a.startsWith('-') && a.length > 1) return tryHelp(ctx, prog, `invalid option -- '${a[1]}'`);
    files.push(a);
  }
  if (files.length === 0) files.push('-');
  const view = new FsView(ctx);
  const headers = verbose || (!quiet && files.length > 1);
  let status = 0;
  let first2 = true;
  for (const f of files) {
    const r = readInput(ctx, view, f);
    if (!r.ok) {
      if (r.errno === 'ENOENT')
        ctx.err(`${prog}: cannot open ${q(f)} for reading: No such file or directory\n`);
      else ctx.err(`${prog}: error reading ${q(f)}: ${ERRTEXT[r.errno]}\n`);
      status = 1;
      continue;
    }
    if (headers) {
      ctx.out(`${first2 ? '' : '\n'}==> ${f === '-' ? 'standard input' : f} <==\n`);
    }
    first2 = false;
    let text: string;
    if (bytes) {
      const b = toUtf8Bytes(r.data);
      let part: number[];
      if (prog === 'head')
        part = bytes.neg ? b.slice(0, Math.max(0, b.length - bytes.n)) : b.slice(0, bytes.n);
      else
        part = bytes.plus
          ? b.slice(Math.max(0, bytes.n - 1))
          : b.slice(Math.max(0, b.length - bytes.n));
      text = fromUtf8Bytes(part);
    } else {
      const ls = linesOf(r.data);
      let part: string[];
      if (prog === 'head')
        part = lines.neg ? ls.slice(0, Math.max(0, ls.length - lines.n)) : ls.slice(0, lines.n);
      else
        part = lines.plus
          ? ls.slice(Math.max(0, lines.n - 1))
          : lines.n === 0
            ? []
            : ls.slice(-lines.n);
      text = part.join('');
    }
    ctx.out(text);
  }
  return status;
}

// wc
