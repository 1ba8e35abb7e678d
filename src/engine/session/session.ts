/**
 * A session: a cluster being simulated, the actions the user performed on it, and a cursor (the
 * step the user is looking at). This is what the app drives; it runs headless too.
 *
 * The trace is a pure function of the cluster spec, the seed and the logged actions, each
 * logged with the step it was performed at (`step`: how many events the trace had when it was
 * applied). Consequences:
 *
 * - Stepping back and forth never undoes anything: it moves the cursor over `states[i]`, the
 *   world recorded after each event. Stepping past the end computes the next event.
 * - Performing an action when the cursor is at the end of the trace applies it there. After
 *   stepping back, it rewrites the future: the session replays the spec with the same seed and
 *   the actions logged up to the cursor, then applies the new action; the old trace after the
 *   cursor, and the actions logged after it, are dropped (the `revision` changes). Actions
 *   the session planned (the landing's pod) are not the user's: one planned at or before the
 *   cursor stays, whether the trace had reached it or not.
 * - An action takes effect between two units of work of the scheduler (a process's turn, a
 *   timer). One unit may record several events; an action performed in the middle of those
 *   takes effect after the unit's last event, as a real node cannot be interrupted there either.
 *   Its `step` records where it really took effect.
 * - A logged action is applied at the first point where the trace has at least `step` events, or
 *   as soon as nothing else is left to happen before it. Actions are applied in log order.
 * - Saving a session saves the spec, the seed, the actions and the cursor (serialize.ts);
 *   loading replays them.
 *
 * Long computations (a replay, "run until", a deployment of 110 pods) exist as jobs: generators
 * that yield after every unit of work, so that the app can spread them over frames and show
 * progress. The synchronous methods run a job to its end.
 */
import type { AnyStateMachine } from 'xstate';
import { Cluster, DEFAULT_CLUSTER, type ClusterSpec, type NodeAudit } from '../cluster/cluster';
import { kubeletMachine, podWorkerMachine } from '../kubelet/machines';
import { containerdMachine, sandboxMachine } from '../runtime/machines';
import type { WorldState } from '../sim/world';
import type { Level, TraceEvent } from '../trace/trace';
import {
  applyActionJob,
  describeAction,
  type ActionOutput,
  type FaultInjector,
  type SessionAction,
} from './actions';
import { isErrorEvent, meets, podsTurnedRunning, type StopCondition } from './conditions';
import { RepeatWatch, type Repetition } from './repeats';
import { levelShows, type Marker, type SessionView } from './view';

/**
 * The fault catalogue's injector (faults/inject.ts), which sessions use unless given another: not
 * imported here, so that the landing's session loads without the catalogue. Importing
 * `session/with-faults.ts` provides it (the app's whole engine and the tests do); an
 * `injectFault` action fails before.
 */
let catalogueInjector: FaultInjector | null = null;

/** Gives sessions the fault catalogue (see `catalogueInjector`). */
export function provideFaults(f: FaultInjector): void {
  catalogueInjector = f;
}

const lateInjector: FaultInjector = (cluster, id, params) => {
  if (catalogueInjector === null)
    throw new SessionError('The fault catalogue is not loaded yet: try again in a moment.');
  return catalogueInjector(cluster, id, params);
};

/** An action of the log: performed when the trace had `step` events. */
export interface LoggedAction {
  step: number;
  action: SessionAction;
  /**
   * Set when it was performed after the cluster was found to have nothing left to do. Finding
   * that out runs the last timers, which may record nothing and still move the clock (a
   * kubelet's status timer): such an action must be replayed after them too, not right after
   * the `step`th event, or it happens earlier in virtual time and the replay differs.
   */
  idle?: true;
  /** Set when the session planned it (`plan`: the landing's pod), not the user. */
  planned?: true;
  /**
   * Set for a challenge's hidden fault: replayed like any action, but no marker shows it, the
   * log (`actions`) leaves it out and "next fault" does not stop at it.
   */
  hidden?: true;
}

