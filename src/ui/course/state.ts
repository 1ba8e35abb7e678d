/**
 * The course's own state (the `course` slice of the app's store, ../app/state.ts): the course
 * data, the learner's progress, and what is open (a lesson with its hints and quiz, or a
 * challenge run). Components read it with `useCourse(selector)` and change it only through the
 * functions below.
 */
import type { ChallengeRun, CourseEngine, Lesson, Verdict } from '../../engine';
import { slice } from '../app/state';
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
  /** Hint levels shown, per goal id (1 nudge, 2 concept, 3 step). */
  hints: Record<string, 1 | 2 | 3>;
  /** Choices picked per question, and whether it was checked. */
  quiz: Record<string, { chosen: string[]; checked: boolean }>;
}

export interface OpenChallenge {
  kind: 'challenge';
  run: ChallengeRun;
  openedAt: number;
  hintsShown: number;
  steps: number;
  wrongAnswers: number;
  verdict: Verdict | null;
  /** The accepted answer's score. */
  score: number | null;
  checking: boolean;
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
  setProgress({
    ...p,
    challenges: { ...p.challenges, [id]: f(p.challenges[id] ?? emptyChallenge()) },
  });
}

// ---------------------------------------------------------------------------------------------
// What the learner does in an open lesson or challenge

/** Changes the open lesson (nothing when a lesson is not open). */
function changeLesson(f: (l: OpenLesson) => OpenLesson): void {
  const cur = course.get().open;
  if (cur?.kind === 'lesson') course.set({ open: f(cur) });
}

/** Changes the open challenge (nothing when a challenge is not open). */
function changeChallenge(f: (c: OpenChallenge) => Partial<OpenChallenge>): void {
  const cur = course.get().open;
  if (cur?.kind === 'challenge') course.set({ open: { ...cur, ...f(cur) } });
}

/** Shows a lesson goal's hint at `level`. */
export function showLessonHint(goal: string, level: 1 | 2 | 3): void {
  changeLesson((l) => ({ ...l, hints: { ...l.hints, [goal]: level } }));
}

/** A quiz question's choices, and whether they were checked. */
export function setQuizAnswer(question: string, a: { chosen: string[]; checked: boolean }): void {
  changeLesson((l) => ({ ...l, quiz: { ...l.quiz, [question]: a } }));
}

/** The challenge's cursor moved: one more step (until it is solved). */
export function countChallengeStep(): void {
  changeChallenge((c) => (c.verdict?.accepted ? {} : { steps: c.steps + 1 }));
}

export function showChallengeHint(): void {
  changeChallenge((c) => ({ hintsShown: c.hintsShown + 1 }));
}

/** An answer is being checked (its fix carried out), or no longer. */
export function setChecking(checking: boolean): void {
  changeChallenge(() => ({ checking }));
}

/** The verdict on an answer, with its score when accepted. */
export function recordVerdict(verdict: Verdict, score: number | null): void {
  changeChallenge((c) => ({
    checking: false,
    verdict,
    wrongAnswers: c.wrongAnswers + (verdict.accepted ? 0 : 1),
    score,
  }));
}
