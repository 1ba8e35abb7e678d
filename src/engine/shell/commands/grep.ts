/**
 * GNU grep 3.8 (Debian bookworm, LANG=C.UTF-8) over the node's files: basic (default), extended
 * (-E) and fixed (-F) patterns, several with -e; -i -v -c -n -o -l -L -q -s -w -x -h -H -r/-R.
 * Exit status 0 when a line was selected, 1 when none, 2 on an error (unless -q found a match).
 * Colours are off (grep's default without --color). grep -r visits directories in byte order.
 */
import * as vfs from '../../fs/vfs';
import { FsView } from '../fsview';
import type { CommandContext, CommandSpec } from '../types';
import { posixToJs } from './sed';

const USAGE =
  "Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.\n";

const LONG: Record<string, string> = {
  'ignore-case': 'i',
  'invert-match': 'v',
  count: 'c',
  'line-number': 'n',
  'only-matching': 'o',
  'files-with-matches': 'l',
  'files-without-match': 'L',
  quiet: 'q',
  silent: 'q',
  'no-messages': 's',
  'word-regexp': 'w',
  'line-regexp': 'x',
  'no-filename': 'h',
  'with-filename': 'H',
  recursive: 'r',
  'extended-regexp': 'E',
  'fixed-strings': 'F',
  'basic-regexp': 'G',
  regexp: 'e',
};

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function grep(ctx: CommandContext): number {
  const args = ctx.argv.slice(1);
  const flags = new Set<string>();
  const patterns: string[] = [];
  const operands: string[] = [];
  let mode: 'G' | 'E' | 'F' = 'G';
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      operands.push(...args.slice(i + 1));
      break;
    }
    if (a.startsWith('--') && a.length > 2) {
      const [name, val] = a.slice(2).split(/=(.*)/s) as [string, string | undefined];
      const f = LONG[name];
      if (name === 'color' || name === 'colour') continue;
      if (!f) {
        ctx.err(`grep: unrecognized option '${a}'\n${USAGE}`);
        return 2;
      }
      if (f === 'e') {
        const v = val ?? args[++i];
        if (v === undefined) {
          ctx.err(`grep: option '--regexp' requires an argument\n${USAGE}`);
          return 2;
        }
        patterns.push(v);
      } else if (f === 'E' || f === 'F' || f === 'G') mode = f;
      else flags.add(f);
      continue;
    }
    if (a.startsWith('-') && a.length > 1) {
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (c === 'e') {
          const v = j + 1 < a.length ? a.slice(j + 1) : args[++i];
          if (v === undefined) {
            ctx.err(`grep: option requires an argument -- 'e'\n${USAGE}`);
            return 2;
          }
          patterns.push(v);
          break;
        }
        if (c === 'E' || c === 'F' || c === 'G') mode = c;
        else if (c === 'R') flags.add('r');
        else if (c === 'y') flags.add('i');
        else if ('ivcnolLqswxhHr'.includes(c)) flags.add(c);
        else if ('ABCfmdD'.includes(c)) {
          ctx.err(`grep: cnisim: option -${c} is not supported\n`);
          return 2;
        } else {
          ctx.err(`grep: invalid option -- '${c}'\n${USAGE}`);
          return 2;
        }
      }
      continue;
    }
    operands.push(a);
  }
  if (patterns.length === 0) {
    const p = operands.shift();
    if (p === undefined) {
      ctx.err(USAGE);
      return 2;
    }
    patterns.push(p);
  }
  // A pattern argument with newlines is several patterns.
  const pats = patterns.flatMap((p) => p.split('\n'));
  let sources: string[];
  try {
    sources = pats.map((p) => {
      if (mode === 'F') return escapeRe(p);
      return posixToJs(p, mode === 'E').source;
    });
  } catch (e) {
    ctx.err(`grep: ${(e as Error).message}\n`);
    return 2;
  }
  const word = flags.has('w');
  const whole = flags.has('x');
  const wrapped = sources.map((s) =>
    whole ? `^(?:${s})$` : word ? `(?<![A-Za-z0-9_])(?:${s})(?![A-Za-z0-9_])` : `(?:${s})`,
  );
  const re = new RegExp(wrapped.join('|'), flags.has('i') ? 'gi' : 'g');
  const invert = flags.has('v');
  const recursive = flags.has('r');
  const view = new FsView(ctx);

  // The inputs: stdin, files, and with -r everything under the directories (without an operand,
  // -r searches "." and names files relative to it).
  const implicitDot = operands.length === 0 && recursive;
  if (operands.length === 0) operands.push(recursive ? '.' : '-');
  const inputs: Array<{ shown: string; abs: string | null }> = [];
  let status = 1;
  let error = false;
  const quietErr = flags.has('s');
  const fail = (msg: string) => {
    if (!quietErr) ctx.err(`grep: ${msg}\n`);
    error = true;
  };
  for (const op of operands) {
    if (op === '-') {
      inputs.push({ shown: '(standard input)', abs: null });
      continue;
    }
    const abs = ctx.resolve(op);
    const e = view.stat(abs);
    if (!e) {
      fail(`${op}: No such file or directory`);
      continue;
    }
    if (e.kind === 'dir' && recursive) {
      const walk = (shown: string, dir: string) => {
        for (const n of view.readDir(dir)) {
          const p = vfs.joinPath(dir, n);
          const s = shown.endsWith('/') ? shown + n : `${shown}/${n}`;
          // -r follows symbolic links on the command line only.
          const ce = view.lstat(p);
          if (ce?.kind === 'link') continue;
          if (ce?.kind === 'dir') walk(s, p);
          else if (ce) inputs.push({ shown: s, abs: p });
        }
      };
      walk(implicitDot ? '' : op, abs);
      continue;
    }
    inputs.push({ shown: op, abs });
  }
  const many = inputs.length > 1 || recursive;
  const withName = flags.has('H') || (many && !flags.has('h'));
  for (const inp of inputs) {
    let data: string;
    const name = implicitDot ? inp.shown.replace(/^\//, '') : inp.shown;
    if (inp.abs === null) data = ctx.stdin;
    else {
      const e = view.stat(inp.abs)!;
      if (e.kind === 'dir') {
        fail(`${inp.shown}: Is a directory`);
        continue;
      }
      if (e.nsfs) {
        fail(`${inp.shown}: Invalid argument`);
        continue;
      }
      data = e.data;
    }
    const lines = data === '' ? [] : (data.endsWith('\n') ? data.slice(0, -1) : data).split('\n');
    let count = 0;
    const prefix = (n: number) => `${withName ? `${name}:` : ''}${flags.has('n') ? `${n}:` : ''}`;
    let out = '';
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      re.lastIndex = 0;
      const matched = re.test(line);
      if (matched === invert) continue;
      count++;
      if (flags.has('q') || flags.has('l') || flags.has('L') || flags.has('c')) continue;
      if (flags.has('o') && !invert) {
        re.lastIndex = 0;
        for (const m of line.matchAll(re)) {
          if (m[0] === '') continue;
          out += `${prefix(i + 1)}${m[0]}\n`;
        }
      } else if (!flags.has('o')) out += `${prefix(i + 1)}${line}\n`;
    }
    if (count > 0) status = 0;
    if (flags.has('q')) {
      if (count > 0) return 0;
      continue;
    }
    if (flags.has('l')) {
      if (count > 0) ctx.out(`${name}\n`);
    } else if (flags.has('L')) {
      if (count === 0) ctx.out(`${name}\n`);
    } else if (flags.has('c')) ctx.out(`${withName ? `${name}:` : ''}${count}\n`);
    else ctx.out(out);
  }
  if (error && !(flags.has('q') && status === 0)) return 2;
  return status;
}

export const GREP_COMMANDS: CommandSpec[] = [{ name: 'grep', dir: '/usr/bin', run: grep }];
