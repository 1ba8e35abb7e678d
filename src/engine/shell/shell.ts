/**
 * The node's shell: a bash-like interpreter bound to one node of a Simulation. It keeps its own
 * variables, working directory (/root), `$?` and history, and runs input one complete command at
 * a time, as bash runs a script.
 *
 * Trace: every simple command that changes the node (kernel or filesystem) records exactly one
 * `env` event (source: the shell's actor, target: `kernel` if it changed the kernel, else `fs`,
 * summary: the command as run, with variables expanded). A command that changes nothing (a read,
 * a no-op, a failure) records nothing. Output redirections belong to their command: `printf x >
 * f` is one event. A command run by another (`ip netns exec NS sysctl -w ...`, `bash -c '...'`)
 * is part of the outer command's event. Running a simulated program (a CNI plugin binary) records
 * its own exec/exit/kernel/fs events instead; `sleep` lets virtual time pass (settle) with no
 * event.
 */
import { castDraft, produce, type Draft } from 'immer';
import * as vfs from '../fs/vfs';
import * as K from '../kernel/kernel';
import type { RandomSource } from '../kernel/kernel';
import type { KernelState } from '../kernel/types';
import { settle } from '../node/setup';
import { execProgram, type ProgramRegistry } from '../os/process';
import { runToEnd } from '../os/sys';
import { PROGRAMS } from '../plugins/registry';
import { Rng, type RngState } from '../rng';
import type { NodeState, Simulation, WorldState } from '../sim/world';
import { envEvent, type CommandPayload, type EventSpec } from '../trace/trace';
import { expandWordNoSplit, expandWords, hasExpansion, shellQuote, type ExpandEnv } from './expand';
import {
  ScriptReader,
  ShellSyntaxError,
  isName,
  parseScript,
  type AndOr,
  type Command,
  type CommandList,
  type Pipeline,
  type Redirect,
  type SimpleCommand,
} from './parse';
import { resolvePath } from './paths';
import { defaultCommands } from './registry';
import {
  type ClusterHooks,
  type CommandContext,
  type CommandRegistry,
  type ExecFailure,
  type ExecOptions,
  type ShellState,
  STRERROR,
} from './types';

export interface ShellOptions {
  /** Trace actor of the shell's events (default "shell"). */
  actor?: string;
  /** Exported variables to add or override. */
  env?: Record<string, string>;
  /** Working directory (default /root). */
  cwd?: string;
  commands?: CommandRegistry;
  /** Programs the node can run (CNI plugin binaries); default: the engine's plugins. */
  programs?: ProgramRegistry;
  /**
   * Names that `ip -n NAME` / `ip netns exec NAME` resolve to the node's own namespace: the
   * conformance recordings call the namespace that played the host "node".
   */
  hostNetnsAliases?: readonly string[];
  /** Events are recorded as children of this seq. */
  parentSeq?: number;
  /** Prefix of the shell's own error messages (default "bash: ", as an interactive bash). */
  errorPrefix?: string;
  /**
   * The shell's output is a terminal (the app's): `ls` prints columns. Default false, as for a
   * command whose output is captured (the recordings).
   */
  tty?: boolean;
  /** The cluster the node belongs to, for systemctl, reboot, crictl and kubectl delete. */
  cluster?: ClusterHooks;
  /**
   * Continue a shell session: its working directory, variables and `$?` (see `snapshot`).
   * Replaces `cwd` and the default environment; `env` still overrides.
   */
  resume?: Partial<ShellSnapshot>;
  /** Lines typed before (what `history` lists first). */
  history?: readonly string[];
}

/**
 * What a shell session carries from one line to the next, as data: the app's terminal keeps it
 * between lines, and a logged `shell` action carries it so that a replay runs the line as typed.
 */
export interface ShellSnapshot {
  cwd: string;
  /** Exported variables. */
  env: Record<string, string>;
  /** Variables that are not exported (IFS left out while it has its default). */
  vars: Record<string, string>;
  /** `$?`. */
  status: number;
}

export interface RunResult {
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved in the order they were written (what a terminal shows). */
  output: string;
  exitCode: number;
  /** The shell session ended (`exit`, `reboot`): a terminal starts a new one. */
  exited?: boolean;
}

type Sink = (s: string) => void;

interface IO {
  stdin: string;
  out: Sink;
  err: Sink;
  /** stdout is the terminal (not a pipe, a file or a command substitution). */
  tty?: boolean;
}

/** Where a simple command runs: its network namespace and the change it joins, if any. */
interface Frame {
  netns: string;
  tx: Tx | null;
}

/** Thrown by `exit` to unwind to the shell's top. */
class ExitSignal {
  constructor(readonly code: number) {}
}

const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
const DEFAULT_IFS = ' \t\n';

/** A new login shell's state: root in /root, the usual environment, `$?` 0. */
export function defaultSnapshot(): ShellSnapshot {
  return {
    cwd: '/root',
    env: {
      HOME: '/root',
      LANG: 'C.UTF-8',
      LOGNAME: 'root',
      PATH: DEFAULT_PATH,
      PWD: '/root',
      SHELL: '/bin/bash',
      USER: 'root',
    },
    vars: {},
    status: 0,
  };
}

