/**
 * The attempt machine alone: hints, steps, answers, score and give-up, from events only.
 */
import { describe, expect, it } from 'vitest';
import {
  attemptEnded,
  attemptRecord,
  attemptStep,
  canHint,
  nextHintGoal,
  openAttempt,
  resumeAttempt,
} from './attempt';
import type { AttemptEvent } from './attempt';
import type { Verdict } from './challenge';

const refused: Verdict = { accepted: false, reason: 'no', recovery: [], did: [] };
const accepted: Verdict = { accepted: true, recovery: [], did: [] };
const run = (
  events: AttemptEvent[],
  a = openAttempt('challenge', { now: 0, cursor: 10, hintCount: 3 }),
) => events.reduce(attemptStep, a);

describe('a challenge attempt', () => {
  it('counts every move of the cursor while open, not staying put', () => {
    const a = run([
      { type: 'cursor', cursor: 11 },
      { type: 'cursor', cursor: 11 },
      { type: 'cursor', cursor: 4 },
    ]);
    expect(a.steps).toBe(2);
    expect(a.cursor).toBe(4);
  });

  it('shows hints up to the challenge’s count', () => {
    const a = run([
      { type: 'challenge-hint' },
      { type: 'challenge-hint' },
      { type: 'challenge-hint' },
    ]);
    expect(a.hintsUsed).toBe(3);
    expect(canHint(a)).toBe(false);
    expect(attemptStep(a, { type: 'challenge-hint' })).toBe(a);
  });

  it('checks one answer at a time; a refused one counts and reopens', () => {
    const a = run([{ type: 'submit' }]);
    expect(a.status).toBe('checking');
    expect(attemptStep(a, { type: 'submit' })).toBe(a);
    const b = attemptStep(a, { type: 'verdict', verdict: refused, now: 1000 });
    expect([b.status, b.wrongAnswers, b.score]).toEqual(['open', 1, null]);
    // A verdict nobody asked for changes nothing.
    expect(attemptStep(b, { type: 'verdict', verdict: accepted, now: 1 })).toBe(b);
  });

  it('scores an accepted answer with hints, refusals, steps and time, then stops counting', () => {
    const steps = Array.from({ length: 70 }, (_, i): AttemptEvent => ({
      type: 'cursor',
      cursor: 100 + i,
    }));
    const a = run([
      { type: 'challenge-hint' },
      ...steps,
      { type: 'submit' },
      { type: 'verdict', verdict: refused, now: 5000 },
      { type: 'submit' },
      { type: 'verdict', verdict: accepted, now: 900_000 },
    ]);
    expect(a.status).toBe('solved');
    expect(attemptEnded(a)).toBe(true);
    // 100 - 15 (hint) - 10 (refused) - 2 (70 steps) - 5 (15 min)
    expect(a.score?.points).toBe(68);
    const b = run(
      [{ type: 'cursor', cursor: 1 }, { type: 'challenge-hint' }, { type: 'give-up' }],
      a,
    );
    expect([b.steps, b.hintsUsed, b.status]).toEqual([70, 1, 'solved']);
  });

  it('gives up only while open: no score, the debrief may show', () => {
    const a = run([{ type: 'challenge-hint' }, { type: 'give-up' }]);
    expect([a.status, a.score, attemptEnded(a)]).toEqual(['gave-up', null, true]);
    expect(attemptStep(a, { type: 'submit' })).toBe(a);
    expect(attemptStep(run([{ type: 'submit' }]), { type: 'give-up' }).status).toBe('checking');
  });

  it('reopens after a check that could not run, saying why', () => {
    const a = run([{ type: 'submit' }, { type: 'check-failed', error: 'boom' }]);
    expect([a.status, a.error, a.wrongAnswers]).toEqual(['open', 'boom', 0]);
  });
});

