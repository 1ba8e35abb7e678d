/**
 * A lesson as a handout: its title, introduction, objectives and goals, and every narrated step
 * of its solution's run with the lesson's sentences for it. Computed headless (the lesson's
 * start and solution replayed, as the tests replay them), so the printed page does not depend on
 * what the learner happened to do in the app. The diagrams are the views' business: they are
 * functions of `events` and a step (src/ui/course/handout/).
 */
import type { TraceEvent } from '../trace/trace';
import { narrationIndex, runLessonJob } from './lesson';
import type { Lesson } from './schema';

export interface HandoutStep {
  /** The step's position in the trace (0-based; shown from 1). */
  step: number;
  /** The lesson's sentences for it, as the lesson panel shows them at this step. */
  text: string[];
  event: Pick<TraceEvent, 'source' | 'target' | 'node' | 'summary' | 'error'>;
  /** Whether it belongs to the learner's part (the solution), not to where the lesson starts. */
  learner: boolean;
}

export interface Handout {
  lesson: Lesson;
  /** The goals and whether the solution's run meets each one (it must: the tests say so). */
  goals: { id: string; text: string; met: boolean }[];
  steps: HandoutStep[];
  /** The solution run's trace, for the diagrams. */
  events: readonly TraceEvent[];
  /** First step of the learner's part. */
  setupEnd: number;
}

/** The handout of a lesson, or the problems of a lesson whose run fails; never throws. */
export function lessonHandout(lesson: Lesson): Handout | { errors: string[] } {
  const job = lessonHandoutJob(lesson);
  for (;;) {
    const r = job.next();
    if (r.done) return r.value;
  }
}

/**
 * `lessonHandout` as a job: the solution's headless run yields after each step of the cluster,
 * so that the page prepares a handout in slices (80 – 380 ms of work in one task before).
 */
export function* lessonHandoutJob(
  lesson: Lesson,
): Generator<number, Handout | { errors: string[] }, void> {
  const r = yield* runLessonJob(lesson, { solution: true });
  if ('errors' in r) return r;
  const events = r.run.cluster.events;
  const idx = narrationIndex(lesson, events);
  const steps = [...idx.entries()]
    .sort(([a], [b]) => a - b)
    .map(([step, text]): HandoutStep => {
      const e = events[step]!;
      return {
        step,
        text,
        event: {
          source: e.source,
          target: e.target,
          node: e.node,
          summary: e.summary,
          ...(e.error !== undefined ? { error: e.error } : {}),
        },
        learner: step >= r.setupEnd,
      };
    });
  const met = new Map(r.goals.map((g) => [g.id, g.met]));
  return {
    lesson,
    goals: lesson.goals.map((g) => ({ id: g.id, text: g.text, met: met.get(g.id) ?? false })),
    steps,
    events,
    setupEnd: r.setupEnd,
  };
}
