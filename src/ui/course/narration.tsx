/**
 * The narration of a lesson at the cursor, as the lesson panel, presenter mode and an embedded
 * lesson show it: the sentences of the current step, or else the latest narrated step before it.
 */
import { useMemo } from 'react';
import { narrationNear } from '../../engine/course/lesson';
import type { Lesson } from '../../engine/course/schema';
import { useApp } from '../store';

export type LessonNarration = ReturnType<typeof narrationNear>;

export function useLessonNarration(lesson: Lesson | null): LessonNarration {
  const session = useApp((s) => s.session);
  const cursor = useApp((s) => s.cursor);
  const version = useApp((s) => s.version);
  return useMemo(() => {
    void version;
    if (!lesson || !session) return { now: [], earlier: null };
    return narrationNear(lesson, session.events, cursor);
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
