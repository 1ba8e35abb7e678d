/**
 * Read-only file commands with the behaviour and messages of GNU coreutils 9.1 and findutils
 * 4.9 (Debian bookworm, LANG=C.UTF-8): ls, head, tail, wc, sort, uniq, find. They read the node's
 * files through FsView (/proc/sys included, from the command's network namespace).
 *
 * Options: ls [-l] [-a] [-A] [-1] [-C] [-d] [-h] [-r] [-t] [-S] (columns when stdout is the
 * terminal, COLUMNS wide, tabs as GNU ls aligns them); head / tail [-n [-+]N] [-c N] [-N] [-q]
 * [-v] (tail -f is refused: the simulation has no Ctrl-C); wc [-l] [-w] [-c] [-m] [-L];
 * sort [-r] [-n] [-u] [-k N[,M]] [-t C]; uniq [-c] [-d] [-u] [-i]; find PATH... [-name PAT]
 * [-iname PAT] [-type f|d] [-maxdepth N] [-mindepth N] [-print].
 *
 * Not modelled: file times other than the simulation's (see fsview.ts), owners other than root,
 * symbolic links. find and grep -r list directories in byte order where the real tools follow the
 * filesystem's (unsorted) order.
 */
import * as vfs from '../../fs/vfs';
import { BASE_TIME_MS } from '../../trace/time';
import { globMatch } from '../expand';
import { FsView, type ViewEntry } from '../fsview';
import type { CommandContext, CommandSpec } from '../types';
import { parseOpts, quoteAlways } from './files';
import { toUtf8Bytes, fromUtf8Bytes } from './text';
import { MONTHS } from '../../trace/time';

function tryHelp(ctx: CommandContext, prog: string, msg: string): number {
  ctx.err(`${prog}: ${msg}\nTry '${prog} --help' for more information.\n`);
  return prog === 'ls' || prog === 'sort' ? 2 : 1;
}

/** coreutils' quote() in messages: 'name' (with C.UTF-8's ‘name’ where GNU uses quote()). */
function q(s: string): string {
  return quoteAlways(s);
}

// -----------------------------------------------------------------------------------------------
// ls

/** ls -l's time column: "%b %e %H:%M", or "%b %e  %Y" when over six months from now. */
function lsTime(us: number, nowUs: number): string {
  const d = new Date(BASE_TIME_MS + Math.floor(us / 1000));
  const mon = MONTHS[d.getUTCMonth()]!;
  const day = String(d.getUTCDate()).padStart(2);
  // Half a Gregorian year, as ls counts six months.
  const sixMonths = 15_778_476_000_000;
  if (nowUs - us > sixMonths || us > nowUs) return `${mon} ${day}  ${d.getUTCFullYear()}`;
  const hh = String(d.getUTCHours()).padStart(2, '0');
  const mm = String(d.getUTCMinutes()).padStart(2, '0');
  return `${mon} ${day} ${hh}:${mm}`;
}

function modeString(e: ViewEntry): string {
  const m = e.mode;
  const bits = (n: number, special: boolean, s: string) =>
    `${n & 4 ? 'r' : '-'}${n & 2 ? 'w' : '-'}${special ? (n & 1 ? s : s.toUpperCase()) : n & 1 ? 'x' : '-'}`;
  return (
    (e.kind === 'dir' ? 'd' : e.kind === 'link' ? 'l' : '-') +
    bits((m >> 6) & 7, (m & 0o4000) !== 0, 's') +
    bits((m >> 3) & 7, (m & 0o2000) !== 0, 's') +
    bits(m & 7, (m & 0o1000) !== 0, 't')
  );
}

/** human_readable() as ls -h uses it: powers of 1024, one decimal below 10, rounded up. */
export function humanSize(n: number): string {
  if (n < 1024) return String(n);
  const units = ['K', 'M', 'G', 'T', 'P', 'E'];
  let v = n;
  let i = -1;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  if (v < 10) {
    const r = Math.ceil(v * 10) / 10;
    if (r >= 10) return `10${units[i]}`;
    return `${r.toFixed(1)}${units[i]}`;
  }
  const r = Math.ceil(v);
  if (r >= 1024 && i < units.length - 1) return `1.0${units[i + 1]}`;
  return `${r}${units[i]}`;
}

interface LsItem {
  name: string;
  path: string;
  e: ViewEntry;
}

