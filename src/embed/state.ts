import { slice } from '../ui/app/state';
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

export interface EmbedState {
  views: EmbedView[];
  /** The scenario shown, as the `scenario` parameter names it (for "Open in cnisim"). */
  scenario: string;
  lesson: EmbedLessonState | null;
  challenge: EmbedChallengeState | null;
}

/**
 * What the embed shows besides the session: the `embed` slice of the app's store. Components
 * read it with `useEmbed`; the embed's command modules (main, start, host, lesson, challenge)
 * write it.
 */
const embed = slice<EmbedState>('embed', {
  views: DEFAULT_VIEWS,
  scenario: 'sandbox',
  lesson: null,
  challenge: null,
});
export const useEmbed = embed.use;
export const getEmbed = embed.get;
export const setEmbed = embed.set;
export const subscribeEmbed = embed.subscribe;
