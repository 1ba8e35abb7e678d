/**
 * A sequence diagram, drawn as SVG from layout.ts: boxes and lifelines, one row per message (a
 * solid arrow for a call, a dashed one for a reply, a cross at the end of a failed one, a loop
 * for a message to oneself), the current message in bold with a thick line. Every text is a
 * React text node: nothing from the trace becomes markup.
 *
 * Two variants:
 * - "paper" (the lesson handout): black on white whatever the theme, a static image: role="img"
 *   named by its <title> (the steps it shows) and described by its <desc> (every message in
 *   full, the current one said so), so that the clipped texts are not all a screen reader gets.
 * - "screen" (the Sequence view): the same drawing, its colours set by the view's CSS from the
 *   theme's tokens (sequence.css), the current message's row on a band; each message is a button
 *   named "Step N: its whole text" (data-seq: the view selects that step on a click).
 * The <title> and <desc> carry its only ids (useId: a page with several roots gives each its own
 * identifierPrefix).
 */
import { memo, useId, useMemo } from 'react';
import {
  FONT,
  layoutSequence,
  LINE,
  textWidth,
  type DrawnMessage,
  type DrawnParticipant,
  type SequenceDrawing as Layout,
} from './layout';
import type { SequenceWindow } from './model';

export type DrawingVariant = 'paper' | 'screen';

const INK = '#000';
/** Lifelines: a grey that still has 4.5:1 on white (they are lines, not text; 3:1 would do). */
const LIFELINE = '#595959';
const HEAD = 8;
/** A white edge round the messages' letters: a lifeline they cross does not run through them. */
const HALO = {
  stroke: '#fff',
  strokeWidth: 3,
  strokeLinejoin: 'round',
  paintOrder: 'stroke',
} as const;
/** The app's monospace stack (app.css --mono), written out: the layout's widths assume one. */
const MONO =
  "ui-monospace, 'SFMono-Regular', Menlo, Consolas, 'Liberation Mono', 'DejaVu Sans Mono', monospace";

/** The accessible name of a message, as the Sequence view's buttons say it. */
export const messageName = (m: { seq: number; plain: string; reply: boolean }) =>
  `Step ${m.seq + 1}: ${m.plain || `${m.reply ? 'a reply' : 'a message'} without text`}`;

/** A message as drawn, whether it is the current one, the size of a loop, and where it is drawn. */
interface MessageProps {
  m: DrawnMessage;
  current: boolean;
  loop: { w: number; h: number };
  screen: boolean;
}

function Arrow({ m, current, loop, screen }: MessageProps) {
  const width = current ? 3 : 1.25;
  const dash = m.reply ? '5 3' : undefined;
  const cls = `seq-msg${current ? ' is-current' : ''}${m.failed ? ' is-failed' : ''}`;
  // Where the line ends and which way it points.
  const [endX, endY, dir] = m.self
    ? [m.x1, m.y + loop.h, -1]
    : [m.x2, m.y, Math.sign(m.x2 - m.x1) || 1];
  const line = m.self
    ? `M${m.x1} ${m.y}H${m.x1 + loop.w}V${endY}H${endX + (m.failed ? 0 : HEAD)}`
    : `M${m.x1} ${m.y}H${endX - (m.failed ? 0 : dir * HEAD)}`;
  // A message without text is reached by its arrow.
  const button =
    screen && m.texts.length === 0
      ? { role: 'button', tabIndex: 0, 'aria-label': messageName(m) }
      : {};
  return (
    <g className={cls} data-seq={m.seq} {...button}>
      <path
        className="seq-line"
        d={line}
        fill="none"
        stroke={INK}
        strokeWidth={width}
        strokeDasharray={dash}
      />
      {m.failed ? (
        <path
          className="seq-cross"
          d={`M${endX - 5} ${endY - 5}l10 10M${endX - 5} ${endY + 5}l10 -10`}
          stroke={INK}
          strokeWidth={Math.max(width, 2)}
        />
      ) : (
        <path
          className="seq-head"
          d={`M${endX} ${endY}l${-dir * HEAD} ${-HEAD / 2}v${HEAD}z`}
          fill={INK}
          stroke={INK}
          strokeWidth={1}
        />
      )}
    </g>
  );
}

/** One message: its lines of text and its arrow. Re-rendered only when it becomes or stops being current. */
const Message = memo(function Message({ m, current, loop, screen }: MessageProps) {
  const cls = `seq-text${current ? ' is-current' : ''}${screen && m.failed ? ' is-failed' : ''}`;
  return (
    <g>
      {m.texts.map((t, k) => {
        // On screen the first line is the message's button; the further lines look the same.
        const button =
          screen && k === 0
            ? { role: 'button', tabIndex: 0, 'aria-label': messageName(m) }
            : screen
              ? { 'data-more': '' }
              : {};
        return (
          <text
            key={k}
            className={cls}
            data-seq={m.seq}
            {...button}
            x={t.x}
            y={t.y}
            textAnchor="middle"
            fill={INK}
            fontWeight={current ? 700 : 400}
            {...HALO}
          >
            {t.text}
            {/* The whole text on hover, where the drawn one was clipped. */}
            {screen && k === 0 && <title>{m.plain}</title>}
          </text>
        );
      })}
      <Arrow m={m} current={current} loop={loop} screen={screen} />
    </g>
  );
});

