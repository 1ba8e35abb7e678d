/**
 * Jobs: long work spread over tasks, so that no task blocks the page for long. A job is a
 * generator (src/engine's `Job`) that yields after each unit of work; the runner runs it in
 * slices of SLICE_MS, shows its progress in `busy` (at most every PROGRESS_MS: each update
 * re-renders what shows it) and stops it at the next slice when asked ("Stop").
 */
import type { Job } from '../../engine';
import { notify } from './notices';
import { previewCmd } from './preview';
import { get, publish, update } from './state';

const SLICE_MS = 12;
const PROGRESS_MS = 250;

/*
 * The next slice runs in a new task posted on a MessageChannel, not setTimeout(0): once timers
 * nest, browsers hold each back at least 4 ms, which left the page idle for about a quarter of a
 * long job (a third of reopening a 110-pod sandbox, in a profile). The page still renders
 * between tasks.
 */
const pending: (() => void)[] = [];
let channel: MessageChannel | null = null;

function nextTask(f: () => void): void {
  if (typeof MessageChannel === 'undefined') {
    setTimeout(f, 0);
    return;
  }
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => pending.shift()?.();
    // Node (tests): an open port would keep the process alive.
    (channel.port1 as { unref?: () => void }).unref?.();
  }
  pending.push(f);
  channel.port2.postMessage(null);
}
/**
 * Settles in a new task: what the caller does next runs after the page has had a turn (a
 * render, a paint, input), not in the task that has run so far. Opening a sandbox yields
 * between its parts (the engine's evaluation, the new sandbox, its first render, the replay) so
 * that none of them adds up to one long task.
 */
export function yieldToPage(): Promise<void> {
  return new Promise((resolve) => nextTask(resolve));
}

interface Token {
  cancelled: boolean;
  /** Stopped because the user left for another address (`stopJobOnLeave`), not by Stop. */
  left: boolean;
  /** Stopped when the user leaves for another address (see `runJob`). */
  stopOnLeave: boolean;
  /** Set while the job waits for its gate: resumes it at once (Stop). */
  wake: (() => void) | null;
}
let current: Token | null = null;

/**
 * What the running job may have to wait for before its next unit of work: the landing's
 * sandbox steps on the landing's engine until the whole engine is in (src/ui/landing.ts).
 */
export interface JobGate {
  /** Whether the next unit must wait. */
  blocks(): boolean;
  /** Settles when it need not wait any more. */
  ready: Promise<unknown>;
  /** What the page shows meanwhile. */
  label: string;
}

let gate: JobGate | null = null;

export function setJobGate(g: JobGate | null): void {
  gate = g;
}

/** Whether a job is running. */
export function jobRunning(): boolean {
  return current !== null;
}

let waiting: (() => void)[] = [];

/**
 * Settles once no job runs: in a task after the running job has ended, so that what its caller
 * does with its result (or its Stop) is done first.
 */
export function afterJob(): Promise<void> {
  if (!current) return Promise.resolve();
  return new Promise((resolve) => waiting.push(resolve));
}

function jobEnded(): void {
  const ws = waiting;
  waiting = [];
  if (ws.length) setTimeout(() => ws.forEach((w) => w()), 0);
}

/**
 * Runs a job: the first slice at once (a step that computes one event finishes here, without a
 * frame of delay), the rest in later tasks, with `busy` showing progress. One job at a time:
 * returns null when another is running. `stopOnLeave`: a computation on the session shown,
 * stopped when the user leaves for another address (`stopJobOnLeave`).
 */
export function runJob<T>(
  label: string,
  job: Job<T>,
  opts: { stopOnLeave?: boolean } = {},
): Promise<T> | null {
  if (current) return null;
  const token: Token = {
    cancelled: false,
    left: false,
    stopOnLeave: opts.stopOnLeave ?? false,
    wake: null,
  };
  current = token;
  let shown = -Infinity;
  let progress = 0;
  return new Promise<T>((resolve, reject) => {
    const finish = () => {
      current = null;
      if (get().busy) update({ busy: null });
      publish();
      jobEnded();
    };
    /** Waits (without a task) for the gate to open, or for Stop. */
    const wait = (g: JobGate) => {
      update({ busy: { label: g.label, progress } });
      const wake = () => {
        if (token.wake !== wake) return;
        token.wake = null;
        nextTask(slice);
      };
      token.wake = wake;
      g.ready.then(wake, (e: unknown) => {
        if (token.wake !== wake) return;
        finish();
        reject(e instanceof Error ? e : new Error(String(e)));
      });
    };
    const slice = () => {
      const start = performance.now();
      let r: IteratorResult<number, T> | null = null;
      let waitFor: JobGate | null = null;
      try {
        while (!token.cancelled) {
          if (gate?.blocks()) {
            waitFor = gate;
            break;
          }
          r = job.next();
          if (r.done) break;
          progress = r.value;
          if (performance.now() - start >= SLICE_MS) break;
        }
        // The timeline's markers follow the trace slice by slice (the scan of a slice's new
        // events is small), instead of all at once in the render after the job.
        void get().session?.markers;
      } catch (e) {
        finish();
        reject(e instanceof Error ? e : new Error(String(e)));
        return;
      }
      if (r?.done || token.cancelled) {
        finish();
        if (r?.done) resolve(r.value);
        else reject(new Cancelled(token.left));
        return;
      }
      if (waitFor) {
        wait(waitFor);
        return;
      }
      const now = performance.now();
      if (now - shown >= PROGRESS_MS) {
        shown = now;
        update({ busy: { label, progress } });
      }
      nextTask(slice);
    };
    slice();
  });
}

export class Cancelled extends Error {
  override name = 'Cancelled';
  /** Whether the user left for another address (nothing to tell them about this job). */
  readonly left: boolean;
  constructor(left = false) {
    super('Stopped');
    this.left = left;
  }
}

/**
 * Stops the running job (a replay keeps the old trace; a run keeps what it computed), or the
 * landing's step that waits for the engine (./preview.ts).
 */
export function cancelJob(): void {
  if (previewCmd.cancel() || !current) return;
  current.cancelled = true;
  current.wake?.();
}

/**
 * The user leaves for another address: stops the running job if it is a computation on the
 * session shown (`stopOnLeave`: a step, a run, an action's replay), as Stop does. A job that
 * opens a session (a saved sandbox, a link) is let finish: stopped, it would leave a default
 * sandbox in its place.
 */
export function stopJobOnLeave(): void {
  if (!current?.stopOnLeave) return;
  current.left = true;
  cancelJob();
}

/** Runs a promise's job, reporting its failure (not a Stop) as a notice. */
export function quietly<T>(p: Promise<T> | null): void {
  p?.catch((e: unknown) => {
    if (!(e instanceof Cancelled)) notify('error', (e as Error).message);
  });
}
