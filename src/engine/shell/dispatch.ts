/**
 * Running argv[0]: a registered command (builtins included), a simulated program from the node's
 * filesystem (a CNI plugin binary), or a script; bash's and execvp's errors when there is none.
 */
import * as vfs from '../fs/vfs';
import { execProgram, type ProgramRegistry } from '../os/process';
import { runToEnd } from '../os/sys';
import { CtxImpl, type ContextHost } from './context';
import { Input, type Frame, type IO } from './io';
import { resolvePath } from './paths';
import { DEFAULT_PATH, MAX_DEPTH } from './session';
import type { CommandRegistry, ExecFailure, ExecOptions } from './types';

/** What dispatch needs from the interpreter. */
export interface DispatchHost extends ContextHost {
  readonly commands: CommandRegistry;
  readonly programs: ProgramRegistry;
  readonly actor: string;
  readonly parentSeq: number | undefined;
  /** Debian's /bin/sh is dash: "sh: 1: foo: not found". */
  readonly dash: boolean;
  /** How deep commands run commands (scripts, `bash -c`, `ip netns exec`). */
  depth: number;
  /** The prefix of the shell's error messages ("bash: ", "bash: line 3: "). */
  prefix(): string;
}

/**
 * Runs argv[0]: a builtin, a registered command, or a simulated program from the node's
 * filesystem. `viaShell`: looked up the way bash does (builtins first, bash's error texts);
 * otherwise the way execvp does (for `ip netns exec`).
 */
export function dispatch(
  sh: DispatchHost,
  argv: readonly string[],
  env: Record<string, string>,
  io: IO,
  frame: Frame,
  viaShell: boolean,
): number {
  const r = execArgv(sh, argv, env, io, frame, viaShell);
  if (typeof r === 'number') return r;
  const name = argv[0]!;
  if (r === 'ENOENT') {
    const what = name.includes('/')
      ? 'No such file or directory'
      : sh.dash
        ? 'not found'
        : 'command not found';
    io.err(`${sh.prefix()}${name}: ${what}\n`);
    return 127;
  }
  if (r === 'EACCES') {
    io.err(`${sh.prefix()}${name}: Permission denied\n`);
    return 126;
  }
  io.err(`${sh.prefix()}${name}: cannot execute binary file: Exec format error\n`);
  return 126;
}

export function execArgv(
  sh: DispatchHost,
  argv: readonly string[],
  env: Record<string, string>,
  io: IO,
  frame: Frame,
  viaShell: boolean,
): number | ExecFailure {
  const name = argv[0]!;
  let spec = name.includes('/') ? sh.commands.byPath(name) : sh.commands.get(name);
  if (spec && !viaShell && spec.dir === null) spec = undefined;
  if (spec) {
    const ctx = new CtxImpl(sh, argv, env, io, frame);
    if (sh.depth > MAX_DEPTH) {
      io.err(`${sh.prefix()}${name}: maximum nesting level exceeded\n`);
      return 1;
    }
    sh.depth++;
    try {
      return spec.run(ctx);
    } finally {
      sh.depth--;
    }
  }
  // A file on the node: a simulated program, or a script.
  const fs = frame.tx ? frame.tx.nodeState().fs : sh.sim.node(sh.node).fs;
  let path: string | null = null;
  if (name.includes('/')) path = resolvePath(sh.cwd, name);
  else {
    for (const dir of (env['PATH'] ?? DEFAULT_PATH).split(':')) {
      if (!dir) continue;
      const p = resolvePath(sh.cwd, `${dir}/${name}`);
      const e = vfs.stat(fs, p);
      if (e?.kind === 'file' && (e.mode & 0o111) !== 0) {
        path = p;
        break;
      }
    }
    if (!path) return 'ENOENT';
  }
  const e = vfs.stat(fs, path);
  if (!e) return 'ENOENT';
  if (e.kind === 'dir') {
    if (viaShell) {
      io.err(`${sh.prefix()}${name}: Is a directory\n`);
      return 126;
    }
    return 'EACCES';
  }
  if ((e.mode & 0o111) === 0 || e.nsfs) return 'EACCES';
  if (e.exec) return runProgram(sh, path, argv, env, io, frame);
  // A text file: bash runs it as a script.
  const ctx = new CtxImpl(sh, argv, env, io, frame);
  return sh.runScript(e.data, ctx, { argv0: name, scriptName: name });
}

/** Runs a simulated binary (a CNI plugin): it records its own events. */
function runProgram(
  sh: DispatchHost,
  path: string,
  _argv: readonly string[],
  env: Record<string, string>,
  io: IO,
  frame: Frame,
): number | ExecFailure {
  const tx = frame.tx;
  if (tx) tx.commit({ exitCode: 0 });
  const res = runToEnd(
    execProgram({
      sim: sh.sim,
      node: sh.node,
      programs: sh.programs,
      caller: sh.actor,
      path,
      env,
      // A program takes all of its input (a plugin reads its config to the end).
      stdin: io.stdin.rest(),
      ...(sh.parentSeq !== undefined ? { parentSeq: sh.parentSeq } : {}),
    }),
  );
  if (tx) tx.rebase();
  if (res.startError) return res.startError.endsWith('exec format error') ? 'ENOEXEC' : 'EACCES';
  io.out(res.stdout);
  io.err(res.stderr);
  return res.exitCode;
}

/** For commands: runs argv as execvp would (no builtins-only commands). */
export function execFromCommand(
  sh: DispatchHost,
  ctx: CtxImpl,
  argv: readonly string[],
  opts: ExecOptions,
): number | ExecFailure {
  const frame: Frame = { netns: opts.netns ?? ctx.netns, tx: ctx.tx };
  const io: IO = {
    stdin: opts.stdin !== undefined ? new Input(opts.stdin) : ctx.input,
    out: (s) => ctx.out(s),
    err: (s) => ctx.err(s),
    tty: ctx.isatty,
  };
  const env = opts.env ?? { ...ctx.env };
  return execArgv(sh, argv, env, io, frame, false);
}
