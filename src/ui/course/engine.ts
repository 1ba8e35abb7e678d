/**
 * The course as the app loads it: one lazy chunk (the lessons' and challenges' data, the goal
 * checker, the challenge runner), fetched when a course route is first opened.
 */
export { loadCourse, lessonById, challengeById } from '../../engine/course/content';
export {
  lessonScenario,
  lessonGoalsAt,
  allGoalsMet,
  hintsFor,
  answerQuiz,
  type HintLevel,
} from '../../engine/course/lesson';
export { checkGoals, type GoalResult, type CheckContext } from '../../engine/course/goals';
export { findEvent } from '../../engine/course/match';
export { scenarioSession } from '../../engine/course/session';
export {
  openChallenge,
  submitAnswer,
  scoreChallenge,
  sessionContext,
  type ChallengeRun,
  type Verdict,
} from '../../engine/course/challenge';
export { FIXES } from '../../engine/course/fixes';
export { MYTHS } from '../../engine/course/schema';
export type { Lesson, Challenge, QuizQuestion, Goal } from '../../engine/course/schema';

export type CourseEngine = typeof import('./engine');
