import { memo, useMemo } from 'react';
import type { Marker, MarkerKind } from '../../engine';
import { cmd, shallow, useApp } from '../store';
import { selectTimeline } from '../selectors';

const KIND_TEXT: Record<MarkerKind, string> = {
  action: 'action',
  fault: 'fault',
  error: 'error',
  'pod-running': 'pod Running',
};

const Ticks = memo(function Ticks({ ticks, max }: { ticks: readonly Marker[]; max: number }) {
  return (
    <div className="ticks" aria-hidden="true">
      {ticks.map((m) => (
        <span
          key={`${m.kind}-${m.step}`}
          className={`tick tick-${m.kind}`}
          style={{ left: `${((m.step + 1) / (max + 1)) * 100}%` }}
          title={`Step ${m.step + 1}: ${KIND_TEXT[m.kind]} — ${m.label}`}
          onClick={() => cmd.seek(m.step)}
        />
      ))}
    </div>
  );
});

/** The markers as a list a keyboard reaches: choosing one goes to its step. */
const Jump = memo(function Jump(props: { markers: readonly Marker[]; disabled: boolean }) {
  const { markers } = props;
  return (
    <label className="inline jump">
      Jump to{' '}
      <select
        value=""
        disabled={props.disabled || markers.length === 0}
        onChange={(e) => {
          if (e.target.value !== '') cmd.seek(Number(e.target.value));
        }}
      >
        <option value="">
          {markers.length ? `a marker (${markers.length})` : 'no markers yet'}
        </option>
        {markers.slice(-300).map((m) => (
          <option key={`${m.kind}-${m.step}-${m.label}`} value={m.step}>
            {`${m.step + 1} · ${KIND_TEXT[m.kind]}: ${m.label.slice(0, 80)}`}
          </option>
        ))}
      </select>
    </label>
  );
});

/** The scrubber over every step computed so far, with marks for actions, faults, errors and pods Running. */
export function Timeline() {
  const { session, version, cursor, length, busy, preview } = useApp(selectTimeline, shallow);

  const markers = useMemo<readonly Marker[]>(
    () => (session ? session.markers : (preview?.markers.filter((m) => m.step < length) ?? [])),
    // The session is mutable: `version` says it changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [session, version, preview, length],
  );
  // One tick per 0.25 % of the width and kind, so a long trace stays readable.
  const ticks = useMemo(() => {
    const seen = new Set<string>();
    const out: Marker[] = [];
    const span = Math.max(1, length);
    for (const m of markers) {
      const key = `${m.kind}:${Math.round((m.step / span) * 400)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(m);
    }
    return out;
  }, [markers, length]);

  const events = session?.events ?? preview?.events;
  const event = events && cursor >= 0 ? events[cursor] : undefined;
  const off = (!session && !preview) || busy;
  const max = Math.max(0, length - 1);

  return (
    <div className="timeline">
      <div className="scrubber">
        <input
          type="range"
          min={-1}
          max={max}
          step={1}
          value={cursor}
          disabled={off}
          aria-label="Timeline"
          aria-valuetext={
            event ? `Step ${cursor + 1} of ${length}: ${event.summary}` : 'Before the first step'
          }
          onChange={(e) => cmd.seek(Number(e.target.value))}
        />
        <Ticks ticks={ticks} max={max} />
      </div>
      <Jump markers={markers} disabled={off} />
    </div>
  );
}