/** GNU ls's column layout (print_many_per_line): vertical columns, tab-indented. */
function columns(names: string[], lineWidth: number): string {
  const n = names.length;
  if (n === 0) return '';
  const MIN = 3;
  const maxCols = Math.max(1, Math.min(Math.floor(lineWidth / MIN), n));
  const info = Array.from({ length: maxCols }, (_, i) => ({
    valid: true,
    lineLen: (i + 1) * MIN,
    arr: new Array<number>(i + 1).fill(MIN),
  }));
  names.forEach((name, filesno) => {
    const len = [...name].length;
    for (let i = 0; i < maxCols; i++) {
      const ci = info[i]!;
      if (!ci.valid) continue;
      const idx = Math.floor(filesno / Math.floor((n + i) / (i + 1)));
      const real = len + (idx === i ? 0 : 2);
      if (ci.arr[idx]! < real) {
        ci.lineLen += real - ci.arr[idx]!;
        ci.arr[idx] = real;
        ci.valid = ci.lineLen < lineWidth;
      }
    }
  });
  let cols = 1;
  for (let i = maxCols - 1; i >= 0; i--) {
    if (info[i]!.valid) {
      cols = i + 1;
      break;
    }
  }
  const arr = info[cols - 1]!.arr;
  const rows = Math.floor(n / cols) + (n % cols !== 0 ? 1 : 0);
  let out = '';
  for (let row = 0; row < rows; row++) {
    let col = 0;
    let filesno = row;
    let pos = 0;
    for (;;) {
      const name = names[filesno]!;
      out += name;
      const nameLen = [...name].length;
      const max = arr[col++]!;
      filesno += rows;
      if (filesno >= n) break;
      // indent(pos + nameLen, pos + max) with tabs of 8.
      let from = pos + nameLen;
      const to = pos + max;
      while (from < to) {
        if (Math.floor(to / 8) > Math.floor((from + 1) / 8)) {
          out += '\t';
          from += 8 - (from % 8);
        } else {
          out += ' ';
          from++;
        }
      }
      pos += max;
    }
    out += '\n';
  }
  return out;
}

