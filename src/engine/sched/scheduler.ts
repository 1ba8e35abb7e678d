/**
 * A discrete-event scheduler over virtual time. Work on the nodes (a containerd request, a
 * plugin process, a kubelet timer) runs as tasks: generators that yield after every change they
 * make. The scheduler is cooperative, like one CPU that never preempts: the running task keeps
 * going until it sleeps, waits (for a child process, say) or ends; then the task or timer due
 * earliest runs next (ties: timers first, then the older task). So a plugin process runs from
 * exec to exit without another process's steps in between, while two pods' sandboxes, or two
 * nodes, interleave at process boundaries, the way their traces read on a real node.
 *
 * Nothing here reads wall time or iterates in an order that could differ between runs: the same
 * spawns in the same order give the same trace.
 */
import type { Gen, Tick, Waitable } from './gen';
import type { Simulation } from '../sim/world';

export interface TaskOptions<T> {
  /** Readable name, e.g. "containerd RunPodSandbox web-0" or "bridge (pid 1004)". */
  name: string;
  node: string | null;
  /** Called once the task ends (normally, by an exception, or killed). */
  onDone?: (t: Task<T>) => void;
}

export class Task<T = unknown> implements Waitable {
  done = false;
  killed = false;
  value: T | undefined;
  error: unknown;
  /** Virtual time (µs) from which the task may run. */
  readyAt: number;
  /** Virtual time the task ended. */
  doneAt = 0;
  waitingFor: Waitable | null = null;

  constructor(
    readonly id: number,
    readonly gen: Gen<T>,
    readonly opts: TaskOptions<T>,
    now: number,
  ) {
    this.readyAt = now;
  }

  get name(): string {
    return this.opts.name;
  }
}

interface Timer {
  at: number;
  seq: number;
  key: string;
  fire: () => void;
}

export class Scheduler {
  private readonly tasks: Task[] = [];
  private timers: Timer[] = [];
  private current: Task | null = null;
  private nextTaskId = 1;
  private timerSeq = 0;

  constructor(readonly sim: Simulation) {}

  get now(): number {
    return this.sim.state.clock;
  }

  /** Starts a task; it first runs when the scheduler next picks it (never synchronously). */
  spawn<T>(gen: Gen<T>, opts: TaskOptions<T>): Task<T> {
    const t = new Task<T>(this.nextTaskId++, gen, opts, this.now);
    this.tasks.push(t as Task);
    return t;
  }

  /**
   * Ends a task where it stands (SIGKILL): its generator is returned, so `finally` blocks run
   * (a process records its death there). Tasks it was waiting for keep running.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  kill(t: Task<any>): void {
    if (t.done) return;
    t.killed = true;
    try {
      t.gen.return(undefined as never);
    } catch (e) {
      t.error = e;
    }
    this.finish(t);
  }

  /** Runs `fire` at virtual time `at` (or now, if that has passed). A key names it for cancel(). */
  at(at: number, key: string, fire: () => void): void {
    this.cancel(key);
    this.timers.push({ at, seq: this.timerSeq++, key, fire });
  }

  after(us: number, key: string, fire: () => void): void {
    this.at(this.now + us, key, fire);
  }

  cancel(key: string): void {
    this.timers = this.timers.filter((t) => t.key !== key);
  }

  hasTimer(key: string): boolean {
    return this.timers.some((t) => t.key === key);
  }

  /** Tasks not yet ended, oldest first. */
  liveTasks(): readonly Task[] {
    return this.tasks.filter((t) => !t.done);
  }

  /** When the next timer is due, or null. */
  nextTimerAt(): number | null {
    let best: number | null = null;
    for (const t of this.timers) if (best === null || t.at < best) best = t.at;
    return best;
  }

  /**
   * When the next unit of work is due (a timer, or a task that can run), or null when nothing
   * is left: the simulation is idle (tasks blocked forever, e.g. a hung plugin, do not count).
   */
  nextDueAt(): number | null {
    let best = this.nextTimerAt();
    for (const t of this.tasks) {
      if (t.done || !this.runnable(t)) continue;
      const at = Math.max(this.readyTime(t), this.now);
      if (best === null || at < best) best = at;
    }
    return best;
  }

