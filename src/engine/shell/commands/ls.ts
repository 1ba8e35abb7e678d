/**
 * ls [-l] [-a] [-A] [-1] [-C] [-d] [-h] [-r] [-t] [-S], GNU coreutils 9.1 (LANG=C.UTF-8): columns
 * when stdout is the terminal, COLUMNS wide, tabs as GNU ls aligns them. Owners other than root
 * and symbolic links are not modelled; times are the simulation's (fsview.ts).
 */
import * as vfs from '../../fs/vfs';
import { BASE_TIME_MS } from '../../trace/time';
import { FsView, type ViewEntry } from '../fsview';
import type { CommandContext } from '../types';
import { parseOpts } from './coreutils';
import { MONTHS } from '../../trace/time';
import { q } from './textutils';

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

export function ls(ctx: CommandContext): number {
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

// head / tail
