/**
 * The Steps list's markup, from a live session's trace or the landing's precomputed one, so that
 * both draw the same (TraceView.tsx, ../LandingPane.tsx). Nothing here reads the engine.
 */
import { memo, useEffect, useMemo, useRef, useState } from 'react';
import { levelShows, type Level, type TraceEvent } from '../../engine';
import { timeText } from '../format';

/**
 * What the Steps list reads: a live session's trace, or the landing's precomputed one
 * (../landing-trace.ts) before the engine has arrived. `key` is the trace's identity: the page of rows
 * is kept while it stays the same.
 */
export interface StepsSource {
  key: object;
  events: readonly TraceEvent[];
  level: Level;
  revision: number;
  /** Whether the step failed (shown in red). */
  failed(e: TraceEvent): boolean;
}

/** Rows shown: a page of visible steps that moves only when the cursor nears its edges. */
const PAGE = 80;
const MARGIN = 8;

const Row = memo(function Row(props: {
  i: number;
  e: TraceEvent;
  current: boolean;
  failed: boolean;
  onSelect(i: number): void;
}) {
  const { i, e, current } = props;
  return (
    <li
      className={`${current ? 'current' : ''} level-${e.level} ${props.failed ? 'failed' : ''}`}
      aria-current={current ? 'step' : undefined}
      data-step={i}
    >
      <button type="button" className="row" onClick={() => props.onSelect(i)}>
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
});

interface Anchor {
  from: number;
  level: string;
  revision: number;
  key: object;
}

/**
 * The visible steps of the page holding `step`: the previous page if the cursor is still well
 * inside it, otherwise a new page starting a quarter of a page before the cursor.
 */
function pageAt(session: StepsSource, step: number, prev: Anchor | null) {
  const events = session.events;
  const isVisible = (e: TraceEvent) => levelShows(session.level, e.level);
  const collect = (from: number) => {
    const out: number[] = [];
    for (let i = Math.max(0, from); i < events.length && out.length < PAGE; i++)
      if (isVisible(events[i]!)) out.push(i);
    return out;
  };
  const same =
    prev !== null &&
    prev.key === session.key &&
    prev.level === session.level &&
    prev.revision === session.revision;
  if (same) {
    const kept = collect(prev.from);
    // Keep the page while the cursor is at least MARGIN rows from an edge that can move.
    const lo = prev.from === 0 ? -Infinity : (kept[Math.min(MARGIN, kept.length - 1)] ?? Infinity);
    const hi = kept.length < PAGE ? Infinity : kept[kept.length - 1 - MARGIN]!;
    if (step >= lo && step <= hi) return { anchor: prev, rows: kept };
  }
  // The cursor may lie past a session that was just replaced: clamp to its steps.
  let from = Math.min(Math.max(0, step), events.length);
  for (let n = 0; from > 0 && n < PAGE / 4;) {
    from--;
    if (isVisible(events[from]!)) n++;
  }
  // The same page again keeps the same anchor: the caller stores a new one only when it moved.
  if (same && prev.from === from) return { anchor: prev, rows: collect(from) };
  const anchor: Anchor = {
    from,
    level: session.level,
    revision: session.revision,
    key: session.key,
  };
  return { anchor, rows: collect(from) };
}

/** Scrolls the list's current row into view, only when it is out of view (reading positions once). */
function showCurrent(list: HTMLOListElement | null): void {
  const el = list?.querySelector<HTMLElement>('li.current');
  const box = list?.closest<HTMLElement>('.tabpanel');
  if (!el || !box) return;
  const r = el.getBoundingClientRect();
  const b = box.getBoundingClientRect();
  if (r.top < b.top || r.bottom > b.bottom) el.scrollIntoView({ block: 'nearest' });
}

/**
 * Each slot's page, kept when its list is drawn anew for the same trace: the landing's list from
 * the precomputed trace is replaced by the live one once the panels are in, on the same rows.
 */
const pages = new Map<string, Anchor>();

/** The Steps list of a live or a precomputed trace (StepsSource), in the layout's `slot`. */
export function StepList({
  source: session,
  step,
  slot,
  onSelectStep,
}: {
  source: StepsSource;
  step: number;
  slot: string;
  onSelectStep(i: number): void;
}) {
  const events = session.events;
  const level = session.level;
  const length = events.length;
  // The page's first step, kept between renders so the list moves only near its edges.
  const [anchor, setAnchor] = useState<Anchor | null>(() => pages.get(slot) ?? null);
  const page = useMemo(
    () => pageAt(session, step, anchor),
    // `length` grows the same `events` array; `level` changes what is visible.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [session.key, step, level, length, session.revision, anchor],
  );
  // Storing information from previous renders (React's documented pattern): re-render once.
  if (page.anchor !== anchor) {
    setAnchor(page.anchor);
    pages.set(slot, page.anchor);
  }
  const rows = page.rows;

  const list = useRef<HTMLOListElement>(null);
  useEffect(() => showCurrent(list.current), [step, rows]);
  // The list's box resized (the window, presenter mode, a pane's height): the current row may
  // have left the view while the step stayed the same; bring it back.
  const hasList = length > 0;
  useEffect(() => {
    const box = list.current?.closest<HTMLElement>('.tabpanel');
    if (!box) return;
    const ro = new ResizeObserver(() => showCurrent(list.current));
    ro.observe(box);
    return () => ro.disconnect();
  }, [hasList]);

  if (length === 0) return <p className="muted">No steps yet.</p>;
  return (
    <ol className="trace" aria-label="Steps" ref={list}>
      {step < 0 && (
        <li className="current" aria-current="step">
          <span className="muted">Before the first step: the nodes are off.</span>
        </li>
      )}
      {rows.map((i) => (
        <Row
          key={i}
          i={i}
          e={events[i]!}
          current={i === step}
          failed={session.failed(events[i]!)}
          onSelect={onSelectStep}
        />
      ))}
    </ol>
  );
}
