/**
 * The sequence diagram: kubelet, containerd, libcni, each plugin, the kernel and the filesystem
 * exchanging the messages of a window of the trace around the current step, drawn by Mermaid.
 *
 * Mermaid (~190 KiB gzip) is imported only when this view mounts. The diagram is re-rendered only
 * when the window moves (every 20 messages); stepping inside it toggles a CSS class on the
 * current message. Mermaid runs with `securityLevel: 'strict'` and every text is escaped
 * (model.ts), so no trace text becomes markup.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { Level, SessionView } from '../../../engine';
import { loadMermaid } from './mermaid';
import {
  buildWindow,
  centredScroll,
  labelX,
  SCREEN_TEXT,
  visibleSeqs,
  windowFor,
  type SequenceWindow,
} from './model';
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

let renderCount = 0;

/** Marks the messages of the rendered SVG with their step and makes them reachable by keyboard. */
function decorate(host: HTMLElement, win: SequenceWindow): void {
  const lines = host.querySelectorAll<SVGElement>('[data-et="message"]');
  const texts = host.querySelectorAll<SVGTextElement>('text.messageText');
  // Mermaid draws each line of a wrapped message as its own <text>.
  let t = 0;
  win.messages.forEach((m, i) => {
    const seq = String(m.seq);
    const line = lines[i];
    const text = texts[t];
    for (let j = 1; j < m.lines; j++) {
      const more = texts[t + j];
      if (!more) continue;
      more.dataset['seq'] = seq;
      more.dataset['more'] = '';
      if (m.failed) more.classList.add('is-failed');
    }
    t += m.lines;
    if (line) {
      line.dataset['seq'] = seq;
      if (m.failed) line.classList.add('is-failed');
    }
    if (text) {
      text.dataset['seq'] = seq;
      text.setAttribute('tabindex', '0');
      text.setAttribute('role', 'button');
      // Steps are numbered from 1 on screen, as the app's controls do.
      text.setAttribute('aria-label', `Step ${m.seq + 1}: ${m.plain}`);
      if (m.failed) text.classList.add('is-failed');
      // Full text on hover where the label was clipped.
      const title = document.createElementNS('http://www.w3.org/2000/svg', 'title');
      title.textContent = m.plain;
      text.appendChild(title);
    }
  });
}

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * A copy of the participants' boxes that stays at the top of the scroller (CSS sticky) while the
 * messages scroll under it. Decorative: the diagram itself names the participants.
 */
function stickyHeader(header: HTMLElement, svg: SVGSVGElement | null): void {
  header.replaceChildren();
  if (!svg) return;
  const boxes = svg.querySelectorAll('[data-et="participant"]');
  if (boxes.length === 0) return;
  let bottom = 0;
  for (const r of svg.querySelectorAll<SVGRectElement>('[data-et="participant"] rect')) {
    bottom = Math.max(
      bottom,
      Number(r.getAttribute('y') ?? 0) + Number(r.getAttribute('height') ?? 0),
    );
  }
  const vb = (svg.getAttribute('viewBox') ?? '0 0 0 0').split(/\s+/).map(Number);
  const [x = 0, y = 0, w = 0] = vb;
  const h = bottom - y + 4;
  const copy = document.createElementNS(SVG_NS, 'svg');
  copy.setAttribute('width', svg.getAttribute('width') ?? String(w));
  copy.setAttribute('height', String(h));
  copy.setAttribute('viewBox', `${x} ${y} ${w} ${h}`);
  copy.setAttribute('aria-hidden', 'true');
  for (const b of boxes) {
    const c = b.cloneNode(true) as Element;
    c.removeAttribute('id');
    for (const el of c.querySelectorAll('[id]')) el.removeAttribute('id');
    for (const el of c.querySelectorAll('line')) el.remove();
    copy.appendChild(c);
  }
  header.appendChild(copy);
}

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
 */
