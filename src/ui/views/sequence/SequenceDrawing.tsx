/**
 * A static sequence diagram, drawn as SVG from layout.ts: boxes and lifelines, one row per
 * message (a solid arrow for a call, a dashed one for a reply, a cross at the end of a failed
 * one, a loop for a message to oneself), the current message in bold with a thick line. Black
 * on white whatever the theme (it is made for paper). Every text is a React text node: nothing
 * from the trace becomes markup.
 *
 * role="img" named by its <title> (the steps it shows) and described by its <desc> (every
 * message in full, the current one said so), so that the clipped texts are not all a screen
 * reader gets. Those two are its only ids (useId: a page with several roots gives each its own
 * identifierPrefix).
 */
import { memo, useId, useMemo } from 'react';
import { FONT, layoutSequence, LINE, type DrawnMessage } from './layout';
import type { SequenceWindow } from './model';

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

function Arrow({ m, loop }: { m: DrawnMessage; loop: { w: number; h: number } }) {
  const width = m.current ? 3 : 1.25;
  const dash = m.reply ? '5 3' : undefined;
  const cls = `seq-msg${m.current ? ' is-current' : ''}${m.failed ? ' is-failed' : ''}`;
  // Where the line ends and which way it points.
  const [endX, endY, dir] = m.self
    ? [m.x1, m.y + loop.h, -1]
    : [m.x2, m.y, Math.sign(m.x2 - m.x1) || 1];
  const line = m.self
    ? `M${m.x1} ${m.y}H${m.x1 + loop.w}V${endY}H${endX + (m.failed ? 0 : HEAD)}`
    : `M${m.x1} ${m.y}H${endX - (m.failed ? 0 : dir * HEAD)}`;
  return (
    <g className={cls} data-seq={m.seq}>
      <path d={line} fill="none" stroke={INK} strokeWidth={width} strokeDasharray={dash} />
      {m.failed ? (
        <path
          d={`M${endX - 5} ${endY - 5}l10 10M${endX - 5} ${endY + 5}l10 -10`}
          stroke={INK}
          strokeWidth={Math.max(width, 2)}
        />
      ) : (
        <path
          d={`M${endX} ${endY}l${-dir * HEAD} ${-HEAD / 2}v${HEAD}z`}
          fill={INK}
          stroke={INK}
          strokeWidth={1}
        />
      )}
    </g>
  );
}

export interface SequenceDrawingProps {
  win: SequenceWindow;
  /** seq of the message to set in bold, or null. */
  current: number | null;
  className?: string;
}

export const SequenceDrawing = memo(function SequenceDrawing({
  win,
  current,
  className,
}: SequenceDrawingProps) {
  const d = useMemo(() => layoutSequence(win, current), [win, current]);
  const id = useId();
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      role="img"
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
      <desc id={`${id}d`}>{d.description}</desc>
      <rect x={d.minX} y={0} width={d.width} height={d.height} fill="#fff" />
      {d.participants.map((p) => (
        <g key={p.id} className="seq-participant">
          <line
            x1={p.x}
            x2={p.x}
            y1={d.boxY + d.boxH}
            y2={d.lifelineEnd}
            stroke={LIFELINE}
            strokeWidth={1}
          />
          <rect
            x={p.boxX}
            y={d.boxY}
            width={p.boxW}
            height={d.boxH}
            rx={3}
            fill="#fff"
            stroke={INK}
            strokeWidth={1}
          />
          {p.lines.map((t, k) => (
            <text
              key={k}
              x={p.x}
              y={d.boxY + d.boxH / 2 + (k - (p.lines.length - 1) / 2) * LINE + FONT * 0.35}
              textAnchor="middle"
              fill={INK}
            >
              {t}
            </text>
          ))}
        </g>
      ))}
      {d.messages.map((m) => (
        <g key={m.seq}>
          {m.texts.map((t, k) => (
            <text
              key={k}
              className={`seq-text${m.current ? ' is-current' : ''}`}
              data-seq={m.seq}
              x={t.x}
              y={t.y}
              textAnchor="middle"
              fill={INK}
              fontWeight={m.current ? 700 : 400}
              {...HALO}
            >
              {t.text}
            </text>
          ))}
          <Arrow m={m} loop={d.loop} />
        </g>
      ))}
    </svg>
  );
});