/** A logged action and what became of it in the current trace. */
export interface AppliedAction extends LoggedAction {
  /** Whether the trace has reached it yet (an action can be planned ahead, see `plan`). */
  applied: boolean;
  /** The first event it recorded, or null (none, or not applied yet). */
  first: number | null;
  /** How many events it recorded itself (the daemons' reactions come later). */
  count: number;
  /** The error the cluster answered with, if any (the action is kept: it changed something). */
  error: string | null;
  output: ActionOutput | null;
}

export interface SessionOptions {
  cluster?: ClusterSpec;
  seed?: number;
  actions?: readonly LoggedAction[];
  level?: Level;
  /** How `injectFault` actions inject: the fault catalogue unless given (null: none). */
  faults?: FaultInjector | null;
}

export interface PerformResult {
  /** The step the action was logged at. */
  step: number;
  first: number | null;
  error: string | null;
  output: ActionOutput | null;
  /** Whether the trace after the cursor was replaced. */
  rewrote: boolean;
}

export interface RunUntilOptions {
  /** Give up after looking at this many events (default 200,000). */
  maxEvents?: number;
  /**
   * Stop when the run only repeats the same failure (repeats.ts): the cursor stays on the
   * failure's last event and `lastRun` says so. Default: true, but false for a `predicate`
   * (headless waits, such as a challenge's "until the node recovered or 2 minutes passed").
   */
  stopOnRepeat?: boolean;
}

/** How the last "run until" ended. */
export type RunEnd =
  /** An event met the condition. */
  | { kind: 'met'; step: number }
  /** Nothing was left to happen (the trace ends; for `idle`, that is the condition met). */
  | { kind: 'idle'; step: number }
  /** `maxEvents` events were looked at. */
  | { kind: 'limit'; step: number; events: number }
  /** The run only repeated the same failure. */
  | { kind: 'repeating'; step: number; repetition: Repetition };

/** A long computation: yields after each unit of work (the trace's length), returns its result. */
export type Job<T> = Generator<number, T, void>;

/** Runs a job to its end. */
export function drain<T>(job: Job<T>): T {
  for (;;) {
    const r = job.next();
    if (r.done) return r.value;
  }
}

/** An error the session reports to the user (a refused action, an unreadable saved state). */
export class SessionError extends Error {
  override name = 'SessionError';
}

/** Machine definitions by the name their actors carry (see SessionView.machines). */
export const MACHINES: Readonly<Record<string, AnyStateMachine>> = {
  kubelet: kubeletMachine,
  podWorker: podWorkerMachine,
  containerd: containerdMachine,
  sandbox: sandboxMachine,
};

interface Entry extends LoggedAction {
  applied: boolean;
  /** The trace's length when it was applied. */
  appliedAt: number;
  first: number | null;
  count: number;
  error: string | null;
  output: ActionOutput | null;
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** One computation of the trace: a cluster and the actions applied to it so far. */
class Run {
  readonly cluster: Cluster;
  /** Events the cluster recorded while booting (daemons starting): actions come after them. */
  readonly bootLength: number;
  readonly entries: Entry[];
  /** Entries applied so far (a prefix of `entries`). */
  applied = 0;
  /** First step of each injected fault. */
  readonly faultSteps = new Set<number>();
  /** Set when the cluster had nothing left to do; cleared by an action. */
  idle = false;

  constructor(
    readonly spec: ClusterSpec,
    readonly seed: number,
    actions: readonly LoggedAction[],
    private readonly faults: FaultInjector | null,
  ) {
    this.cluster = new Cluster(spec, { seed });
    this.bootLength = this.cluster.events.length;
    this.entries = actions.map((a) => ({
      step: Math.max(a.step, this.bootLength),
      action: a.action,
      ...(a.idle ? { idle: true as const } : {}),
      ...(a.planned ? { planned: true as const } : {}),
      ...(a.hidden ? { hidden: true as const } : {}),
      applied: false,
      appliedAt: -1,
      first: null,
      count: 0,
      error: null,
      output: null,
    }));
  }

