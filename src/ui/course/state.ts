/**
 * The course's own state (a small zustand store in the course chunk): the course data, the
 * learner's progress, and what is open (a lesson with its hints and quiz, or a challenge run).
 */
import { create } from 'zustand';
import type { ChallengeRun, CourseEngine, Lesson, Session, Verdict } from '../../engine';
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
  /** While the solution replays: the learner's own session and step, to go back to. */
  attempt?: { session: Session; cursor: number } | null;
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

export const useCourse = create<CourseState>(() => ({
  engine: null,
  progress: loadProgress(null).progress,
  open: null,
}));

export function setProgress(p: Progress): void {
  useCourse.setState({ progress: p });
  saveProgress(storage(), p);
}

export function updateLesson(id: string, f: (l: LessonProgress) => LessonProgress): void {
  const p = useCourse.getState().progress;
  const next = f(p.lessons[id] ?? emptyLesson());
  if (JSON.stringify(next) === JSON.stringify(p.lessons[id])) return;
  setProgress({ ...p, lessons: { ...p.lessons, [id]: next } });
}

export function updateChallenge(id: string, f: (c: ChallengeProgress) => ChallengeProgress): void {
  const p = useCourse.getState().progress;
  setProgress({
    ...p,
    challenges: { ...p.challenges, [id]: f(p.challenges[id] ?? emptyChallenge()) },
  });
}
