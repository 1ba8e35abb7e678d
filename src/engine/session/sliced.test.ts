/**
 * Scaling to 110 pods is one logged action; its job yields after each pod (issue 17: no task
 * over 200 ms), and the trace is the same whether the work is drained at once, sliced, stopped
 * half-way and resumed, or closed early.
 */
import { describe, expect, it } from 'vitest';
import { newSandbox } from './sandbox';
import { Session, type Job } from './session';
import type { SessionAction } from './actions';

const SCALE: SessionAction = { do: 'scale', deployment: 'web', replicas: 110, node: 'node-1' };

/** The default sandbox with its pod running: where the app's Actions tab scales from. */
function ready(): Session {
  const s = newSandbox();
  s.runUntil({ kind: 'pod-running' });
  return s;
}

/** Runs a job to its end; returns the most events any one unit of work added. */
function largestUnit<T>(s: Session, job: Job<T>): { value: T; largest: number; units: number } {
  let largest = 0;
  let units = 0;
  let before = s.events.length;
  for (;;) {
    const r = job.next();
    const after = s.events.length;
    largest = Math.max(largest, after - before);
    before = after;
    if (r.done) return { value: r.value, largest, units };
    units++;
  }
}

const traceOf = (s: Session) => JSON.stringify(s.events);

describe('scaling to 110 pods as a job', () => {
  // Up to some way past the action (the 110 pods' ADDs to the end take long to compute).
  const whole = ready();
  const end = whole.perform(SCALE).first! + 4 * 110 + 300;
  whole.seek(end);

  it('yields after each pod, not once for all of them', () => {
    const s = ready();
    const { value, largest, units } = largestUnit(s, s.performJob(SCALE));
    expect(value.error).toBeNull();
    expect(units).toBeGreaterThanOrEqual(109);
    // One pod's creation at a time (4 events each), where it was 440 in one unit.
    expect(largest).toBeLessThanOrEqual(8);
    expect(s.events.length - 1 - value.first!).toBeGreaterThanOrEqual(4 * 110 - 1);
  });

  it('gives the same trace when stopped half-way and resumed by the next step', () => {
    const s = ready();
    const job = s.performJob(SCALE);
    for (let i = 0; i < 40; i++) expect(job.next().done).toBe(false);
    // "Stop": the job is never resumed. The next computation finishes the action first.
    s.seek(end);
    expect(traceOf(s)).toBe(traceOf(whole));
    expect(s.actions.map((a) => [a.step, a.first, a.count, a.applied])).toEqual(
      whole.actions.map((a) => [a.step, a.first, a.count, a.applied]),
    );
    expect(s.loggedActions()).toEqual(whole.loggedActions());
  });

  it('completes the action at once when its job is closed early', () => {
    const s = ready();
    const job = s.performJob(SCALE);
    for (let i = 0; i < 10; i++) job.next();
    job.return(undefined as never);
    expect(s.actions.at(-1)).toMatchObject({ applied: true, count: 4 * 110 });
    s.seek(end);
    expect(traceOf(s)).toBe(traceOf(whole));
  });

  it('replays a saved 110-pod sandbox in slices, to the same trace', () => {
    const s = new Session({ actions: whole.loggedActions() });
    const { largest } = largestUnit(s, s.seekJob(end));
    expect(largest).toBeLessThanOrEqual(8);
    expect(traceOf(s)).toBe(traceOf(whole));
  });

  it('scales down one pod per unit too', () => {
    const s = ready();
    s.perform({ ...SCALE, replicas: 30 });
    s.seek(s.events.length + 200);
    const { value, units } = largestUnit(
      s,
      s.performJob({ do: 'scale', deployment: 'web', replicas: 10 }),
    );
    expect(value.error).toBeNull();
    expect(units).toBeGreaterThanOrEqual(19);
  });
});