  get length(): number {
    return this.cluster.events.length;
  }

  /**
   * The next logged action, if the trace has reached its step (an action performed when the
   * cluster was idle: once the cluster is idle there, or the trace went past its step).
   */
  due(): Entry | null {
    const e = this.entries[this.applied];
    if (!e || e.step > this.length) return null;
    return e.idle && e.step === this.length && !this.idle ? null : e;
  }

  /** One unit of work: a due action, or one step of the cluster. False when nothing is left. */
  advance(): boolean {
    return drain(this.advanceJob());
  }

  /**
   * `advance` as a job: a long action (scaling to 110 pods) yields between its pieces. An
   * action a stopped job left half applied is finished first, before anything else happens
   * to the cluster, so the trace is the same however the work was sliced or stopped.
   */
  *advanceJob(): Job<boolean> {
    if (this.applying) {
      yield* this.applying;
      return true;
    }
    const due = this.due();
    if (due) {
      yield* this.applyJob(due);
      return true;
    }
    if (!this.idle && this.cluster.step()) return true;
    this.idle = true;
    // Nothing happens before the next logged action any more: it happens now.
    const next = this.entries[this.applied];
    if (next) {
      yield* this.applyJob(next);
      return true;
    }
    return false;
  }

  /** The action being applied, when a job was stopped between its pieces. */
  private applying: Job<void> | null = null;

  apply(e: Entry): void {
    drain(this.applyJob(e));
  }

  *applyJob(e: Entry): Job<void> {
    this.applying = this.applySteps(e);
    yield* this.applying;
  }

  private *applySteps(e: Entry): Job<void> {
    const before = this.length;
    e.appliedAt = before;
    if (this.idle) e.idle = true;
    else delete e.idle;
    const steps = applyActionJob(this.cluster, e.action, this.faults);
    let done = false;
    try {
      for (;;) {
        const r = steps.next();
        if (r.done) {
          e.output = r.value;
          break;
        }
        yield this.length;
      }
      done = true;
    } catch (err) {
      e.error = messageOf(err);
      done = true;
    } finally {
      // Closed early (`return()` on a job delegating here): the action still completes, now.
      if (!done) {
        try {
          for (let r = steps.next(); ; r = steps.next())
            if (r.done) {
              e.output = r.value;
              break;
            }
        } catch (err) {
          e.error = messageOf(err);
        }
      }
      this.settle(e, before);
    }
  }

  /** The log's bookkeeping once an action is applied. */
  private settle(e: Entry, before: number): void {
    this.applying = null;
    e.applied = true;
    e.count = this.length - before;
    e.first = e.count > 0 ? before : null;
    if (e.first !== null && e.action.do === 'injectFault' && !e.hidden) {
      const at = e.output?.faultAt;
      this.faultSteps.add(at !== undefined && at >= before && at < this.length ? at : e.first);
    }
    this.applied++;
    this.idle = false;
  }

  /**
   * Computes until the trace has `n` events and every action logged at a step up to then is
   * applied (one performed when the cluster was idle finds out first that it is).
   */
  *computeTo(n: number): Job<void> {
    for (;;) {
      const next = this.entries[this.applied];
      if (this.length >= n && !(next && next.step <= this.length)) return;
      if (!(yield* this.advanceJob())) return;
      yield this.length;
    }
  }
}

export class Session implements SessionView {
  private run: Run;
  private _cursor: number;
  private _level: Level;
  private _revision = 0;
  private _lastRun: RunEnd | null = null;
  private readonly faults: FaultInjector | null;
  private markerCache: { run: Run; scanned: number; list: Marker[]; actionsSeen: number } | null =
    null;

  readonly machines = MACHINES;

