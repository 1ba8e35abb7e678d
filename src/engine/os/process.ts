/**
 * Processes on a simulated node: exec of a program found in the node's filesystem, with env and
 * stdin, producing stdout, stderr and an exit code. A program is a generator over a Proc; a
 * delegated call (bridge -> host-local) is a child process.
 */
import * as vfs from '../fs/vfs';
import { draftSend, draftStart } from '../sched/machines';
import type { Ctx, Scheduler } from '../sched/scheduler';
import { processActorId, processMachine } from './machines';
import type { Simulation } from '../sim/world';
import { execEvent, exitEvent, stateEvent } from '../trace/trace';
import { Sys, type Gen, TICK } from './sys';

export interface ExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Set when the process could not be started (Go's exec error text, e.g. "fork/exec ...: no such file or directory"). */
  startError?: string;
  pid?: number;
  /** Set when the process was killed by a signal (Go's error text: "signal: killed"). */
  signal?: 'killed';
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
  /**
   * With a scheduler the process runs as a task of its own (so it can block, be killed, or
   * outlive its parent); without one it runs inline, start to end.
   */
  sched?: Scheduler;
  /** exec.CommandContext's context: cancelling it kills this process (not its children). */
  ctx?: Ctx;
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
  // exec.CommandContext refuses to start once its context is done: the error is ctx.Err().
  if (req.ctx?.err) startError = req.ctx.err;
  else if (!entry) startError = `fork/exec ${req.path}: no such file or directory`;
  else if (entry.kind === 'dir') startError = `fork/exec ${req.path}: permission denied`;
  else if ((entry.mode & 0o111) === 0) startError = `fork/exec ${req.path}: permission denied`;
  const program =
    entry && entry.kind === 'file' && entry.exec
      ? req.programs.lookup(entry.exec.program, entry.exec.build)
      : undefined;
  if (!startError && !program) startError = `fork/exec ${req.path}: exec format error`;

  const pid = sim.state.nextPid;
  const execEv = sim.apply(
    execEvent({
      node,
      source: req.caller,
      target: name,
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
    }),
    (d) => {
      d.nextPid += 1;
      if (!startError) {
        draftStart(d.actors, processActorId(node, pid), 'process', processMachine, {
          node,
          pid,
          program: name,
          command: req.env['CNI_COMMAND'] ?? '',
          parentPid: req.callerPid ?? null,
        });
      }
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
    // A delegated plugin (IPAM) is started with context.TODO(): the parent's context does not
    // reach it, so killing the parent leaves it running.
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
        ...(req.sched ? { sched: req.sched } : {}),
      }),
  };
  const hangs = entry.exec?.hangOn?.includes(req.env['CNI_COMMAND'] ?? '') ?? false;
  // A binary that logs to stdout: its first line is not JSON, whatever it prints after.
  if (entry.exec?.stdoutNoise) proc.stdout = `debug: CNI_COMMAND=${req.env['CNI_COMMAND'] ?? ''}\n`;

  function exited(exitCode: number, killed: boolean): void {
    sim.apply(
      exitEvent({
        node,
        source: name,
        target: req.caller,
        level: 'cni',
        summary: killed ? `${name} killed (signal: killed)` : `${name} exited ${exitCode}`,
        payload: {
          pid,
          stdout: proc.stdout,
          stderr: proc.stderr,
          exitCode,
          ...(killed ? { signal: 'killed' } : {}),
        },
        parent: execEv,
      }),
      (d) => {
        draftSend(
          d.actors,
          processActorId(node, pid),
          processMachine,
          killed ? { type: 'KILL' } : { type: 'EXIT', code: exitCode },
        );
      },
    );
  }

  function* body(): Gen<number> {
    let ended = false;
    try {
      if (hangs) {
        sim.apply(
          stateEvent({
            node,
            source: name,
            target: name,
            level: 'cni',
            summary: `${name} blocks (it never answers ${req.env['CNI_COMMAND'] ?? ''})`,
            payload: { pid, blocked: true },
            parent: execEv,
          }),
          (d) =>
            draftSend(d.actors, processActorId(node, pid), processMachine, {
              type: 'BLOCK',
            }),
        );
        yield { tick: true, sleepUs: Infinity };
      }
      let exitCode: number;
      try {
        exitCode = yield* program!(proc);
      } catch (e) {
        // A bug in a simulated program must not take the simulation down: it dies like a Go panic.
        const err = e instanceof Error ? e : new Error(String(e));
        proc.stderr += `panic: ${err.message}\n\ngoroutine 1 [running]:\nmain.main()\n`;
        exitCode = 2;
      }
      ended = true;
      exited(exitCode, false);
      yield TICK;
      return exitCode;
    } finally {
      if (!ended) exited(-1, true);
    }
  }

  if (!req.sched) {
    const exitCode = yield* body();
    return { stdout: proc.stdout, stderr: proc.stderr, exitCode, pid };
  }
  const sched = req.sched;
  const task = sched.spawn(body(), { name: `${name} (pid ${pid})`, node });
  const off = req.ctx?.onCancel(() => sched.kill(task));
  try {
    while (!task.done) yield { tick: true, wait: task };
  } finally {
    off?.();
  }
  if (task.killed) {
    return { stdout: proc.stdout, stderr: proc.stderr, exitCode: -1, pid, signal: 'killed' };
  }
  if (task.error !== undefined) throw task.error;
  return { stdout: proc.stdout, stderr: proc.stderr, exitCode: task.value as number, pid };
}