/** More loop iterations than this end the loop (there is no Ctrl-C in a simulation). */
export const MAX_LOOP_ITERATIONS = 10_000;
const MAX_DEPTH = 64;

function lineOf(src: string, pos: number): number {
  let n = 1;
  for (let i = 0; i < pos && i < src.length; i++) if (src[i] === '\n') n++;
  return n;
}

function kernelEqualExceptNow(a: KernelState, b: KernelState): boolean {
  return (
    a === b ||
    (a.netns === b.netns &&
      a.mounts === b.mounts &&
      a.root === b.root &&
      a.nextInode === b.nextInode)
  );
}

/**
 * The changes one command makes: a working copy of the world that the command reads and
 * changes, recorded as one event when the command is done.
 */
class Tx {
  base: WorldState;
  work: WorldState;

  constructor(
    readonly sim: Simulation,
    readonly node: string,
    readonly ev: EventSpec<'env'> & { payload: CommandPayload },
  ) {
    this.base = sim.state;
    this.work = sim.state;
  }

  nodeState(): NodeState {
    return this.work.nodes[this.node]!;
  }

  change<T>(fn: (n: Draft<NodeState>, rnd: RandomSource) => T, kernel: boolean): T {
    let out!: T;
    const before = this.work;
    const next = produce(before, (d) => {
      const n = d.nodes[this.node]!;
      const initial = d.rng as RngState;
      const rng = new Rng(initial);
      if (kernel) (n.kernel as KernelState).now = d.clock;
      out = fn(n, rng);
      if (rng.state !== initial) d.rng = rng.state as number[];
    });
    // Only the kernel's clock moved: nothing changed.
    const a = next.nodes[this.node]!;
    const b = before.nodes[this.node]!;
    if (next.rng === before.rng && a.fs === b.fs && kernelEqualExceptNow(a.kernel, b.kernel))
      return out;
    this.work = next;
    return out;
  }

  changed(): boolean {
    return this.work !== this.base;
  }

  /** Records the pending changes as the command's event. */
  commit(payload: Pick<CommandPayload, 'exitCode' | 'stderr'>): void {
    if (!this.changed()) return;
    const next = this.work;
    if (this.sim.state !== this.base)
      throw new Error('cnisim shell: the world changed under a pending command');
    const kernelChanged = next.nodes[this.node]!.kernel !== this.base.nodes[this.node]!.kernel;
    const base = this.base;
    this.sim.apply(
      envEvent({
        ...this.ev,
        target: kernelChanged ? 'kernel' : 'fs',
        payload: { ...this.ev.payload, ...payload },
      }),
      (d) => {
        d.nodes[this.node] = castDraft(next.nodes[this.node]!);
        if (next.rng !== base.rng) d.rng = castDraft(next.rng) as number[];
      },
    );
    this.rebase();
  }

  /** Starts over from the simulation's current state (after time passed or a program ran). */
  rebase(): void {
    this.base = this.sim.state;
    this.work = this.sim.state;
  }
}

interface VarEntry {
  value: string;
  exported: boolean;
}

/** A file descriptor's destination while a command runs. */
type FdTarget =
  | { kind: 'sink'; sink: Sink }
  | {
      kind: 'file';
      path: string;
      chunks: string[];
      /** A /proc/sys file: writing it sets that sysctl of the namespace. */
      sysctl?: { netns: string; key: string };
    }
  | { kind: 'null' };

export class Shell implements ShellState {
  readonly sim: Simulation;
  readonly node: string;
  readonly commands: CommandRegistry;
  readonly programs: ProgramRegistry;
  readonly actor: string;
  readonly hostNetnsAliases: readonly string[];
  readonly parentSeq: number | undefined;
  readonly tty: boolean;
  readonly cluster: ClusterHooks | undefined;
  cwd: string;
  lastStatus = 0;
  readonly history: string[] = [];
  private vars = new Map<string, VarEntry>();
  private readonly pid: number;
  private depth = 0;
  private readonly basePrefix: string;
  /** `bash -c` scripts and script files: "line N: " after the prefix. */
  private scriptMode = false;
  /** `bash -c`: syntax errors say "-c: line N". */
  private cMode = false;
  /** Debian's /bin/sh is dash: "sh: 1: foo: not found". */
  private dash = false;
  private currentLine = 1;

