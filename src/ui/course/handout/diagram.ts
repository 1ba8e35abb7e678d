/**
 * The diagram of a handout step: the sequence of the messages around it (every detail level),
 * a few before and a few after, built as the Sequence view builds its window (with shorter,
 * wrapped message texts, for a page's width), with the step's own message (or the last message
 * before it, for a journal line) to be set in bold.
 */
import type { TraceEvent } from '../../../engine';
import {
  buildWindow,
  lastAtOrBefore,
  visibleSeqs,
  type SequenceWindow,
} from '../../views/sequence/model';

/** Messages shown before and after the step's own. */
export const BEFORE = 5;
export const AFTER = 3;
/**
 * Message texts are clipped to this many characters: the diagram must fit a page's width in
 * readable type (the step's full summary is printed above it).
 */
export const HANDOUT_TEXT = 60;
/** ... on lines of this many characters, so that the columns stay narrow. */
export const HANDOUT_LINE = 22;

export interface StepDiagram {
  window: SequenceWindow;
  /** seq of the message to set in bold, null when no message comes at or before the step. */
  current: number | null;
}

export function stepDiagram(
  events: readonly TraceEvent[],
  step: number,
  visible: readonly number[] = visibleSeqs(events, 'kernel'),
): StepDiagram {
  const pos = lastAtOrBefore(visible, step);
  const start = Math.max(0, pos - BEFORE);
  const end = Math.min(visible.length, Math.max(pos, 0) + AFTER + 1);
  return {
    window: buildWindow(events, visible.slice(start, end), {
      maxText: HANDOUT_TEXT,
      wrap: HANDOUT_LINE,
    }),
    current: pos >= 0 ? visible[pos]! : null,
  };
}
