/**
 * The course in the app (a lazy chunk): the list of lessons and challenges with the learner's
 * progress, a lesson (narration of the step at the cursor, goals with what differs, graded
 * hints, the solution's replay, the quiz), and a challenge (the ticket, graded hints, the
 * answer form, the verdict and the score, a give-up, and the debrief with why each refused cause
 * is not it). Hints, steps, answers and the score are the attempt machine's
 * (src/engine/course/attempt.ts); this panel renders its snapshot and sends it events. The simulation's own views stay below it, linked
 * through the same cursor.
 */
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { ErrorBoundary } from '../components/ErrorBoundary';
import { Recovery } from '../panels/Recovery';
import { routeHash } from '../route';
import { challengeEmbedSnippet, lessonEmbedSnippet } from '../share/open';
import { Cancelled, cmd, get, notify, runJob, ui, useApp } from '../store';
import { loadCourseEngine, type GoalResult, type Lesson, type QuizQuestion } from '../../engine';
import { dropHandout, prepareHandout, printHandout, useHandout } from './handout/state';
import { NarrationText, useLessonNarration } from './narration';
import { backToAttempt, openLesson } from './open';
import { Prediction } from './Prediction';
import { ShowGoal } from './ShowGoal';
import { Tracks } from './Tracks';
import { emptyLesson, parseProgress, emptyProgress, serializeProgress } from './progress';
import {
  attemptEvent,
  setProgress,
  setQuizAnswer,
  updateChallenge,
  updateLesson,
  useCourse,
  type OpenChallenge,
  type OpenLesson,
} from './state';
import './course.css';

// The printed handout: a further chunk, fetched when the browser is idle after a
// lesson opens (so that any print of the page has it) or when the learner asks for it.
const Handout = lazy(() =>
  Promise.all([import('./handout/Handout'), loadCourseEngine()]).then(([m]) => m),
);

/** Focuses an element once React has drawn it (a hint just shown). */
function focusSoon(id: string): void {
  setTimeout(() => document.getElementById(id)?.focus(), 0);
}

export default function CoursePanel() {
  const route = useApp((s) => s.course);
  const open = useCourse((s) => s.open);
  const engine = useCourse((s) => s.engine);
  if (!route || !engine) return <p className="muted">Loading the course…</p>;
  if (route.kind === 'lesson' && open?.kind === 'lesson') return <LessonView open={open} />;
  if (route.kind === 'challenge' && open?.kind === 'challenge')
    return <ChallengeView open={open} />;
  return <CourseHome />;
}

// ---------------------------------------------------------------------------------------------
// Home: lessons, challenges, progress

