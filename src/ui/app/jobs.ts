/**
 * Jobs: long work spread over tasks, so that no task blocks the page for long. A job is a
 * generator (src/engine's `Job`) that yields after each unit of work; the runner runs it in
 * slices of SLICE_MS, shows its progress in `busy` (at most every PROGRESS_MS: each update
 * re-renders what shows it) and stops it at the next slice when asked ("Stop").
 */
import type { Job } from '../../engine';
import { notify } from './notices';
import { get, publish, update } from './state';

const SLICE_MS = 12;
const PROGRESS_MS = 250;
let current: { cancelled: boolean } | null = null;

/** Whether a job is running. */
export function jobRunning(): boolean {
  return current !== null;
}

/**
 * Runs a job: the first slice at once (a step that computes one event finishes here, without a
 * frame of delay), the rest in later tasks, with `busy` showing progress. One job at a time:
 * returns null when another is running.
 */
export function runJob<T>(label: string, job: Job<T>): Promise<T> | null {
  if (current) return null;
  const token = { cancelled: false };
  current = token;
  let shown = -Infinity;
  return new Promise<T>((resolve, reject) => {
    const finish = () => {
      current = null;
      if (get().busy) update({ busy: null });
      publish();
    };
    const slice = () => {
      const start = performance.now();
      let r: IteratorResult<number, T>;
      try {
        do r = job.next();
        while (!r.done && !token.cancelled && performance.now() - start < SLICE_MS);
        // The timeline's markers follow the trace slice by slice (the scan of a slice's new
        // events is small), instead of all at once in the render after the job.
        void get().session?.markers;
      } catch (e) {
        finish();
        reject(e instanceof Error ? e : new Error(String(e)));
        return;
      }
      if (r.done || token.cancelled) {
        finish();
        if (r.done) resolve(r.value);
        else reject(new Cancelled());
        return;
      }
      const now = performance.now();
      if (now - shown >= PROGRESS_MS) {
        shown = now;
        update({ busy: { label, progress: r.value } });
      }
      setTimeout(slice, 0);
    };
    slice();
  });
}

export class Cancelled extends Error {
  override name = 'Cancelled';
}

/** Stops the running job (a replay keeps the old trace; a run keeps what it computed). */
export function cancelJob(): void {
  if (current) current.cancelled = true;
}

/** Runs a promise's job, reporting its failure (not a Stop) as a notice. */
export function quietly<T>(p: Promise<T> | null): void {
  p?.catch((e: unknown) => {
    if (!(e instanceof Cancelled)) notify('error', (e as Error).message);
  });
}