  constructor(opts: SessionOptions = {}) {
    this.faults = opts.faults === undefined ? lateInjector : opts.faults;
    const actions = opts.actions ?? [];
    checkOrder(actions);
    this.run = new Run(opts.cluster ?? DEFAULT_CLUSTER, opts.seed ?? 1, actions, this.faults);
    this._cursor = this.start;
    this._level = opts.level ?? 'kernel';
  }

  // ---------------------------------------------------------------------------------------------
  // SessionView

  get events(): readonly TraceEvent[] {
    return this.run.cluster.events;
  }

  get states(): readonly WorldState[] {
    return this.run.cluster.sim.states;
  }

  get initial(): WorldState {
    return this.run.cluster.sim.initial;
  }

  get cursor(): number {
    return this._cursor;
  }

  get level(): Level {
    return this._level;
  }

  get revision(): number {
    return this._revision;
  }

  get spec(): ClusterSpec {
    return this.run.spec;
  }

  get seed(): number {
    return this.run.seed;
  }

  get nodeNames(): readonly string[] {
    return this.run.spec.nodes.map((n) => n.name);
  }

  stateAt(i: number): WorldState {
    const states = this.states;
    if (i < 0 || states.length === 0) return this.initial;
    return states[Math.min(i, states.length - 1)]!;
  }

  isVisible(e: TraceEvent): boolean {
    return levelShows(this._level, e.level);
  }

  audit(state: WorldState): NodeAudit[] {
    return this.run.cluster.audit(state);
  }

  get markers(): readonly Marker[] {
    let c = this.markerCache;
    if (!c || c.run !== this.run) {
      c = { run: this.run, scanned: 0, list: [], actionsSeen: 0 };
      this.markerCache = c;
    }
    const events = this.events;
    if (c.scanned === events.length && c.actionsSeen === this.run.applied) return c.list;
    // Rebuilt from scratch when actions were applied (their marks interleave with events).
    const list: Marker[] = c.actionsSeen === this.run.applied ? c.list.slice() : [];
    const from = c.actionsSeen === this.run.applied ? c.scanned : 0;
    const byStep = new Map<number, Entry[]>();
    for (const e of this.run.entries) {
      if (e.first === null || e.first < from || e.hidden) continue;
      const l = byStep.get(e.first) ?? [];
      l.push(e);
      byStep.set(e.first, l);
    }
    for (let i = from; i < events.length; i++) {
      for (const a of byStep.get(i) ?? []) {
        list.push({
          step: i,
          kind: a.action.do === 'injectFault' ? 'fault' : 'action',
          label: a.output?.faultNode
            ? `${describeAction(a.action)} on ${a.output.faultNode}`
            : describeAction(a.action),
        });
      }
      const e = events[i]!;
      if (isErrorEvent(e)) list.push({ step: i, kind: 'error', label: e.summary });
      for (const pod of podsTurnedRunning(e, this.stateAt(i - 1), this.stateAt(i)))
        list.push({ step: i, kind: 'pod-running', label: `${pod} Running` });
    }
    c.list = list;
    c.scanned = events.length;
    c.actionsSeen = this.run.applied;
    return list;
  }

  // ---------------------------------------------------------------------------------------------
  // More of the session

  /** The cursor after the cluster booted (its daemons' start-up events). */
  get start(): number {
    return this.run.bootLength - 1;
  }

  /** The log: every action, applied or planned, with what became of it (hidden ones left out). */
  get actions(): readonly AppliedAction[] {
    return this.run.entries.filter((e) => !e.hidden).map(({ appliedAt: _, ...e }) => ({ ...e }));
  }

  /** The simulated cluster. Read it, never change it: changes must go through `perform`. */
  get cluster(): Cluster {
    return this.run.cluster;
  }

  /** Whether the cursor is on the last event computed so far. */
  get atEnd(): boolean {
    return this._cursor >= this.events.length - 1;
  }

  /** Whether the cluster was found to have nothing left to do (and no action is pending). */
  get finished(): boolean {
    return this.run.idle && this.run.applied === this.run.entries.length && this.atEnd;
  }

