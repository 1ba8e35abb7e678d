/** What a command sees of the shell and the node while it runs (CommandContext). */
import type { Draft } from 'immer';
import type * as vfs from '../fs/vfs';
import type { RandomSource } from '../kernel/kernel';
import type { KernelState } from '../kernel/types';
import type { NodeState, Simulation } from '../sim/world';
import type { Frame, IO, Input } from './io';
import { resolvePath } from './paths';
import type { Tx } from './tx';
import type {
  ClusterHooks,
  CommandContext,
  ExecFailure,
  ExecOptions,
  Job,
  ShellState,
} from './types';

/** What a command's context needs from the shell that runs it. */
export interface ContextHost extends ShellState {
  readonly sim: Simulation;
  readonly node: string;
  readonly cluster: ClusterHooks | undefined;
  /** The background job being started, if the command runs in one. */
  readonly startingJob: Job | null;
  execFromCommand(ctx: CtxImpl, argv: readonly string[], opts: ExecOptions): number | ExecFailure;
  passTime(us: number, tx: Tx | null): void;
  outside<T>(tx: Tx | null, fn: () => T): T;
  noteCommand(
    argv: readonly string[],
    target: string,
    level: 'cluster' | 'runtime' | 'cni' | 'kernel',
  ): void;
}

export class CtxImpl implements CommandContext {
  constructor(
    private readonly sh: ContextHost,
    readonly argv: readonly string[],
    readonly env: Readonly<Record<string, string>>,
    private readonly io: IO,
    private readonly frame: Frame,
  ) {}

  get tx(): Tx | null {
    return this.frame.tx;
  }
  private stdinText: string | undefined;
  /** What is left of the input, read on first use (a command that never reads takes nothing). */
  get stdin(): string {
    return (this.stdinText ??= this.io.stdin.rest());
  }
  get input(): Input {
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
  get background(): boolean {
    return this.sh.startingJob !== null;
  }
  defer(fn: () => number): number {
    const job = this.sh.startingJob;
    if (!job) return fn();
    job.state = 'deferred';
    job.deferred = fn;
    return 0;
  }
  keepRunning(onKill?: (ctx: CommandContext) => void): void {
    const job = this.sh.startingJob;
    if (!job) return;
    job.state = 'running';
    if (onKill) job.onKill = onKill;
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