  constructor(sim: Simulation, node: string, opts: ShellOptions = {}) {
    this.sim = sim;
    this.node = node;
    sim.node(node);
    this.commands = opts.commands ?? defaultCommands();
    this.programs = opts.programs ?? PROGRAMS;
    this.actor = opts.actor ?? 'shell';
    this.hostNetnsAliases = opts.hostNetnsAliases ?? [];
    this.parentSeq = opts.parentSeq;
    this.basePrefix = opts.errorPrefix ?? 'bash: ';
    this.tty = opts.tty ?? false;
    this.cluster = opts.cluster;
    const resume = opts.resume ?? {};
    this.cwd = vfs.cleanPath(resume.cwd ?? opts.cwd ?? '/root');
    this.pid = sim.state.nextPid;
    this.lastStatus = resume.status ?? 0;
    if (opts.history) this.history.push(...opts.history);
    const env: Record<string, string> = {
      ...(resume.env ?? { ...defaultSnapshot().env, PWD: this.cwd }),
      ...(opts.env ?? {}),
    };
    this.vars.set('IFS', { value: DEFAULT_IFS, exported: false });
    for (const [k, v] of Object.entries(resume.vars ?? {}))
      this.vars.set(k, { value: v, exported: false });
    for (const [k, v] of Object.entries(env)) this.vars.set(k, { value: v, exported: true });
  }

  /** The session's state between lines (what `resume` takes). */
  snapshot(): ShellSnapshot {
    const vars: Record<string, string> = {};
    for (const [k, v] of this.vars)
      if (!v.exported && !(k === 'IFS' && v.value === DEFAULT_IFS)) vars[k] = v.value;
    return { cwd: this.cwd, env: this.environ(), vars, status: this.lastStatus };
  }

  // -------------------------------------------------------------------------------------------
  // ShellState

  getVar(name: string): string | undefined {
    switch (name) {
      case '?':
        return String(this.lastStatus);
      case '$':
        return String(this.pid);
      case '#':
        return '0';
      case '0':
        return 'bash';
      case '!':
      case '@':
      case '*':
        return '';
      case '-':
        return this.scriptMode ? 'hB' : 'himBH';
    }
    if (/^[0-9]+$/.test(name)) return undefined;
    return this.vars.get(name)?.value;
  }

  setVar(name: string, value: string, exported?: boolean): void {
    const old = this.vars.get(name);
    this.vars.set(name, { value, exported: exported ?? old?.exported ?? false });
  }

  unsetVar(name: string): void {
    this.vars.delete(name);
  }

  exportVar(name: string): void {
    const old = this.vars.get(name);
    if (old) old.exported = true;
    else this.vars.set(name, { value: '', exported: true });
  }

