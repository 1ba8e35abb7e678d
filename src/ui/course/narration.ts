/**
 * The narration of a lesson at the cursor, as the lesson panel and presenter mode both show it:
 * the sentences of the current step, or else the latest narrated step before it.
 */
import { useMemo } from 'react';
import { useApp } from '../store';
import type { Lesson } from './engine';
import { useCourse } from './state';

export interface LessonNarration {
  /** The sentences of the step at the cursor (empty when it has none). */
  now: string[];
  /** The latest narrated step before the cursor, when the cursor's step has none. */
  earlier: { step: number; text: string[] } | null;
}

/** How far back the panel looks for an earlier narrated step. */
const LOOK_BACK = 400;

export function useLessonNarration(lesson: Lesson): LessonNarration {
  const engine = useCourse((s) => s.engine);
  const session = useApp((s) => s.session);
  const cursor = useApp((s) => s.cursor);
  const version = useApp((s) => s.version);
  return useMemo(() => {
    void version;
    if (!engine || !session || cursor < 0) return { now: [], earlier: null };
    const idx = engine.narrationIndex(
      lesson,
      session.events,
      Math.max(0, cursor - LOOK_BACK),
      cursor,
    );
    const now = idx.get(cursor) ?? [];
    let earlier: LessonNarration['earlier'] = null;
    if (now.length === 0)
      for (const [k, v] of idx)
        if (k < cursor && (!earlier || k > earlier.step)) earlier = { step: k, text: v };
    return { now, earlier };
  }, [engine, lesson, session, cursor, version]);
}
