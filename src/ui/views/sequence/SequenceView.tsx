/**
 * The sequence diagram: kubelet, containerd, libcni, each plugin, the kernel and the filesystem
 * exchanging the messages of a window of the trace around the current step, drawn as SVG by the
 * app's own renderer (layout.ts, SequenceDrawing.tsx: monospace text, so the layout is
 * arithmetic, a few ms for a window; the lesson handout draws with it too). No Mermaid: the
 * Mermaid source is only an export (share/exports.ts).
 *
 * The window moves every 20 messages; stepping inside it re-renders only the two messages that
 * stop and start being current. Every text from the trace is a React text node, never markup.
 */
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { Level, SessionView } from '../../../engine';
import { layoutSequence } from './layout';
import { SequenceHeader, SequenceSvg } from './SequenceDrawing';
import { buildWindow, centredScroll, labelX, SCREEN_TEXT, visibleSeqs, windowFor } from './model';
import './sequence.css';

/** What the view reads of the session (a SessionView has it all). */
export type SequenceSession = Pick<SessionView, 'events'> & Partial<Pick<SessionView, 'level'>>;

export interface SequenceViewProps {
  session: SequenceSession;
  step: number;
  /** Detail level; defaults to the session's. */
  level?: Level;
  onSelectStep(i: number): void;
}

/** Messages per window. */
export const WINDOW = 40;

/**
 * Scrolls `scroller` (only it, not the page) so that the current message (its text lines and its
 * arrow) is at the centre of the part below the sticky header.
 */
function centreInScroller(scroller: HTMLElement, els: Iterable<Element>, header: number): void {
  const s = scroller.getBoundingClientRect();
  let l = Infinity;
  let r = -Infinity;
  let t = Infinity;
  let b = -Infinity;
  for (const el of els) {
    const x = el.getBoundingClientRect();
    if (x.width === 0 && x.height === 0) continue;
    l = Math.min(l, x.left);
    r = Math.max(r, x.right);
    t = Math.min(t, x.top);
    b = Math.max(b, x.bottom);
  }
  if (l === Infinity) return;
  // Content coordinates of the span: viewport position plus the current scroll offset.
  const ox = scroller.scrollLeft - s.left - scroller.clientLeft;
  const oy = scroller.scrollTop - s.top - scroller.clientTop;
  scroller.scrollLeft = centredScroll(l + ox, r + ox, scroller.clientWidth, scroller.scrollWidth);
  scroller.scrollTop = centredScroll(
    t + oy,
    b + oy,
    scroller.clientHeight,
    scroller.scrollHeight,
    header,
  );
}

/**
 * Keeps each participant's name readable in the sticky header while the diagram scrolls
 * sideways: a label whose box is cut by the pane's edge moves into the part in view (labelX).
 * Geometry from the layout (data-x, data-w, data-text on each box's group): no measuring.
 */
function placeHeaderLabels(
  scroller: HTMLElement,
  header: HTMLElement,
  index?: HTMLElement | null,
): void {
  const svg = header.querySelector('svg');
  if (!svg) return;
  const where = new Map<string, 'left' | 'right' | 'in'>();
  const minX = Number((svg.getAttribute('viewBox') ?? '0').split(/\s+/)[0] ?? 0);
  const view = { x: minX + scroller.scrollLeft, w: scroller.clientWidth };
  for (const g of svg.querySelectorAll<SVGGElement>('g[data-lifeline]')) {
    const box = { x: Number(g.dataset['x']), w: Number(g.dataset['w']) };
    const x = labelX(box, view, Math.min(Number(g.dataset['text']) + 4, box.w));
    where.set(
      g.dataset['lifeline'] ?? '',
      x !== null ? 'in' : box.x + box.w / 2 < view.x + view.w / 2 ? 'left' : 'right',
    );
    for (const text of g.querySelectorAll('text')) {
      text.style.visibility = x === null ? 'hidden' : '';
      if (x !== null) text.setAttribute('x', String(x));
    }
  }
  // The list of every lifeline says which are out of view, and on which side.
  for (const li of index?.querySelectorAll<HTMLElement>('[data-lifeline]') ?? []) {
    li.dataset['where'] = where.get(li.dataset['lifeline'] ?? '') ?? 'in';
  }
}

/** Scrolls sideways so that the lifeline named `label` is in the middle of the pane. */
function scrollToLifeline(scroller: HTMLElement, header: HTMLElement, label: string): void {
  for (const g of header.querySelectorAll<SVGGElement>('svg > g[data-lifeline]')) {
    if (g.dataset['lifeline'] !== label) continue;
    const r = g.querySelector('rect')?.getBoundingClientRect();
    if (!r) return;
    const s = scroller.getBoundingClientRect();
    const ox = scroller.scrollLeft - s.left - scroller.clientLeft;
    scroller.scrollLeft = centredScroll(
      r.left + ox,
      r.right + ox,
      scroller.clientWidth,
      scroller.scrollWidth,
    );
    return;
  }
}