  environ(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [k, v] of this.vars) if (v.exported) out[k] = v.value;
    return out;
  }

  requestExit(code: number): void {
    throw new ExitSignal(code);
  }

  // -------------------------------------------------------------------------------------------
  // Running input

  /**
   * Runs a line (or a script of several lines) as typed at the shell's prompt. Never throws:
   * errors are printed on stderr and reflected in the exit code.
   */
  run(input: string, opts: { stdin?: string } = {}): RunResult {
    let stdout = '';
    let stderr = '';
    let output = '';
    let exited = false;
    const io: IO = {
      stdin: opts.stdin ?? '',
      tty: this.tty,
      out: (s) => {
        stdout += s;
        output += s;
      },
      err: (s) => {
        stderr += s;
        output += s;
      },
    };
    if (input.trim() !== '') this.history.push(input.replace(/\n+$/, ''));
    try {
      this.runSource(input, io, { netns: this.hostNs(), tx: null });
    } catch (e) {
      if (e instanceof ExitSignal) {
        this.lastStatus = e.code;
        exited = true;
      } else {
        // A bug in a command must not take the simulation down.
        io.err(`${this.basePrefix}cnisim internal error: ${(e as Error)?.message ?? String(e)}\n`);
        this.lastStatus = 1;
      }
    }
    return { stdout, stderr, output, exitCode: this.lastStatus, ...(exited ? { exited } : {}) };
  }

  private hostNs(): string {
    return this.sim.node(this.node).kernel.root;
  }

  errorPrefix(): string {
    return this.prefix();
  }

  get interactive(): boolean {
    return !this.scriptMode;
  }

  private prefix(): string {
    if (this.dash) return `${this.basePrefix}${this.currentLine}: `;
    return this.scriptMode ? `${this.basePrefix}line ${this.currentLine}: ` : this.basePrefix;
  }

  private runSource(src: string, io: IO, frame: Frame): void {
    const reader = new ScriptReader(src);
    for (;;) {
      let list: CommandList | null;
      try {
        list = reader.next();
      } catch (e) {
        if (!(e instanceof ShellSyntaxError)) throw e;
        if (!this.scriptMode) io.err(`${this.basePrefix}${e.message}\n`);
        else {
          // A script: "bash: -c: line N: ..." and, for a bad token, the line itself.
          const n = e.eof
            ? src.split('\n').length + (src.endsWith('\n') ? 0 : 1)
            : e.pos >= 0
              ? lineOf(src, e.pos)
              : reader.line();
          const where = `${this.basePrefix}${this.cMode ? '-c: ' : ''}line ${n}: `;
          io.err(`${where}${e.message}\n`);
          if (e.pos >= 0) io.err(`${where}\`${src.split('\n')[n - 1] ?? ''}'\n`);
        }
        this.lastStatus = e.exitCode;
        return;
      }
      if (!list) return;
      this.execList(list, io, frame);
    }
  }

  runScript(
    src: string,
    ctx: CommandContext,
    opts: { argv0: string; scriptName?: string; dialect?: 'bash' | 'dash' },
  ): number {
    // A child shell: exported variables only, same directory; its own $?.
    const child = new Shell(this.sim, this.node, {
      actor: this.actor,
      commands: this.commands,
      programs: this.programs,
      hostNetnsAliases: this.hostNetnsAliases,
      ...(this.parentSeq !== undefined ? { parentSeq: this.parentSeq } : {}),
      ...(this.cluster ? { cluster: this.cluster } : {}),
      errorPrefix: `${opts.scriptName ?? opts.argv0}: `,
      cwd: ctx.cwd,
    });
    child.vars = new Map(
      Object.entries(ctx.env).map(([k, v]) => [k, { value: v, exported: true }]),
    );
    child.vars.set('IFS', { value: ' \t\n', exported: false });
    child.scriptMode = true;
    child.cMode = opts.scriptName === undefined;
    child.dash = opts.dialect === 'dash';
    child.depth = this.depth + 1;
    if (child.depth > MAX_DEPTH) {
      ctx.err(`${opts.argv0}: maximum nesting level exceeded\n`);
      return 1;
    }
    const c = ctx as CtxImpl;
    const io: IO = {
      stdin: ctx.stdin,
      out: (s) => ctx.out(s),
      err: (s) => ctx.err(s),
      tty: ctx.isatty,
    };
    try {
      child.runSource(src, io, { netns: ctx.netns, tx: c.tx });
    } catch (e) {
      if (e instanceof ExitSignal) return e.code;
      throw e;
    }
    return child.lastStatus;
  }

  // -------------------------------------------------------------------------------------------
  // Execution

  private execList(list: CommandList, io: IO, frame: Frame): number {
    for (const ao of list) this.execAndOr(ao, io, frame);
    return this.lastStatus;
  }

  private execAndOr(ao: AndOr, io: IO, frame: Frame): number {
    let status = this.execPipeline(ao.first, io, frame);
    for (const { op, pipeline } of ao.rest) {
      if ((op === '&&' && status === 0) || (op === '||' && status !== 0))
        status = this.execPipeline(pipeline, io, frame);
    }
    return status;
  }

  private execPipeline(p: Pipeline, io: IO, frame: Frame): number {
    let status: number;
    if (p.commands.length === 1) {
      status = this.execCommand(p.commands[0]!, io, frame);
    } else {
      // Every part of a pipeline runs in a subshell: cd or variables do not outlive it.
      let stdin = io.stdin;
      status = 0;
      p.commands.forEach((cmd, i) => {
        const last = i === p.commands.length - 1;
        let buf = '';
        const pipe: Sink = (s) => void (buf += s);
        const sub: IO = {
          stdin,
          tty: last ? io.tty : false,
          out: last ? io.out : pipe,
          err: p.stderrToPipe[i] ? pipe : io.err,
        };
        status = this.inSubshell(() => this.execCommand(cmd, sub, frame));
        stdin = buf;
      });
    }
    if (p.negate) status = status === 0 ? 1 : 0;
    this.lastStatus = status;
    return status;
  }

  private inSubshell(fn: () => number): number {
    const vars = new Map([...this.vars].map(([k, v]) => [k, { ...v }]));
    const cwd = this.cwd;
    try {
      return fn();
    } catch (e) {
      if (e instanceof ExitSignal) return e.code;
      throw e;
    } finally {
      this.vars = vars;
      this.cwd = cwd;
    }
  }

  private execCommand(cmd: Command, io: IO, frame: Frame): number {
    if (cmd.kind === 'simple') return this.execSimple(cmd, io, frame);
    if (cmd.redirects.length === 0) return this.execCompound(cmd, io, frame);
    // A compound command with redirections: they apply to everything inside, and everything it
    // changes (its commands and what they write) is one change.
    return this.withRedirects(cmd.redirects, cmd.text, io, frame, (io2, frame2) =>
      this.execCompound(cmd, io2, frame2),
    );
  }

  private execCompound(cmd: Exclude<Command, SimpleCommand>, io: IO, frame: Frame): number {
    switch (cmd.kind) {
      case 'group':
        return this.execList(cmd.body, io, frame);
      case 'subshell':
        return this.inSubshell(() => this.execList(cmd.body, io, frame));
      case 'if': {
        for (const c of cmd.clauses) {
          if (this.execList(c.cond, io, frame) === 0) return this.execList(c.body, io, frame);
        }
        if (cmd.elseBody) return this.execList(cmd.elseBody, io, frame);
        this.lastStatus = 0;
        return 0;
      }
      case 'for': {
        let items: string[];
        try {
          items = cmd.items ? expandWords(cmd.items, this.expandEnv(io, frame)) : [];
        } catch (e) {
          return this.expansionFailed(e, io);
        }
        let status = 0;
        let n = 0;
        for (const item of items) {
          if (++n > MAX_LOOP_ITERATIONS) return this.loopLimit(io);
          this.setVar(cmd.name, item);
          status = this.execList(cmd.body, io, frame);
        }
        this.lastStatus = status;
        return status;
      }
      case 'while':
      case 'until': {
        let status = 0;
        let n = 0;
        for (;;) {
          const c = this.execList(cmd.cond, io, frame);
          if ((cmd.kind === 'while') !== (c === 0)) break;
          if (++n > MAX_LOOP_ITERATIONS) return this.loopLimit(io);
          status = this.execList(cmd.body, io, frame);
        }
        this.lastStatus = status;
        return status;
      }
    }
  }

  private loopLimit(io: IO): number {
    io.err(`${this.prefix()}cnisim: loop stopped after ${MAX_LOOP_ITERATIONS} iterations\n`);
    this.lastStatus = 1;
    return 1;
  }

  private expansionFailed(e: unknown, io: IO): number {
    if (e instanceof ShellSyntaxError) {
      io.err(`${this.prefix()}${e.message}\n`);
      this.lastStatus = e.exitCode;
      return e.exitCode;
    }
    throw e;
  }

  private expandEnv(io: IO, frame: Frame): ExpandEnv {
    return {
      getVar: (n) => this.getVar(n),
      setVar: (n, v) => this.setVar(n, v),
      commandSubst: (list) => {
        let out = '';
        this.inSubshell(() =>
          this.execList(list, { stdin: '', out: (s) => void (out += s), err: io.err }, frame),
        );
        return out;
      },
      home: () => this.getVar('HOME') ?? '/root',
      cwd: () => this.cwd,
      fs: () => (frame.tx ? frame.tx.nodeState().fs : this.sim.node(this.node).fs),
    };
  }

  private newTx(summary: string, source: string): Tx {
    return new Tx(this.sim, this.node, {
      node: this.node,
      source: this.actor,
      target: 'kernel',
      level: 'kernel',
      summary,
      payload: { command: summary, ...(source !== summary ? { source } : {}) },
      ...(this.parentSeq !== undefined ? { parent: this.parentSeq } : {}),
    });
  }

  private execSimple(cmd: SimpleCommand, io: IO, frame: Frame): number {
    this.currentLine = cmd.line;
    const xenv = this.expandEnv(io, frame);
    let argv: string[];
    const assigns: Array<[string, string]> = [];
    try {
      for (const a of cmd.assigns) assigns.push([a.name, expandWordNoSplit(a.value, xenv)]);
      argv = expandWords(cmd.words, xenv);
    } catch (e) {
      return this.expansionFailed(e, io);
    }
    // Only assignments (and maybe redirections): they set shell variables.
    if (argv.length === 0) {
      const status =
        cmd.words.length > 0 || cmd.assigns.some((a) => a.value.parts.some((p) => p.t === 'cmdsub'))
          ? this.lastStatus
          : 0;
      for (const [k, v] of assigns) this.setVar(k, v);
      if (cmd.redirects.length === 0) {
        this.lastStatus = status;
        return status;
      }
      return this.withRedirects(
        cmd.redirects,
        this.summaryOf(cmd, argv, assigns),
        io,
        frame,
        () => status,
        cmd.text,
      );
    }
    const summary = this.summaryOf(cmd, argv, assigns);
    return this.withRedirects(
      cmd.redirects,
      summary,
      io,
      frame,
      (io2, frame2) => {
        const env = { ...this.environ(), ...Object.fromEntries(assigns) };
        return this.dispatch(argv, env, io2, frame2, true);
      },
      cmd.text,
      argv[0],
    );
  }

  /** The command as run, for the trace: its source text, or its expansion when it had any. */
  private summaryOf(cmd: SimpleCommand, argv: string[], assigns: Array<[string, string]>): string {
    const expanded =
      cmd.words.some(hasExpansion) ||
      cmd.assigns.some((a) => hasExpansion(a.value)) ||
      cmd.redirects.some((r) => hasExpansion(r.target));
    if (!expanded) return cmd.text;
    const parts = [...assigns.map(([k, v]) => `${k}=${shellQuote(v)}`), ...argv.map(shellQuote)];
    const xenv = this.expandEnv(
      { stdin: '', out: () => {}, err: () => {} },
      { netns: this.hostNs(), tx: null },
    );
    for (const r of cmd.redirects) {
      let t = r.target.raw;
      if (!r.target.parts.some((p) => p.t === 'cmdsub')) {
        try {
          t = expandWordNoSplit(r.target, xenv);
        } catch {
          t = r.target.raw;
        }
      }
      const dfltFd = r.op.startsWith('<') ? 0 : 1;
      const fd = r.fd === dfltFd || r.fd === -1 ? '' : String(r.fd);
      parts.push(
        r.op === '>&' || r.op === '<&' ? `${fd}${r.op}${t}` : `${fd}${r.op} ${shellQuote(t)}`,
      );
    }
    return parts.join(' ');
  }

  /**
   * Sets up redirections (in order), runs `body` with the resulting streams, then writes what
   * went to files. Owns the change (and its event) unless the frame already has one.
   */
  private withRedirects(
    redirects: Redirect[],
    summary: string,
    io: IO,
    frame: Frame,
    body: (io: IO, frame: Frame) => number,
    source = summary,
    /** The command, for the message of a failed write (`bash: echo: write error: ...`). */
    writer?: string,
  ): number {
    const own = frame.tx === null;
    const tx = frame.tx ?? this.newTx(summary, source);
    const inner: Frame = { netns: frame.netns, tx };
    let status: number;
    let errText = '';
    const errSink: Sink = (s) => {
      errText += s;
      io.err(s);
    };
    const fds = new Map<number, FdTarget>([
      [1, { kind: 'sink', sink: io.out }],
      [2, { kind: 'sink', sink: errSink }],
    ]);
    let stdin = io.stdin;
    const files: Array<Extract<FdTarget, { kind: 'file' }>> = [];
    const xenv = this.expandEnv(io, inner);
    let failed = false;
    for (const r of redirects) {
      let target: string;
      try {
        const fields = expandWords([r.target], xenv);
        if (fields.length !== 1) {
          io.err(`${this.prefix()}${r.target.raw}: ambiguous redirect\n`);
          failed = true;
          break;
        }
        target = fields[0]!;
      } catch (e) {
        this.expansionFailed(e, io);
        failed = true;
        break;
      }
      if ((r.op === '>&' || r.op === '<&') && /^[0-9]+$|^-$/.test(target)) {
        if (target === '-') fds.set(r.fd, { kind: 'null' });
        else {
          const src = fds.get(Number(target));
          if (!src && r.op === '>&') {
            io.err(`${this.prefix()}${target}: Bad file descriptor\n`);
            failed = true;
            break;
          }
          if (src) fds.set(r.fd, src);
        }
        continue;
      }
      if (r.op === '<' || r.op === '<>') {
        const read = this.readForRedirect(target, tx, inner.netns);
        if (typeof read !== 'string') {
          io.err(`${this.prefix()}${target}: ${STRERROR[read.errno]}\n`);
          failed = true;
          break;
        }
        if (r.fd === 0) stdin = read;
        continue;
      }
      if (r.op === '<<<') {
        if (r.fd === 0) stdin = target + '\n';
        continue;
      }
      // Output: >, >|, >>, &>, &>>, >& FILE.
      const append = r.op === '>>' || r.op === '&>>';
      const opened = this.openForWrite(target, append, tx, inner.netns);
      if (typeof opened === 'string') {
        io.err(`${this.prefix()}${target}: ${opened}\n`);
        failed = true;
        break;
      }
      if (opened) files.push(opened);
      const t: FdTarget = opened ?? { kind: 'null' };
      if (r.fd === -1 || (r.op === '>&' && r.fd === 1)) {
        fds.set(1, t);
        fds.set(2, t);
      } else fds.set(r.fd, t);
    }
    if (failed) {
      status = 1;
    } else {
      const sinkOf = (fd: number): Sink => {
        const t = fds.get(fd);
        if (!t || t.kind === 'null') return () => {};
        if (t.kind === 'sink') return t.sink;
        return (s) => void t.chunks.push(s);
      };
      const fd1 = fds.get(1);
      const tty = !!io.tty && fd1?.kind === 'sink';
      status = body({ stdin, out: sinkOf(1), err: sinkOf(2), tty }, inner);
      for (const f of files) {
        const data = f.chunks.join('');
        if (data === '') continue;
        if (f.sysctl) {
          const { netns, key } = f.sysctl;
          try {
            tx.change((n) => K.sysctlSet(n.kernel as KernelState, netns, key, data), true);
          } catch (e) {
            if (!(e instanceof K.KernelError)) throw e;
            const spec = writer !== undefined ? this.commands.get(writer) : undefined;
            const who =
              writer === undefined || spec?.builtin
                ? `${this.prefix()}${writer ?? 'bash'}`
                : writer;
            io.err(`${who}: write error: ${STRERROR[e.errno] ?? 'Invalid argument'}\n`);
            status = 1;
          }
          continue;
        }
        try {
          tx.change((n) => {
            const fs = n.fs as vfs.FsState;
            const e = vfs.stat(fs, f.path);
            const old = e?.kind === 'file' ? e.data : '';
            n.fs = vfs.writeFile(fs, f.path, old + data) as never;
          }, false);
        } catch (e) {
          io.err(`${this.prefix()}${f.path}: ${(e as Error).message}\n`);
        }
      }
    }
    if (own) {
      this.settleTx(tx, status, errText);
    }
    this.lastStatus = status;
    return status;
  }

  private settleTx(tx: Tx, status: number, stderr: string): void {
    tx.commit({ exitCode: status, ...(stderr ? { stderr } : {}) });
  }

  /** Reads a file for `<`: its content, or the errno. */
  private readForRedirect(path: string, tx: Tx, netns: string): string | { errno: string } {
    if (path === '/dev/null') return '';
    const abs = resolvePath(this.cwd, path);
    if (abs.startsWith('/proc/sys/')) {
      const v = K.sysctlGet(tx.nodeState().kernel, netns, abs.slice(10).replace(/\//g, '.'));
      if (v !== undefined) return v + '\n';
    }
    const e = vfs.stat(tx.nodeState().fs, abs);
    if (!e) return { errno: 'ENOENT' };
    if (e.kind === 'dir') return { errno: 'EISDIR' };
    return e.data;
  }

  /** Opens a file for > or >>: a file target, null for /dev/null, or bash's error text. */
  private openForWrite(
    path: string,
    append: boolean,
    tx: Tx,
    netns: string,
  ): Extract<FdTarget, { kind: 'file' }> | null | string {
    if (path === '/dev/null') return null;
    const abs = resolvePath(this.cwd, path);
    if (abs === '/proc/sys' || abs.startsWith('/proc/sys/')) {
      // procfs: the sysctls of the command's namespace; nothing can be created there.
      const k = tx.nodeState().kernel;
      const key = abs.slice('/proc/sys/'.length).replace(/\//g, '.');
      if (abs !== '/proc/sys' && K.sysctlGet(k, netns, key) !== undefined)
        return { kind: 'file', path: abs, chunks: [], sysctl: { netns, key } };
      const dir =
        abs === '/proc/sys' || K.sysctlKeys(k, netns).some((x) => x.startsWith(key + '.'));
      return STRERROR[dir ? 'EISDIR' : 'ENOENT']!;
    }
    const fs = tx.nodeState().fs;
    const e = vfs.stat(fs, abs);
    if (e?.kind === 'dir') return STRERROR['EISDIR']!;
    if (e?.kind === 'file' && e.nsfs) return STRERROR['EPERM']!;
    const parent = vfs.stat(fs, vfs.dirname(abs));
    if (!parent) return STRERROR['ENOENT']!;
    if (parent.kind !== 'dir') return STRERROR['ENOTDIR']!;
    if (!e || !append) {
      tx.change((n) => {
        n.fs = vfs.writeFile(
          n.fs as vfs.FsState,
          abs,
          append ? (e?.kind === 'file' ? e.data : '') : '',
        ) as never;
      }, false);
    }
    return { kind: 'file', path: abs, chunks: [] };
  }

  /**
   * Runs argv[0]: a builtin, a registered command, or a simulated program from the node's
   * filesystem. `viaShell`: looked up the way bash does (builtins first, bash's error texts);
   * otherwise the way execvp does (for `ip netns exec`).
   */
  private dispatch(
    argv: readonly string[],
    env: Record<string, string>,
    io: IO,
    frame: Frame,
    viaShell: boolean,
  ): number {
    const r = this.execArgv(argv, env, io, frame, viaShell);
    if (typeof r === 'number') return r;
    const name = argv[0]!;
    if (r === 'ENOENT') {
      const what = name.includes('/')
        ? 'No such file or directory'
        : this.dash
          ? 'not found'
          : 'command not found';
      io.err(`${this.prefix()}${name}: ${what}\n`);
      return 127;
    }
    if (r === 'EACCES') {
      io.err(`${this.prefix()}${name}: Permission denied\n`);
      return 126;
    }
    io.err(`${this.prefix()}${name}: cannot execute binary file: Exec format error\n`);
    return 126;
  }

  private execArgv(
    argv: readonly string[],
    env: Record<string, string>,
    io: IO,
    frame: Frame,
    viaShell: boolean,
  ): number | ExecFailure {
    const name = argv[0]!;
    let spec = name.includes('/') ? this.commands.byPath(name) : this.commands.get(name);
    if (spec && !viaShell && spec.dir === null) spec = undefined;
    if (spec) {
      const ctx = new CtxImpl(this, argv, env, io, frame);
      if (this.depth > MAX_DEPTH) {
        io.err(`${this.prefix()}${name}: maximum nesting level exceeded\n`);
        return 1;
      }
      this.depth++;
      try {
        return spec.run(ctx);
      } finally {
        this.depth--;
      }
    }
    // A file on the node: a simulated program, or a script.
    const fs = frame.tx ? frame.tx.nodeState().fs : this.sim.node(this.node).fs;
    let path: string | null = null;
    if (name.includes('/')) path = resolvePath(this.cwd, name);
    else {
      for (const dir of (env['PATH'] ?? DEFAULT_PATH).split(':')) {
        if (!dir) continue;
        const p = resolvePath(this.cwd, `${dir}/${name}`);
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
        io.err(`${this.prefix()}${name}: Is a directory\n`);
        return 126;
      }
      return 'EACCES';
    }
    if ((e.mode & 0o111) === 0 || e.nsfs) return 'EACCES';
    if (e.exec) return this.runProgram(path, argv, env, io, frame);
    // A text file: bash runs it as a script.
    const ctx = new CtxImpl(this, argv, env, io, frame);
    return this.runScript(e.data, ctx, { argv0: name, scriptName: name });
  }

  /** Runs a simulated binary (a CNI plugin): it records its own events. */
  private runProgram(
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
        sim: this.sim,
        node: this.node,
        programs: this.programs,
        caller: this.actor,
        path,
        env,
        stdin: io.stdin,
        ...(this.parentSeq !== undefined ? { parentSeq: this.parentSeq } : {}),
      }),
    );
    if (tx) tx.rebase();
    if (res.startError) return res.startError.endsWith('exec format error') ? 'ENOEXEC' : 'EACCES';
    io.out(res.stdout);
    io.err(res.stderr);
    return res.exitCode;
  }

  /** For commands: runs argv as execvp would (no builtins-only commands). */
  execFromCommand(ctx: CtxImpl, argv: readonly string[], opts: ExecOptions): number | ExecFailure {
    const frame: Frame = { netns: opts.netns ?? ctx.netns, tx: ctx.tx };
    const io: IO = {
      stdin: opts.stdin ?? ctx.stdin,
      out: (s) => ctx.out(s),
      err: (s) => ctx.err(s),
      tty: ctx.isatty,
    };
    const env = opts.env ?? { ...ctx.env };
    return this.execArgv(argv, env, io, frame, false);
  }

  /** Runs `fn` on the simulation after recording the pending change (see CommandContext). */
  outside<T>(tx: Tx | null, fn: () => T): T {
    if (tx) tx.commit({ exitCode: 0 });
    try {
      return fn();
    } finally {
      if (tx) tx.rebase();
    }
  }

  /** A step that says what the person ran (the changes it causes follow as their own events). */
  noteCommand(
    argv: readonly string[],
    target: string,
    level: 'cluster' | 'runtime' | 'cni' | 'kernel',
  ): void {
    const summary = argv.map(shellQuote).join(' ');
    this.sim.note(
      envEvent({
        node: this.node,
        source: this.actor,
        target,
        level,
        summary,
        payload: { command: summary },
        ...(this.parentSeq !== undefined ? { parent: this.parentSeq } : {}),
      }),
    );
  }

  /** Time passes: deferred kernel work runs on every node (no event). */
  passTime(us: number, tx: Tx | null): void {
    if (tx) tx.commit({ exitCode: 0 });
    settle(this.sim, us);
    if (tx) tx.rebase();
  }
}

