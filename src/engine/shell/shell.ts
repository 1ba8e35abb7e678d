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
 *
 * This file is the interpreter (lists, pipelines, compound commands, variables, `$?`). Beside it:
 * parse.ts (the grammar), expand.ts (expansions), redirect.ts (redirections), dispatch.ts (finding
 * and running argv[0]), context.ts (what a command sees), tx.ts (a command's change and its
 * event), session.ts (options and the state kept between lines), commands/ (the commands, looked
 * up in registry.ts).
 */
import * as vfs from '../fs/vfs';
import { settle } from '../node/setup';
import type { ProgramRegistry } from '../os/process';
import { PROGRAMS } from '../plugins/registry';
// A shell runs any plugin binary of the node.
import '../plugins/late';
import '../runtime/crio-late';
import type { Simulation } from '../sim/world';
import { envEvent } from '../trace/trace';
import type { CtxImpl } from './context';
import * as D from './dispatch';
import {
  expandPattern,
  expandWordNoSplit,
  expandWords,
  globMatch,
  hasExpansion,
  shellQuote,
  type ExpandEnv,
} from './expand';
import { arithValue } from './arith';
import { CondRegexError, evalCond } from './cond';
import {
  ExitSignal,
  Input,
  LineAbort,
  LoopSignal,
  noInput,
  type Frame,
  type IO,
  type Sink,
} from './io';
import {
  ScriptReader,
  ShellSyntaxError,
  isName,
  parseScript,
  type AndOr,
  type CaseCommand,
  type Command,
  type CondCommand,
  type CommandList,
  type Pipeline,
  type Redirect,
  type SimpleCommand,
  type Word,
} from './parse';
import { resolvePath } from './paths';
import { withRedirects } from './redirect';
import { defaultCommands } from './registry';
import {
  DEFAULT_IFS,
  defaultSnapshot,
  MAX_DEPTH,
  MAX_LOOP_ITERATIONS,
  type ShellOptions,
  type ShellSnapshot,
  type RunResult,
} from './session';
import { Tx } from './tx';
import {
  type ClusterHooks,
  type CommandContext,
  type CommandRegistry,
  type ExecFailure,
  type ExecOptions,
  type Job,
  type ShellState,
} from './types';

export {
  defaultSnapshot,
  MAX_LOOP_ITERATIONS,
  type ShellOptions,
  type ShellSnapshot,
  type RunResult,
} from './session';

interface VarEntry {
  value: string;
  exported: boolean;
}

function lineOf(src: string, pos: number): number {
  let n = 1;
  for (let i = 0; i < pos && i < src.length; i++) if (src[i] === '\n') n++;
  return n;
}

export class Shell implements ShellState, D.DispatchHost {
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
  /** How deep commands run commands (for dispatch). */
  depth = 0;
  private readonly basePrefix: string;
  /** `bash -c` scripts and script files: "line N: " after the prefix. */
  private scriptMode = false;
  /** `bash -c`: syntax errors say "-c: line N". */
  private cMode = false;
  /** Debian's /bin/sh is dash: "sh: 1: foo: not found". */
  dash = false;
  private currentLine = 1;
  /** Background jobs (`cmd &`), oldest first; `$!` is the last one's pid. */
  readonly jobs: Job[] = [];
  private lastBgPid: number | null = null;
  /** The job whose command is running now (commands mark it deferred or running). */
  startingJob: Job | null = null;

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
        return this.lastBgPid === null ? '' : String(this.lastBgPid);
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
      stdin: new Input(opts.stdin ?? '', opts.stdin === undefined && this.tty),
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
      try {
        this.runSource(input, io, { netns: this.hostNs(), tx: null });
      } finally {
        // A capture left in the background ends with the line (the recorder's `bash -c` exits).
        for (const j of this.jobs) if (j.state === 'deferred') this.finishJob(j);
      }
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

