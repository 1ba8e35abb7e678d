/**
 * bash's `test` / `[` builtin: POSIX's argument-count rules, then a recursive parser for longer
 * expressions with ! -a -o ( ). Unary: -e -f -d -s -r -w -x -L -h -z -n; binary: = == != < >
 * -eq -ne -lt -le -gt -ge. Files are the node's filesystem (root may read and write anything).
 */
import * as vfs from '../../fs/vfs';
import type { CommandContext, CommandSpec } from '../types';

const UNARY = new Set([
  '-e',
  '-f',
  '-d',
  '-s',
  '-r',
  '-w',
  '-x',
  '-L',
  '-h',
  '-z',
  '-n',
  '-a',
  '-b',
  '-c',
  '-p',
  '-S',
  '-t',
  '-g',
  '-u',
  '-k',
  '-O',
  '-G',
  '-N',
  '-v',
]);
const BINARY = new Set([
  '=',
  '==',
  '!=',
  '<',
  '>',
  '-eq',
  '-ne',
  '-lt',
  '-le',
  '-gt',
  '-ge',
  '-nt',
  '-ot',
  '-ef',
]);

class TestError extends Error {}

function integer(s: string): bigint {
  const t = s.trim();
  if (!/^[+-]?[0-9]+$/.test(t)) throw new TestError(`${s}: integer expression expected`);
  return BigInt(t);
}

/** What a unary test reads: the node's files and the shell's variables. */
export interface TestHost {
  fs: CommandContext['fs'];
  resolve(p: string): string;
  shell: { getVar(name: string): string | undefined };
}

/** A unary primary of `test` and `[[ ]]` (-e -f -d -s -z -n -v ...). */
export function unary(ctx: TestHost, op: string, arg: string): boolean {
  if (op === '-z') return arg === '';
  if (op === '-n') return arg !== '';
  if (op === '-v') return ctx.shell.getVar(arg) !== undefined;
  if (op === '-t') return false;
  const e = arg === '' ? undefined : vfs.stat(ctx.fs(), ctx.resolve(arg));
  switch (op) {
    case '-e':
    case '-a':
      return !!e;
    case '-f':
      return e?.kind === 'file';
    case '-d':
      return e?.kind === 'dir';
    case '-s':
      return e?.kind === 'dir' || (e?.kind === 'file' && (e.data.length > 0 || !!e.exec));
    case '-r':
    case '-w':
      return !!e;
    case '-x':
      return !!e && (e.kind === 'dir' || (e.mode & 0o111) !== 0);
    default:
      return false;
  }
}

function binary(a: string, op: string, b: string): boolean {
  switch (op) {
    case '=':
    case '==':
      return a === b;
    case '!=':
      return a !== b;
    case '<':
      return a < b;
    case '>':
      return a > b;
    case '-eq':
      return integer(a) === integer(b);
    case '-ne':
      return integer(a) !== integer(b);
    case '-lt':
      return integer(a) < integer(b);
    case '-le':
      return integer(a) <= integer(b);
    case '-gt':
      return integer(a) > integer(b);
    case '-ge':
      return integer(a) >= integer(b);
    default:
      return false;
  }
}

/** Evaluates test's arguments; throws TestError with bash's message. */
function evaluate(ctx: CommandContext, args: string[]): boolean {
  const n = args.length;
  const [a0, a1, a2] = args as [string, string, string];
  if (n === 0) return false;
  if (n === 1) return a0 !== '';
  if (n === 2) {
    if (a0 === '!') return a1 === '';
    if (UNARY.has(a0)) return unary(ctx, a0, a1);
    throw new TestError(`${a0}: unary operator expected`);
  }
  if (n === 3) {
    if (BINARY.has(a1)) return binary(a0, a1, a2);
    if (a1 === '-a') return a0 !== '' && a2 !== '';
    if (a1 === '-o') return a0 !== '' || a2 !== '';
    if (a0 === '!') return !evaluate(ctx, [a1, a2]);
    if (a0 === '(' && a2 === ')') return a1 !== '';
    throw new TestError(`${a1}: binary operator expected`);
  }
  if (n === 4) {
    if (a0 === '!') return !evaluate(ctx, args.slice(1));
    if (a0 === '(' && args[3] === ')') return evaluate(ctx, [a1, a2]);
  }
  return new ExprParser(ctx, args).parse();
}

class ExprParser {
  private i = 0;
  constructor(
    private readonly ctx: CommandContext,
    private readonly args: string[],
  ) {}

  parse(): boolean {
    const v = this.or();
    if (this.i < this.args.length) throw new TestError('too many arguments');
    return v;
  }

  private peek(): string | undefined {
    return this.args[this.i];
  }

  private or(): boolean {
    let v = this.and();
    while (this.peek() === '-o') {
      this.i++;
      const r = this.and();
      v = v || r;
    }
    return v;
  }

  private and(): boolean {
    let v = this.not();
    while (this.peek() === '-a') {
      this.i++;
      const r = this.not();
      v = v && r;
    }
    return v;
  }

  private not(): boolean {
    if (this.peek() === '!') {
      this.i++;
      return !this.not();
    }
    return this.primary();
  }

  private primary(): boolean {
    const t = this.peek();
    if (t === undefined) throw new TestError('argument expected');
    if (t === '(') {
      this.i++;
      const v = this.or();
      if (this.peek() !== ')') throw new TestError("`)' expected");
      this.i++;
      return v;
    }
    const next = this.args[this.i + 1];
    if (next !== undefined && BINARY.has(next) && this.args[this.i + 2] !== undefined) {
      this.i += 3;
      return binary(t, next, this.args[this.i - 1]!);
    }
    if (UNARY.has(t) && next !== undefined) {
      this.i += 2;
      return unary(this.ctx, t, next);
    }
    this.i++;
    return t !== '';
  }
}

function runTest(ctx: CommandContext, bracket: boolean): number {
  const name = bracket ? '[' : 'test';
  let args = ctx.argv.slice(1);
  if (bracket) {
    if (args[args.length - 1] !== ']') {
      ctx.err(`${ctx.shell.errorPrefix()}[: missing \`]'\n`);
      return 2;
    }
    args = args.slice(0, -1);
  }
  try {
    return evaluate(ctx, args) ? 0 : 1;
  } catch (e) {
    if (e instanceof TestError) {
      ctx.err(`${ctx.shell.errorPrefix()}${name}: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
}

export const TEST_COMMANDS: CommandSpec[] = [
  { name: 'test', dir: '/usr/bin', builtin: true, run: (ctx) => runTest(ctx, false) },
  { name: '[', dir: '/usr/bin', builtin: true, run: (ctx) => runTest(ctx, true) },
];
