/** Bad course files get errors naming the field, never a lesson whose goal silently passes. */
import { describe, expect, it } from 'vitest';
import { LESSON_FILES } from './content';
import { validateChallenge, validateLesson } from './validate';

// Lessons are mutated as untyped JSON here, as a hand-edited file would be.
/* eslint-disable @typescript-eslint/no-explicit-any */
const good = structuredClone(LESSON_FILES[0]![1]) as Record<string, unknown>;
function variant(f: (l: Record<string, any>) => void): unknown {
  const l = structuredClone(good) as Record<string, any>;
  f(l);
  return l;
}
function errors(data: unknown): string[] {
  const r = validateLesson(data);
  return r.ok ? [] : r.errors;
}

describe('validateLesson', () => {
  it('accepts the first lesson', () => {
    expect(validateLesson(good).ok).toBe(true);
  });

  it('names an unknown goal type, a missing field and an unknown field', () => {
    expect(errors(variant((l) => (l.goals[0].type = 'pods')))).toEqual([
      expect.stringMatching(/^goals\[0\]\.type: expected one of pod, pod-gone/),
    ]);
    expect(errors(variant((l) => delete l.title))).toEqual(['title: required']);
    expect(errors(variant((l) => (l.goals[1].colour = 'red')))).toEqual([
      'goals[1].colour: unknown field',
    ]);
  });

  it('refuses a bad regular expression in a matcher', () => {
    expect(errors(variant((l) => (l.narration[0].when.summary = '(')))[0]).toMatch(
      /^narration\[0\]\.when\.summary: not a valid regular expression/,
    );
  });

  it('refuses a quiz answer that is not a choice, or that is marked as a myth', () => {
    const answered = (good as any).quiz[0].answer[0] as string;
    expect(errors(variant((l) => (l.quiz[0].answer = ['z'])))).toEqual([
      'quiz[0].answer: "z" is not one of the choices (a, b, c, d)',
      `quiz[0].choices: wrong choice "${answered}" has no whyNot`,
    ]);
    const mythAt = (good as any).quiz[0].choices.find((c: any) => c.myth).id as string;
    expect(errors(variant((l) => (l.quiz[0].answer = [mythAt]))).sort()).toEqual([
      `quiz[0].choices: "${mythAt}" is an answer but has a whyNot`,
      `quiz[0].choices: "${mythAt}" is marked as the simplification "kubelet-calls-libcni" but is an answer`,
      `quiz[0].choices: wrong choice "${answered}" has no whyNot`,
    ]);
  });

  it('refuses a wrong choice without a whyNot, and a right one with one', () => {
    const wrong = (good as any).quiz[0].choices.find(
      (c: any) => !(good as any).quiz[0].answer.includes(c.id),
    ).id as string;
    const right = (good as any).quiz[0].answer[0] as string;
    expect(
      errors(variant((l) => delete l.quiz[0].choices.find((c: any) => c.id === wrong).whyNot)),
    ).toEqual([`quiz[0].choices: wrong choice "${wrong}" has no whyNot`]);
    expect(
      errors(variant((l) => (l.quiz[0].choices.find((c: any) => c.id === right).whyNot = 'no'))),
    ).toEqual([`quiz[0].choices: "${right}" is an answer but has a whyNot`]);
  });

  it('refuses a question that says "select all that apply" (the app adds it)', () => {
    expect(errors(variant((l) => (l.quiz[0].question += ' Select all that apply.')))).toEqual([
      'quiz[0].question: says "select all that apply", which the app adds itself',
    ]);
  });

  it('refuses duplicate goal ids and a solution action the scenario format does not know', () => {
    expect(errors(variant((l) => (l.goals[1].id = l.goals[0].id)))).toEqual([
      'goals: duplicate goal id "running"',
    ]);
    expect(errors(variant((l) => (l.solution.actions[0].do = 'fly')))[0]).toMatch(
      /^solution\.actions\[0\]/,
    );
  });

  it('refuses something that is not a lesson at all', () => {
    expect(errors(null)).toEqual([expect.stringMatching(/^\(top level\): expected object/)]);
    expect(validateChallenge([]).ok).toBe(false);
  });
});
