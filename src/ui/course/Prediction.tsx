/**
 * A lesson's predictions in the app: when the next step to show is one a prediction is about,
 * the lesson asks the question and holds the cursor on the step before it (a step, a run or a
 * seek past it is brought back) until the learner has answered; then it shows the step and says
 * which choice came true. Answers are kept per lesson while it is open, also across the
 * solution's replay, which therefore does not ask again.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import type { Lesson } from '../../engine';
import { useApp } from '../store';
import {
  answerPrediction,
  holdBefore,
  keepAnswersOf,
  usePredictions,
  type Answers,
} from './predictions';
import { useCourse } from './state';

const NONE: Record<string, string> = {};

/** The answers of a lesson (none when another lesson's are kept). */
function useAnswers(lessonId: string): Answers {
  const a = usePredictions((s) => s);
  return a.lessonId === lessonId ? a : { lessonId, chosen: NONE, last: null };
}

export function Prediction({ lesson, start }: { lesson: Lesson; start: number }) {
  const engine = useCourse((s) => s.engine)!;
  const session = useApp((s) => s.session);
  const cursor = useApp((s) => s.cursor);
  const version = useApp((s) => s.version);
  const answers = useAnswers(lesson.id);
  const [pick, setPick] = useState<{ id: string; choice: string } | null>(null);
  const firstChoice = useRef<HTMLInputElement>(null);
  useEffect(() => {
    keepAnswersOf(lesson.id);
  }, [lesson.id]);
  const outcomeRef = useRef<HTMLDivElement>(null);

  // The prediction about the next step (or one the cursor went past).
  const pending = useMemo(() => {
    void version;
    if (!session || !lesson.predictions?.length) return null;
    return engine.pendingPrediction(lesson, session.events, start, cursor + 1, answers.chosen);
  }, [engine, session, lesson, start, cursor, version, answers.chosen]);

  // Past the predicted step without an answer: back to the step before it, before it is drawn.
  useLayoutEffect(() => {
    if (!pending || !session || session.cursor < pending.step) return;
    holdBefore(session, pending.step);
  }, [pending, session, cursor]);

  const pendingId = pending?.prediction.id ?? null;
  useEffect(() => {
    if (pendingId) firstChoice.current?.focus();
  }, [pendingId]);

  if (pending) {
    const p = pending.prediction;
    const picked = pick?.id === p.id ? pick.choice : null;
    const submit = (e: FormEvent) => {
      e.preventDefault();
      if (!picked || !session) return;
      answerPrediction(session, lesson.id, p.id, picked, pending.step);
      setTimeout(() => outcomeRef.current?.focus(), 0);
    };
    return (
      <form className="prediction" onSubmit={submit} aria-label="Prediction">
        <fieldset>
          <legend>
            <strong>Predict:</strong> {p.question}
          </legend>
          {p.choices.map((c, i) => (
            <label key={c.id} className="choice">
              <input
                ref={i === 0 ? firstChoice : undefined}
                type="radio"
                name={`prediction-${p.id}`}
                value={c.id}
                checked={picked === c.id}
                onChange={() => setPick({ id: p.id, choice: c.id })}
              />{' '}
              {c.text}
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={!picked}>
          Predict and show the step
        </button>
        <p className="muted">The next step waits for your prediction.</p>
      </form>
    );
  }

  const last = lesson.predictions?.find((p) => p.id === answers.last);
  if (!last || !session) return <div ref={outcomeRef} tabIndex={-1} />;
  const chosen = answers.chosen[last.id]!;
  const o = engine.answerPrediction(last, chosen, session.events, start);
  const text = (id: string) => last.choices.find((c) => c.id === id)?.text ?? id;
  const happened = o.happened.map(text).join('; ');
  return (
    <div className="prediction-outcome" ref={outcomeRef} tabIndex={-1} role="status">
      <p>
        <strong>{o.correct ? 'Right prediction.' : 'Not what happened.'}</strong> You picked “
        {text(chosen)}”.
        {happened ? ` What happened: ${happened}.` : ''}
      </p>
      <p className="muted">{o.explanation}</p>
    </div>
  );
}
