/**
 * Lessons at run time: the scenario a lesson starts from (and the one its solution makes), a
 * headless run of either with the goals checked at its end, the narration of each step, and the
 * quiz's answers. The app drives the same lesson through a Session (session.ts); the tests run
 * every solution here and require every goal to be met.
 */
import type { Cluster } from '../cluster/cluster';
import { runScenarioJob, type ScenarioRun } from '../scenario/run';
import type { Session } from '../session/session';
import type { TraceEvent } from '../trace/trace';
import { checkGoals, type CheckContext, type GoalResult } from './goals';
import { matches } from './match';
import type { Hint, Lesson, QuizQuestion } from './schema';

type Data = Record<string, unknown>;

/** The wait that ends a lesson's start: its `end` condition (default: idle within 10m). */
export function startEndAction(start: Data): Data {
  const end = (start['end'] ?? {}) as { until?: string; timeout?: string | number };
  return {
    do: 'runUntil',
    until: end.until ?? 'idle',
    timeout: end.timeout ?? '10m',
    optional: true,
    note: 'where the lesson starts',
  };
}

/**
 * The scenario of a lesson: its start alone, or its start, the wait for the start's end and the
 * solution's actions, ending at the solution's end (default: idle within 2m).
 */
export function lessonScenario(lesson: Lesson, opts: { solution?: boolean } = {}): Data {
  const start = lesson.start;
  if (!opts.solution) return start;
  const actions = [
    ...((start['actions'] as Data[] | undefined) ?? []),
    startEndAction(start),
    ...lesson.solution.actions,
  ];
  return {
    ...start,
    actions,
    end: {
      until: lesson.solution.end?.until ?? 'idle',
      timeout: lesson.solution.end?.timeout ?? '2m',
    },
  };
}

/** A check context over a cluster's current state. */
export function clusterContext(cluster: Cluster, setupEnd = 0): CheckContext {
  const events = cluster.events;
  return {
    state: cluster.sim.state,
    events,
    step: events.length - 1,
    setupEnd,
    audit: (s) => cluster.audit(s),
  };
}

/**
 * A lesson's goals in a Session at a step (default: its cursor), the learner's part starting
 * after `start` (where the lesson's start ended). What the app's lesson view and an embedded
 * lesson both show, and what decides that a lesson is solved.
 */
export function lessonGoalsAt(
  lesson: Lesson,
  session: Session,
  start: number,
  step = session.cursor,
): GoalResult[] {
  return checkGoals(lesson.goals, {
    state: session.stateAt(step),
    events: session.events,
    step: Math.max(step, 0),
    setupEnd: start + 1,
    audit: (s) => session.audit(s),
  });
}

/** Whether every goal is met (a lesson has at least one goal). */
export function allGoalsMet(results: readonly GoalResult[]): boolean {
  return results.length > 0 && results.every((r) => r.met);
}

export interface LessonRun {
  run: Extract<ScenarioRun, { ok: true }>;
  /** First event of the learner's part (the solution's first action). */
  setupEnd: number;
  context: CheckContext;
  goals: GoalResult[];
}

/** Runs a lesson headless, with its solution (default) or only its start; never throws. */
export function runLesson(
  lesson: Lesson,
  opts: { solution?: boolean; seed?: number } = {},
): LessonRun | { errors: string[] } {
  const job = runLessonJob(lesson, opts);
  for (;;) {
    const r = job.next();
    if (r.done) return r.value;
  }
}

/** `runLesson` as a job: yields after each step of the cluster (see runScenarioJob). */
export function* runLessonJob(
  lesson: Lesson,
  opts: { solution?: boolean; seed?: number } = {},
): Generator<number, LessonRun | { errors: string[] }, void> {
  const solution = opts.solution ?? true;
  const data = lessonScenario(lesson, { solution });
  const run = yield* runScenarioJob(data, opts.seed !== undefined ? { seed: opts.seed } : {});
  if (!run.ok) return { errors: run.errors };
  const startActions = ((lesson.start['actions'] as unknown[] | undefined) ?? []).length;
  const first = solution ? run.summary.actions[startActions + 1]?.step : null;
  const setupEnd = first ?? run.cluster.events.length;
  const context = clusterContext(run.cluster, setupEnd);
  return { run, setupEnd, context, goals: checkGoals(lesson.goals, context) };
}

// ---------------------------------------------------------------------------------------------
// Narration

