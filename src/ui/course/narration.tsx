/**
 * The narration of a lesson at the cursor, as the lesson panel, presenter mode and an embedded
 * lesson show it: the sentences of the current step, or else the latest narrated step before it.
 */
import { useMemo } from 'react';
import { loadCourseEngine, type CourseEngine, type Lesson } from '../../engine';
import { useApp } from '../store';

export type LessonNarration = ReturnType<CourseEngine['narrationNear']>;

export function useLessonNarration(lesson: Lesson | null): LessonNarration {
  const session = useApp((s) => s.session);
  const cursor = useApp((s) => s.cursor);
  const version = useApp((s) => s.version);
  return useMemo(() => {
    void version;
    if (!lesson || !session) return { now: [], earlier: null };
    // A lesson comes from the course, so the course is loaded.
    return loadCourseEngine.now().narrationNear(lesson, session.events, cursor);
  }, [lesson, session, cursor, version]);
}

/** The narration panel: the step's sentences, else the latest earlier ones, else `fallback`. */
export function NarrationText({
  narration: { now, earlier },
  fallback,
}: {
  narration: LessonNarration;
  fallback: string;
}) {
  return (
    <div className="narration" aria-live="polite" aria-label="What happens at this step">
      {now.length > 0 ? (
        now.map((t, i) => <p key={i}>{t}</p>)
      ) : earlier ? (
        <p className="muted">
          Step {earlier.step + 1}: {earlier.text.join(' ')}
        </p>
      ) : (
        <p className="muted">{fallback}</p>
      )}
    </div>
  );
}
