/**
 * The interface between the shell and its commands. A command is a function of a context: its
 * argv, environment, stdin, output streams, working directory, the network namespace it runs in,
 * and read/change access to its node's kernel and filesystem. Changes go through `changeKernel` /
 * `changeFs` / `change`: the shell gathers every change one command makes into one trace event.
 */
import type { Draft } from 'immer';
import type { FsState } from '../fs/vfs';
import type { RandomSource } from '../kernel/kernel';
import type { KernelState } from '../kernel/types';
import type { Simulation, NodeState } from '../sim/world';
import type { Input } from './io';

export interface ExecOptions {
  /** Network namespace id to run in (default: the caller's). */
  netns?: string;
  env?: Record<string, string>;
  stdin?: string;
}

/** What `exec` returns when the program could not be started (errno name). */
export type ExecFailure = 'ENOENT' | 'EACCES' | 'ENOEXEC';

/**
 * What the shell of a node in a cluster may ask of the cluster (implemented by Cluster). A node
 * without a cluster has no kubelet or containerd units, no API server and no CRI socket.
 */
export interface ClusterHooks {
  /** `systemctl restart kubelet`: the kubelet stops and starts again. */
  restartKubelet(node: string): void;
  /** `systemctl restart containerd`. */
  restartContainerd(node: string): void;
  /** `systemctl stop UNIT` / `systemctl start UNIT`. */
  stopUnit(node: string, unit: 'kubelet' | 'containerd'): void;
  startUnit(node: string, unit: 'kubelet' | 'containerd'): void;
  /** The node reboots: processes, namespaces and tmpfs are gone; the daemons start again. */
  reboot(node: string): void;
  /** `kubectl delete pod`: a graceful deletion, which the pod's kubelet then carries out. */
  deletePod(key: string): void;
}

export interface CommandContext {
  /** argv[0] is the command name as invoked. */
  readonly argv: readonly string[];
  /** The exported environment plus this command's own assignments. */
  readonly env: Readonly<Record<string, string>>;
  /** The input not read yet, read whole on first use (the rest of the stream is then empty). */
  readonly stdin: string;
  /** The input stream itself, for a builtin that reads part of it (`read`). */
  readonly input: Input;
  /** stdout is the terminal (not a pipe or a file). */
  readonly isatty: boolean;
  /** The node's cluster, if it is in one. */
  readonly cluster: ClusterHooks | undefined;
  out(s: string): void;
  err(s: string): void;
  /** Absolute working directory. */
  readonly cwd: string;
  /** Absolute, cleaned path of `p` relative to cwd. */
  resolve(p: string): string;
  readonly sim: Simulation;
  readonly nodeName: string;
  /** Id of the network namespace the command runs in. */
  readonly netns: string;
  /** The node's kernel as this command sees it (its own changes included). */
  kernel(): KernelState;
  fs(): FsState;
  /** Applies a kernel change (throws what `fn` throws, leaving nothing changed). */
  changeKernel<T>(fn: (k: KernelState, rnd: RandomSource) => T): T;
  changeFs(fn: (fs: FsState) => FsState): void;
  /** Applies a change to both (e.g. `ip netns add`: a namespace and its mount file). */
  change<T>(fn: (n: Draft<NodeState>, rnd: RandomSource) => T): T;
  /**
   * Runs another command (not through the shell's parser: no builtins-only commands) with the same
   * streams, as `ip netns exec` or `env` do. Returns its exit status, or why it could not start.
   */
  exec(argv: readonly string[], opts?: ExecOptions): number | ExecFailure;
  /** Lets virtual time pass (sleep): deferred kernel work is done. */
  sleep(us: number): void;
  /**
   * Runs `fn` against the simulation itself (a libcni call, a cluster action), which records its
   * own events: the command's changes so far are recorded first, and it goes on from the result.
   */
  outside<T>(fn: () => T): T;
  /** Records the command as a step of its own (e.g. `systemctl restart kubelet` to systemd). */
  note(target: string, level: 'cluster' | 'runtime' | 'cni' | 'kernel'): void;
  /** The shell running the command (builtins change its variables and directory). */
  readonly shell: ShellState;
  /** The command runs as (part of) a background job: `cmd &`. */
  readonly background: boolean;
  /**
   * In the background: `fn` runs when the job is waited for (`wait`, `kill`, or the end of the
   * input line) and its status is the job's: a capture (tcpdump) sees what happened meanwhile.
   * In the foreground `fn` runs at once. Returns the status to return now.
   */
  defer(fn: () => number): number;
  /**
   * In the background: the job goes on after the command returns (a listening server) until
   * `kill`, which runs `onKill` with its own context (to undo what the job held).
   */
  keepRunning(onKill?: (ctx: CommandContext) => void): void;
}

