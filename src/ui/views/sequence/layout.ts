/**
 * A sequence diagram laid out without a browser: where each participant's box and lifeline go,
 * and each message's arrow and lines of text, as pure arithmetic on a window of messages
 * (model.ts). SequenceDrawing.tsx draws it as SVG, for the lesson handout and the Sequence view
 * (both drawn by Mermaid before, in one long task each: about 250 ms on a 2-core machine).
 *
 * Text is set in a monospace font, so that its width is known from its length: no layout pass,
 * no measuring element, the same drawing on every machine. Widths are estimated at CHAR_EM of
 * the font size, a little over the advance of the common monospace fonts (DejaVu Sans Mono,
 * Liberation Mono, Menlo: 0.60; Consolas: 0.55), so that the estimate errs on the wide side.
 */
import type { Message, Participant, SequenceWindow } from './model';

/** Font size of every text, in the drawing's units (px at scale 1). */
export const FONT = 12;
/** Advance of one character, in ems (see above). */
export const CHAR_EM = 0.62;
/** Distance between two lines of text. */
export const LINE = 15;

const CHAR = FONT * CHAR_EM;
const PAD = 6;
const BOX_PAD_X = 8;
const BOX_PAD_Y = 7;
const MIN_BOX = 64;
/** Space between neighbouring boxes. */
const BOX_GAP = 14;
/** Space between a message's text and the lifelines it runs between. */
const TEXT_PAD = 6;
/** From a message's last line of text down to its arrow. */
const TEXT_TO_ARROW = 6;
/** From one message's arrow (or loop) down to the next message's text. */
const ROW_GAP = 12;
/** A message to oneself: a loop this wide and this high, right of the lifeline. */
const LOOP_W = 24;
const LOOP_H = 12;
/** Longest participant name (a plugin's type is whatever a conflist says). */
const MAX_LABEL = 24;

export interface DrawnParticipant {
  id: string;
  /** Its name on one line ("containerd (node-1)"). */
  label: string;
  /** Its name, on one or two lines: the actor, then its node when the window has several. */
  lines: string[];
  /** Centre of its box and lifeline. */
  x: number;
  boxX: number;
  boxW: number;
}

export interface DrawnText {
  text: string;
  x: number;
  /** Baseline. */
  y: number;
}

export interface DrawnMessage {
  seq: number;
  /** The message's whole text, unclipped (for its accessible name and tooltip). */
  plain: string;
  reply: boolean;
  failed: boolean;
  /** The step's own message, set in bold. */
  current: boolean;
  /** A message to the participant itself: a loop right of its lifeline. */
  self: boolean;
  /** Top of the message's row (its first line of text). */
  top: number;
  /** The arrow runs from x1 to x2 at height y (for a loop: out at y, back at y + LOOP_H). */
  x1: number;
  x2: number;
  y: number;
  texts: DrawnText[];
}

export interface SequenceDrawing {
  /** The drawing's extent: a viewBox of minX 0 width height. */
  minX: number;
  width: number;
  height: number;
  boxY: number;
  boxH: number;
  participants: DrawnParticipant[];
  /** The lifelines run from under the boxes to here. */
  lifelineEnd: number;
  messages: DrawnMessage[];
  /** The accessible name ("Sequence of steps 8 to 17"). */
  title: string;
  /** The text alternative: every message, in order, in full. */
  description: string;
  loop: { w: number; h: number };
}

/**
 * The accessible name of a window's diagram ("Sequence of steps 8 to 17") and its text
 * alternative: every message, in order, in full, the message `current` said to be this step's.
 */
export function describeSequence(
  win: SequenceWindow,
  current: number | null,
): { title: string; description: string } {
  const ps = win.participants;
  const labels = new Map(ps.map((p) => [p.id, p.label]));
  const first = win.messages[0];
  const last = win.messages[win.messages.length - 1];
  const title =
    first && last
      ? `Sequence of steps ${first.seq + 1} to ${last.seq + 1}`
      : 'Sequence with no messages';
  const description = [
    `${win.messages.length} messages between ${ps.map((p) => p.label).join(', ')}.`,
    ...win.messages.map(
      (m) =>
        `Step ${m.seq + 1}${m.seq === current ? ' (this step)' : ''}: ${labels.get(m.from)} to ${labels.get(m.to)}${m.reply ? ', reply' : ''}: ${sentence(m.plain)}`,
    ),
  ].join(' ');
  return { title, description };
}

/** Width of a line of text, estimated (see CHAR_EM). */
export function textWidth(s: string): number {
  return [...s].length * CHAR;
}

function clip(s: string, max: number): string {
  const chars = [...s];
  return chars.length <= max ? s : `${chars.slice(0, max - 1).join('')}…`;
}

