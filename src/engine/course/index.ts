/**
 * The course, loaded by `loadCourseEngine()` (src/engine/index.ts) as one lazy chunk with the lessons'
 * and challenges' data: the goal checker, the challenge runner, narration, lesson → Session,
 * a lesson's printed handout.
 */
export { loadCourse, lessonById, challengeById } from './content';
export {
  lessonScenario,
  lessonGoalsAt,
  allGoalsMet,
  hintsFor,
  answerQuiz,
  narrationNear,
  type HintLevel,
} from './lesson';
export { checkGoals, type GoalResult, type CheckContext } from './goals';
export { findEvent } from './match';
export { scenarioSession } from './session';
export {
  openChallenge,
  submitAnswer,
  submitAnswerJob,
  scoreChallenge,
  sessionContext,
  type ChallengeRun,
  type Verdict,
} from './challenge';
export { FIXES } from './fixes';
export { lessonHandout, type Handout } from './handout';
export { MYTHS } from './schema';
export type { Lesson, Challenge, QuizQuestion, Goal } from './schema';
