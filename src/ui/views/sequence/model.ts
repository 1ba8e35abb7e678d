/**
 * What the sequence diagram shows, as pure functions of the trace: which events are messages at
 * a detail level, the window of messages around the current step, its participants, and its
 * Mermaid source (the "Sequence (Mermaid)" export; the app draws with its own SVG, layout.ts).
 * Every text that came from the simulation (a summary, a plugin's name, an error) goes through
 * `escapeMermaid` in that source, so nothing a user typed can become Mermaid syntax or HTML.
 */
import type { Level, TraceEvent } from '../../../engine';

export type DetailLevel = Level;

const LEVEL_RANK: Record<Level, number> = { cluster: 0, runtime: 1, cni: 2, kernel: 3 };

/** Whether an event of level `l` is shown at detail level `at` (cluster shows the least). */
export function levelShown(l: Level, at: Level): boolean {
  return LEVEL_RANK[l] <= LEVEL_RANK[at];
}

/**
 * Events that are messages in the diagram: every kind but journal lines (the journal view shows
 * those; as messages they would double every containerd step).
 */
export function isMessage(e: TraceEvent): boolean {
  return e.kind !== 'log';
}

/**
 * seqs of the events shown at `level`, optionally only those of one node (events of no node, such
 * as kubectl's, are shown with every node). Ascending.
 */
export function visibleSeqs(
  events: readonly TraceEvent[],
  level: Level = 'kernel',
  node: string | null = null,
  count = events.length,
): number[] {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const e = events[i]!;
    if (!isMessage(e) || !levelShown(e.level, level)) continue;
    if (node !== null && e.node !== null && e.node !== node) continue;
    out.push(e.seq);
  }
  return out;
}

/** Index of the last element of ascending `xs` that is <= `v`, or -1. */
export function lastAtOrBefore(xs: readonly number[], v: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! <= v) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

export interface WindowRange {
  /** Range [start, end) of positions in the visible list. */
  start: number;
  end: number;
  /** seq of the message to highlight: the current step's, or the last shown before it. */
  current: number | null;
}

/**
 * The window of `size` messages around `step`. Windows start at multiples of size/2, and the
 * current message is always at least size/4 from either edge (unless the trace ends there), so
 * stepping moves the window only every size/2 messages: the diagram is re-rendered that often,
 * not at every step.
 */
export function windowFor(visible: readonly number[], step: number, size = 40): WindowRange {
  const half = Math.max(1, Math.floor(size / 2));
  const quarter = Math.floor(half / 2);
  const pos = lastAtOrBefore(visible, step);
  if (visible.length === 0) return { start: 0, end: 0, current: null };
  const anchor = Math.max(pos, 0);
  let start = Math.max(0, (Math.floor((anchor + quarter) / half) - 1) * half);
  let end = Math.min(visible.length, start + 2 * half);
  // Near the end of the trace keep a full window.
  if (end - start < 2 * half) start = Math.max(0, end - 2 * half);
  end = Math.min(visible.length, start + 2 * half);
  return { start, end, current: pos >= 0 ? visible[pos]! : null };
}

/** Actors in the order a reader expects them from left to right. */
const RANK: Record<string, number> = {
  kubectl: 0,
  operator: 0,
  'default-scheduler': 1,
  apiserver: 2,
  systemd: 3,
  kubelet: 4,
  containerd: 5,
  cnitool: 5,
  'libcni-caller': 5,
  libcni: 6,
  // plugins: 7
  kernel: 8,
  fs: 9,
  journal: 10,
};
const PLUGIN_RANK = 7;

/** Actors that belong to no node even when the event names one (the cluster's side). */
const CLUSTER_ACTORS = new Set(['kubectl', 'operator', 'default-scheduler', 'apiserver']);

export interface Participant {
  /** Mermaid identifier (p0, p1, ...): never user text. */
  id: string;
  actor: string;
  node: string | null;
  label: string;
}

export interface Message {
  seq: number;
  from: string;
  to: string;
  /** Escaped message text. */
  text: string;
  /** Plain text (for accessible names and titles), not escaped. */
  plain: string;
  reply: boolean;
  failed: boolean;
  /** Lines the text is drawn on (each its own <text>). */
  lines: number;
  /** The text as drawn, clipped and wrapped: its lines, plain (not escaped). */
  drawn: string[];
}

export interface SequenceWindow {
  /** Changes exactly when the diagram must be re-rendered. */
  key: string;
  participants: Participant[];
  messages: Message[];
  source: string;
}

/** Replies (dashed arrows): a process exiting, libcni returning, containerd answering the kubelet. */
export function isReply(e: TraceEvent): boolean {
  if (e.kind === 'exit' || e.kind === 'libcni.return') return true;
  return e.kind === 'cri' && e.source === 'containerd' && e.target === 'kubelet';
}

/**
 * Escapes text for a Mermaid label or message: every character that Mermaid's grammar or HTML
 * could give a meaning to becomes a numeric entity (`#59;`), which Mermaid turns into a
 * character reference that the browser shows as text. Line breaks become spaces.
 */
export function escapeMermaid(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (c < 0x20 || c === 0x7f || c === 0x2028 || c === 0x2029) out += ' ';
    else if (/[A-Za-z0-9 .,/_()[\]@+*=!?~^$-]/.test(ch)) out += ch;
    else out += `#${c};`;
  }
  return out;
}

/** Longer messages are clipped (the full text is in the message's title): the participants are
 * spaced to fit their longest message, and CNI_ARGS-sized texts made diagrams 4,000 px wide. */
export const MAX_TEXT = 64;