function CourseHome() {
  const engine = useCourse((s) => s.engine)!;
  const progress = useCourse((s) => s.progress);
  const course = engine.loadCourse();
  const fileRef = useRef<HTMLInputElement>(null);
  const [confirmReset, setConfirmReset] = useState(false);

  const exportFile = () => {
    const blob = new Blob([serializeProgress(progress)], { type: 'application/json' });
    const a = document.createElement('a');
    a.href = URL.createObjectURL(blob);
    a.download = 'cnisim-course-progress.json';
    a.click();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  };
  const importFile = async (f: File) => {
    const r = parseProgress(await f.text());
    if (!r.ok) {
      notify('error', `${f.name} is not course progress (${r.error}). Nothing was changed.`);
      return;
    }
    setProgress({
      ...r.progress,
      learner: r.progress.learner ?? useCourse.getState().progress.learner,
    });
    if (r.dropped)
      notify(
        'warning',
        `Progress imported from ${f.name}, without a challenge attempt that could not be read (${r.dropped.join('; ')}).`,
      );
    else notify('info', `Progress imported from ${f.name}.`);
  };

  return (
    <section className="course course-home" aria-labelledby="course-heading">
      <div className="course-head">
        <h2 id="course-heading">Course</h2>
        <a href="#" className="course-leave">
          Back to my sandbox
        </a>
      </div>
      {course.errors.length > 0 && (
        <div role="alert" className="notice notice-warning">
          Some course files could not be loaded: {course.errors.slice(0, 3).join('; ')}
        </div>
      )}
      <Tracks course={course} />
      <div className="course-columns">
        <div>
          <h3>Lessons</h3>
          <ol className="course-list" aria-label="Lessons">
            {course.lessons.map((l) => {
              const p = progress.lessons[l.id];
              const status = p?.done ? 'done' : p ? 'started' : 'new';
              return (
                <li key={l.id}>
                  <a href={routeHash({ kind: 'lesson', id: l.id })}>{l.title}</a>{' '}
                  <span className={`badge badge-${status}`}>
                    {status === 'done' ? 'Done' : status === 'started' ? 'Started' : 'New'}
                  </span>
                  <span className="muted"> · {l.minutes} min</span>
                  <p className="muted course-summary">{l.summary}</p>
                </li>
              );
            })}
          </ol>
        </div>
        <div>
          <h3>Challenges</h3>
          <p className="muted">
            A cluster with a hidden fault, a ticket, and the shell. Each attempt draws the fault and
            its node from a seed.
          </p>
          <ul className="course-list">
            {course.challenges.map((c) => {
              const p = progress.challenges[c.id];
              return (
                <li key={c.id}>
                  <a href={routeHash({ kind: 'challenge', id: c.id, seed: null })}>{c.title}</a>{' '}
                  <span className="muted">({c.difficulty})</span>{' '}
                  {p?.solved && (
                    <span className="badge badge-done">Solved, best score {p.best ?? 0}</span>
                  )}
                </li>
              );
            })}
          </ul>
          <h3>Your progress</h3>
          <p className="muted">Saved in this browser only.</p>
          <div className="row-form">
            <button type="button" onClick={exportFile}>
              Export progress
            </button>
            <button type="button" onClick={() => fileRef.current?.click()}>
              Import progress
            </button>
            <input
              ref={fileRef}
              type="file"
              accept="application/json,.json"
              className="visually-hidden"
              tabIndex={-1}
              aria-label="Progress file to import"
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (f) void importFile(f);
                e.target.value = '';
              }}
            />
            {confirmReset ? (
              <>
                <span role="alert">Forget all course progress in this browser?</span>
                <button
                  type="button"
                  onClick={() => {
                    // The learner keeps their seed: the quiz shows its choices as before.
                    setProgress({
                      ...emptyProgress(),
                      learner: useCourse.getState().progress.learner,
                    });
                    setConfirmReset(false);
                    notify('info', 'Course progress reset.');
                  }}
                >
                  Yes, reset
                </button>
                <button type="button" onClick={() => setConfirmReset(false)}>
                  Cancel
                </button>
              </>
            ) : (
              <button type="button" onClick={() => setConfirmReset(true)}>
                Reset progress
              </button>
            )}
          </div>
        </div>
      </div>
    </section>
  );
}

// ---------------------------------------------------------------------------------------------
// A lesson

function useGoals(lesson: Lesson, start: number): GoalResult[] {
  const engine = useCourse((s) => s.engine)!;
  const session = useApp((s) => s.session);
  const cursor = useApp((s) => s.cursor);
  const version = useApp((s) => s.version);
  return useMemo(() => {
    void version;
    return session ? engine.lessonGoalsAt(lesson, session, start, cursor) : [];
  }, [engine, session, cursor, version, lesson, start]);
}

function Narration({ lesson }: { lesson: Lesson }) {
  return (
    <NarrationText
      narration={useLessonNarration(lesson)}
      fallback="Step forward (→) to see what happens."
    />
  );
}

/**
 * The lesson's handout: prepared when the browser is idle after the lesson opens, so that a print
 * from the browser's menu has it too; Ctrl-P (and the button) print it once it is drawn.
 */