function nameLines(p: Participant): string[] {
  const actor = clip(p.actor, MAX_LABEL);
  if (p.label === p.actor) return [actor];
  // "containerd (node-1)": the node on a line of its own keeps the columns narrow.
  const rest = p.label.startsWith(p.actor) ? p.label.slice(p.actor.length).trim() : p.label;
  return [actor, clip(rest, MAX_LABEL)];
}

const sentence = (s: string) => (/[.!?…]$/.test(s) ? s : `${s}.`);

const widest = (lines: readonly string[]) => Math.max(0, ...lines.map(textWidth));

/**
 * The window's diagram: participants left to right in the window's order, one row per message
 * in the window's order, the message `current` (a seq, or null) marked.
 */
export function layoutSequence(win: SequenceWindow, current: number | null): SequenceDrawing {
  const ps = win.participants;
  const index = new Map(ps.map((p, i) => [p.id, i]));
  const names = ps.map(nameLines);
  const boxW = names.map((l) => Math.max(MIN_BOX, widest(l) + 2 * BOX_PAD_X));
  const nameRows = Math.max(1, ...names.map((l) => l.length));
  const boxH = 2 * BOX_PAD_Y + nameRows * LINE;

  // Distances between neighbouring lifelines: room for the boxes, then for every message's
  // text between the lifelines it spans (the shortest spans first, any lack spread evenly).
  const gaps = ps.slice(1).map((_, i) => (boxW[i]! + boxW[i + 1]!) / 2 + BOX_GAP);
  const needs: { lo: number; hi: number; need: number }[] = [];
  for (const m of win.messages) {
    const a = index.get(m.from)!;
    const b = index.get(m.to)!;
    const w = widest(m.drawn);
    if (a === b) {
      // A loop's text is centred over the loop.
      const half = w / 2 + TEXT_PAD;
      if (a + 1 < ps.length) needs.push({ lo: a, hi: a + 1, need: LOOP_W / 2 + half });
      if (a > 0) needs.push({ lo: a - 1, hi: a, need: half - LOOP_W / 2 });
    } else needs.push({ lo: Math.min(a, b), hi: Math.max(a, b), need: w + 2 * TEXT_PAD });
  }
  needs.sort((p, q) => p.hi - p.lo - (q.hi - q.lo));
  for (const { lo, hi, need } of needs) {
    let have = 0;
    for (let i = lo; i < hi; i++) have += gaps[i]!;
    if (have >= need) continue;
    const more = (need - have) / (hi - lo);
    for (let i = lo; i < hi; i++) gaps[i]! += more;
  }
  const xs: number[] = [boxW[0] !== undefined ? boxW[0] / 2 : 0];
  for (const g of gaps) xs.push(xs[xs.length - 1]! + g);

  const participants: DrawnParticipant[] = ps.map((p, i) => ({
    id: p.id,
    label: p.label,
    lines: names[i]!,
    x: xs[i]!,
    boxX: xs[i]! - boxW[i]! / 2,
    boxW: boxW[i]!,
  }));

  let minX = participants.length > 0 ? participants[0]!.boxX : 0;
  let maxX = participants.length > 0 ? participants[ps.length - 1]!.boxX + boxW[ps.length - 1]! : 0;
  const boxY = PAD;
  let y = boxY + boxH + ROW_GAP;
  const messages: DrawnMessage[] = win.messages.map((m: Message) => {
    const a = index.get(m.from)!;
    const b = index.get(m.to)!;
    const self = a === b;
    const x1 = xs[a]!;
    const x2 = self ? x1 : xs[b]!;
    const cx = self ? x1 + LOOP_W / 2 : (x1 + x2) / 2;
    const half = widest(m.drawn) / 2;
    minX = Math.min(minX, cx - half);
    maxX = Math.max(maxX, cx + half, self ? x1 + LOOP_W + 2 : x2);
    const top = y;
    const texts = m.drawn.map((text, k) => ({ text, x: cx, y: y + FONT + k * LINE }));
    const arrowY = y + Math.max(1, m.drawn.length) * LINE + TEXT_TO_ARROW;
    y = arrowY + (self ? LOOP_H : 0) + ROW_GAP;
    return {
      seq: m.seq,
      plain: m.plain,
      reply: m.reply,
      failed: m.failed,
      current: m.seq === current,
      self,
      top,
      x1,
      x2,
      y: arrowY,
      texts,
    };
  });
  minX = Math.floor(minX - PAD);
  maxX = Math.ceil(maxX + PAD);

  const { title, description } = describeSequence(win, current);
  return {
    minX,
    width: maxX - minX,
    height: Math.ceil(y - ROW_GAP + PAD * 2),
    boxY,
    boxH,
    participants,
    lifelineEnd: y - ROW_GAP + PAD,
    messages,
    title,
    description,
    loop: { w: LOOP_W, h: LOOP_H },
  };
}
