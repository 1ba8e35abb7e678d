import { create } from 'zustand';
import type { Session } from '../engine';
import type { GoalResult, Lesson } from '../engine';
import { DEFAULT_VIEWS, type EmbedView } from './protocol';

/** A lesson open in the embed (src/embed/lesson.ts): its goals as checked at the cursor. */
export interface EmbedLessonState {
  lesson: Lesson;
  /** The session the goals were checked in (a new one on every load). */
  session: Session;
  /** The step where the lesson's start ends and the learner takes over. */
  start: number;
  /** Whether the session is the solution's replay. */
  solution: boolean;
  goals: GoalResult[];
}

/** A challenge open in the embed (src/embed/challenge.ts): its ticket, at the candidate's start. */
export interface EmbedChallengeState {
  id: string;
  title: string;
  difficulty: string;
  seed: number;
  ticket: string;
}

/** What the embed shows besides the session (in the app's store). */
export const useEmbed = create<{
  views: EmbedView[];
  /** The scenario shown, as the `scenario` parameter names it (for "Open in cnisim"). */
  scenario: string;
  lesson: EmbedLessonState | null;
  challenge: EmbedChallengeState | null;
}>(() => ({ views: DEFAULT_VIEWS, scenario: 'sandbox', lesson: null, challenge: null }));
