/** A shell session's options, its state between lines as data, and the defaults of a new one. */
import type { ProgramRegistry } from '../os/process';
import type { ClusterHooks, CommandRegistry } from './types';

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

export const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';
export const DEFAULT_IFS = ' \t\n';

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
/** Deeper nesting of scripts and commands than this fails (bash's "maximum nesting level"). */
export const MAX_DEPTH = 64;
