import { useEffect, useRef, useState } from 'react';
import { LEVELS, type Level, type StopCondition } from '../../engine';
import { timeText } from '../format';
import { cancelJob, cmd, shallow, SPEEDS, useApp } from '../store';
import { selectControls } from '../selectors';

export const LEVEL_LABELS: Record<Level, string> = {
  cluster: 'Cluster',
  runtime: 'Runtime',
  cni: 'CNI',
  kernel: 'Kernel',
};

const RUN_UNTIL: { key: string; label: string; cond: StopCondition }[] = [
  { key: 'plugin', label: 'next plugin call', cond: { kind: 'plugin' } },
  { key: 'error', label: 'next error', cond: { kind: 'error' } },
  { key: 'running', label: 'a pod is Running', cond: { kind: 'pod-running' } },
  { key: 'event', label: 'next Kubernetes event', cond: { kind: 'k8s-event' } },
  { key: 'gone', label: 'the deleted pod is gone', cond: { kind: 'pod-gone' } },
  { key: 'fault', label: 'next fault', cond: { kind: 'fault' } },
  { key: 'idle', label: 'nothing is left to happen', cond: { kind: 'idle' } },
];

/** Play / Pause, stepping, speed, run until, detail level, and where we are. */
export function Controls() {
  const { ready, steps, time, atStart, busy, playing, speed, level, cursor, length } = useApp(
    selectControls,
    shallow,
  );
  const [until, setUntil] = useState('running');
  const idle = ready && busy === null;
  // Before the engine, the landing's precomputed steps (app/preview.ts).
  const canStep = steps && busy === null;
  // The Run button is disabled while its run goes on, which drops the keyboard focus to the page;
  // when the run ends, the focus comes back to the button (unless the user moved it meanwhile).
  const runButton = useRef<HTMLButtonElement>(null);
  const refocusRun = useRef(false);
  useEffect(() => {
    if (!idle || !refocusRun.current) return;
    refocusRun.current = false;
    const at = document.activeElement;
    if (!at || at === document.body) runButton.current?.focus();
  }, [idle]);

  return (
    <div className="controls">
      <div role="group" aria-label="Playback" className="control-group">
        <button
          type="button"
          onClick={cmd.reset}
          disabled={!canStep}
          title="Back to the start (Home)"
        >
          <span aria-hidden="true">↺ </span>Reset
        </button>
        <button type="button" onClick={cmd.stepBack} disabled={!canStep || cursor < 0} title="←">
          <span aria-hidden="true">◀ </span>Step back
        </button>
        <button
          type="button"
          className="primary"
          onClick={cmd.togglePlay}
          disabled={!ready}
          title="Space"
        >
          {playing ? (
            <>
              <span aria-hidden="true">⏸ </span>Pause
            </>
          ) : (
            <>
              <span aria-hidden="true">▶ </span>Play
            </>
          )}
        </button>
        <button
          type="button"
          className="primary"
          onClick={cmd.stepForward}
          disabled={!canStep}
          title="→"
        >
          Step forward<span aria-hidden="true"> ▶</span>
        </button>
        <label className="inline">
          Speed{' '}
          <select value={speed} onChange={(e) => cmd.setSpeed(Number(e.target.value))}>
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s} steps/s
              </option>
            ))}
          </select>
        </label>
      </div>

      <div role="group" aria-label="Run until" className="control-group">
        <label className="inline">
          Run until{' '}
          <select value={until} onChange={(e) => setUntil(e.target.value)}>
            {RUN_UNTIL.map((r) => (
              <option key={r.key} value={r.key}>
                {r.label}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          ref={runButton}
          disabled={!idle}
          onClick={() => {
            const r = RUN_UNTIL.find((x) => x.key === until)!;
            refocusRun.current = true;
            cmd.runUntil(r.cond, r.label);
          }}
        >
          Run
        </button>
      </div>

      <fieldset className="control-group levels">
        <legend>Detail</legend>
        {LEVELS.map((l, i) => (
          <label key={l} title={`Key ${i + 1}`}>
            <input
              type="radio"
              name="detail-level"
              value={l}
              checked={level === l}
              onChange={() => cmd.setLevel(l)}
            />
            {LEVEL_LABELS[l]}
          </label>
        ))}
      </fieldset>

      <p className="position" aria-live="off">
        {steps ? (
          <>
            <span>
              Step <strong>{cursor + 1}</strong> of {length}
            </span>
            {time !== undefined && <span className="muted"> · t = {timeText(time)}</span>}
          </>
        ) : (
          <span>Loading the simulation…</span>
        )}
      </p>

      {busy && (
        <p className="busy" role="status">
          {busy.label}… {busy.progress} steps{' '}
          <button type="button" onClick={cancelJob}>
            Stop
          </button>
        </p>
      )}
      {(atStart || !ready) && !busy && (
        <p className="hint">
          Press <kbd>→</kbd> to step
        </p>
      )}
    </div>
  );
}
