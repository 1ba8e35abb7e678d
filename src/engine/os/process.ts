/**
 * Processes on a simulated node: exec of a program found in the node's filesystem, with env and
 * stdin, producing stdout, stderr and an exit code. A program is a generator over a Proc; a
 * delegated call (bridge -> host-local) is a child process.
 */
import * as vfs from '../fs/vfs';
import type { Simulation } from '../sim/world';
import { Sys, type Gen, TICK } from './sys';

export interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Set when the process could not be started (Go's exec error text, e.g. "fork/exec ...: no such file or directory"). */
  startError?: string;
  pid?: number;
}

export interface Proc {
  readonly pid: number;
  /** Program name (binary basename). */
  readonly name: string;
  readonly path: string;
  readonly env: Readonly<Record<string, string>>;
  readonly stdin: string;
  readonly sys: Sys;
  /** The build of the binary (e.g. "v1.1.1"), from the file's metadata. */
  readonly build: string;
  stdout: string;
  stderr: string;
  getenv(name: string): string;
  /** Runs another program as a child process (delegation). */
  exec(path: string, env: Record<string, string>, stdin: string): Gen<ExecResult>;
}

export type Program = (p: Proc) => Gen<number>;

export interface ProgramRegistry {
  lookup(program: string, build: string): Program | undefined;
}

export interface ExecRequest {
  sim: Simulation;
  node: string;
  programs: ProgramRegistry;
  /** Who starts the process (trace actor), e.g. "libcni" or "bridge". */
  caller: string;
  callerPid?: number;
  parentSeq?: number;
  path: string;
  env: Record<string, string>;
  stdin: string;
}

export function basename(path: string): string {
  return vfs.basename(path);
}

export function* execProgram(req: ExecRequest): Gen<ExecResult> {
  const { sim, node } = req;
  const fs = sim.node(node).fs;
  const entry = vfs.stat(fs, req.path);
  const name = basename(req.path);
  let startError: string | undefined;
  if (!entry) startError = `fork/exec ${req.path}: no such file or directory`;
  else if (entry.kind === 'dir') startError = `fork/exec ${req.path}: permission denied`;
  else if ((entry.mode & 0o111) === 0) startError = `fork/exec ${req.path}: permission denied`;
  const program =
    entry && entry.kind === 'file' && entry.exec
      ? req.programs.lookup(entry.exec.program, entry.exec.build)
      : undefined;
  if (!startError && !program) startError = `fork/exec ${req.path}: exec format error`;

  const pid = sim.state.nextPid;
  const execEv = sim.apply(
    {
      node,
      source: req.caller,
      target: name,
      kind: 'exec',
      level: 'cni',
      summary: `exec ${req.path}${req.env['CNI_COMMAND'] ? ` (${req.env['CNI_COMMAND']})` : ''}`,
      payload: {
        path: req.path,
        env: req.env,
        stdin: req.stdin,
        pid,
        ...(req.callerPid !== undefined ? { parentPid: req.callerPid } : {}),
        ...(startError ? { startError } : {}),
      },
      ...(req.parentSeq !== undefined ? { parent: req.parentSeq } : {}),
    },
    (d) => {
      d.nextPid += 1;
      return sim.events.length; // seq this event gets
    },
  );
  yield TICK;
  if (startError || !program || !entry || entry.kind !== 'file') {
    return { stdout: '', stderr: '', exitCode: -1, startError: startError ?? 'exec failed' };
  }

  const sys = new Sys({ sim, node, actor: name, pid, parentSeq: execEv });
  const proc: Proc = {
    pid,
    name,
    path: req.path,
    env: req.env,
    stdin: req.stdin,
    sys,
    build: entry.exec?.build ?? '',
    stdout: '',
    stderr: '',
    getenv: (k) => req.env[k] ?? '',
    exec: (path, env, stdin) =>
      execProgram({
        sim,
        node,
        programs: req.programs,
        caller: name,
        callerPid: pid,
        parentSeq: execEv,
        path,
        env,
        stdin,
      }),
  };
  let exitCode: number;
  try {
    exitCode = yield* program(proc);
  } catch (e) {
    // A bug in a simulated program must not take the simulation down: it dies like a Go panic.
    const err = e instanceof Error ? e : new Error(String(e));
    proc.stderr += `panic: ${err.message}\n\ngoroutine 1 [running]:\nmain.main()\n`;
    exitCode = 2;
  }
  sim.apply(
    {
      node,
      source: name,
      target: req.caller,
      kind: 'exit',
      level: 'cni',
      summary: `${name} exited ${exitCode}`,
      payload: { pid, stdout: proc.stdout, stderr: proc.stderr, exitCode },
      parent: execEv,
    },
    () => undefined,
  );
  yield TICK;
  return { stdout: proc.stdout, stderr: proc.stderr, exitCode, pid };
}
