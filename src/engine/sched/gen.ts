/**
 * What a simulated program is: a generator that yields a `Tick` after every change, so a scheduler
 * can stop it between any two; and `runToEnd`, which runs one headless without a scheduler.
 */

/** Something a task can wait for (another task, a process). */
export interface Waitable {
  readonly done: boolean;
}

/**
 * What a step yields. A plain tick lets a scheduler stop between two changes; `sleepUs` (may
 * be Infinity: until killed) and `wait` block the task. Without a scheduler (`runToEnd`) a
 * waited-for thing is always already done and sleeping is instantaneous.
 */
export interface Tick {
  readonly tick: true;
  readonly sleepUs?: number;
  readonly wait?: Waitable;
}
export type Gen<T> = Generator<Tick, T, void>;
export const TICK: Tick = { tick: true };

/**
 * Runs a generator to completion, ignoring the ticks (a headless, all-at-once run). Without a
 * scheduler nothing can end a sleep forever, so that is an error rather than a hang.
 */
export function runToEnd<T>(g: Gen<T>): T {
  for (;;) {
    const r = g.next();
    if (r.done) return r.value;
    if (r.value.sleepUs === Infinity) {
      g.return(undefined as never);
      throw new Error('a process blocks forever: only a scheduler (with a timeout) can end it');
    }
  }
}