  setLevel(level: Level): void {
    this._level = level;
  }

  /** Moves to the next event shown at the current level, computing it if needed. */
  stepForward(): boolean {
    return drain(this.stepForwardJob());
  }

  *stepForwardJob(): Job<boolean> {
    const events = this.run.cluster.events;
    for (let i = this._cursor + 1; ; i++) {
      while (i >= events.length) {
        if (!(yield* this.run.advanceJob())) return false;
        yield events.length;
      }
      if (this.isVisible(events[i]!)) {
        this._cursor = i;
        return true;
      }
    }
  }

  /** Moves to the previous event shown at the current level (or before the first event). */
  stepBack(): boolean {
    if (this._cursor < 0) return false;
    const events = this.events;
    for (let i = Math.min(this._cursor, events.length) - 1; i >= 0; i--) {
      if (this.isVisible(events[i]!)) {
        this._cursor = i;
        return true;
      }
    }
    this._cursor = -1;
    return true;
  }

  /** Moves the cursor to step `i` (-1: before the first event), computing up to it if needed. */
  seek(i: number): number {
    return drain(this.seekJob(i));
  }

  *seekJob(i: number): Job<number> {
    const target = Math.max(-1, Math.floor(i));
    yield* this.run.computeTo(target + 1);
    this._cursor = Math.min(target, this.events.length - 1);
    return this._cursor;
  }

  /** Back to where the sandbox starts (the cluster booted); actions and trace are kept. */
  reset(): void {
    this._cursor = this.start;
  }

  /**
   * Runs from the cursor until an event meets the condition and moves the cursor there; returns
   * its step, or null (nothing left to happen, `maxEvents` looked at, or the run only repeats a
   * failure: see `lastRun`) with the cursor on the last event looked at. `idle` returns the last
   * step once nothing is left.
   */
  runUntil(cond: StopCondition, opts: RunUntilOptions = {}): number | null {
    return drain(this.runUntilJob(cond, opts));
  }

  *runUntilJob(cond: StopCondition, opts: RunUntilOptions = {}): Job<number | null> {
    const max = opts.maxEvents ?? 200_000;
    const watch = (opts.stopOnRepeat ?? cond.kind !== 'predicate') ? new RepeatWatch() : null;
    const run = this.run;
    const events = run.cluster.events;
    const from = this._cursor + 1;
    const end = (e: RunEnd): number | null => {
      this._lastRun = e;
      this._cursor = e.step;
      return e.kind === 'met' || (e.kind === 'idle' && cond.kind === 'idle') ? e.step : null;
    };
    for (let i = from; ; i++) {
      while (i >= events.length) {
        if (!(yield* run.advanceJob())) return end({ kind: 'idle', step: events.length - 1 });
        yield events.length;
      }
      if (i - from >= max) return end({ kind: 'limit', step: i, events: max });
      const e = events[i]!;
      if (meets(cond, e, i, this.stateAt(i - 1), this.stateAt(i), run.faultSteps))
        return end({ kind: 'met', step: i });
      const repetition = watch?.feed(e, i);
      if (repetition) return end({ kind: 'repeating', step: i, repetition });
    }
  }

  /** How the last "run until" ended (null before the first, or after the trace was replaced). */
  get lastRun(): RunEnd | null {
    return this._lastRun;
  }

  /**
   * Performs an action at the cursor (see the file comment) and moves the cursor to its first
   * event. Throws a SessionError when the cluster refuses it without any change (a pod that
   * exists already, a node that does not): then nothing is logged and the trace is unchanged.
   */
  perform(action: SessionAction): PerformResult {
    return drain(this.performJob(action));
  }

