/**
 * The course, loaded by `loadCourseEngine()` (src/engine/index.ts) as one lazy chunk with the lessons'
 * and challenges' data: the goal checker, the challenge runner, narration, lesson → Session,
 * a lesson's printed handout, a challenge's saved work.
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
export {
  pendingPrediction,
  answerPrediction,
  predictionStep,
  type PendingPrediction,
  type PredictionOutcome,
} from './predict';
export {
  goalPicture,
  goalState,
  topologyMarks,
  picture,
  comparePictures,
  type TopologyMark,
  type TopologyMarks,
  type Picture,
  type ComparedSection,
  type ComparedItem,
} from './target';
export { scenarioSession } from './session';
export {
  openChallenge,
  submitAnswer,
  submitAnswerJob,
  scoreChallenge,
  sessionContext,
  debriefOf,
  type ChallengeRun,
  type Debrief,
  type Verdict,
} from './challenge';
export {
  openAttempt,
  attemptStep,
  attemptEnded,
  nextHintGoal,
  canHint,
  canSubmit,
  attemptRecord,
  resumeAttempt,
  type Attempt,
  type AttemptEvent,
  type AttemptRecord,
} from './attempt';
export {
  challengeWork,
  readChallengeWork,
  replayChallengeWork,
  MAX_WORK_ACTIONS,
  type ChallengeWork,
} from './work';
export { FIXES } from './fixes';
export { quizChoices, learnerSeed, type ShownChoice } from './quiz';
export { lessonHandout, lessonHandoutJob, type Handout } from './handout';
export { MYTHS } from './schema';
export type { Lesson, Challenge, QuizQuestion, Goal, Prediction, Track } from './schema';
