/**
 * The course's own state (the `course` slice of the app's store, ../app/state.ts): the course
 * data, the learner's progress, and what is open (a lesson with its attempt and quiz, or a
 * challenge run with its attempt). An attempt (hints, steps, answers, score) is the engine's pure
 * machine (src/engine/course/attempt.ts): this slice only keeps its snapshot and feeds it events.
 * Components read it with `useCourse(selector)` and change it only through the functions below.
 */
import type {
  Attempt,
  AttemptEvent,
  ChallengeRun,
  CourseEngine,
  Lesson,
  Session,
} from '../../engine';
import { slice, subscribe } from '../app/state';
import {
  emptyChallenge,
  emptyLesson,
  loadProgress,
  saveProgress,
  type ChallengeProgress,
  type LessonProgress,
  type Progress,
  type Store,
} from './progress';

export interface OpenLesson {
  kind: 'lesson';
  lesson: Lesson;
  /** The step where the lesson's start ends and the learner takes over. */
  start: number;
  /** Whether the session is the solution's replay. */
  solution: boolean;
  /** Hints shown per goal and steps taken (kept across the solution's replay). */
  attempt: Attempt;
  /** Choices picked per question, and whether it was checked. */
  quiz: Record<string, { chosen: string[]; checked: boolean }>;
  /** While the solution replays: the learner's own session and step, to go back to. */
  ownSession?: { session: Session; cursor: number } | null;
}

export interface OpenChallenge {
  kind: 'challenge';
  run: ChallengeRun;
  /** Hints, steps, answers, the verdict and the score, or the give-up. */
  attempt: Attempt;
}

export interface CourseState {
  engine: CourseEngine | null;
  progress: Progress;
  open: OpenLesson | OpenChallenge | null;
}

export function storage(): Store | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

const course = slice<CourseState>('course', {
  engine: null,
  progress: loadProgress(null).progress,
  open: null,
});

/** Reads the course's state in a component (`useCourse.getState()` outside React). */
export const useCourse = Object.assign(
  <T>(selector: (s: CourseState) => T): T => course.use(selector),
  {
    getState: course.get,
  },
);

/** Writes the course's state: for this folder's command functions (open.ts, below). */
export const setCourse = course.set;

export function setProgress(p: Progress): void {
  course.set({ progress: p });
  saveProgress(storage(), p);
}

export function updateLesson(id: string, f: (l: LessonProgress) => LessonProgress): void {
  const p = course.get().progress;
  const next = f(p.lessons[id] ?? emptyLesson());
  if (JSON.stringify(next) === JSON.stringify(p.lessons[id])) return;
  setProgress({ ...p, lessons: { ...p.lessons, [id]: next } });
}

export function updateChallenge(id: string, f: (c: ChallengeProgress) => ChallengeProgress): void {
  const p = course.get().progress;
  const next = f(p.challenges[id] ?? emptyChallenge());
  if (JSON.stringify(next) === JSON.stringify(p.challenges[id])) return;
  setProgress({ ...p, challenges: { ...p.challenges, [id]: next } });
}

/**
 * Saves a challenge's attempt with the progress (its seed, hints, refused answers, steps, clock),
 * for the next opening of that seed to resume it (open.ts) instead of starting over.
 */
export function keepChallengeAttempt(run: ChallengeRun, a: Attempt): void {
  const engine = course.get().engine;
  if (!engine) return;
  updateChallenge(run.challenge.id, (c) => ({
    ...c,
    seed: run.seed,
    attempt: { seed: run.seed, ...engine.attemptRecord(a) },
  }));
}

/** Feeds an event to the open lesson's or challenge's attempt (nothing when none is open). */
export function attemptEvent(e: AttemptEvent): Attempt | null {
  const { open, engine } = course.get();
  if (!open || !engine) return null;
  const next = engine.attemptStep(open.attempt, e);
  if (next !== open.attempt) {
    course.set({ open: { ...open, attempt: next } });
    if (open.kind === 'challenge') keepChallengeAttempt(open.run, next);
  }
  return next;
}

// Every move of the app's cursor is a step of the open attempt.
subscribe((s, prev) => {
  if (s.cursor !== prev.cursor) attemptEvent({ type: 'cursor', cursor: s.cursor });
});

/** A quiz question's choices, and whether they were checked (nothing when a lesson is not open). */
export function setQuizAnswer(question: string, a: { chosen: string[]; checked: boolean }): void {
  const cur = course.get().open;
  if (cur?.kind === 'lesson')
    course.set({ open: { ...cur, quiz: { ...cur.quiz, [question]: a } } });
}
