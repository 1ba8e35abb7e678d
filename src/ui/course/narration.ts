/**
 * The narration of a lesson at the cursor, as the lesson panel and presenter mode both show it:
 * the sentences of the current step, or else the latest narrated step before it.
 */
import { useMemo } from 'react';
import { useApp } from '../store';
import type { CourseEngine, Lesson } from './engine';
import { useCourse } from './state';

export type LessonNarration = ReturnType<CourseEngine['narrationNear']>;

export function useLessonNarration(lesson: Lesson): LessonNarration {
  const engine = useCourse((s) => s.engine);
  const session = useApp((s) => s.session);
  const cursor = useApp((s) => s.cursor);
  const version = useApp((s) => s.version);
  return useMemo(() => {
    void version;
    if (!engine || !session) return { now: [], earlier: null };
    return engine.narrationNear(lesson, session.events, cursor);
  }, [engine, lesson, session, cursor, version]);
}