  prefix(): string {
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
        if (!this.scriptMode) {
          io.err(`${this.basePrefix}${e.message}\n`);
          if (e.detail) io.err(`${this.basePrefix}${e.detail}\n`);
        } else {
          // A script: "bash: -c: line N: ..." and, for a bad token, the line itself.
          const n = e.eof
            ? src.split('\n').length + (src.endsWith('\n') ? 0 : 1)
            : e.pos >= 0
              ? lineOf(src, e.pos)
              : reader.line();
          const where = `${this.basePrefix}${this.cMode ? '-c: ' : ''}line ${n}: `;
          io.err(`${where}${e.message}\n`);
          if (e.detail) io.err(`${where}${e.detail}\n`);
          else if (e.pos >= 0) io.err(`${where}\`${src.split('\n')[n - 1] ?? ''}'\n`);
        }
        this.lastStatus = e.exitCode;
        return;
      }
      for (const w of reader.takeWarnings()) {
        // bash: "bash: line 3: warning: here-document at line 1 delimited by end-of-file …"
        // (in a script, -c included, with no "-c: "); at a prompt without the line.
        if (this.dash) continue;
        io.err(`${this.basePrefix}${this.scriptMode ? `line ${w.line}: ` : ''}${w.message}\n`);
      }
      if (!list) return;
      try {
        this.execList(list, io, frame);
      } catch (e) {
        if (!(e instanceof LineAbort)) throw e;
        this.lastStatus = e.code;
      }
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
      // The script reads the same stream: its `read`s take lines, and what is left stays.
      stdin: ctx.input,
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
    for (const ao of list) {
      if (ao.background) this.execBackground(ao, io, frame);
      else this.execAndOr(ao, io, frame);
    }
    return this.lastStatus;
  }

  /**
   * `cmd &`: a job with its own pid (`$!`). Nothing runs at the same time in this shell, so the
   * job's commands run now, in a subshell, and say what they leave behind: a server keeps
   * running until `kill` (nc -l), a capture runs when the job is waited for (tcpdump, which then
   * sees the packets of the commands in between), anything else is done at once. `$?` is 0.
   */
  private execBackground(ao: AndOr, io: IO, frame: Frame): void {
    const job: Job = {
      pid: this.pid + 1 + this.jobs.length,
      text: ao.first.commands.map((c) => c.text).join(' | '),
      state: 'done',
      status: 0,
    };
    this.jobs.push(job);
    this.lastBgPid = job.pid;
    if (this.tty) io.err(`[${this.jobs.length}] ${job.pid}\n`);
    const outer = this.startingJob;
    this.startingJob = job;
    try {
      const status = this.inSubshell(() => this.execAndOr({ ...ao, background: false }, io, frame));
      if (job.state === 'done') job.status = status;
    } finally {
      this.startingJob = outer;
    }
    this.lastStatus = 0;
  }

  finishJob(job: Job): number {
    if (job.state === 'deferred' && job.deferred) {
      const fn = job.deferred;
      job.state = 'done';
      delete job.deferred;
      job.status = fn();
    }
    return job.status;
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
        stdin = new Input(buf);
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
      if (e instanceof ExitSignal || e instanceof LineAbort) return e.code;
      // `break` in a pipeline's part or a command substitution ends that subshell.
      if (e instanceof LoopSignal) return 0;
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
      case 'subshell': {
        // A subshell is in no loop of its parent's (`( break )` says so).
        const depth = this.loopDepth;
        this.loopDepth = 0;
        try {
          return this.inSubshell(() => this.execList(cmd.body, io, frame));
        } finally {
          this.loopDepth = depth;
        }
      }
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
        return this.loop(() => {
          for (const item of items) {
            if (++n > MAX_LOOP_ITERATIONS) return this.loopLimit(io);
            this.setVar(cmd.name, item);
            const r = this.loopBody(cmd.body, io, frame);
            status = r.status;
            if (r.broke) break;
          }
          this.lastStatus = status;
          return status;
        });
      }
      case 'arithfor': {
        const env = this.expandEnv(io, frame);
        /** One of the three expressions: its value (an empty one is `dflt`), or null on error. */
        const value = (w: Word, dflt: bigint): bigint | null => {
          let text: string;
          try {
            text = expandWordNoSplit(w, env);
          } catch (e) {
            return this.expansionFailed(e, io);
          }
          if (text.trim() === '') return dflt;
          const v = arithValue(text, env);
          if (v.ok) return v.value;
          io.err(`${this.prefix()}((: ${v.message}\n`);
          return null;
        };
        let status = 0;
        let n = 0;
        return this.loop(() => {
          if (value(cmd.init, 1n) === null) return (this.lastStatus = 1);
          for (;;) {
            const c = value(cmd.cond, 1n);
            if (c === null) return (this.lastStatus = 1);
            if (c === 0n) break;
            if (++n > MAX_LOOP_ITERATIONS) return this.loopLimit(io);
            const r = this.loopBody(cmd.body, io, frame);
            status = r.status;
            if (r.broke) break;
            if (value(cmd.step, 1n) === null) return (this.lastStatus = 1);
          }
          this.lastStatus = status;
          return status;
        });
      }
      case 'case':
        return this.execCase(cmd, io, frame);
      case 'cond':
        return this.execCond(cmd, io, frame);
      case 'while':
      case 'until': {
        let status = 0;
        let n = 0;
        return this.loop(() => {
          for (;;) {
            const c = this.execList(cmd.cond, io, frame);
            if ((cmd.kind === 'while') !== (c === 0)) break;
            if (++n > MAX_LOOP_ITERATIONS) return this.loopLimit(io);
            const r = this.loopBody(cmd.body, io, frame);
            status = r.status;
            if (r.broke) break;
          }
          this.lastStatus = status;
          return status;
        });
      }
    }
  }

  /**
   * `case`: the word is expanded once, without splitting or globbing; each item's patterns are
   * expanded and tried in order, until one matches (bash's execute_case_command).
   */
  private execCase(cmd: CaseCommand, io: IO, frame: Frame): number {
    const env = this.expandEnv(io, frame);
    let word: string;
    try {
      word = expandWordNoSplit(cmd.word, env);
    } catch (e) {
      return this.expansionFailed(e, io);
    }
    let status = 0;
    let fallThrough = false;
    for (const item of cmd.items) {
      if (!fallThrough) {
        let matched = false;
        for (const p of item.patterns) {
          let pattern: string;
          try {
            pattern = expandPattern(p, env);
          } catch (e) {
            return this.expansionFailed(e, io);
          }
          if (globMatch(pattern, word)) {
            matched = true;
            break;
          }
        }
        if (!matched) continue;
      }
      status = item.body.length ? this.execList(item.body, io, frame) : 0;
      if (item.term === ';;') break;
      fallThrough = item.term === ';&';
    }
    this.lastStatus = status;
    return status;
  }

  /** `[[ … ]]`: 0 when the expression holds, 1 when not, 2 for a regular expression in error. */
  private execCond(cmd: CondCommand, io: IO, frame: Frame): number {
    const env = this.expandEnv(io, frame);
    const host = {
      fs: () => env.fs(),
      resolve: (p: string) => resolvePath(this.cwd, p),
      shell: { getVar: (n: string) => this.getVar(n) },
      arithError: (m: string) => io.err(`${this.prefix()}[[: ${m}\n`),
    };
    let status: number;
    try {
      status = evalCond(cmd.expr, env, host) ? 0 : 1;
    } catch (e) {
      if (e instanceof CondRegexError) status = 2;
      else return this.expansionFailed(e, io);
    }
    this.lastStatus = status;
    return status;
  }

  /** How many loops the running command is in (`break` and `continue` need one). */
  private loopDepth = 0;

  private loop(run: () => number): number {
    this.loopDepth++;
    try {
      return run();
    } finally {
      this.loopDepth--;
    }
  }

  /** A loop's body once: `break`/`continue` for this loop end it here; for an outer one, go on up. */
  private loopBody(body: CommandList, io: IO, frame: Frame): { status: number; broke: boolean } {
    try {
      return { status: this.execList(body, io, frame), broke: false };
    } catch (e) {
      if (!(e instanceof LoopSignal)) throw e;
      if (e.levels > 1) {
        e.levels--;
        // `continue 2` from an inner loop is a `continue` of the outer one.
        throw e;
      }
      this.lastStatus = e.status;
      return { status: e.status, broke: e.kind === 'break' };
    }
  }

  inLoop(): boolean {
    return this.loopDepth > 0;
  }

  loopControl(kind: 'break' | 'continue', levels: number, status = 0): never {
    throw new LoopSignal(kind, Math.min(levels, this.loopDepth), status);
  }

  fatal(status: number): never {
    this.lastStatus = status;
    if (this.scriptMode) throw new ExitSignal(status);
    throw new LineAbort(status);
  }

  private loopLimit(io: IO): number {
    io.err(`${this.prefix()}cnisim: loop stopped after ${MAX_LOOP_ITERATIONS} iterations\n`);
    this.lastStatus = 1;
    return 1;
  }

  /**
   * An expansion failed: bash prints why and gives up the rest of its input, a script exiting
   * (with 127 for an unset `${x?}`), an interactive shell going on with the next line.
   */
  expansionFailed(e: unknown, io: IO): never {
    if (!(e instanceof ShellSyntaxError)) throw e;
    io.err(`${this.prefix()}${e.message}\n`);
    this.lastStatus = e.exitCode;
    if (this.scriptMode) throw new ExitSignal(e.scriptExit ?? e.exitCode);
    throw new LineAbort(e.exitCode);
  }

  expandEnv(io: IO, frame: Frame): ExpandEnv {
    return {
      getVar: (n) => this.getVar(n),
      setVar: (n, v) => this.setVar(n, v),
      commandSubst: (list) => {
        let out = '';
        this.inSubshell(() =>
          // It reads the same input as the command it is in (`x=$(head -1)` in a read loop).
          this.execList(list, { stdin: io.stdin, out: (s) => void (out += s), err: io.err }, frame),
        );
        return out;
      },
      home: () => this.getVar('HOME') ?? '/root',
      cwd: () => this.cwd,
      fs: () => (frame.tx ? frame.tx.nodeState().fs : this.sim.node(this.node).fs),
    };
  }

  newTx(summary: string, source: string): Tx {
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
        return D.dispatch(this, argv, env, io2, frame2, true);
      },
      cmd.text,
      argv[0],
    );
  }

  /** Runs `body` with the command's redirections (see redirect.ts); its status becomes `$?`. */
  private withRedirects(
    redirects: Redirect[],
    summary: string,
    io: IO,
    frame: Frame,
    body: (io: IO, frame: Frame) => number,
    source = summary,
    writer?: string,
  ): number {
    const status = withRedirects(this, redirects, summary, io, frame, body, source, writer);
    this.lastStatus = status;
    return status;
  }

  /** The command as run, for the trace: its source text, or its expansion when it had any. */
  private summaryOf(cmd: SimpleCommand, argv: string[], assigns: Array<[string, string]>): string {
    const expanded =
      cmd.words.some(hasExpansion) ||
      cmd.assigns.some((a) => hasExpansion(a.value)) ||
      cmd.redirects.some((r) => !isHeredoc(r) && hasExpansion(r.target));
    if (!expanded) return cmd.text;
    const parts = [...assigns.map(([k, v]) => `${k}=${shellQuote(v)}`), ...argv.map(shellQuote)];
    const xenv = this.expandEnv(
      { stdin: noInput(), out: () => {}, err: () => {} },
      { netns: this.hostNs(), tx: null },
    );
    for (const r of cmd.redirects) {
      if (isHeredoc(r)) {
        // The redirection as typed (`<<EOF`): its body is the input, not part of the command.
        parts.push(r.raw);
        continue;
      }
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

  /** For commands: runs argv as execvp would (no builtins-only commands). */
  execFromCommand(ctx: CtxImpl, argv: readonly string[], opts: ExecOptions): number | ExecFailure {
    return D.execFromCommand(this, ctx, argv, opts);
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

export { parseScript, isName, resolvePath };

/** A here-document (`<<WORD`, `<<-WORD`): its target is the body. */
function isHeredoc(r: Redirect): boolean {
  return r.op === '<<' || r.op === '<<-';
}