function placeHeaderLabels(
  scroller: HTMLElement,
  header: HTMLElement,
  index?: HTMLElement | null,
): void {
  const svg = header.querySelector('svg');
  if (!svg) return;
  const where = new Map<string, 'left' | 'right' | 'in'>();
  const vb = (svg.getAttribute('viewBox') ?? '0 0 0 0').split(/\s+/).map(Number);
  const view = { x: (vb[0] ?? 0) + scroller.scrollLeft, w: scroller.clientWidth };
  for (const g of svg.querySelectorAll(':scope > g')) {
    const rect = g.querySelector('rect');
    const text = g.querySelector('text');
    if (!rect || !text) continue;
    const box = {
      x: Number(rect.getAttribute('x') ?? 0),
      w: Number(rect.getAttribute('width') ?? 0),
    };
    const w = text.getComputedTextLength?.() ?? 0;
    const x = labelX(box, view, Math.min(w + 4, box.w));
    const name = text.textContent ?? '';
    where.set(name, x !== null ? 'in' : box.x + box.w / 2 < view.x + view.w / 2 ? 'left' : 'right');
    text.style.visibility = x === null ? 'hidden' : '';
    if (x === null) continue;
    text.setAttribute('x', String(x));
    for (const ts of text.querySelectorAll('tspan')) ts.setAttribute('x', String(x));
  }
  // The list of every lifeline says which are out of view, and on which side.
  for (const li of index?.querySelectorAll<HTMLElement>('[data-lifeline]') ?? []) {
    li.dataset['where'] = where.get(li.dataset['lifeline'] ?? '') ?? 'in';
  }
}

