import { describe, expect, it } from 'vitest';
import { loadCourseEngine, loadEngine } from '../../engine';
import { readWork, replayWork, workOf } from './work';

const [ce, engine] = await Promise.all([loadCourseEngine(), loadEngine()]);
/** Runs a job to its end. */
function drain<T>(job: Generator<number, T>): T {
  for (;;) {
    const r = job.next();
    if (r.done) return r.value;
  }
}

const challenge = ce.loadCourse().challenges.find((c) => c.id === 'node-notready')!;

/** node-notready, seed 1, where the learner created a pod of their own and stepped back. */
function worked() {
  const run = ce.openChallenge(challenge, 1);
  const r = run.session.perform({ do: 'createPod', name: 'mine', node: 'node-1' });
  expect(r.error).toBeNull();
  run.session.seek(run.session.cursor + 5);
  run.session.stepBack();
  return run;
}

describe('a challenge’s saved work', () => {
  it('replays on a fresh run of the same seed: the same log, step and trace', () => {
    const run = worked();
    const text = JSON.stringify(workOf(run));
    const fresh = ce.openChallenge(challenge, 1);
    const work = readWork(text, fresh, engine.actionProblems);
    if (work === null || 'problem' in work) throw new Error(String(work && work.problem));
    expect(drain(replayWork(fresh, work))).toBe(true);
    expect(fresh.session.cursor).toBe(run.session.cursor);
    expect(fresh.session.loggedActions()).toEqual(run.session.loggedActions());
    expect(fresh.session.events[fresh.session.cursor]).toEqual(
      run.session.events[run.session.cursor],
    );
  });

  it('is ignored for another challenge or seed', () => {
    const text = JSON.stringify(workOf(worked()));
    expect(readWork(text, ce.openChallenge(challenge, 2), engine.actionProblems)).toBeNull();
    expect(readWork(null, ce.openChallenge(challenge, 1), engine.actionProblems)).toBeNull();
  });

  it('is refused, saying why, when damaged or tampered with', () => {
    const good = workOf(worked());
    const fresh = ce.openChallenge(challenge, 1);
    const problem = (w: unknown) => {
      const r = readWork(
        typeof w === 'string' ? w : JSON.stringify(w),
        fresh,
        engine.actionProblems,
      );
      return r !== null && 'problem' in r ? r.problem : null;
    };
    expect(problem('{"app":')).toBe('it is not JSON');
    expect(problem({ ...good, version: 2 })).toBe('it is not a saved challenge');
    expect(problem({ ...good, actions: good.actions.slice(1) })).toBe(
      "the challenge's own actions are not all there",
    );
    const mine = good.actions.length - 1;
    const bad = good.actions.map((a, i) =>
      i === mine ? { ...a, action: { do: 'createPod', name: 'Not A Name' } } : a,
    );
    expect(problem({ ...good, actions: bad })).toMatch(
      new RegExp(`^actions\\[${mine}\\]\\.action: `),
    );
    const hidden = good.actions.map((a, i) => (i === mine ? { ...a, hidden: true } : a));
    expect(problem({ ...good, actions: hidden })).toBe(`actions[${mine}].hidden: not expected`);
    expect(problem({ ...good, level: 'everything' })).toMatch(/^level: expected /);
    expect(problem({ ...good, cursor: -7 })).toBe('cursor: expected a step');
  });
});