function useHandoutFor(lesson: Lesson): boolean {
  const mounted = useHandout((s) => s.lessonId === lesson.id);
  useEffect(() => {
    const id = lesson.id;
    // Safari has no requestIdleCallback.
    const ric = 'requestIdleCallback' in window;
    const handle = ric
      ? window.requestIdleCallback(() => prepareHandout(id), { timeout: 5000 })
      : window.setTimeout(() => prepareHandout(id), 2000);
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey && e.key.toLowerCase() === 'p') {
        e.preventDefault();
        printHandout(id, false);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => {
      if (ric) window.cancelIdleCallback(handle);
      else window.clearTimeout(handle);
      window.removeEventListener('keydown', onKey);
      dropHandout();
    };
  }, [lesson.id]);
  return mounted;
}

function LessonView({ open }: { open: OpenLesson }) {
  const { lesson, start } = open;
  const engine = useCourse((s) => s.engine)!;
  const [embed, setEmbed] = useState<string | null>(null);
  const handout = useHandoutFor(lesson);
  // Back from the handout's preview, the focus returns to the button that opened it.
  const printRef = useRef<HTMLButtonElement>(null);
  const preview = useHandout((s) => s.preview);
  const wasPreview = useRef(false);
  useEffect(() => {
    // After the handout's own root has put the page back (the button is hidden until then).
    if (wasPreview.current && !preview) setTimeout(() => printRef.current?.focus(), 0);
    wasPreview.current = preview;
  }, [preview]);
  const results = useGoals(lesson, start);
  const saved = useCourse((s) => s.progress.lessons[lesson.id]);
  const progress = saved ?? emptyLesson();
  const metIds = results.filter((r) => r.met).map((r) => r.id);
  const allMet = engine.allGoalsMet(results);
  const metKey = metIds.join(',');
  const cursor = useApp((s) => s.cursor);

  useEffect(() => {
    if (!metKey && !allMet) return;
    // Goals count at the step the learner sees: a run past a prediction renders its end once,
    // and the prediction (a layout effect) has already brought the cursor back before it.
    if (get().cursor !== cursor) return;
    updateLesson(lesson.id, (p) => ({
      ...p,
      goals: [...new Set([...p.goals, ...metKey.split(',').filter(Boolean)])],
      done: p.done || allMet,
    }));
  }, [lesson.id, metKey, allMet, cursor]);

  // Hints are the attempt machine's (src/engine/course/attempt.ts): which goal, which grade.
  const hintGoals = lesson.goals.map((g) => ({
    id: g.id,
    hinted: !!g.hint,
    met: !!results.find((r) => r.id === g.id)?.met,
  }));
  const nextHinted = engine.nextHintGoal(open.attempt, hintGoals);
  const showHint = () => {
    if (!nextHinted) return;
    const after = attemptEvent({ type: 'lesson-hint', goals: hintGoals });
    if (!after) return;
    // The last hint disables the button: the focus goes to that hint instead of the page.
    if (!engine.nextHintGoal(after, hintGoals))
      focusSoon(`lesson-hint-${nextHinted}-${(after.hints[nextHinted] ?? 1) - 1}`);
    updateLesson(lesson.id, (p) => ({ ...p, hints: p.hints + 1 }));
  };

  return (
    <section className="course course-lesson" aria-labelledby="lesson-heading">
      <div className="course-head">
        <h2 id="lesson-heading">{lesson.title}</h2>
        <span className="muted">
          {lesson.minutes} min{progress.done ? ' · done' : ''}
          {open.solution ? ' · replaying the solution' : ''}
        </span>
        <button
          type="button"
          ref={printRef}
          className="course-leave"
          onClick={() => printHandout(lesson.id, true)}
          title="Print handout (Ctrl+P): the lesson's steps with their diagrams"
        >
          Print handout
        </button>
        <a href={routeHash({ kind: 'course' })}>All lessons</a>
        {handout && (
          <ErrorBoundary what="The handout">
            <Suspense fallback={null}>
              <Handout lesson={lesson} />
            </Suspense>
          </ErrorBoundary>
        )}
      </div>
      <div className="course-columns">
        <div>
          <details open={!progress.goals.length}>
            <summary>Objectives and introduction</summary>
            <ul>
              {lesson.objectives.map((o, i) => (
                <li key={i}>{o}</li>
              ))}
            </ul>
            <p>{lesson.intro}</p>
          </details>
          <h3>At this step</h3>
          <Prediction lesson={lesson} start={start} />
          <Narration lesson={lesson} />
          <h3>Goals</h3>
          {allMet && (
            <p className="done" role="status">
              Every goal is met: lesson complete. Try the quiz.
            </p>
          )}
          <ul className="goals" aria-label="Goals">
            {lesson.goals.map((g) => {
              const r = results.find((x) => x.id === g.id);
              const level = open.attempt.hints[g.id] ?? 0;
              const hint = g.hint
                ? [g.hint.nudge, g.hint.concept, g.hint.step].slice(0, level)
                : [];
              return (
                <li key={g.id} className={r?.met ? 'goal goal-met' : 'goal'}>
                  <span className="goal-mark" aria-hidden="true">
                    {r?.met ? '✓' : '○'}
                  </span>
                  <span>
                    {g.text}{' '}
                    <span className="visually-hidden">{r?.met ? '(met)' : '(not met)'}</span>
                    {r && !r.met && <span className="goal-why">Now: {r.explanation}</span>}
                    {hint.map((h, i) => (
                      <span
                        key={i}
                        className="goal-hint"
                        id={`lesson-hint-${g.id}-${i}`}
                        tabIndex={-1}
                      >
                        {['Hint', 'Concept', 'Step'][i]}: {h}
                      </span>
                    ))}
                  </span>
                </li>
              );
            })}
          </ul>
          <ShowGoal lesson={lesson} />
          <div className="row-form">
            <button type="button" onClick={showHint} disabled={!nextHinted}>
              {nextHinted ? 'Show a hint' : 'No more hints'}
            </button>
            {open.solution ? (
              <button type="button" onClick={() => backToAttempt(lesson)}>
                Back to my attempt
              </button>
            ) : (
              <button type="button" onClick={() => openLesson(lesson, true)}>
                Replay the solution
              </button>
            )}
            <button
              type="button"
              aria-expanded={embed !== null}
              onClick={() => setEmbed(embed === null ? lessonEmbedSnippet(lesson.id) : null)}
            >
              Embed this lesson
            </button>
          </div>
          {embed !== null && (
            <textarea
              aria-label="Embed code for this lesson"
              readOnly
              rows={6}
              className="share-embed"
              value={embed}
              onFocus={(e) => e.currentTarget.select()}
            />
          )}
          {open.solution && <p className="muted">{lesson.solution.explanation}</p>}
        </div>
        <div>
          <h3>Quiz</h3>
          <Quiz open={open} />
        </div>
      </div>
    </section>
  );
}

