/**
 * Predictions: questions the narration pauses for. A lesson's prediction is about the first event
 * matching its `when` after the learner takes over; the lesson view stops on the step before that
 * event until the learner has picked a choice, then shows the step and which choice came true.
 * Which choice came true is decided here, from the event itself (each choice's `is` matcher), so
 * the tests can require that the authored answer is what the engine does in the solution.
 */
import type { TraceEvent } from '../trace/trace';
import { matches } from './match';
import type { Lesson, Prediction } from './schema';

/**
 * The step of the event a prediction is about: the first match after `from` (after the first
 * `skip` ones), or -1 when there is none up to `to`.
 */
export function predictionStep(
  p: Prediction,
  events: readonly TraceEvent[],
  from: number,
  to = events.length - 1,
): number {
  let seen = 0;
  for (let i = Math.max(0, from + 1); i <= to && i < events.length; i++)
    if (matches(p.when, events[i]!, events) && ++seen > (p.skip ?? 0)) return i;
  return -1;
}

export interface PendingPrediction {
  prediction: Prediction;
  /** The step the prediction is about; the learner waits on the step before it. */
  step: number;
}

/**
 * The prediction the learner must answer before seeing the step at `cursor`: the earliest one
 * not yet answered whose event lies after `start` and at or before the cursor. Null when the
 * learner may see the cursor's step.
 */
export function pendingPrediction(
  lesson: Lesson,
  events: readonly TraceEvent[],
  start: number,
  cursor: number,
  answered: Readonly<Record<string, unknown>>,
): PendingPrediction | null {
  let best: PendingPrediction | null = null;
  for (const p of lesson.predictions ?? []) {
    if (answered[p.id] !== undefined) continue;
    const step = predictionStep(p, events, start, cursor);
    if (step >= 0 && (!best || step < best.step)) best = { prediction: p, step };
  }
  return best;
}

/** The choices whose `is` holds of the event: what the engine did (normally exactly one). */
export function choicesThatHappened(
  p: Prediction,
  event: TraceEvent,
  events: readonly TraceEvent[],
): string[] {
  return p.choices.filter((c) => matches(c.is, event, events)).map((c) => c.id);
}

export interface PredictionOutcome {
  /** Whether the learner picked the authored answer. */
  correct: boolean;
  answer: string;
  /** The choices that came true in this session's trace (empty until its event exists). */
  happened: string[];
  explanation: string;
}

/** Checks a learner's prediction, against the authored answer and this session's trace. */
export function answerPrediction(
  p: Prediction,
  chosen: string,
  events: readonly TraceEvent[],
  start: number,
): PredictionOutcome {
  const step = predictionStep(p, events, start);
  return {
    correct: chosen === p.answer,
    answer: p.answer,
    happened: step < 0 ? [] : choicesThatHappened(p, events[step]!, events),
    explanation: p.explanation,
  };
}