function fill(text: string, e: TraceEvent, groups: RegExpExecArray | null): string {
  return text.replace(/\{(node|source|target|summary|[1-9])\}/g, (_, k: string) => {
    if (k === 'node') return e.node ?? '';
    if (k === 'source') return e.source;
    if (k === 'target') return e.target;
    if (k === 'summary') return e.summary;
    return groups?.[Number(k)] ?? '';
  });
}

/**
 * The narration of a lesson's steps: step index → sentences, for events[from..to]. A `once`
 * entry speaks at the first matching event of the whole trace only; a `skip` entry not at the
 * first `skip` ones.
 */
export function narrationIndex(
  lesson: Lesson,
  events: readonly TraceEvent[],
  from = 0,
  to = events.length - 1,
): Map<number, string[]> {
  const out = new Map<number, string[]>();
  lesson.narration.forEach((n) => {
    const start = n.once || n.skip ? 0 : from;
    let seen = 0;
    for (let i = start; i <= to && i < events.length; i++) {
      const e = events[i]!;
      if (!matches(n.when, e, events)) continue;
      if (++seen <= (n.skip ?? 0)) continue;
      if (i >= from) {
        const groups = n.when.summary ? new RegExp(n.when.summary).exec(e.summary) : null;
        const l = out.get(i) ?? [];
        l.push(fill(n.text, e, groups));
        out.set(i, l);
      }
      if (n.once) break;
    }
  });
  return out;
}

/**
 * What to read at step `i`: its own sentences, or else the latest narrated step before it
 * (looked for in the 400 steps before), as the lesson views show it.
 */
export function narrationNear(
  lesson: Lesson,
  events: readonly TraceEvent[],
  i: number,
): { now: string[]; earlier: { step: number; text: string[] } | null } {
  if (i < 0) return { now: [], earlier: null };
  const idx = narrationIndex(lesson, events, Math.max(0, i - 400), i);
  let earlier: { step: number; text: string[] } | null = null;
  for (const [k, v] of idx)
    if (k < i && (!earlier || k > earlier.step)) earlier = { step: k, text: v };
  return { now: idx.get(i) ?? [], earlier };
}

/** The sentences for step `i` (empty when the step has no narration). */
export function narrationAt(lesson: Lesson, events: readonly TraceEvent[], i: number): string[] {
  return narrationIndex(lesson, events, i, i).get(i) ?? [];
}

// ---------------------------------------------------------------------------------------------
// Hints

export type HintLevel = 1 | 2 | 3;

/** The hint of a goal up to a level: 1 the nudge, 2 the concept, 3 the exact step. */
export function hintsFor(hint: Hint | undefined, level: HintLevel): string[] {
  if (!hint) return [];
  return [hint.nudge, hint.concept, hint.step].slice(0, level);
}

/** The next goal the learner has not met that has a hint, in the lesson's order. */
export function nextHintedGoal(
  lesson: Lesson,
  results: readonly GoalResult[],
): Lesson['goals'][number] | null {
  for (const g of lesson.goals) {
    const r = results.find((x) => x.id === g.id);
    if (g.hint && (!r || !r.met)) return g;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Quiz

export interface QuizOutcome {
  correct: boolean;
  /** The right choices, to show once answered. */
  answer: string[];
  explanation: string;
  /** Choices picked that are §8 simplifications, with what real nodes do. */
  myths: { choice: string; myth: string }[];
  /** Every wrong choice with why it is wrong (picked ones first), to show once answered. */
  whyNot: { choice: string; picked: boolean; text: string }[];
}

/** Checks a learner's choices (every right one and nothing else). */
export function answerQuiz(q: QuizQuestion, chosen: readonly string[]): QuizOutcome {
  const want = [...q.answer].sort();
  const got = [...new Set(chosen)].sort();
  const correct = want.length === got.length && want.every((a, i) => a === got[i]);
  const myths = q.choices
    .filter((c) => c.myth && got.includes(c.id))
    .map((c) => ({ choice: c.id, myth: c.myth! }));
  const whyNot = q.choices
    .filter((c) => !want.includes(c.id) && c.whyNot)
    .map((c) => ({ choice: c.id, picked: got.includes(c.id), text: c.whyNot! }))
    .sort((a, b) => Number(b.picked) - Number(a.picked));
  return { correct, answer: want, explanation: q.explanation, myths, whyNot };
}