function Quiz({ open }: { open: OpenLesson }) {
  const engine = useCourse((s) => s.engine)!;
  const { lesson } = open;
  return (
    <ol className="quiz">
      {lesson.quiz.map((q) => (
        <li key={q.id}>
          <Question q={q} open={open} outcome={engine} />
        </li>
      ))}
    </ol>
  );
}

function Question(props: {
  q: QuizQuestion;
  open: OpenLesson;
  outcome: NonNullable<ReturnType<typeof useCourse.getState>['engine']>;
}) {
  const { q, open, outcome: engine } = props;
  const { lesson } = open;
  // The choices in this learner's order (engine/course/quiz.ts); answers keep the authored ids.
  const seed = useCourse((s) => s.progress.learner) ?? 1;
  const shown = engine.quizChoices(q, seed);
  const state = open.quiz[q.id] ?? { chosen: [], checked: false };
  const multi = q.answer.length > 1;
  const result = state.checked ? engine.answerQuiz(q, state.chosen) : null;
  // The check button goes away with the answer: the focus moves to the verdict, not to the page.
  const verdictRef = useRef<HTMLDivElement>(null);
  const [justChecked, setJustChecked] = useState(false);
  useEffect(() => {
    if (justChecked && state.checked) verdictRef.current?.focus();
  }, [justChecked, state.checked]);
  const setState = (s: { chosen: string[]; checked: boolean }) => setQuizAnswer(q.id, s);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!state.chosen.length) return;
    const r = engine.answerQuiz(q, state.chosen);
    setState({ ...state, checked: true });
    setJustChecked(true);
    updateLesson(lesson.id, (p) => ({ ...p, quiz: { ...p.quiz, [q.id]: r.correct } }));
  };
  const showStep = () => {
    const s = get().session;
    if (!s) return;
    if (q.link.lesson && q.link.lesson !== lesson.id) return;
    const i = engine.findEvent(s.events, q.link.at);
    if (i < 0)
      notify(
        'info',
        'That step has not happened yet in this session: do the lesson, or replay its solution, then try again.',
      );
    else cmd.seek(i);
  };
  const name = `quiz-${q.id}`;
  return (
    <form onSubmit={submit}>
      <fieldset>
        <legend>
          {q.question}
          {multi ? ' (select all that apply)' : ''}
        </legend>
        {shown.map((c) => (
          <label key={c.id} className="choice">
            <input
              type={multi ? 'checkbox' : 'radio'}
              name={name}
              value={c.id}
              checked={state.chosen.includes(c.id)}
              disabled={state.checked}
              onChange={(e) => {
                const chosen = multi
                  ? e.target.checked
                    ? [...state.chosen, c.id]
                    : state.chosen.filter((x) => x !== c.id)
                  : [c.id];
                setState({ chosen, checked: false });
              }}
            />{' '}
            {c.text}
            {result?.whyNot
              .filter((w) => w.choice === c.id)
              .map((w) => (
                <span key={w.choice} className="why-not muted">
                  {' '}
                  Why not: {w.text}
                </span>
              ))}
          </label>
        ))}
      </fieldset>
      {!state.checked ? (
        <button type="submit" disabled={!state.chosen.length}>
          Check answer
        </button>
      ) : (
        <div
          ref={verdictRef}
          tabIndex={-1}
          className={result?.correct ? 'quiz-result quiz-right' : 'quiz-result quiz-wrong'}
          role="status"
        >
          <p>
            <strong>{result?.correct ? 'Right.' : 'Not quite.'}</strong> {q.explanation}
          </p>
          {result?.myths.map((m) => (
            <p key={m.choice} className="muted">
              “{q.choices.find((c) => c.id === m.choice)?.text}” is a common simplification.{' '}
              {engine.MYTHS[m.myth as keyof typeof engine.MYTHS]}
            </p>
          ))}
          <div className="row-form">
            {q.link.lesson && q.link.lesson !== lesson.id ? (
              <a href={routeHash({ kind: 'lesson', id: q.link.lesson })}>
                See it in the lesson “{q.link.lesson}”
              </a>
            ) : (
              <button type="button" onClick={showStep}>
                Show this step
              </button>
            )}
            <button type="button" onClick={() => setState({ chosen: [], checked: false })}>
              Try again
            </button>
          </div>
        </div>
      )}
    </form>
  );
}