  /**
   * Runs until at least one trace event has been recorded. Returns false when nothing is left to
   * run (no runnable task, no timer) or when the next thing is due after `until` (virtual µs).
   */
  step(until = Infinity): boolean {
    const before = this.sim.events.length;
    while (this.sim.events.length === before) {
      if (!this.runOne(until)) return false;
    }
    return true;
  }

  /** Runs everything due up to `until` (default: until idle); returns the number of units run. */
  run(until = Infinity, maxUnits = 10_000_000): number {
    let n = 0;
    while (n < maxUnits && this.runOne(until)) n++;
    return n;
  }

  /** Runs one unit of work (one resume of a task, or one timer). */
  runOne(until = Infinity): boolean {
    const cur = this.current;
    if (cur && !cur.done && this.runnable(cur) && cur.readyAt <= this.now) {
      this.resume(cur);
      return true;
    }
    this.current = null;
    // The earliest due: a timer or a runnable task.
    let timer: Timer | null = null;
    for (const t of this.timers) {
      if (!timer || t.at < timer.at || (t.at === timer.at && t.seq < timer.seq)) timer = t;
    }
    let task: Task | null = null;
    let taskAt = Infinity;
    for (const t of this.tasks) {
      if (t.done || !this.runnable(t)) continue;
      const at = this.readyTime(t);
      if (at < taskAt) {
        task = t;
        taskAt = at;
      }
    }
    if (timer && timer.at <= taskAt) {
      if (timer.at > until) return false;
      this.timers = this.timers.filter((t) => t !== timer);
      this.sim.advanceTo(timer.at);
      timer.fire();
      return true;
    }
    if (!task || taskAt > until) return false;
    this.sim.advanceTo(taskAt);
    this.current = task;
    this.resume(task);
    return true;
  }

  private runnable(t: Task): boolean {
    if (t.readyAt === Infinity) return false;
    return t.waitingFor === null || t.waitingFor.done;
  }

  private readyTime(t: Task): number {
    const w = t.waitingFor;
    const after = w instanceof Task ? w.doneAt : 0;
    return Math.max(t.readyAt, after);
  }

  private resume(t: Task): void {
    t.waitingFor = null;
    let r: IteratorResult<Tick, unknown>;
    try {
      r = t.gen.next();
    } catch (e) {
      t.error = e;
      this.finish(t);
      // Simulated programs turn their own failures into exit codes: an exception reaching here
      // is a bug in the simulation, and must not pass unnoticed.
      throw new Error(`task "${t.name}" failed: ${e instanceof Error ? e.message : String(e)}`, {
        cause: e,
      });
    }
    if (r.done) {
      t.value = r.value;
      this.finish(t);
      return;
    }
    const tick = r.value;
    if (tick.sleepUs !== undefined) {
      t.readyAt = this.now + tick.sleepUs;
      this.current = null;
    } else if (tick.wait && !tick.wait.done) {
      t.waitingFor = tick.wait;
      t.readyAt = this.now;
      this.current = null;
    } else {
      t.readyAt = this.now;
    }
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  private finish(t: Task<any>): void {
    t.done = true;
    t.doneAt = this.now;
    t.waitingFor = null;
    if (this.current === t) this.current = null;
    const i = this.tasks.indexOf(t);
    if (i >= 0) this.tasks.splice(i, 1);
    t.opts.onDone?.(t);
  }
}

/**
 * A cancellable context, as Go's context.Context reaches exec.CommandContext: cancelling it
 * kills the processes started under it (not their own children, which libcni's delegation
 * starts with context.TODO()).
 */
export class Ctx {
  private _err: string | null = null;
  private readonly hooks = new Set<() => void>();

  /** Go's ctx.Err() text once cancelled ("context canceled", "context deadline exceeded"). */
  get err(): string | null {
    return this._err;
  }

  cancel(err = 'context canceled'): void {
    if (this._err !== null) return;
    this._err = err;
    for (const h of [...this.hooks]) h();
    this.hooks.clear();
  }

  onCancel(h: () => void): () => void {
    this.hooks.add(h);
    return () => this.hooks.delete(h);
  }
}