/** A background job of a shell (`cmd &`), as `$!`, `kill` and `wait` see it. */
export interface Job {
  pid: number;
  /** The and-or list as typed. */
  text: string;
  /** done: finished with `status`; running: a server until killed; deferred: runs when waited for. */
  state: 'done' | 'running' | 'deferred';
  status: number;
  deferred?: () => number;
  onKill?: (ctx: CommandContext) => void;
}

/** The part of the shell builtins may read and change. */
export interface ShellState {
  cwd: string;
  readonly history: readonly string[];
  getVar(name: string): string | undefined;
  setVar(name: string, value: string, exported?: boolean): void;
  unsetVar(name: string): void;
  exportVar(name: string): void;
  /** Exported variables. */
  environ(): Record<string, string>;
  /** The background jobs started by this shell (`cmd &`), oldest first. */
  readonly jobs: Job[];
  /** Runs a deferred job now (it is done afterwards); returns its status. */
  finishJob(job: Job): number;
  /** Runs a script in a child shell (bash -c): returns its status. */
  runScript(
    src: string,
    ctx: CommandContext,
    opts: { argv0: string; scriptName?: string; dialect?: 'bash' | 'dash' },
  ): number;
  /** Names that `ip -n NAME` / `ip netns exec NAME` resolve to the node's own namespace. */
  readonly hostNetnsAliases: readonly string[];
  /** Ends the shell (the `exit` builtin). */
  requestExit(code: number): void;
  /** Whether the running command is in a loop (`break` and `continue` need one). */
  inLoop(): boolean;
  /** `break N` / `continue N` in a loop: leaves (or goes on with) the Nth enclosing loop. */
  loopControl(kind: 'break' | 'continue', levels: number, status?: number): never;
  /** A builtin's fatal usage error (`break x`): a script exits, a prompt drops the line. */
  fatal(status: number): never;
  /** What bash puts before a builtin's error: "bash: " or, in a script, "bash: line 3: ". */
  errorPrefix(): string;
  /** An interactive shell (a prompt), not a script. */
  readonly interactive: boolean;
}

export type CommandFn = (ctx: CommandContext) => number;

export interface CommandSpec {
  name: string;
  run: CommandFn;
  /**
   * Where the binary lives on a Debian node (`/usr/bin`, `/usr/sbin`), for `/usr/sbin/ip`-style
   * invocations; null for a bash builtin that has no binary (cd, export, ...).
   */
  dir: '/usr/bin' | '/usr/sbin' | null;
  /** A bash builtin (bash runs its own version, even when a binary exists too). */
  builtin?: boolean;
}

/** The commands a shell knows, by name. More can be registered (later issues add read commands). */
export class CommandRegistry {
  private readonly map = new Map<string, CommandSpec>();

  constructor(specs: readonly CommandSpec[] = []) {
    for (const s of specs) this.register(s);
  }

  register(...specs: CommandSpec[]): this {
    for (const s of specs) this.map.set(s.name, s);
    return this;
  }

  get(name: string): CommandSpec | undefined {
    return this.map.get(name);
  }

  /** The command a path like /usr/sbin/ip (or /sbin/ip: Debian's /sbin is /usr/sbin) names. */
  byPath(path: string): CommandSpec | undefined {
    const i = path.lastIndexOf('/');
    const dir = path.slice(0, i);
    const spec = this.map.get(path.slice(i + 1));
    if (!spec || !spec.dir) return undefined;
    const dirs = spec.dir === '/usr/sbin' ? ['/usr/sbin', '/sbin'] : ['/usr/bin', '/bin'];
    return dirs.includes(dir) ? spec : undefined;
  }

  names(): string[] {
    return [...this.map.keys()].sort();
  }

  clone(): CommandRegistry {
    return new CommandRegistry([...this.map.values()]);
  }
}

/** strerror() texts, for the messages coreutils and bash print. */
export const STRERROR: Record<string, string> = {
  ENOENT: 'No such file or directory',
  EEXIST: 'File exists',
  ENOTDIR: 'Not a directory',
  EISDIR: 'Is a directory',
  ENOTEMPTY: 'Directory not empty',
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  EINVAL: 'Invalid argument',
  EBUSY: 'Device or resource busy',
  ENOEXEC: 'Exec format error',
};