// ---------------------------------------------------------------------------------------------
// A challenge

function ChallengeView({ open }: { open: OpenChallenge }) {
  const engine = useCourse((s) => s.engine)!;
  const { run, attempt } = open;
  const ch = run.challenge;
  const [cause, setCause] = useState<string>('');
  const [fixes, setFixes] = useState<string[]>([]);
  const [confirmGiveUp, setConfirmGiveUp] = useState(false);
  const [embed, setEmbed] = useState<string | null>(null);
  const hints = ch.hints.flatMap((h) => [h.nudge, h.concept, h.step]);
  const ended = engine.attemptEnded(attempt);
  const checking = attempt.status === 'checking';
  const solved = attempt.status === 'solved';
  const debriefRef = useRef<HTMLDivElement>(null);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!cause || !engine.canSubmit(attempt)) return;
    const cur = useCourse.getState().open;
    if (cur?.kind !== 'challenge') return;
    // The fix runs as a job (a few seconds of simulation, in slices, with a progress line and a
    // working Stop).
    const job = runJob('Applying the fix', engine.submitAnswerJob(cur.run, { cause, fixes }));
    if (!job) {
      notify('warning', 'Wait for the current computation to finish, or stop it.');
      return;
    }
    attemptEvent({ type: 'submit' });
    void job.then(
      (verdict) => {
        const after = attemptEvent({ type: 'verdict', verdict, now: Date.now() });
        updateChallenge(ch.id, (p) => ({
          ...p,
          attempts: p.attempts + 1,
          solved: p.solved || verdict.accepted,
          ...(after?.score ? { best: Math.max(p.best ?? 0, after.score.points) } : {}),
        }));
        ui.rightTab('pods');
        // The session now holds what the fix did: show it.
        cmd.seek(cur.run.session.cursor);
        if (verdict.accepted) setTimeout(() => debriefRef.current?.focus(), 0);
      },
      (err: unknown) => {
        const error = (err as Error).message;
        attemptEvent({ type: 'check-failed', error });
        if (!(err instanceof Cancelled))
          notify('error', `The answer could not be checked: ${error}`);
      },
    );
  };

  const giveUp = () => {
    setConfirmGiveUp(false);
    attemptEvent({ type: 'give-up' });
    updateChallenge(ch.id, (p) => ({ ...p, attempts: p.attempts + 1 }));
    setTimeout(() => debriefRef.current?.focus(), 0);
  };

  return (
    <section className="course course-challenge" aria-labelledby="challenge-heading">
      <div className="course-head">
        <h2 id="challenge-heading">Challenge: {ch.title}</h2>
        <span className="muted">
          {ch.difficulty} · seed {run.seed}
        </span>
        <a href={routeHash({ kind: 'course' })} className="course-leave">
          All challenges
        </a>
      </div>
      <div className="course-columns">
        <div>
          <h3>Ticket</h3>
          <blockquote className="ticket">{run.ticket}</blockquote>
          <p className="muted">
            Investigate with the views below and the shell (journalctl, ls, cat, ip, crictl,
            kubectl). Hints cost points; so do refused answers, many steps and a long time.
          </p>
          {!ended && (
            <p className="muted attempt-so-far">
              So far: {plural(attempt.hintsUsed, 'hint')},{' '}
              {plural(attempt.wrongAnswers, 'refused answer')}, {plural(attempt.steps, 'step')},
              since {new Date(attempt.opened).toLocaleString()}. A reload keeps them.
            </p>
          )}
          <h3>Hints</h3>
          {attempt.hintsUsed > 0 && (
            <ol className="hints">
              {hints.slice(0, attempt.hintsUsed).map((h, i) => (
                <li key={i} id={`challenge-hint-${i}`} tabIndex={-1}>
                  {h}
                </li>
              ))}
            </ol>
          )}
          <button
            type="button"
            disabled={!engine.canHint(attempt)}
            onClick={() => {
              const after = attemptEvent({ type: 'challenge-hint' });
              // The last hint disables the button: the focus goes to that hint.
              if (after && !engine.canHint(after))
                focusSoon(`challenge-hint-${after.hintsUsed - 1}`);
            }}
          >
            {attempt.hintsUsed >= hints.length ? 'No more hints' : 'Show a hint'}
          </button>{' '}
          <button
            type="button"
            aria-expanded={embed !== null}
            onClick={() => setEmbed(embed === null ? challengeEmbedSnippet(ch.id, run.seed) : null)}
          >
            Embed this challenge
          </button>
          {embed !== null && (
            <textarea
              aria-label="Embed code for this challenge"
              readOnly
              rows={6}
              className="share-embed"
              value={embed}
              onFocus={(e) => e.currentTarget.select()}
            />
          )}
        </div>
        <div>
          <h3>Your answer</h3>
          <form onSubmit={submit}>
            <fieldset disabled={ended || checking}>
              <legend>Root cause</legend>
              {ch.causes.map((c) => (
                <label key={c.id} className="choice">
                  <input
                    type="radio"
                    name="cause"
                    value={c.id}
                    checked={cause === c.id}
                    onChange={() => setCause(c.id)}
                  />{' '}
                  {c.text}
                </label>
              ))}
            </fieldset>
            <fieldset disabled={ended || checking}>
              <legend>Fix (every step you would take, carried out in this order)</legend>
              {ch.fixes.map((f) => (
                <label key={f} className="choice">
                  <input
                    type="checkbox"
                    value={f}
                    checked={fixes.includes(f)}
                    onChange={(e) =>
                      setFixes(e.target.checked ? [...fixes, f] : fixes.filter((x) => x !== f))
                    }
                  />{' '}
                  {engine.FIXES[f]?.label ?? f}
                </label>
              ))}
            </fieldset>
            <div className="row-form">
              <button type="submit" disabled={!cause || !engine.canSubmit(attempt)}>
                {checking ? 'Applying the fix…' : 'Submit answer'}
              </button>
              {!ended &&
                (confirmGiveUp ? (
                  <>
                    <span role="alert">
                      Give up and see the answer? The attempt scores nothing.
                    </span>
                    <button type="button" onClick={giveUp} disabled={checking}>
                      Yes, show the answer
                    </button>
                    <button type="button" onClick={() => setConfirmGiveUp(false)}>
                      Keep trying
                    </button>
                  </>
                ) : (
                  <button type="button" onClick={() => setConfirmGiveUp(true)} disabled={checking}>
                    Give up
                  </button>
                ))}
            </div>
          </form>
          <div role="status" aria-live="polite">
            {attempt.verdict && !attempt.verdict.accepted && !ended && (
              <p className="quiz-result quiz-wrong">
                <strong>Refused.</strong> {attempt.verdict.reason} Your fix was applied: step
                through it below. Refused answers so far: {attempt.wrongAnswers}.
              </p>
            )}
            {solved && (
              <p className="quiz-result quiz-right">
                <strong>Solved: the node recovered.</strong> Score {attempt.score?.points} / 100
                (hints {attempt.hintsUsed}, steps {attempt.steps}, refused answers{' '}
                {attempt.wrongAnswers}).
              </p>
            )}
            {attempt.status === 'gave-up' && (
              <p className="quiz-result quiz-wrong">
                <strong>You gave up.</strong> Here is what was wrong, and why the other causes were
                not it.
              </p>
            )}
          </div>
          {ended && (
            <div className="debrief" ref={debriefRef} tabIndex={-1} aria-label="Debrief">
              <ChallengeDebrief run={run} />
              <a href={routeHash({ kind: 'challenge', id: ch.id, seed: null })}>Try another seed</a>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`;

/** The answer and why every other cause offered was not it (after a solve or a give-up). */
function ChallengeDebrief({ run }: { run: OpenChallenge['run'] }) {
  const engine = useCourse((s) => s.engine)!;
  const d = engine.debriefOf(run);
  return (
    <>
      <h3>Debrief</h3>
      <p>
        <strong>The root cause:</strong> {d.cause.text}.
      </p>
      <p>
        <strong>The fix:</strong> {d.fix.join('; then ')}.
      </p>
      <p>{d.text}</p>
      <h4>Why the other causes were not it</h4>
      <ul className="myths" aria-label="Why the other causes were not it">
        {d.refused.map((c) => (
          <li key={c.id}>
            <strong>{c.text}.</strong> {c.why}
          </li>
        ))}
      </ul>
      <Recovery
        fault={run.hidden.variant.fault}
        node={run.hidden.node}
        pod={typeof run.hidden.params['pod'] === 'string' ? run.hidden.params['pod'] : null}
      />
    </>
  );
}