function ls(ctx: CommandContext): number {
  const o = parseOpts(ctx, 'ls', {
    flags: 'laA1CdhrtSFpiRsUx',
    withValue: 'w',
    long: {
      width: 'w',
      all: 'a',
      'almost-all': 'A',
      directory: 'd',
      'human-readable': 'h',
      reverse: 'r',
    },
  });
  if (!o) return 2;
  for (const f of ['F', 'p', 'i', 'R', 's', 'U', 'x']) {
    if (o.flags.has(f)) {
      ctx.err(`ls: cnisim: option -${f} is not supported\n`);
      return 2;
    }
  }
  const view = new FsView(ctx);
  const long = o.flags.has('l');
  const all = o.flags.has('a');
  const almost = o.flags.has('A') && !all;
  // -1 and -C: the last one given wins; -l wins over both; else columns on a terminal.
  let format: '1' | 'C' | null = null;
  for (const a of ctx.argv.slice(1)) {
    if (a === '--') break;
    if (!a.startsWith('-') || a.startsWith('--')) continue;
    for (const c of a.slice(1)) if (c === '1' || c === 'C') format = c;
  }
  const multi = !long && (format === 'C' || (format === null && ctx.isatty));
  const wOpt = o.values.get('w');
  if (wOpt !== undefined && !/^\d+$/.test(wOpt)) {
    ctx.err(`ls: invalid line width: ‘${wOpt}’\n`);
    return 2;
  }
  const cols = wOpt ?? ctx.env['COLUMNS'] ?? '';
  const width = /^\d+$/.test(cols) && Number(cols) > 0 ? Number(cols) : 80;
  const now = ctx.sim.state.clock;
  let status = 0;

  const sortItems = (items: LsItem[]): LsItem[] => {
    const byName = (a: LsItem, b: LsItem) => vfs.byteCompare(a.name, b.name);
    let cmp = byName;
    if (o.flags.has('t')) {
      cmp = (a, b) => view.mtime(b.path, b.e) - view.mtime(a.path, a.e) || byName(a, b);
    } else if (o.flags.has('S')) {
      cmp = (a, b) => view.size(b.path, b.e) - view.size(a.path, a.e) || byName(a, b);
    }
    const out = [...items].sort(cmp);
    return o.flags.has('r') ? out.reverse() : out;
  };

  const render = (items: LsItem[], withTotal: boolean): string => {
    if (!long) {
      const names = items.map((i) => i.name);
      if (multi) return columns(names, width);
      return names.map((x) => x + '\n').join('');
    }
    const rows = items.map((i) => {
      const size = view.size(i.path, i.e);
      return {
        mode: modeString(i.e),
        links: String(view.links(i.path, i.e)),
        size: o.flags.has('h') ? humanSize(size) : String(size),
        time: lsTime(view.mtime(i.path, i.e), now),
        name: i.e.kind === 'link' ? `${i.name} -> ${i.e.data}` : i.name,
      };
    });
    const wl = Math.max(0, ...rows.map((r) => r.links.length));
    const ws = Math.max(0, ...rows.map((r) => r.size.length));
    let out = '';
    if (withTotal) {
      const blocks = items.reduce((s, i) => s + view.blocks(i.path, i.e), 0);
      out += `total ${o.flags.has('h') ? humanSize(blocks * 1024) : blocks}\n`;
    }
    for (const r of rows)
      out += `${r.mode} ${r.links.padStart(wl)} root root ${r.size.padStart(ws)} ${r.time} ${r.name}\n`;
    return out;
  };

  const operands = o.operands.length ? o.operands : ['.'];
  const files: LsItem[] = [];
  const dirs: LsItem[] = [];
  // As GNU ls: with -l or -d a symbolic link operand is shown itself, unless it ends with "/".
  const noFollow = long || o.flags.has('d');
  for (const f of operands) {
    const p = ctx.resolve(f);
    const e = noFollow && !f.endsWith('/') ? view.lstat(p) : view.stat(p);
    if (!e) {
      ctx.err(`ls: cannot access ${q(f)}: No such file or directory\n`);
      status = 2;
      continue;
    }
    if (e.kind === 'dir' && !o.flags.has('d')) dirs.push({ name: f, path: p, e });
    else files.push({ name: f, path: p, e });
  }
  let printed = false;
  if (files.length) {
    ctx.out(render(sortItems(files), false));
    printed = true;
  }
  const header = operands.length > 1;
  for (const d of sortItems(dirs)) {
    const names = view.readDir(d.path).filter((n) => all || almost || !n.startsWith('.'));
    const items: LsItem[] = names.map((n) => {
      const p = vfs.joinPath(d.path, n);
      return { name: n, path: p, e: view.lstat(p)! };
    });
    let sorted = sortItems(items);
    if (all) {
      const parent = d.path === '/' ? '/' : vfs.dirname(d.path);
      const dots: LsItem[] = [
        { name: '.', path: d.path, e: d.e },
        { name: '..', path: parent, e: view.stat(parent)! },
      ];
      sorted = o.flags.has('t') || o.flags.has('S') ? sortItems([...dots, ...items]) : sorted;
      if (!o.flags.has('t') && !o.flags.has('S'))
        sorted = o.flags.has('r') ? [...sorted, ...dots.reverse()] : [...dots, ...sorted];
    }
    let text = '';
    if (printed) text += '\n';
    if (header) text += `${d.name}:\n`;
    text += render(sorted, true);
    ctx.out(text);
    printed = true;
  }
  return status;
}

// -----------------------------------------------------------------------------------------------
// head / tail

