/**
 * The quiz cannot be passed without reading: choices are shuffled per learner (deterministically),
 * and over the whole course the right choice is rarely the longest, right answers spread over the
 * authored positions, every wrong choice says why it is wrong, and no question repeats another.
 */
import { describe, expect, it } from 'vitest';
import { loadCourse } from './content';
import { answerQuiz } from './lesson';
import { QUIZ_LIMITS, learnerSeed, quizBalance, quizChoices, repeatOf } from './quiz';
import type { QuizQuestion } from './schema';

const course = loadCourse();

function question(id: string, right: string, wrong: string[], answerAt = 0): QuizQuestion {
  const texts = [...wrong];
  texts.splice(answerAt, 0, right);
  const ids = 'abcdef';
  return {
    id,
    question: `${id}?`,
    choices: texts.map((text, i) => ({
      id: ids[i]!,
      text,
      ...(i === answerAt ? {} : { whyNot: `not ${text}` }),
    })),
    answer: [ids[answerAt]!],
    explanation: 'because',
    link: { at: { kind: 'exec' } },
  };
}

describe('quizChoices', () => {
  const q = course.lessons[0]!.quiz[0]!;

  it('gives the same learner the same order every time, relabelled a, b, c, ...', () => {
    const one = quizChoices(q, 12345);
    expect(quizChoices(q, 12345)).toEqual(one);
    expect(one.map((c) => c.label)).toEqual(['a', 'b', 'c', 'd'].slice(0, q.choices.length));
    expect(one.map((c) => c.id).sort()).toEqual(q.choices.map((c) => c.id).sort());
    for (const c of one) expect(c.text).toBe(q.choices.find((x) => x.id === c.id)!.text);
  });

  it('gives different learners different orders, and puts the answer everywhere', () => {
    const orders = new Set<string>();
    const at = new Map<number, number>();
    for (let seed = 1; seed <= 200; seed++) {
      const shown = quizChoices(q, seed);
      orders.add(shown.map((c) => c.id).join(''));
      const i = shown.findIndex((c) => c.id === q.answer[0]);
      at.set(i, (at.get(i) ?? 0) + 1);
    }
    // 4 choices have 24 orders; 200 learners see most of them, the answer at every position.
    expect(orders.size).toBeGreaterThan(15);
    expect([...at.keys()].sort()).toEqual([0, 1, 2, 3]);
    for (const n of at.values()) expect(n).toBeGreaterThan(25);
  });

  it('shuffles each question of one learner on its own', () => {
    const qs = course.lessons.flatMap((l) => l.quiz).filter((x) => x.choices.length === 4);
    const positions = new Set(
      qs.map((x) => quizChoices(x, 7).findIndex((c) => c.id === x.answer[0])),
    );
    expect(positions.size).toBe(4);
  });

  it('makes learner seeds from any random source, positive and in range', () => {
    expect(learnerSeed(() => 0)).toBe(1);
    expect(learnerSeed(() => 0.999999999)).toBeLessThanOrEqual(0x7fffffff);
  });
});

describe('answerQuiz', () => {
  it('returns every wrong choice with its why-not, the picked one first', () => {
    const q = question('x', 'right', ['w1', 'w2', 'w3'], 1);
    const r = answerQuiz(q, ['d']);
    expect(r.correct).toBe(false);
    expect(r.whyNot).toEqual([
      { choice: 'd', picked: true, text: 'not w3' },
      { choice: 'a', picked: false, text: 'not w1' },
      { choice: 'c', picked: false, text: 'not w2' },
    ]);
    expect(answerQuiz(q, ['b']).correct).toBe(true);
  });
});

describe('quizBalance', () => {
  it('flags a quiz whose right answer is the longest and always at b', () => {
    const qs = ['pa', 'qb', 'rc', 'sd', 'te'].map((id) =>
      question(id, `the long and careful right answer about ${id}`, [`no ${id}`, 'nope', id], 1),
    );
    const b = quizBalance([{ id: 'l', quiz: qs }]);
    expect(b.longestRight).toBe(5);
    expect(b.positions).toEqual({ b: 5 });
    expect(b.problems).toEqual([
      'the right choice is the longest in 5 of 5 single-answer questions (more than 40%)',
      '5 of 5 right answers are at position b (more than 40%)',
    ]);
  });

  it('flags a wrong choice without a why-not', () => {
    const q = question('x', 'right', ['w1', 'w2longer'], 0);
    delete q.choices[2]!.whyNot;
    const b = quizBalance([{ id: 'l', quiz: [q] }]);
    expect(b.missingWhyNot).toEqual(['l/x: choice c']);
  });

  it('finds questions that repeat each other', () => {
    const a = question('cache-name', '/var/lib/cni/results/net-<id>-eth0', ['x1', 'x2', 'x3']);
    const same = question('cache-claim', '/var/lib/cni/results/net-<id>-eth0', ['y1', 'y2', 'y3']);
    expect(repeatOf(a, same)).toBe('the same right answer');
    const reworded = {
      ...question('other', 'something else entirely', ['x1', 'x2', 'z3']),
      question: 'Something unrelated?',
    };
    expect(repeatOf(a, reworded)).toBe('2 wrong choices in common');
    const distinct = question('far', 'an answer', ['k1', 'k2', 'k3']);
    expect(repeatOf(a, { ...distinct, question: 'A different matter entirely?' })).toBeNull();
  });
});

describe("the course's quiz", () => {
  const b = quizBalance(course.lessons);

  it('stays within the limits: right rarely longest, answers spread, why-nots, no repeats', () => {
    expect(b.problems).toEqual([]);
    expect(b.longestRight / b.single).toBeLessThanOrEqual(QUIZ_LIMITS.longestRight);
    for (const n of Object.values(b.positions))
      expect(n / b.single).toBeLessThanOrEqual(QUIZ_LIMITS.position);
  });

  it('has no throwaway choice', () => {
    const throwaways = course.lessons.flatMap((l) =>
      l.quiz.flatMap((q) =>
        q.choices
          .filter((c) => /^(to save time|none of the above|all of the above)\b/i.test(c.text))
          .map((c) => `${l.id}/${q.id}: ${c.text}`),
      ),
    );
    expect(throwaways).toEqual([]);
  });
});