  *performJob(action: SessionAction): Job<PerformResult> {
    const old = this.run;
    const pos = Math.max(this._cursor + 1, old.bootLength);
    const rewrite = pos < old.length;
    let run = old;
    if (rewrite) {
      run = new Run(
        old.spec,
        old.seed,
        old.entries.filter((e) => keptBefore(e, pos)),
        this.faults,
      );
    }
    // Actions planned after the cursor are dropped: the future is the user's now.
    const planned = rewrite ? [] : dropPlannedAfter(run, pos);
    yield* run.computeTo(pos);
    // Every action kept stays before the new one (one applied early, at an idle cluster, too).
    while (run.applied < run.entries.length) {
      if (!(yield* run.advanceJob())) break;
      yield run.length;
    }
    const before = run.cluster.sim.state;
    const entry: Entry = {
      step: run.length,
      action,
      applied: false,
      appliedAt: -1,
      first: null,
      count: 0,
      error: null,
      output: null,
    };
    run.entries.push(entry);
    yield* run.applyJob(entry);
    if (entry.error !== null && entry.count === 0 && run.cluster.sim.state === before) {
      // Refused, and nothing changed: forget it (the old trace stays if we were rewriting).
      run.entries.pop();
      run.applied--;
      run.entries.push(...planned);
      throw new SessionError(entry.error);
    }
    if (rewrite) this.swap(run);
    this._cursor = entry.first ?? run.length - 1;
    return {
      step: entry.step,
      first: entry.first,
      error: entry.error,
      output: entry.output,
      rewrote: rewrite,
    };
  }

  /**
   * Logs an action to happen when the trace reaches the end of what is computed now, without
   * applying it: the landing's "one pod about to be created" is a planned createPod.
   */
  plan(action: SessionAction): void {
    const run = this.run;
    run.entries.push({
      step: run.length,
      action,
      planned: true,
      applied: false,
      appliedAt: -1,
      first: null,
      count: 0,
      error: null,
      output: null,
    });
  }

  /** The log as data (what a saved session keeps). */
  loggedActions(): LoggedAction[] {
    return this.run.entries.map((e) => ({
      step: e.step,
      action: e.action,
      ...(e.idle ? { idle: true as const } : {}),
      ...(e.planned ? { planned: true as const } : {}),
      ...(e.hidden ? { hidden: true as const } : {}),
    }));
  }

  /**
   * Replaces the session's cluster, seed and log, replays up to `cursor` and moves there (a
   * loaded session, a new sandbox, another libcni version). The revision changes.
   */
  *replaceJob(
    spec: ClusterSpec,
    seed: number,
    actions: readonly LoggedAction[],
    cursor: number,
  ): Job<number> {
    checkOrder(actions);
    const run = new Run(spec, seed, actions, this.faults);
    yield* run.computeTo(Math.max(cursor, run.bootLength - 1) + 1);
    this.swap(run);
    this._cursor = Math.min(Math.max(-1, cursor), run.length - 1);
    return this._cursor;
  }

  private swap(run: Run): void {
    this.run = run;
    this._revision++;
    this._lastRun = null;
    this.markerCache = null;
  }
}

/**
 * Whether a logged action stays when the future after `pos` is rewritten: it is in the past if
 * its first event is before `pos` (or, recording none, it was applied by then); a planned one
 * stays if it was due by then, whether it was computed yet or not (the landing's pod stays after
 * → then ←, as it does without them).
 */
function keptBefore(e: Entry, pos: number): boolean {
  if (!e.applied || e.planned) return e.step <= pos;
  return e.first !== null ? e.first < pos : e.appliedAt <= pos;
}

/** Removes the actions not applied yet whose step is after `pos`; returns them. */
function dropPlannedAfter(run: Run, pos: number): Entry[] {
  let k = run.applied;
  while (k < run.entries.length && run.entries[k]!.step <= pos) k++;
  return run.entries.splice(k);
}

function checkOrder(actions: readonly LoggedAction[]): void {
  for (let i = 1; i < actions.length; i++) {
    if (actions[i]!.step < actions[i - 1]!.step) {
      throw new SessionError(
        `actions[${i}].step: ${actions[i]!.step} is before the previous action's step ${actions[i - 1]!.step} (actions are logged in order)`,
      );
    }
  }
}