export default function SequenceView({
  session,
  step,
  level: levelProp,
  onSelectStep,
}: SequenceViewProps) {
  const events = session.events;
  const count = events.length;
  const level = levelProp ?? session.level ?? 'kernel';
  const [node, setNode] = useState<string | null>(null);
  const nodes = useMemo(() => {
    const s = new Set<string>();
    for (let i = 0; i < count; i++) {
      const n = events[i]!.node;
      if (n !== null) s.add(n);
    }
    return [...s].sort();
    // `events` is one array the simulation appends to (a new one when the past is rewritten):
    // its length is part of its identity.
  }, [events, count]);
  const visible = useMemo(
    () => visibleSeqs(events, level, node, count),
    [events, count, level, node],
  );
  const range = windowFor(visible, step, WINDOW);
  const built = useMemo(
    () => buildWindow(events, visible.slice(range.start, range.end), SCREEN_TEXT),
    [events, visible, range.start, range.end],
  );
  // The same window, built again after the trace grew elsewhere, is the one drawn already: its
  // layout and its messages' elements are kept.
  const [kept, setKept] = useState(built);
  if (kept.key !== built.key) setKept(built);
  const win = kept.key === built.key ? kept : built;

  const drawing = useMemo(() => layoutSequence(win, null), [win]);
  const summary = useMemo(
    () =>
      `${win.messages.length} messages between ${win.participants.map((p) => p.label).join(', ')}. Each message is a button that goes to its step.`,
    [win],
  );

  const hostRef = useRef<HTMLDivElement>(null);
  const headerRef = useRef<HTMLDivElement>(null);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const indexRef = useRef<HTMLOListElement>(null);

  const current = range.current;
  // Before the frame is painted: the current message centred, the header's names placed.
  useLayoutEffect(() => {
    const host = hostRef.current;
    const scroller = scrollerRef.current;
    const header = headerRef.current;
    if (!host || !scroller || !header) return;
    const els = current === null ? [] : host.querySelectorAll(`[data-seq="${current}"]`);
    if (els.length > 0) {
      const inset = header.querySelector('svg')?.getBoundingClientRect().height ?? 0;
      centreInScroller(scroller, els, inset);
    }
    placeHeaderLabels(scroller, header, indexRef.current);
  }, [current, drawing]);

  const select = (target: EventTarget | null) => {
    const el = target instanceof Element ? target.closest('[data-seq]') : null;
    const seq =
      el instanceof SVGElement || el instanceof HTMLElement ? el.dataset['seq'] : undefined;
    if (seq !== undefined) onSelectStep(Number(seq));
  };

  const currentMsg = win.messages.find((m) => m.seq === current);
  const first = win.messages[0]?.seq;
  const last = win.messages[win.messages.length - 1]?.seq;

  return (
    <section className="seq-view" aria-label="Sequence diagram">
      <div className="seq-toolbar">
        <p className="seq-range" aria-live="polite">
          {win.messages.length === 0
            ? 'No messages at this detail level yet.'
            : `Steps ${first! + 1} to ${last! + 1} (${win.messages.length} messages, ${level} level)`}
        </p>
        {nodes.length > 1 && (
          <label className="seq-node">
            Node<span className="visually-hidden"> of the sequence diagram</span>{' '}
            <select
              value={node ?? ''}
              onChange={(e) => setNode(e.target.value === '' ? null : e.target.value)}
            >
              <option value="">All nodes</option>
              {nodes.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      {win.participants.length > 0 && (
        <ol className="seq-lifelines" aria-label="Lifelines, left to right" ref={indexRef}>
          {win.participants.map((p) => {
            const role =
              currentMsg?.from === p.id ? 'from' : currentMsg?.to === p.id ? 'to' : undefined;
            return (
              <li key={p.id} data-lifeline={p.label} data-role={role}>
                <button
                  type="button"
                  onClick={() => {
                    if (scrollerRef.current && headerRef.current)
                      scrollToLifeline(scrollerRef.current, headerRef.current, p.label);
                  }}
                >
                  {p.label}
                  {role && <span className="visually-hidden"> (current message {role})</span>}
                </button>
              </li>
            );
          })}
        </ol>
      )}
      <div
        className="seq-scroller"
        ref={scrollerRef}
        onScroll={() => {
          if (scrollerRef.current && headerRef.current)
            placeHeaderLabels(scrollerRef.current, headerRef.current, indexRef.current);
        }}
        onClick={(e) => select(e.target)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            const el = e.target instanceof Element ? e.target.closest('[data-seq]') : null;
            if (el) {
              e.preventDefault();
              select(el);
            }
          }
        }}
      >
        <div className="seq-header" ref={headerRef}>
          {win.messages.length > 0 && <SequenceHeader drawing={drawing} />}
        </div>
        <div className="seq-host" ref={hostRef}>
          {win.messages.length > 0 && (
            <SequenceSvg
              drawing={drawing}
              current={current}
              variant="screen"
              description={summary}
            />
          )}
        </div>
      </div>
    </section>
  );
}
