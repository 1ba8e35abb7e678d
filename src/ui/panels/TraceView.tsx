import { useEffect, useMemo, useRef } from 'react';
import { isErrorEvent } from '../../engine/session/conditions';
import { timeText } from '../format';
import type { PanelProps } from './types';

const BEFORE = 40;
const AFTER = 40;

/** The steps around the current one, at the current detail level; a click selects a step. */
export function TraceView({ session, step, onSelectStep }: PanelProps) {
  const events = session.events;
  const level = session.level;
  const length = events.length;
  // Visible steps in a window around the cursor: scan outwards only as far as needed.
  const rows = useMemo(() => {
    const before: number[] = [];
    for (let i = Math.min(step, length - 1); i >= 0 && before.length < BEFORE; i--)
      if (session.isVisible(events[i]!)) before.push(i);
    const after: number[] = [];
    for (let i = Math.max(step + 1, 0); i < length && after.length < AFTER; i++)
      if (session.isVisible(events[i]!)) after.push(i);
    return [...before.reverse(), ...after];
    // `level` and `length` change what is visible; `events` is the same array as it grows.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [session, step, level, length, events]);
  const current = useRef<HTMLLIElement>(null);
  useEffect(() => {
    current.current?.scrollIntoView({ block: 'nearest' });
  }, [step]);

  if (length === 0) return <p className="muted">No steps yet.</p>;
  return (
    <ol className="trace" aria-label="Steps">
      {step < 0 && (
        <li className="current" aria-current="step">
          <span className="muted">Before the first step: the nodes are off.</span>
        </li>
      )}
      {rows.map((i) => {
        const e = events[i]!;
        const isCurrent = i === step;
        return (
          <li
            key={i}
            ref={isCurrent ? current : undefined}
            className={`${isCurrent ? 'current' : ''} level-${e.level} ${isErrorEvent(e) ? 'failed' : ''}`}
            aria-current={isCurrent ? 'step' : undefined}
          >
            <button type="button" className="row" onClick={() => onSelectStep(i)}>
              <span className="step-index">{i + 1}</span>
              <span className="step-time muted">{timeText(e.time)}</span>
              <span className="step-node muted">{e.node ?? 'cluster'}</span>
              <span className="step-route">
                {e.source}
                <span aria-hidden="true"> → </span>
                <span className="visually-hidden"> to </span>
                {e.target}
              </span>
              <span className="step-summary">{e.summary}</span>
            </button>
          </li>
        );
      })}
    </ol>
  );
}
