/**
 * The quiz beyond one answer: the order a learner sees the choices in, and the course-wide
 * balance that keeps the quiz from being passed without reading.
 *
 * - `quizChoices` shuffles a question's choices by the learner's seed: the same learner sees the
 *   same order every time (and after a reload), another learner another order. The authored ids
 *   stay the answer's key; the letters shown are the display positions.
 * - `quizBalance` measures, over the single-answer questions of the course, how often the right
 *   choice is the longest and how the right answers spread over the authored positions, and lists
 *   wrong choices without a why-not and questions that repeat each other. The course test fails
 *   on any of these (lessons.test.ts).
 */
import { hash } from './hidden';
import type { Lesson, QuizQuestion } from './schema';

export interface ShownChoice {
  /** The authored id (what answers and progress refer to). */
  id: string;
  text: string;
  /** The letter shown: the display position, a, b, c, ... */
  label: string;
}

/**
 * A question's choices in the order `seed` (the learner's) gives them, each with the letter it
 * is shown under. Deterministic: a Fisher-Yates shuffle driven by (seed, question id).
 */
export function quizChoices(q: QuizQuestion, seed: number): ShownChoice[] {
  const order = q.choices.map((c) => c);
  for (let i = order.length - 1; i > 0; i--) {
    const j = hash(`${seed >>> 0}#${q.id}#${i}`) % (i + 1);
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  return order.map((c, i) => ({ id: c.id, text: c.text, label: String.fromCharCode(97 + i) }));
}

/** A new learner's seed, from any source of randomness (a positive 31-bit integer). */
export function learnerSeed(random: () => number): number {
  return 1 + Math.floor(random() * 0x7ffffffe);
}

// ---------------------------------------------------------------------------------------------
// Balance

/** The limits the course must stay within (issue 15). */
export const QUIZ_LIMITS = {
  /** Share of single-answer questions whose right choice is the longest (ties count). */
  longestRight: 0.4,
  /** Share of right answers at any one authored position. */
  position: 0.4,
} as const;

export interface QuizBalance {
  /** Single-answer questions. */
  single: number;
  /** Of those, questions whose right choice is (one of) the longest. */
  longestRight: number;
  /** Right answers per authored position (a, b, c, ...). */
  positions: Record<string, number>;
  /** Mean length of the right choice over the mean length of the wrong ones. */
  lengthRatio: number;
  /** "lesson/question: choice x" for every wrong choice without a why-not. */
  missingWhyNot: string[];
  /** "lesson/question ~ lesson/question: why" for questions that ask the same thing. */
  repeats: string[];
  /** Every limit broken, in words; empty when the quiz is balanced. */
  problems: string[];
}

function norm(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9<>/._-]+/g, ' ')
    .trim();
}

function words(s: string): Set<string> {
  return new Set(
    norm(s)
      .split(' ')
      .filter((w) => w.length > 3),
  );
}

function jaccard(a: Set<string>, b: Set<string>): number {
  let both = 0;
  for (const w of a) if (b.has(w)) both++;
  const all = a.size + b.size - both;
  return all === 0 ? 0 : both / all;
}

/**
 * Why two questions repeat each other, or null: the same right answer, the same question in
 * other words (most of the significant words shared), or two wrong choices in common.
 */
export function repeatOf(a: QuizQuestion, b: QuizQuestion): string | null {
  const right = (q: QuizQuestion) =>
    q.choices
      .filter((c) => q.answer.includes(c.id))
      .map((c) => norm(c.text))
      .sort()
      .join(' | ');
  if (right(a) === right(b)) return 'the same right answer';
  if (jaccard(words(a.question), words(b.question)) >= 0.6) return 'the same question';
  const wrong = (q: QuizQuestion) =>
    new Set(q.choices.filter((c) => !q.answer.includes(c.id)).map((c) => norm(c.text)));
  const wa = wrong(a);
  let shared = 0;
  for (const t of wrong(b)) if (wa.has(t)) shared++;
  if (shared >= 2) return `${shared} wrong choices in common`;
  return null;
}

/** The course's quiz, measured against QUIZ_LIMITS. */
export function quizBalance(lessons: readonly Pick<Lesson, 'id' | 'quiz'>[]): QuizBalance {
  const all = lessons.flatMap((l) => l.quiz.map((q) => ({ at: `${l.id}/${q.id}`, q })));
  const single = all.filter(({ q }) => q.answer.length === 1);
  const positions: Record<string, number> = {};
  let longestRight = 0;
  let rightLen = 0;
  let wrongLen = 0;
  let wrongCount = 0;
  for (const { q } of single) {
    const a = q.answer[0]!;
    positions[a] = (positions[a] ?? 0) + 1;
    const right = q.choices.find((c) => c.id === a)!.text.length;
    const wrong = q.choices.filter((c) => c.id !== a).map((c) => c.text.length);
    if (wrong.every((w) => right >= w)) longestRight++;
    rightLen += right;
    wrongLen += wrong.reduce((x, y) => x + y, 0);
    wrongCount += wrong.length;
  }
  const missingWhyNot = all.flatMap(({ at, q }) =>
    q.choices
      .filter((c) => !q.answer.includes(c.id) && !c.whyNot)
      .map((c) => `${at}: choice ${c.id}`),
  );
  const repeats: string[] = [];
  for (let i = 0; i < all.length; i++)
    for (let j = i + 1; j < all.length; j++) {
      const why = repeatOf(all[i]!.q, all[j]!.q);
      if (why) repeats.push(`${all[i]!.at} ~ ${all[j]!.at}: ${why}`);
    }
  const n = single.length;
  const problems: string[] = [];
  if (n && longestRight / n > QUIZ_LIMITS.longestRight)
    problems.push(
      `the right choice is the longest in ${longestRight} of ${n} single-answer questions (more than ${QUIZ_LIMITS.longestRight * 100}%)`,
    );
  for (const [p, k] of Object.entries(positions).sort())
    if (k / n > QUIZ_LIMITS.position)
      problems.push(
        `${k} of ${n} right answers are at position ${p} (more than ${QUIZ_LIMITS.position * 100}%)`,
      );
  problems.push(...missingWhyNot.map((m) => `${m} has no why-not`));
  problems.push(...repeats.map((r) => `repeated question: ${r}`));
  const lengthRatio = n && wrongCount ? rightLen / n / (wrongLen / wrongCount) : 0;
  return { single: n, longestRight, positions, lengthRatio, missingWhyNot, repeats, problems };
}
