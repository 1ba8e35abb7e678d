/**
 * The job runner's gate (src/ui/app/jobs.ts): the landing's sandbox waits for the whole engine
 * before a unit of work the landing's engine cannot do (src/ui/landing.ts), without a task
 * meanwhile, shows that it waits, resumes when the engine is in, and stops at once on Stop.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { afterJob, Cancelled, cancelJob, runJob, setJobGate, stopJobOnLeave } from './app/jobs';
import { get } from './app/state';

/** A job of `n` units; `done` counts the units run. */
function counter(n: number) {
  const state = { done: 0 };
  function* job() {
    for (let i = 0; i < n; i++) {
      state.done++;
      yield i;
    }
    return 'end';
  }
  return { state, job: job() };
}

const tick = () => new Promise((r) => setTimeout(r, 5));

afterEach(() => setJobGate(null));

describe('a gated job', () => {
  it('waits at the gate, then goes on where it stopped', async () => {
    const { state, job } = counter(10);
    let open!: () => void;
    const ready = new Promise<void>((r) => (open = r));
    let opened = false;
    setJobGate({ blocks: () => state.done >= 3 && !opened, ready, label: 'Loading' });
    const p = runJob('Computing', job)!;
    for (let i = 0; i < 5; i++) await tick();
    expect(state.done).toBe(3);
    expect(get().busy?.label).toBe('Loading');
    opened = true;
    open();
    await expect(p).resolves.toBe('end');
    expect(state.done).toBe(10);
    expect(get().busy).toBeNull();
  });

  it('stops at once while it waits', async () => {
    const { state, job } = counter(10);
    setJobGate({ blocks: () => state.done >= 2, ready: new Promise(() => {}), label: 'Loading' });
    const p = runJob('Computing', job)!;
    await tick();
    cancelJob();
    await expect(p).rejects.toBeInstanceOf(Cancelled);
    expect(state.done).toBe(2);
  });

  it('fails, rather than waiting for ever, when what it waits for fails to load', async () => {
    const { state, job } = counter(10);
    setJobGate({
      blocks: () => state.done >= 1,
      ready: Promise.reject(new Error('chunk failed')),
      label: 'Loading',
    });
    await expect(runJob('Computing', job)).rejects.toThrow('chunk failed');
  });
});

/** A job that never ends by itself: `units` counts the units run. */
function endless() {
  const state = { units: 0 };
  function* job() {
    for (;;) yield ++state.units;
  }
  return { state, job: job() };
}

describe('leaving for another address (Back during a run)', () => {
  it("stops the user's computation, and afterJob settles once its caller has seen the Stop", async () => {
    const { job } = endless();
    const seen: string[] = [];
    const p = runJob('Running until', job, { stopOnLeave: true })!;
    p.catch((e: unknown) => seen.push(e instanceof Cancelled ? 'stopped' : 'failed'));
    const after = afterJob().then(() => seen.push('after'));
    await tick();
    stopJobOnLeave();
    await after;
    expect(seen).toEqual(['stopped', 'after']);
    await expect(afterJob()).resolves.toBeUndefined();
  });

  it('lets the opening of a sandbox finish', async () => {
    const { state, job } = counter(2000);
    const p = runJob('Restoring your sandbox', job)!;
    stopJobOnLeave();
    await afterJob();
    await expect(p).resolves.toBe('end');
    expect(state.done).toBe(2000);
  });
});