describe('a challenge attempt across a reload', () => {
  const opts = { now: 60_000, cursor: 10, hintCount: 3 };

  it('resumes with its hints, refused answers, steps and clock, and scores them', () => {
    const a = run([
      { type: 'challenge-hint' },
      { type: 'cursor', cursor: 11 },
      { type: 'submit' },
      { type: 'verdict', verdict: refused, now: 5000 },
    ]);
    const r = attemptRecord(a);
    expect(r).toEqual({ opened: 0, steps: 1, hints: 1, refused: 1, status: 'open' });
    const b = resumeAttempt(JSON.parse(JSON.stringify(r)), opts);
    expect([b.status, b.hintsUsed, b.wrongAnswers, b.steps, b.opened, b.cursor]).toEqual([
      'open',
      1,
      1,
      1,
      0,
      10,
    ]);
    expect(canHint(b)).toBe(true);
    // The clock ran from the first opening: 20 min in all, 10 beyond the free ones.
    const c = run(
      [
        { type: 'cursor', cursor: 12 },
        { type: 'submit' },
        { type: 'verdict', verdict: accepted, now: 1_200_000 },
      ],
      b,
    );
    expect(c.steps).toBe(2);
    // 100 - 15 (hint) - 10 (refused) - 10 (20 min)
    expect(c.score?.points).toBe(65);
  });

  it('keeps a solved attempt solved with its score, and a given-up one ended', () => {
    const a = run([
      { type: 'challenge-hint' },
      { type: 'submit' },
      { type: 'verdict', verdict: accepted, now: 30_000 },
    ]);
    const r = attemptRecord(a);
    expect(r).toMatchObject({ status: 'solved', ended: 30_000 });
    const b = resumeAttempt(r, { ...opts, now: 9_000_000 });
    expect([b.status, b.score?.points, attemptEnded(b)]).toEqual(['solved', 85, true]);
    expect(attemptStep(b, { type: 'challenge-hint' })).toBe(b);
    const g = resumeAttempt(attemptRecord(run([{ type: 'give-up' }])), opts);
    expect([g.status, g.score, attemptEnded(g)]).toEqual(['gave-up', null, true]);
  });

  it('saves a check under way as open: the answer was never judged', () => {
    const r = attemptRecord(run([{ type: 'challenge-hint' }, { type: 'submit' }]));
    expect(r).toEqual({ opened: 0, steps: 0, hints: 1, refused: 0, status: 'open' });
  });

  it('brings values out of range back into it', () => {
    const b = resumeAttempt(
      { opened: 999_999_999, steps: 3, hints: 50, refused: 2, status: 'solved', ended: 0 },
      opts,
    );
    // No more hints than the challenge has, no start in the future, no end before the start.
    expect([b.hintsUsed, b.opened, b.ended]).toEqual([3, 60_000, 60_000]);
    // 100 - 45 - 20
    expect(b.score?.points).toBe(35);
  });
});

describe('a lesson attempt', () => {
  const goals = [
    { id: 'a', hinted: true, met: true },
    { id: 'b', hinted: false, met: false },
    { id: 'c', hinted: true, met: false },
    { id: 'd', hinted: true, met: false },
  ];

  it('gives the next hint to the first unmet goal with hints left, three grades each', () => {
    let a = openAttempt('lesson', { now: 0, cursor: 0 });
    expect(nextHintGoal(a, goals)).toBe('c');
    for (let i = 0; i < 4; i++) a = attemptStep(a, { type: 'lesson-hint', goals });
    expect(a.hints).toEqual({ c: 3, d: 1 });
    expect(a.hintsUsed).toBe(4);
    a = attemptStep(attemptStep(a, { type: 'lesson-hint', goals }), { type: 'lesson-hint', goals });
    expect(nextHintGoal(a, goals)).toBe(null);
    expect(attemptStep(a, { type: 'lesson-hint', goals })).toBe(a);
  });

  it('keeps the hints it was opened with (the solution’s replay keeps the attempt’s)', () => {
    const a = openAttempt('lesson', { now: 0, cursor: 0, hints: { c: 2 } });
    expect(a.hintsUsed).toBe(2);
    expect(attemptStep(a, { type: 'lesson-hint', goals }).hints).toEqual({ c: 3 });
  });

  it('has no answers or give-up', () => {
    const a = openAttempt('lesson', { now: 0, cursor: 0 });
    expect(attemptStep(a, { type: 'submit' })).toBe(a);
    expect(attemptStep(a, { type: 'give-up' })).toBe(a);
  });
});