export function clip(s: string, max = MAX_TEXT): string {
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join('')}…`;
}

/** Lines of at most `width` characters: at spaces, and inside words longer than a line. */
export function wrapText(s: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of s.split(/\s+/).filter(Boolean)) {
    let w = [...word];
    if (line && [...line].length + 1 + w.length <= width) {
      line += ` ${word}`;
      continue;
    }
    if (line) lines.push(line);
    while (w.length > width) {
      lines.push(w.slice(0, width).join(''));
      w = w.slice(width);
    }
    line = w.join('');
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * The participants and messages of the events `seqs`, and the diagram's Mermaid source. For a
 * printed page, narrower than the screen: `maxText` clips the messages shorter and `wrap` breaks
 * them into lines of that many characters (in the Mermaid source too: Mermaid's own wrapping
 * breaks escaped characters).
 */
export function buildWindow(
  events: readonly TraceEvent[],
  seqs: readonly number[],
  opts: { maxText?: number; wrap?: number } = {},
): SequenceWindow {
  const evs = seqs.map((s) => events[s]!);
  const nodes = new Set<string>();
  for (const e of evs) if (e.node !== null) nodes.add(e.node);
  const manyNodes = nodes.size > 1;
  const keyOf = (actor: string, node: string | null) =>
    `${CLUSTER_ACTORS.has(actor) ? '' : (node ?? '')}|${actor}`;
  const firstSeen = new Map<string, { actor: string; node: string | null; order: number }>();
  const see = (actor: string, node: string | null) => {
    const k = keyOf(actor, node);
    if (!firstSeen.has(k))
      firstSeen.set(k, {
        actor,
        node: CLUSTER_ACTORS.has(actor) ? null : node,
        order: firstSeen.size,
      });
  };
  for (const e of evs) {
    see(e.source, e.node);
    see(e.target, e.node);
  }
  const nodeOrder = [...nodes].sort();
  const sorted = [...firstSeen.entries()].sort(([, a], [, b]) => {
    const na = a.node === null ? -1 : nodeOrder.indexOf(a.node);
    const nb = b.node === null ? -1 : nodeOrder.indexOf(b.node);
    if (na !== nb) return na - nb;
    const ra = RANK[a.actor] ?? PLUGIN_RANK;
    const rb = RANK[b.actor] ?? PLUGIN_RANK;
    return ra !== rb ? ra - rb : a.order - b.order;
  });
  const ids = new Map<string, string>();
  const participants: Participant[] = sorted.map(([k, p], i) => {
    const id = `p${i}`;
    ids.set(k, id);
    const label = manyNodes && p.node !== null ? `${p.actor} (${p.node})` : p.actor;
    return { id, actor: p.actor, node: p.node, label };
  });
  const messages: Message[] = evs.map((e) => {
    const plain = e.error ? `${e.summary} — failed: ${e.error}` : e.summary;
    const clipped = clip(plain, opts.maxText);
    const wrapped = opts.wrap ? wrapText(clipped, opts.wrap) : null;
    return {
      seq: e.seq,
      from: ids.get(keyOf(e.source, e.node))!,
      to: ids.get(keyOf(e.target, e.node))!,
      text: wrapped ? wrapped.map(escapeMermaid).join('<br/>') : escapeMermaid(clipped),
      plain,
      reply: isReply(e),
      failed: e.error !== undefined,
      lines: Math.max(1, wrapped?.length ?? 1),
      drawn: wrapped ?? (clipped ? [clipped] : []),
    };
  });
  const lines = ['sequenceDiagram'];
  if (messages.length > 0) {
    // Steps are numbered from 1 on screen (the app's controls do so), seqs from 0.
    const a = messages[0]!.seq + 1;
    const b = messages[messages.length - 1]!.seq + 1;
    lines.push(`  accTitle: Sequence of steps ${a} to ${b}`);
    lines.push(
      `  accDescr: ${messages.length} messages between ${escapeMermaid(participants.map((p) => p.label).join(', '))}`,
    );
  }
  for (const p of participants) lines.push(`  participant ${p.id} as ${escapeMermaid(p.label)}`);
  for (const m of messages) {
    const arrow = m.reply ? (m.failed ? '--x' : '-->>') : m.failed ? '-x' : '->>';
    lines.push(`  ${m.from}${arrow}${m.to}: ${m.text || '#160;'}`);
  }
  const source = lines.join('\n');
  return {
    key: source,
    participants,
    messages,
    source,
  };
}

/**
 * How the Sequence view sets its messages: wrapped in short lines, so that the participants sit
 * close together (they are spaced to fit their longest message line) and a window's nine or
 * so lifelines fit a pane at 1280 px.
 */
export const SCREEN_TEXT = { maxText: 72, wrap: 22 } as const;

/**
 * The scroll offset (one axis) that puts the span [from, to] (content coordinates) at the centre
 * of a viewport of `size` whose first `inset` pixels are covered (a sticky header), within the
 * content's scroll range.
 */
export function centredScroll(from: number, to: number, size: number, content: number, inset = 0) {
  const max = Math.max(0, content - size);
  const want = (from + to) / 2 - (inset + (size - inset) / 2);
  return Math.round(Math.min(max, Math.max(0, want)));
}

/**
 * Where a participant's label goes in the sticky header when the diagram is scrolled sideways:
 * the centre of the part of its box that is in view, kept inside the box, so that a box cut by
 * the pane's edge still shows its whole name. `null` when too little of the box is in view for
 * the label (`labelW` wide) to fit.
 */
export function labelX(
  box: { x: number; w: number },
  view: { x: number; w: number },
  labelW: number,
): number | null {
  const l = Math.max(box.x, view.x);
  const r = Math.min(box.x + box.w, view.x + view.w);
  if (r - l < labelW) return null;
  return (l + r) / 2;
}