class CtxImpl implements CommandContext {
  constructor(
    private readonly sh: Shell,
    readonly argv: readonly string[],
    readonly env: Readonly<Record<string, string>>,
    private readonly io: IO,
    private readonly frame: Frame,
  ) {}

  get tx(): Tx | null {
    return this.frame.tx;
  }
  get stdin(): string {
    return this.io.stdin;
  }
  get isatty(): boolean {
    return !!this.io.tty;
  }
  get cluster(): ClusterHooks | undefined {
    return this.sh.cluster;
  }
  out(s: string): void {
    if (s) this.io.out(s);
  }
  err(s: string): void {
    if (s) this.io.err(s);
  }
  get cwd(): string {
    return this.sh.cwd;
  }
  resolve(p: string): string {
    return resolvePath(this.sh.cwd, p);
  }
  get sim(): Simulation {
    return this.sh.sim;
  }
  get nodeName(): string {
    return this.sh.node;
  }
  get netns(): string {
    return this.frame.netns;
  }
  get shell(): ShellState {
    return this.sh;
  }
  private nodeState(): NodeState {
    return this.frame.tx ? this.frame.tx.nodeState() : this.sh.sim.node(this.sh.node);
  }
  kernel(): KernelState {
    return this.nodeState().kernel;
  }
  fs(): vfs.FsState {
    return this.nodeState().fs;
  }
  private requireTx(): Tx {
    if (!this.frame.tx) throw new Error('cnisim shell: a change outside of a command');
    return this.frame.tx;
  }
  changeKernel<T>(fn: (k: KernelState, rnd: RandomSource) => T): T {
    return this.requireTx().change((n, rnd) => fn(n.kernel as KernelState, rnd), true);
  }
  changeFs(fn: (fs: vfs.FsState) => vfs.FsState): void {
    this.requireTx().change((n) => {
      n.fs = fn(n.fs as vfs.FsState) as never;
    }, false);
  }
  change<T>(fn: (n: Draft<NodeState>, rnd: RandomSource) => T): T {
    return this.requireTx().change(fn, true);
  }
  exec(argv: readonly string[], opts: ExecOptions = {}): number | ExecFailure {
    if (argv.length === 0) return 'ENOENT';
    return this.sh.execFromCommand(this, argv, opts);
  }
  sleep(us: number): void {
    this.sh.passTime(us, this.frame.tx);
  }
  outside<T>(fn: () => T): T {
    return this.sh.outside(this.frame.tx, fn);
  }
  note(target: string, level: 'cluster' | 'runtime' | 'cni' | 'kernel'): void {
    this.sh.noteCommand(this.argv, target, level);
  }
}

export { parseScript, isName, resolvePath };
