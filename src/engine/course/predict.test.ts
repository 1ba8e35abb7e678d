/**
 * Predictions: every lesson has at least one, and for every prediction the engine, replaying the
 * lesson's solution, does what the authored answer says (exactly that choice comes true at the
 * predicted step, after the learner took over). The lesson view's pause logic is tested too.
 */
import { describe, expect, it } from 'vitest';
import { loadCourse } from './content';
import { runLesson } from './lesson';
import {
  answerPrediction,
  choicesThatHappened,
  pendingPrediction,
  predictionStep,
} from './predict';
import type { Lesson } from './schema';

const course = loadCourse();

describe('predictions in the course', () => {
  it('every lesson has at least one prediction', () => {
    expect(course.lessons.filter((l) => !l.predictions?.length).map((l) => l.id)).toEqual([]);
  });
});

describe.each(course.lessons.map((l) => [l.id, l] as const))('lesson %s', (_, lesson: Lesson) => {
  it('its predictions come true as authored in the solution', { timeout: 60_000 }, () => {
    const r = runLesson(lesson);
    if ('errors' in r) throw new Error(r.errors.join('; '));
    // Where the learner takes over: the end of the start (a solution may begin with a wait).
    const alone = runLesson(lesson, { solution: false });
    if ('errors' in alone) throw new Error(alone.errors.join('; '));
    const start = alone.run.cluster.events.length - 1;
    const events = r.run.cluster.events;
    const wrong: string[] = [];
    for (const p of lesson.predictions ?? []) {
      const step = predictionStep(p, events, start);
      if (step < 0) {
        wrong.push(`${p.id}: no event after the start matches its "when"`);
        continue;
      }
      const happened = choicesThatHappened(p, events[step]!, events);
      if (happened.length !== 1 || happened[0] !== p.answer)
        wrong.push(`${p.id}: answer ${p.answer}, the engine did [${happened.join(', ')}]`);
      const o = answerPrediction(p, p.answer, events, start);
      if (!o.correct || o.happened.join() !== p.answer) wrong.push(`${p.id}: answer not accepted`);
    }
    expect(wrong).toEqual([]);
  });
});

describe('the pause', () => {
  const r = runLesson(course.lessons.find((l) => l.predictions?.length)!);

  it('holds the cursor before the first unanswered predicted step', () => {
    if ('errors' in r) throw new Error(r.errors.join('; '));
    const l = course.lessons.find((x) => x.predictions?.length)!;
    const events = r.run.cluster.events;
    const start = r.setupEnd - 1;
    const p = l.predictions![0]!;
    const step = predictionStep(p, events, start);
    expect(step).toBeGreaterThan(start);
    // Before the step: nothing to answer yet; at it or past it: the prediction, at its step.
    expect(pendingPrediction(l, events, start, step - 1, {})).toBeNull();
    expect(pendingPrediction(l, events, start, step, {})).toEqual({ prediction: p, step });
    expect(pendingPrediction(l, events, start, events.length - 1, {})?.step).toBe(step);
    // Answered, it no longer holds the learner back.
    expect(pendingPrediction(l, events, start, step, { [p.id]: 'a' })).toBeNull();
    // An event before the learner took over is not predicted.
    expect(pendingPrediction(l, events, step, step, {})).toBeNull();
  });

  it('says whether the learner was right and what happened', () => {
    if ('errors' in r) throw new Error(r.errors.join('; '));
    const l = course.lessons.find((x) => x.predictions?.length)!;
    const p = l.predictions![0]!;
    const wrongChoice = p.choices.find((c) => c.id !== p.answer)!.id;
    const o = answerPrediction(p, wrongChoice, r.run.cluster.events, r.setupEnd - 1);
    expect(o).toMatchObject({ correct: false, answer: p.answer, happened: [p.answer] });
    // Before its event exists, nothing has happened yet.
    expect(answerPrediction(p, p.answer, [], -1).happened).toEqual([]);
  });
});
