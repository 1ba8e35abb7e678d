/**
 * Trace events for the sequence tests: an exec from `source` to `target` at CNI level on node-1,
 * unless `more` says otherwise.
 */
import type { TraceEvent } from '../../../engine';

export const ev = (
  seq: number,
  source: string,
  target: string,
  summary: string,
  more: Partial<TraceEvent> = {},
): TraceEvent =>
  ({
    seq,
    kind: 'exec',
    level: 'cni',
    source,
    target,
    node: 'node-1',
    summary,
    ...more,
  }) as TraceEvent;
