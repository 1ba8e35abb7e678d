import { describe, expect, it } from 'vitest';
import { drain } from '../session/session';
import { openChallenge } from './challenge';
import { loadCourse } from './content';
import { challengeWork, MAX_WORK_ACTIONS, readChallengeWork, replayChallengeWork } from './work';

const challenge = loadCourse().challenges.find((c) => c.id === 'node-notready')!;

/** node-notready, seed 1, where the learner created a pod of their own and stepped back. */
function worked() {
  const run = openChallenge(challenge, 1);
  const r = run.session.perform({ do: 'createPod', name: 'mine', node: 'node-1' });
  expect(r.error).toBeNull();
  run.session.seek(run.session.cursor + 5);
  run.session.stepBack();
  return run;
}

describe('a challenge’s saved work', () => {
  it('replays on a fresh run of the same seed: the same log, step and trace', () => {
    const run = worked();
    const text = JSON.stringify(challengeWork(run));
    const fresh = openChallenge(challenge, 1);
    const work = readChallengeWork(text, fresh);
    if (work === null || 'problem' in work) throw new Error(String(work && work.problem));
    expect(drain(replayChallengeWork(fresh, work))).toBe(true);
    expect(fresh.session.cursor).toBe(run.session.cursor);
    expect(fresh.session.loggedActions()).toEqual(run.session.loggedActions());
    expect(fresh.session.events[fresh.session.cursor]).toEqual(
      run.session.events[run.session.cursor],
    );
  });

  it('is ignored for another challenge or seed', () => {
    const text = JSON.stringify(challengeWork(worked()));
    expect(readChallengeWork(text, openChallenge(challenge, 2))).toBeNull();
    expect(readChallengeWork(null, openChallenge(challenge, 1))).toBeNull();
  });

  it('is refused, saying why, when damaged or tampered with', () => {
    const good = challengeWork(worked());
    const fresh = openChallenge(challenge, 1);
    const problem = (w: unknown) => {
      const r = readChallengeWork(typeof w === 'string' ? w : JSON.stringify(w), fresh);
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
    expect(problem({ ...good, actions: [...good.actions, 'createPod'] })).toBe(
      `actions[${good.actions.length}]: expected an action`,
    );
    const early = good.actions.map((a, i) => (i === mine ? { ...a, step: 0 } : a));
    expect(problem({ ...good, actions: early })).toBe(
      `actions[${mine}].step: expected a step in order`,
    );
    // A tampered record cannot make the replay endless.
    const many = Array.from({ length: MAX_WORK_ACTIONS + 1 }, () => good.actions[mine]);
    expect(problem({ ...good, actions: many })).toBe(
      `actions: expected a list of at most ${MAX_WORK_ACTIONS}`,
    );
  });
});
