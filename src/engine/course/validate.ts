/**
 * Validation of course files beyond their shape: the scenarios parse, ids are unique, quiz
 * answers are among the choices, a §8 distractor is never an answer, every wrong choice says why
 * it is wrong (whyNot) and no right one does, a challenge's fixes exist.
 * Every problem is a line `field: what is wrong`; a file is usable only with none.
 */
import { parseScenario } from '../scenario/schema';
import { FIXES } from './fixes';
import { variantProblems } from './hidden';
import { lessonScenario } from './lesson';
import {
  challengeSchema,
  issueLines,
  lessonSchema,
  type Challenge,
  type Goal,
  type Lesson,
  type Prediction,
  type QuizQuestion,
} from './schema';

export type Validated<T> = { ok: true; value: T } | { ok: false; errors: string[] };

function dupes(ids: string[], what: string, at: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const id of ids) {
    if (seen.has(id)) out.push(`${at}: duplicate ${what} id "${id}"`);
    seen.add(id);
  }
  return out;
}

function quizErrors(q: QuizQuestion, at: string): string[] {
  const out: string[] = [];
  const ids = q.choices.map((c) => c.id);
  out.push(...dupes(ids, 'choice', `${at}.choices`));
  for (const a of q.answer)
    if (!ids.includes(a))
      out.push(`${at}.answer: "${a}" is not one of the choices (${ids.join(', ')})`);
  for (const c of q.choices)
    if (c.myth && q.answer.includes(c.id))
      out.push(
        `${at}.choices: "${c.id}" is marked as the simplification "${c.myth}" but is an answer`,
      );
  // The app says it after every question with more than one answer.
  if (/select all that apply/i.test(q.question))
    out.push(`${at}.question: says "select all that apply", which the app adds itself`);
  for (const c of q.choices) {
    const right = q.answer.includes(c.id);
    if (!right && !c.whyNot) out.push(`${at}.choices: wrong choice "${c.id}" has no whyNot`);
    if (right && c.whyNot) out.push(`${at}.choices: "${c.id}" is an answer but has a whyNot`);
  }
  return out;
}

function predictionErrors(p: Prediction, at: string): string[] {
  const ids = p.choices.map((c) => c.id);
  const out = dupes(ids, 'choice', `${at}.choices`);
  if (!ids.includes(p.answer))
    out.push(`${at}.answer: "${p.answer}" is not one of the choices (${ids.join(', ')})`);
  return out;
}

function goalErrors(goals: readonly Goal[], at: string): string[] {
  return dupes(
    goals.map((g) => g.id),
    'goal',
    at,
  );
}

/** Validates a lesson file's data. */
export function validateLesson(data: unknown): Validated<Lesson> {
  const r = lessonSchema.safeParse(data, { reportInput: true });
  if (!r.success) return { ok: false, errors: issueLines(r.error.issues) };
  const l = r.data;
  const errors: string[] = [];
  const start = parseScenario(l.start);
  if (!start.ok) errors.push(...start.errors.map((e) => `start.${e}`));
  else {
    const full = parseScenario(lessonScenario(l, { solution: true }));
    if (!full.ok)
      errors.push(
        ...full.errors.map((e) =>
          e.replace(/^actions\[(\d+)\]/, (_, n: string) => {
            const k = Number(n) - ((l.start['actions'] as unknown[] | undefined)?.length ?? 0) - 1;
            return k >= 0 ? `solution.actions[${k}]` : `start.actions[${n}]`;
          }),
        ),
      );
  }
  errors.push(...goalErrors(l.goals, 'goals'));
  errors.push(
    ...dupes(
      l.quiz.map((q) => q.id),
      'question',
      'quiz',
    ),
  );
  l.quiz.forEach((q, i) => errors.push(...quizErrors(q, `quiz[${i}]`)));
  const predictions = l.predictions ?? [];
  errors.push(
    ...dupes(
      predictions.map((p) => p.id),
      'prediction',
      'predictions',
    ),
  );
  predictions.forEach((p, i) => errors.push(...predictionErrors(p, `predictions[${i}]`)));
  return errors.length ? { ok: false, errors } : { ok: true, value: l };
}

/** Validates a challenge file's data. */
export function validateChallenge(data: unknown): Validated<Challenge> {
  const r = challengeSchema.safeParse(data, { reportInput: true });
  if (!r.success) return { ok: false, errors: issueLines(r.error.issues) };
  const c = r.data;
  const errors: string[] = [];
  const s = parseScenario(c.cluster);
  if (!s.ok) errors.push(...s.errors.map((e) => `cluster.${e}`));
  errors.push(
    ...dupes(
      c.causes.map((x) => x.id),
      'cause',
      'causes',
    ),
  );
  errors.push(...dupes(c.fixes, 'fix', 'fixes'));
  c.fixes.forEach((f, i) => {
    if (!FIXES[f])
      errors.push(`fixes[${i}]: unknown fix "${f}" (one of ${Object.keys(FIXES).join(', ')})`);
  });
  errors.push(...variantProblems(c));
  errors.push(...goalErrors(c.recovery, 'recovery'));
  errors.push(...goalErrors(c.symptom, 'symptom'));
  return errors.length ? { ok: false, errors } : { ok: true, value: c };
}
