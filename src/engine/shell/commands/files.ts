/**
 * File commands with GNU coreutils 9.1's messages (as on Debian bookworm, LANG=C.UTF-8): cat, rm,
 * mv, cp, mkdir, touch, truncate. Paths are the node's filesystem. Network namespace mount points
 * (/var/run/netns/NAME, nsfs) behave as on a real node: they cannot be read, written, removed or
 * moved while mounted.
 *
 * Options: cat [-n] [-E] [-A] [-u]; rm [-f] [-r|-R] [-d] [-v]; mv [-f] [-v] [-n] [-T];
 * cp [-r|-R|-a] [-f] [-p] [-v] [-T]; mkdir [-p] [-m MODE] [-v]; touch [-c] (times are not
 * modelled); truncate -s SIZE (N, +N, -N, <N, >N, /N, %N; K M G T, KB MB.., KiB MiB..) [-c].
 * File data is text: sizes count UTF-8 bytes.
 */
import * as vfs from '../../fs/vfs';
import type { CommandContext, CommandSpec } from '../types';
import { STRERROR } from '../types';
import { FsView } from '../fsview';
import { fromUtf8Bytes, toUtf8Bytes } from './text';

/** coreutils' quote for "cannot remove 'X'"-style messages (shell-escape, always quoted). */
export function quoteAlways(s: string): string {
  if (!s.includes("'")) return `'${s}'`;
  if (!/["$`\\]/.test(s)) return `"${s}"`;
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** coreutils' quotef: as is, unless the name needs quoting for a shell. */
export function quoteIfNeeded(s: string): string {
  return /^[A-Za-z0-9_.,:/@%+=^~-]+$/.test(s) ? s : quoteAlways(s);
}

/** The locale's quotes (C.UTF-8): ‘X’. */
export function quoteLocale(s: string): string {
  return `‘${s}’`;
}

export interface Parsed {
  flags: Set<string>;
  values: Map<string, string>;
  operands: string[];
}

/** getopt-style parsing: short flags (combined), flags with a value, `--`, long names mapped. */
export function parseOpts(
  ctx: CommandContext,
  prog: string,
  spec: { flags: string; withValue?: string; long?: Record<string, string> },
): Parsed | null {
  const flags = new Set<string>();
  const values = new Map<string, string>();
  const operands: string[] = [];
  const args = ctx.argv.slice(1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const [name, val] = a.slice(2).split(/=(.*)/s) as [string, string | undefined];
      const short = spec.long?.[name];
      if (!short) {
        ctx.err(
          `${prog}: unrecognized option '${a}'\nTry '${prog} --help' for more information.\n`,
        );
        return null;
      }
      if (spec.withValue?.includes(short)) {
        const v = val ?? args[++i];
        if (v === undefined) {
          ctx.err(
            `${prog}: option '--${name}' requires an argument\nTry '${prog} --help' for more information.\n`,
          );
          return null;
        }
        values.set(short, v);
      } else flags.add(short);
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const f = a[j]!;
        if (spec.withValue?.includes(f)) {
          const v = j + 1 < a.length ? a.slice(j + 1) : args[++i];
          if (v === undefined) {
            ctx.err(
              `${prog}: option requires an argument -- '${f}'\nTry '${prog} --help' for more information.\n`,
            );
            return null;
          }
          values.set(f, v);
          break;
        }
        if (!spec.flags.includes(f)) {
          ctx.err(
            `${prog}: invalid option -- '${f}'\nTry '${prog} --help' for more information.\n`,
          );
          return null;
        }
        flags.add(f);
      }
      continue;
    }
    operands.push(a);
  }
  return { flags, values, operands };
}

function errnoOf(e: unknown): string {
  if (e instanceof vfs.FsError) return e.errno;
  throw e;
}

// -----------------------------------------------------------------------------------------------
// cat

function cat(ctx: CommandContext): number {
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

// -----------------------------------------------------------------------------------------------
// rm

function rm(ctx: CommandContext): number {
  const o = parseOpts(ctx, 'rm', {
    flags: 'frRdvi',
    long: { force: 'f', recursive: 'r', dir: 'd', verbose: 'v' },
  });
  if (!o) return 1;
  const force = o.flags.has('f');
  const recursive = o.flags.has('r') || o.flags.has('R');
  if (o.operands.length === 0) {
    if (force) return 0;
    ctx.err("rm: missing operand\nTry 'rm --help' for more information.\n");
    return 1;
  }
  let status = 0;
  for (const f of o.operands) {
    const p = ctx.resolve(f);
    if (recursive && p === '/') {
      ctx.err(
        "rm: it is dangerous to operate recursively on '/'\nrm: use --no-preserve-root to override this failsafe\n",
      );
      status = 1;
      continue;
    }
    // unlink(2): a symbolic link goes itself, never what it points to.
    const e = vfs.lstat(ctx.fs(), p);
    if (!e) {
      if (!force) {
        ctx.err(`rm: cannot remove ${quoteAlways(f)}: No such file or directory\n`);
        status = 1;
      }
      continue;
    }
    if (e.kind !== 'dir') {
      if (e.kind === 'file' && e.nsfs) {
        ctx.err(`rm: cannot remove ${quoteAlways(f)}: Device or resource busy\n`);
        status = 1;
        continue;
      }
      ctx.changeFs((fs) => vfs.remove(fs, p));
      if (o.flags.has('v')) ctx.out(`removed ${quoteAlways(f)}\n`);
      continue;
    }
    if (!recursive) {
      if (o.flags.has('d')) {
        if (vfs.readDir(ctx.fs(), p).length > 0) {
          ctx.err(`rm: cannot remove ${quoteAlways(f)}: Directory not empty\n`);
          status = 1;
        } else ctx.changeFs((fs) => vfs.remove(fs, p));
        continue;
      }
      ctx.err(`rm: cannot remove ${quoteAlways(f)}: Is a directory\n`);
      status = 1;
      continue;
    }
    // Recursive: children first; mount points stay (and keep their directories).
    const paths = vfs.walk(ctx.fs(), p).reverse();
    const kept = new Set<string>();
    for (const q of paths) {
      const qe = vfs.lstat(ctx.fs(), q);
      if (!qe) continue;
      if (qe.kind === 'file' && qe.nsfs) {
        const shown = f + q.slice(p.length);
        ctx.err(`rm: cannot remove ${quoteAlways(shown)}: Device or resource busy\n`);
        status = 1;
        for (let d = vfs.dirname(q); d.startsWith(p); d = vfs.dirname(d)) {
          kept.add(d);
          if (d === p) break;
        }
        continue;
      }
      if (kept.has(q)) continue;
      ctx.changeFs((fs) => vfs.remove(fs, q));
      if (o.flags.has('v'))
        ctx.out(
          `removed ${qe.kind === 'dir' ? 'directory ' : ''}${quoteAlways(f + q.slice(p.length))}\n`,
        );
    }
  }
  return status;
}

// -----------------------------------------------------------------------------------------------
// mv / cp

function isWithin(child: string, parent: string): boolean {
  return child === parent || child.startsWith(parent === '/' ? '/' : parent + '/');
}

function moveOrCopy(ctx: CommandContext, prog: 'mv' | 'cp'): number {
  const o =
    prog === 'mv'
      ? parseOpts(ctx, 'mv', {
          flags: 'fivnTu',
          long: { force: 'f', verbose: 'v', 'no-clobber': 'n', 'no-target-directory': 'T' },
        })
      : parseOpts(ctx, 'cp', {
          flags: 'rRafpvnTdLPH',
          long: {
            recursive: 'r',
            archive: 'a',
            force: 'f',
            verbose: 'v',
            'no-clobber': 'n',
            'no-target-directory': 'T',
          },
        });
  if (!o) return 1;
  const ops = o.operands;
  if (ops.length === 0) {
    ctx.err(`${prog}: missing file operand\nTry '${prog} --help' for more information.\n`);
    return 1;
  }
  if (ops.length === 1) {
    ctx.err(
      `${prog}: missing destination file operand after ${quoteAlways(ops[0]!)}\nTry '${prog} --help' for more information.\n`,
    );
    return 1;
  }
  const dest = ops[ops.length - 1]!;
  const sources = ops.slice(0, -1);
  const destAbs = ctx.resolve(dest);
  const destIsDir = !o.flags.has('T') && vfs.stat(ctx.fs(), destAbs)?.kind === 'dir';
  if (sources.length > 1 && !destIsDir) {
    const exists = vfs.stat(ctx.fs(), destAbs);
    ctx.err(
      exists || prog === 'mv'
        ? `${prog}: target ${quoteAlways(dest)}: Not a directory\n`
        : `${prog}: target ${quoteAlways(dest)}: No such file or directory\n`,
    );
    return 1;
  }
  const recursive = o.flags.has('r') || o.flags.has('R') || o.flags.has('a');
  let status = 0;
  for (const src of sources) {
    const s = ctx.resolve(src);
    const se = vfs.stat(ctx.fs(), s);
    if (!se) {
      ctx.err(`${prog}: cannot stat ${quoteAlways(src)}: No such file or directory\n`);
      status = 1;
      continue;
    }
    const target = destIsDir ? vfs.joinPath(destAbs, vfs.basename(s)) : destAbs;
    const shownTarget = destIsDir ? `${dest.replace(/\/+$/, '')}/${vfs.basename(s)}` : dest;
    const te = vfs.stat(ctx.fs(), target);
    if (prog === 'cp' && se.kind === 'dir' && !recursive) {
      ctx.err(`cp: -r not specified; omitting directory ${quoteAlways(src)}\n`);
      status = 1;
      continue;
    }
    if (target === s) {
      ctx.err(`${prog}: ${quoteAlways(src)} and ${quoteAlways(shownTarget)} are the same file\n`);
      status = 1;
      continue;
    }
    if (se.kind === 'dir' && isWithin(target, s)) {
      if (prog === 'cp' && !te) {
        // cp makes the copy (of what was there before) and then complains.
        const before = vfs.walk(ctx.fs(), s).filter((q) => !isWithin(q, target));
        for (const q of before) {
          const qe = vfs.stat(ctx.fs(), q)!;
          const to = target + q.slice(s.length);
          if (qe.kind === 'dir') ctx.changeFs((fs) => vfs.mkdirAll(fs, to, qe.mode));
          else if (!qe.nsfs)
            ctx.changeFs((fs) =>
              vfs.writeFile(fs, to, qe.data, {
                mode: qe.mode,
                ...(qe.exec ? { exec: qe.exec } : {}),
              }),
            );
        }
      }
      ctx.err(
        prog === 'mv'
          ? `mv: cannot move ${quoteAlways(src)} to a subdirectory of itself, ${quoteAlways(shownTarget)}\n`
          : `cp: cannot copy a directory, ${quoteAlways(src)}, into itself, ${quoteAlways(shownTarget)}\n`,
      );
      status = 1;
      continue;
    }
    if (te && se.kind === 'dir' && te.kind !== 'dir') {
      ctx.err(
        `${prog}: cannot overwrite non-directory ${quoteAlways(shownTarget)} with directory ${quoteAlways(src)}\n`,
      );
      status = 1;
      continue;
    }
    if (te && se.kind !== 'dir' && te.kind === 'dir') {
      ctx.err(
        `${prog}: cannot overwrite directory ${quoteAlways(shownTarget)} with non-directory\n`,
      );
      status = 1;
      continue;
    }
    if (te && o.flags.has('n')) continue;
    const parent = vfs.stat(ctx.fs(), vfs.dirname(target));
    const parentErr = !parent ? 'ENOENT' : parent.kind !== 'dir' ? 'ENOTDIR' : null;
    if (prog === 'mv') {
      if ((se.kind === 'file' && se.nsfs) || (te?.kind === 'file' && te.nsfs)) {
        ctx.err(
          `mv: cannot move ${quoteAlways(src)} to ${quoteAlways(shownTarget)}: Device or resource busy\n`,
        );
        status = 1;
        continue;
      }
      if (parentErr) {
        ctx.err(
          `mv: cannot move ${quoteAlways(src)} to ${quoteAlways(shownTarget)}: ${STRERROR[parentErr]}\n`,
        );
        status = 1;
        continue;
      }
      if (te?.kind === 'dir') {
        if (vfs.readDir(ctx.fs(), target).length > 0) {
          ctx.err(
            `mv: cannot move ${quoteAlways(src)} to ${quoteAlways(shownTarget)}: Directory not empty\n`,
          );
          status = 1;
          continue;
        }
        ctx.changeFs((fs) => vfs.remove(fs, target));
      }
      ctx.changeFs((fs) => vfs.rename(fs, s, target));
      if (o.flags.has('v')) ctx.out(`renamed ${quoteAlways(src)} -> ${quoteAlways(shownTarget)}\n`);
      continue;
    }
    // cp
    if (se.kind === 'file' && se.nsfs) {
      ctx.err(`cp: error reading ${quoteAlways(src)}: Invalid argument\n`);
      status = 1;
      continue;
    }
    if (te?.kind === 'file' && te.nsfs) {
      ctx.err(
        `cp: cannot create regular file ${quoteAlways(shownTarget)}: Operation not permitted\n`,
      );
      status = 1;
      continue;
    }
    if (parentErr) {
      ctx.err(
        se.kind === 'dir'
          ? `cp: cannot create directory ${quoteAlways(shownTarget)}: ${STRERROR[parentErr]}\n`
          : `cp: cannot create regular file ${quoteAlways(shownTarget)}: ${STRERROR[parentErr]}\n`,
      );
      status = 1;
      continue;
    }
    const copyFile = (from: string, to: string) => {
      const fe = vfs.stat(ctx.fs(), from);
      if (!fe || fe.kind !== 'file' || fe.nsfs) return;
      ctx.changeFs((fs) =>
        vfs.writeFile(fs, to, fe.data, { mode: fe.mode, ...(fe.exec ? { exec: fe.exec } : {}) }),
      );
    };
    if (se.kind === 'file') copyFile(s, target);
    else {
      for (const q of vfs.walk(ctx.fs(), s)) {
        const to = target + q.slice(s.length);
        const qe = vfs.stat(ctx.fs(), q);
        if (qe?.kind === 'dir') ctx.changeFs((fs) => vfs.mkdirAll(fs, to, qe.mode));
        else copyFile(q, to);
      }
    }
    if (o.flags.has('v')) ctx.out(`${quoteAlways(src)} -> ${quoteAlways(shownTarget)}\n`);
  }
  return status;
}

// -----------------------------------------------------------------------------------------------
// mkdir, touch

function mkdir(ctx: CommandContext): number {
  const o = parseOpts(ctx, 'mkdir', {
    flags: 'pv',
    withValue: 'm',
    long: { parents: 'p', verbose: 'v', mode: 'm' },
  });
  if (!o) return 1;
  if (o.operands.length === 0) {
    ctx.err("mkdir: missing operand\nTry 'mkdir --help' for more information.\n");
    return 1;
  }
  let mode = 0o755;
  const m = o.values.get('m');
  if (m !== undefined) {
    if (!/^[0-7]{1,4}$/.test(m)) {
      ctx.err(`mkdir: invalid mode ${quoteLocale(m)}\n`);
      return 1;
    }
    mode = parseInt(m, 8);
  }
  let status = 0;
  for (const d of o.operands) {
    const p = ctx.resolve(d);
    const e = vfs.stat(ctx.fs(), p);
    if (o.flags.has('p')) {
      // The first component that exists but is not a directory stops it.
      let cur = '/';
      let bad: string | null = null;
      for (const seg of p.split('/').filter(Boolean)) {
        cur = vfs.joinPath(cur, seg);
        const ce = vfs.stat(ctx.fs(), cur);
        if (ce && ce.kind !== 'dir') {
          bad = cur;
          break;
        }
      }
      if (bad !== null) {
        const shown =
          bad === p ? d : d.startsWith('/') ? bad : bad.slice(ctx.cwd.length + 1) || bad;
        ctx.err(
          `mkdir: cannot create directory ${quoteLocale(shown)}: ${bad === p ? 'File exists' : 'Not a directory'}\n`,
        );
        status = 1;
        continue;
      }
      if (!e) {
        // Each missing component is made (and, with -v, reported) in turn.
        const segs = d.split('/');
        for (let i = 1; i <= segs.length; i++) {
          const part = segs.slice(0, i).join('/');
          if (part === '' || segs[i - 1] === '') continue;
          const abs = ctx.resolve(part);
          if (vfs.stat(ctx.fs(), abs)) continue;
          ctx.changeFs((fs) => vfs.mkdirAll(fs, abs, mode));
          if (o.flags.has('v')) ctx.out(`mkdir: created directory ${quoteAlways(part)}\n`);
        }
      }
      continue;
    }
    if (e) {
      ctx.err(`mkdir: cannot create directory ${quoteLocale(d)}: File exists\n`);
      status = 1;
      continue;
    }
    const parent = vfs.stat(ctx.fs(), vfs.dirname(p));
    if (!parent || parent.kind !== 'dir') {
      ctx.err(
        `mkdir: cannot create directory ${quoteLocale(d)}: ${parent ? 'Not a directory' : 'No such file or directory'}\n`,
      );
      status = 1;
      continue;
    }
    ctx.changeFs((fs) => vfs.mkdirAll(fs, p, mode));
    if (o.flags.has('v')) ctx.out(`mkdir: created directory ${quoteAlways(d)}\n`);
  }
  return status;
}

function touch(ctx: CommandContext): number {
  const o = parseOpts(ctx, 'touch', {
    flags: 'acmhf',
    withValue: 'drt',
    long: { 'no-create': 'c' },
  });
  if (!o) return 1;
  if (o.operands.length === 0) {
    ctx.err("touch: missing file operand\nTry 'touch --help' for more information.\n");
    return 1;
  }
  let status = 0;
  for (const f of o.operands) {
    const p = ctx.resolve(f);
    const e = vfs.stat(ctx.fs(), p);
    if (e) {
      if (e.kind === 'file' && e.nsfs) {
        ctx.err(`touch: cannot touch ${quoteAlways(f)}: Operation not permitted\n`);
        status = 1;
      }
      continue;
    }
    if (o.flags.has('c')) continue;
    const parent = vfs.stat(ctx.fs(), vfs.dirname(p));
    if (!parent || parent.kind !== 'dir') {
      ctx.err(
        `touch: cannot touch ${quoteAlways(f)}: ${parent ? 'Not a directory' : 'No such file or directory'}\n`,
      );
      status = 1;
      continue;
    }
    ctx.changeFs((fs) => vfs.writeFile(fs, p, ''));
  }
  return status;
}

// -----------------------------------------------------------------------------------------------
// truncate

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

function truncate(ctx: CommandContext): number {
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

export const FILE_COMMANDS: CommandSpec[] = [
  { name: 'cat', dir: '/usr/bin', run: cat },
  { name: 'rm', dir: '/usr/bin', run: rm },
  { name: 'mv', dir: '/usr/bin', run: (ctx) => moveOrCopy(ctx, 'mv') },
  { name: 'cp', dir: '/usr/bin', run: (ctx) => moveOrCopy(ctx, 'cp') },
  { name: 'mkdir', dir: '/usr/bin', run: mkdir },
  { name: 'touch', dir: '/usr/bin', run: touch },
  { name: 'truncate', dir: '/usr/bin', run: truncate },
];
