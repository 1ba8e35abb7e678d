/**
 * Presenter mode, for a projector: large type, a narration panel that says what the current
 * step did (its source, target and summary, lit), the cluster pane folded away and the chosen
 * view (the topology at first) beside a compact step list (App.tsx). In a lesson the
 * panel also shows the lesson's own narration of the step, as the lesson panel does. Everything
 * stays on the keyboard: P toggles it, the usual keys step.
 */
import { lazy, Suspense, useEffect } from 'react';
import { get, ui, useApp } from '../store';
import './present.css';

// The lesson's narration comes with the course's chunk, only inside a lesson.
const LessonNarration = lazy(() => import('../course/PresenterNarration'));

/** Turns presenter mode on or off; turned on over the Steps view, it shows the topology. */
export function togglePresenter(): void {
  ui.presenter(!get().presenter);
}

/** Mirrors presenter mode on <html> (the CSS keys off it). */
export function usePresenterClass(): void {
  const on = useApp((s) => s.presenter);
  useEffect(() => {
    document.documentElement.classList.toggle('presenter', on);
  }, [on]);
}

export function PresenterButton() {
  const on = useApp((s) => s.presenter);
  return (
    <button type="button" aria-pressed={on} onClick={togglePresenter} title="Presenter mode (P)">
      Presenter
    </button>
  );
}

/** The narration panel: what the current step did, in words, with the change lit. */
export function Narration() {
  const on = useApp((s) => s.presenter);
  const session = useApp((s) => s.session);
  const cursor = useApp((s) => s.cursor);
  const inLesson = useApp((s) => s.course?.kind === 'lesson');
  useApp((s) => s.version);
  if (!on) return null;
  const e = session && cursor >= 0 ? session.events[cursor] : undefined;
  return (
    <section className="narration" aria-label="Narration" aria-live="polite">
      {e ? (
        <p>
          <span className="narration-step">Step {cursor + 1}</span>{' '}
          <span className="narration-who">
            {e.source} → {e.target}
            {e.node ? ` (${e.node})` : ''}
          </span>
          : <mark className="narration-what">{e.summary}</mark>
          {e.error ? <span className="narration-error"> — failed: {e.error}</span> : null}
        </p>
      ) : (
        <p>The cluster has booted. Press → to step.</p>
      )}
      {inLesson && (
        <Suspense fallback={null}>
          <LessonNarration />
        </Suspense>
      )}
    </section>
  );
}