function Names({ p, y }: { p: DrawnParticipant; y: number }) {
  return p.lines.map((t, k) => (
    <text
      key={k}
      className="seq-name"
      x={p.x}
      y={y + (k - (p.lines.length - 1) / 2) * LINE + FONT * 0.35}
      textAnchor="middle"
      fill={INK}
    >
      {t}
    </text>
  ));
}

function Box({ p, d }: { p: DrawnParticipant; d: Layout }) {
  return (
    <rect
      className="seq-box"
      x={p.boxX}
      y={d.boxY}
      width={p.boxW}
      height={d.boxH}
      rx={3}
      fill="#fff"
      stroke={INK}
      strokeWidth={1}
    />
  );
}

export interface SequenceSvgProps {
  /** The laid-out window (layoutSequence). */
  drawing: Layout;
  /** seq of the message to set in bold, or null. */
  current: number | null;
  variant?: DrawingVariant;
  /** The text alternative; defaults to the drawing's (every message in full). */
  description?: string;
  className?: string;
}

/** The diagram of a laid-out window. */
export const SequenceSvg = memo(function SequenceSvg({
  drawing: d,
  current,
  variant = 'paper',
  description,
  className,
}: SequenceSvgProps) {
  const id = useId();
  const screen = variant === 'screen';
  const cur = current === null ? undefined : d.messages.find((m) => m.seq === current);
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      role={screen ? 'group' : 'img'}
      aria-labelledby={`${id}t`}
      aria-describedby={`${id}d`}
      className={className}
      width={d.width}
      height={d.height}
      viewBox={`${d.minX} 0 ${d.width} ${d.height}`}
      fontFamily={MONO}
      fontSize={FONT}
    >
      <title id={`${id}t`}>{d.title}</title>
      <desc id={`${id}d`}>{description ?? d.description}</desc>
      <rect className="seq-bg" x={d.minX} y={0} width={d.width} height={d.height} fill="#fff" />
      {screen && cur && (
        // The current message's row, across the whole diagram.
        <rect
          className="seq-band"
          x={d.minX}
          y={cur.top - 4}
          width={d.width}
          height={cur.y + (cur.self ? d.loop.h : 0) + 7 - (cur.top - 4)}
          fill="#fff3c4"
        />
      )}
      {d.participants.map((p) => (
        <g key={p.id} className="seq-participant">
          <line
            className="seq-lifeline"
            x1={p.x}
            x2={p.x}
            y1={d.boxY + d.boxH}
            y2={d.lifelineEnd}
            stroke={LIFELINE}
            strokeWidth={1}
          />
          <Box p={p} d={d} />
          <Names p={p} y={d.boxY + d.boxH / 2} />
        </g>
      ))}
      {d.messages.map((m) => (
        <Message key={m.seq} m={m} current={m.seq === current} loop={d.loop} screen={screen} />
      ))}
    </svg>
  );
});

/**
 * The participants' boxes alone, for the top of the Sequence view's scroller (CSS sticky) while
 * the messages scroll under it. Decorative: the diagram itself names the participants. Each
 * box's group carries its lifeline's name (data-lifeline) and the width of its widest line of
 * text (data-w), for placeHeaderLabels.
 */
export const SequenceHeader = memo(function SequenceHeader({ drawing: d }: { drawing: Layout }) {
  const h = d.boxY + d.boxH + 4;
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      aria-hidden="true"
      width={d.width}
      height={h}
      viewBox={`${d.minX} 0 ${d.width} ${h}`}
      fontFamily={MONO}
      fontSize={FONT}
    >
      {d.participants.map((p) => (
        <g
          key={p.id}
          data-lifeline={p.label}
          data-x={p.boxX}
          data-w={p.boxW}
          data-text={Math.max(...p.lines.map(textWidth))}
        >
          <Box p={p} d={d} />
          <Names p={p} y={d.boxY + d.boxH / 2} />
        </g>
      ))}
    </svg>
  );
});

export interface SequenceDrawingProps {
  win: SequenceWindow;
  /** seq of the message to set in bold, or null. */
  current: number | null;
  className?: string;
}

/** The handout's diagram of a window: black on white, a static image. */
export const SequenceDrawing = memo(function SequenceDrawing({
  win,
  current,
  className,
}: SequenceDrawingProps) {
  const d = useMemo(() => layoutSequence(win, current), [win, current]);
  return <SequenceSvg drawing={d} current={current} className={className} />;
});