/** Scrolls sideways so that the lifeline named `label` is in the middle of the pane. */
function scrollToLifeline(scroller: HTMLElement, header: HTMLElement, label: string): void {
  for (const g of header.querySelectorAll('svg > g')) {
    if ((g.querySelector('text')?.textContent ?? '') !== label) continue;
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
  const win = useMemo(
    () => buildWindow(events, visible.slice(range.start, range.end), SCREEN_TEXT),
    [events, visible, range.start, range.end],
  );

  const hostRef = useRef<HTMLDivElement>(null);
  const headerRef = useRef<HTMLDivElement>(null);
  const scrollerRef = useRef<HTMLDivElement>(null);
  const indexRef = useRef<HTMLOListElement>(null);
  const [rendered, setRendered] = useState<{ key: string; error: string | null } | null>(null);
  const baseId = useId().replace(/[^A-Za-z0-9_-]/g, '');

  // The latest window, for the render effect, which runs only when the source text changes (a
  // new `win` object with the same text, after the trace grew elsewhere, draws nothing).
  const winRef = useRef(win);
  useEffect(() => {
    winRef.current = win;
  });
  const source = win.source;
  // Diagrams drawn before, by source: stepping back and forth over a window's edge does not
  // run Mermaid again. Per view instance (the SVGs carry ids).
  const [drawn] = useState(() => new Map<string, string>());
  useEffect(() => {
    let cancelled = false;
    const host = hostRef.current;
    const win = winRef.current;
    if (!host) return;
    if (win.messages.length === 0) {
      host.replaceChildren();
      headerRef.current?.replaceChildren();
      return;
    }
    const show = (svg: string) => {
      // Mermaid's output, sanitised by it (securityLevel strict) from escaped text only.
      host.innerHTML = svg;
      decorate(host, win);
      if (headerRef.current) {
        stickyHeader(headerRef.current, host.querySelector('svg'));
        if (scrollerRef.current)
          placeHeaderLabels(scrollerRef.current, headerRef.current, indexRef.current);
      }
      setRendered({ key: win.key, error: null });
    };
    const cached = drawn.get(win.source);
    if (cached !== undefined) {
      show(cached);
      return;
    }
    const id = `seq-${baseId}-${++renderCount}`;
    // Draw after the step's frame is painted: Mermaid takes a few hundred ms on a 40-message
    // window, and the other views should not wait for it.
    const timer = setTimeout(() => {
      loadMermaid()
        .then((m) => m.render(id, win.source))
        .then(
          ({ svg }) => {
            drawn.set(win.source, svg);
            if (drawn.size > 8) drawn.delete(drawn.keys().next().value!);
            if (!cancelled) show(svg);
          },
          (err: unknown) => {
            if (cancelled) return;
            host.replaceChildren();
            headerRef.current?.replaceChildren();
            setRendered({
              key: win.key,
              error: err instanceof Error ? err.message : String(err),
            });
          },
        );
    }, 0);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [source, baseId, drawn]);

  // Draw the next window ahead, when the browser is idle, so that stepping (or playing) forward
  // over a window's edge finds it drawn.
  const nextSeqs = useMemo(() => {
    const half = WINDOW / 2;
    if (range.end >= visible.length) return null;
    const start = range.start + half;
    return visible.slice(start, Math.min(visible.length, start + WINDOW));
  }, [visible, range.start, range.end]);
  const nextRef = useRef<readonly number[] | null>(null);
  useEffect(() => {
    nextRef.current = nextSeqs;
  });
  const renderedKey = rendered?.key;
  useEffect(() => {
    if (renderedKey !== source) return;
    const seqs = nextRef.current;
    if (!seqs || seqs.length === 0) return;
    const next = buildWindow(events, seqs, SCREEN_TEXT).source;
    if (drawn.has(next)) return;
    const idle = window.requestIdleCallback ?? ((f: () => void) => window.setTimeout(f, 300));
    const cancelIdle = window.cancelIdleCallback ?? window.clearTimeout;
    const handle = idle(() => {
      const id = `seq-${baseId}-${++renderCount}`;
      loadMermaid()
        .then((m) => m.render(id, next))
        .then(
          ({ svg }) => {
            drawn.set(next, svg);
            if (drawn.size > 8) drawn.delete(drawn.keys().next().value!);
          },
          () => undefined,
        );
    });
    return () => cancelIdle(handle);
  }, [renderedKey, source, events, drawn, baseId]);

  const current = range.current;
  // Highlight the current message by toggling a class: no re-render.
  useEffect(() => {
    const host = hostRef.current;
    const scroller = scrollerRef.current;
    if (!host || renderedKey !== win.key) return;
    for (const el of host.querySelectorAll('.is-current, .is-current-more'))
      el.classList.remove('is-current', 'is-current-more');
    if (current === null) return;
    const els = host.querySelectorAll(`[data-seq="${current}"]`);
    // One element is the current message; the further lines of its text look the same.
    for (const el of els)
      el.classList.add(
        el instanceof SVGElement && el.dataset['more'] !== undefined
          ? 'is-current-more'
          : 'is-current',
      );
    if (scroller && els.length > 0) {
      const header = headerRef.current?.querySelector('svg')?.getBoundingClientRect().height ?? 0;
      centreInScroller(scroller, els, header);
      if (headerRef.current) placeHeaderLabels(scroller, headerRef.current, indexRef.current);
    }
  }, [current, renderedKey, win.key]);

  const select = (target: EventTarget | null) => {
    const el = target instanceof Element ? target.closest('[data-seq]') : null;
    const seq =
      el instanceof SVGElement || el instanceof HTMLElement ? el.dataset['seq'] : undefined;
    if (seq !== undefined) onSelectStep(Number(seq));
  };

  const currentMsg = win.messages.find((m) => m.seq === current);
  const first = win.messages[0]?.seq;
  const last = win.messages[win.messages.length - 1]?.seq;
  const loading = win.messages.length > 0 && renderedKey !== win.key;

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
      {rendered?.error && renderedKey === win.key && (
        <p className="seq-error" role="alert">
          The diagram could not be drawn: {rendered.error}
        </p>
      )}
      {loading && <p className="seq-loading">Drawing the diagram…</p>}
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
        <div className="seq-header" ref={headerRef} />
        <div className="seq-host" ref={hostRef} />
      </div>
    </section>
  );
}
