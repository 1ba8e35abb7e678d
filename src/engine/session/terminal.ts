/**
 * A terminal on a node of a session: what the app's shell panel runs lines through.
 *
 * A line runs at the session's cursor, on the world as it was after that step:
 *
 * - First it is tried on a fork of the simulation at the cursor (`Simulation.fork`). A line that
 *   changes nothing there (no event, no daemon restarted, no pod deleted) is a read: its output
 *   is the answer, and the session, its trace and its log are untouched (`ls`, `cat`,
 *   `journalctl`, `ip addr`, `cd`, `export`, a failing `rm`, ...).
 * - A line that changes something is a `shell` action (`change`): the caller performs it on the
 *   session (`Session.perform`), which logs it at the cursor, so that it is a step of the trace,
 *   replays, and is saved and shared with the session. After stepping back, that rewrites the
 *   future, as every action does. The action carries the terminal's directory, variables and
 *   `$?`, so that a replay runs the line exactly as typed.
 *
 * The terminal's own state between lines (directory, variables, `$?`, history) is `TermState`.
 */
// The terminal runs lines in the node shell.
import '../cluster/with-shell';
import {
  Shell,
  defaultSnapshot,
  type ClusterHooks,
  type RunResult,
  type ShellSnapshot,
} from '../shell';
import type { SessionAction } from './actions';
import type { SessionView } from './view';
import type { Simulation } from '../sim/world';

export interface TermState {
  readonly shell: ShellSnapshot;
  readonly history: readonly string[];
}

/** A new terminal's state (a login shell as root in /root). */
export function newTermState(): TermState {
  return { shell: defaultSnapshot(), history: [] };
}

export type LineOutcome =
  /** The line changed nothing: here is its output and the terminal's state after it. */
  | { kind: 'read'; result: RunResult; state: TermState }
  /** The line changes the node or the cluster: perform this action, then call `afterAction`. */
  | { kind: 'change'; action: Extract<SessionAction, { do: 'shell' }> };

/** Something that can fork its simulation (a Session's cluster). */
export interface Forkable extends SessionView {
  readonly cluster: { readonly sim: Simulation };
}

/** Hooks that only note that the line wanted the cluster to act. */
class Recorder implements ClusterHooks {
  used = false;
  restartKubelet(): void {
    this.used = true;
  }
  restartContainerd(): void {
    this.used = true;
  }
  stopUnit(): void {
    this.used = true;
  }
  startUnit(): void {
    this.used = true;
  }
  reboot(): void {
    this.used = true;
  }
  deletePod(): void {
    this.used = true;
  }
}

/** Tries a line at the session's cursor on node `node` (see the file comment). */
export function tryLine(session: Forkable, node: string, line: string, t: TermState): LineOutcome {
  const sim = session.cluster.sim.fork(session.cursor);
  const before = sim.state;
  const hooks = new Recorder();
  const sh = new Shell(sim, node, {
    actor: 'operator',
    cluster: hooks,
    tty: true,
    resume: t.shell,
    history: t.history,
  });
  const result = sh.run(line);
  const changed =
    hooks.used ||
    sim.events.length > session.cursor + 1 ||
    Object.keys(before).some(
      (k) =>
        k !== 'clock' &&
        k !== 'rng' &&
        before[k as keyof typeof before] !== sim.state[k as keyof typeof before],
    );
  if (!changed) return { kind: 'read', result, state: after(t, line, result, sh.snapshot()) };
  return { kind: 'change', action: shellAction(node, line, t.shell) };
}

/** The `shell` action that runs `line` continuing the terminal's session `s`. */
export function shellAction(
  node: string,
  line: string,
  s: ShellSnapshot,
): Extract<SessionAction, { do: 'shell' }> {
  const d = newTermState().shell;
  const same = (a: Record<string, string>, b: Record<string, string>) =>
    Object.keys(a).length === Object.keys(b).length &&
    Object.entries(a).every(([k, v]) => b[k] === v);
  return {
    do: 'shell',
    node,
    line,
    ...(s.cwd !== d.cwd ? { cwd: s.cwd } : {}),
    // PWD follows cd: the default environment with only PWD changed is still the default.
    ...(!same(s.env, { ...d.env, PWD: s.env['PWD'] ?? '' }) || !('PWD' in s.env)
      ? { env: s.env }
      : {}),
    ...(Object.keys(s.vars).length ? { vars: s.vars } : {}),
    ...(s.status !== 0 ? { status: s.status } : {}),
    tty: true,
  };
}

/** The terminal's state after a performed `shell` action (its output holds the shell's state). */
export function afterAction(
  t: TermState,
  line: string,
  output: (RunResult & { state: ShellSnapshot }) | undefined,
): TermState {
  if (!output) return { ...t, history: pushHistory(t.history, line) };
  return after(t, line, output, output.state);
}

function after(t: TermState, line: string, r: RunResult, s: ShellSnapshot): TermState {
  const history = pushHistory(t.history, line);
  // `exit` and `reboot` end the session: the terminal starts a new one (history stays).
  if (r.exited) return { shell: { ...newTermState().shell, status: r.exitCode }, history };
  return { shell: s, history };
}

/** History keeps the last 1000 lines, as bash's HISTSIZE. */
const HISTSIZE = 1000;

function pushHistory(h: readonly string[], line: string): readonly string[] {
  const l = line.replace(/\n+$/, '');
  if (l.trim() === '') return h;
  const next = [...h, l];
  return next.length > HISTSIZE ? next.slice(next.length - HISTSIZE) : next;
}
