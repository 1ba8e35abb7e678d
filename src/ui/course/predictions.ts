/**
 * The learner's answers to a lesson's predictions while it is open (the `predictions` slice of
 * the app's store), kept across the solution's replay, and the commands the Prediction view calls:
 * hold the cursor before a predicted step, answer, and show the step.
 */
import type { Session } from '../../engine';
import { slice } from '../app/state';
import { pause, publish } from '../store';

export interface Answers {
  lessonId: string | null;
  /** Choice picked, per prediction id. */
  chosen: Record<string, string>;
  /** The prediction answered last (its outcome stays shown until the next question). */
  last: string | null;
}

const predictions = slice<Answers>('predictions', { lessonId: null, chosen: {}, last: null });

export const usePredictions = predictions.use;

/** A lesson opens: answers of another lesson are forgotten. */
export function keepAnswersOf(lessonId: string): void {
  if (predictions.get().lessonId !== lessonId)
    predictions.set({ lessonId, chosen: {}, last: null });
}

/** Past a predicted step without an answer: back to the step before it. */
export function holdBefore(session: Session, step: number): void {
  pause();
  session.seek(step - 1);
  publish();
}

/** The learner's answer, then the predicted step. */
export function answerPrediction(
  session: Session,
  lessonId: string,
  prediction: string,
  choice: string,
  step: number,
): void {
  const cur = predictions.get();
  predictions.set({
    lessonId,
    chosen: { ...(cur.lessonId === lessonId ? cur.chosen : {}), [prediction]: choice },
    last: prediction,
  });
  session.seek(step);
  publish();
}