/** Reads a file operand for head/tail/wc/sort/uniq; `-` is stdin. */
function readInput(
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

const ERRTEXT = {
  ENOENT: 'No such file or directory',
  EISDIR: 'Is a directory',
  EINVAL: 'Invalid argument',
};

/** Splits into lines keeping their terminators (the last may have none). */
function linesOf(s: string): string[] {
  const out = s.match(/[^\n]*\n|[^\n]+$/g);
  return out ?? [];
}

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

function headTail(ctx: CommandContext, prog: 'head' | 'tail'): number {
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

// -----------------------------------------------------------------------------------------------
// wc

function wc(ctx: CommandContext): number {
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

// -----------------------------------------------------------------------------------------------
// sort / uniq

/** The number at the start of a string as sort -n reads it (0 when there is none). */
function numericKey(s: string): number {
  const m = /^[ \t]*(-?)(\d*)(?:\.(\d*))?/.exec(s);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return 0;
  const v = Number(`${m[2] || '0'}.${m[3] || '0'}`);
  return m[1] === '-' ? -v : v;
}

function sort(ctx: CommandContext): number {
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

function uniq(ctx: CommandContext): number {
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

// -----------------------------------------------------------------------------------------------
// find

type FindTest =
  | { t: 'name'; pat: string; ci: boolean }
  | { t: 'type'; kind: 'file' | 'dir' | 'link' | 'other' }
  | { t: 'true' };

function find(ctx: CommandContext): number {
  const args = ctx.argv.slice(1);
  const roots: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('-') || a === '!' || a === '(') break;
    roots.push(a);
  }
  if (roots.length === 0) roots.push('.');
  const tests: FindTest[] = [];
  let maxDepth = Infinity;
  let minDepth = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    const arg = (): string | null => {
      const v = args[i + 1];
      if (v === undefined) {
        ctx.err(`find: missing argument to \`${a}'\n`);
        return null;
      }
      i++;
      return v;
    };
    if (a === '-name' || a === '-iname') {
      const v = arg();
      if (v === null) return 1;
      tests.push({ t: 'name', pat: v, ci: a === '-iname' });
    } else if (a === '-type') {
      const v = arg();
      if (v === null) return 1;
      if (v === 'f') tests.push({ t: 'type', kind: 'file' });
      else if (v === 'd') tests.push({ t: 'type', kind: 'dir' });
      else if (v === 'l') tests.push({ t: 'type', kind: 'link' });
      else if (['b', 'c', 'p', 's', 'D'].includes(v)) tests.push({ t: 'type', kind: 'other' });
      else {
        ctx.err(`find: Unknown argument to -type: ${v}\n`);
        return 1;
      }
    } else if (a === '-maxdepth' || a === '-mindepth') {
      const v = arg();
      if (v === null) return 1;
      if (!/^\d+$/.test(v)) {
        ctx.err(`find: Expected a positive decimal integer argument to ${a}, but got ‘${v}’\n`);
        return 1;
      }
      if (a === '-maxdepth') maxDepth = Number(v);
      else minDepth = Number(v);
    } else if (a === '-print') tests.push({ t: 'true' });
    else if (
      [
        '-o',
        '-or',
        '!',
        '-not',
        '(',
        ')',
        '-exec',
        '-delete',
        '-path',
        '-newer',
        '-mtime',
        '-size',
        '-regex',
        '-prune',
        '-print0',
        '-ls',
      ].includes(a)
    ) {
      ctx.err(`find: cnisim: ${a} is not supported\n`);
      return 1;
    } else if (a.startsWith('-')) {
      ctx.err(`find: unknown predicate \`${a}'\n`);
      return 1;
    } else {
      ctx.err(`find: paths must precede expression: \`${a}'\n`);
      return 1;
    }
  }
  const view = new FsView(ctx);
  let status = 0;
  const matchesAll = (name: string, e: ViewEntry): boolean =>
    tests.every((t) => {
      if (t.t === 'true') return true;
      if (t.t === 'type') return e.kind === t.kind;
      return t.ci ? globMatch(t.pat.toLowerCase(), name.toLowerCase()) : globMatch(t.pat, name);
    });
  const walk = (shown: string, abs: string, e: ViewEntry, depth: number): void => {
    // -name looks at the last component of the path as find prints it.
    const trimmed = shown.replace(/\/+$/, '');
    const name = trimmed === '' ? '/' : trimmed.slice(trimmed.lastIndexOf('/') + 1);
    if (depth >= minDepth && matchesAll(name, e)) ctx.out(shown + '\n');
    if (e.kind !== 'dir' || depth >= maxDepth) return;
    // find -P (the default): symbolic links are looked at, not followed.
    for (const n of view.readDir(abs)) {
      const p = vfs.joinPath(abs, n);
      const ce = view.lstat(p);
      if (!ce) continue;
      walk(shown.endsWith('/') ? shown + n : `${shown}/${n}`, p, ce, depth + 1);
    }
  };
  for (const r of roots) {
    const p = ctx.resolve(r);
    const e = r.endsWith('/') ? view.stat(p) : view.lstat(p);
    if (!e) {
      ctx.err(`find: ‘${r}’: No such file or directory\n`);
      status = 1;
      continue;
    }
    walk(r, p, e, 0);
  }
  return status;
}

// -----------------------------------------------------------------------------------------------
// cut

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

function cut(ctx: CommandContext): number {
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

export const READER_COMMANDS: CommandSpec[] = [
  { name: 'cut', dir: '/usr/bin', run: cut },
  { name: 'ls', dir: '/usr/bin', run: ls },
  { name: 'head', dir: '/usr/bin', run: (ctx) => headTail(ctx, 'head') },
  { name: 'tail', dir: '/usr/bin', run: (ctx) => headTail(ctx, 'tail') },
  { name: 'wc', dir: '/usr/bin', run: wc },
  { name: 'sort', dir: '/usr/bin', run: sort },
  { name: 'uniq', dir: '/usr/bin', run: uniq },
  { name: 'find', dir: '/usr/bin', run: find },
];
