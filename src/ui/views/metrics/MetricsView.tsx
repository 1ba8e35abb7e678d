/**
 * Metrics over the steps, one chart per node (D3 scales and line shapes, drawn by React): pods,
 * IPAM reservations in use against the range's capacity, orphan host veths and leaked IPs. The
 * series come from an index that is extended as the trace grows (model.ts), so moving the
 * current step only moves the cursor line.
 */
import { memo, useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import { scaleLinear } from 'd3-scale';
import { curveStepAfter, line } from 'd3-shape';
import type { Level, SessionView } from '../../../engine';
import { METRIC_KEYS, METRIC_LABELS, MetricsIndex, type MetricKey, type Point } from './model';
import './metrics.css';

export type MetricsSession = Pick<SessionView, 'states'> & Partial<Pick<SessionView, 'revision'>>;

export interface MetricsViewProps {
  session: MetricsSession;
  step: number;
  level?: Level;
  onSelectStep(i: number): void;
}

const HEIGHT = 150;
const M = { top: 10, right: 12, bottom: 22, left: 34 };

function prevChange(changes: readonly number[], step: number): number | null {
  let out: number | null = null;
  for (const s of changes) {
    if (s < step) out = s;
    else break;
  }
  return out;
}

function nextChange(changes: readonly number[], step: number): number | null {
  for (const s of changes) if (s > step) return s;
  return null;
}

/** The lines of one node: depend on the data and the width, not on the current step. */
const Lines = memo(function Lines({
  points,
  steps,
  width,
  yMax,
}: {
  points: readonly Point[];
  steps: number;
  width: number;
  yMax: number;
  version: number;
}) {
  // Steps are numbered from 1 on screen (as the app's controls do): x is that number.
  const x = scaleLinear()
    .domain([1, Math.max(2, steps)])
    .range([M.left, width - M.right]);
  const y = scaleLinear()
    .domain([0, yMax])
    .range([HEIGHT - M.bottom, M.top]);
  const ext = points.length ? [...points, { ...points[points.length - 1]!, step: steps - 1 }] : [];
  return (
    <g>
      {y.ticks(4).map((t) => (
        <g key={`y${t}`} className="met-grid">
          <line x1={M.left} x2={width - M.right} y1={y(t)} y2={y(t)} />
          <text x={M.left - 4} y={y(t) + 3} textAnchor="end">
            {t}
          </text>
        </g>
      ))}
      {x
        .ticks(6)
        .filter(Number.isInteger)
        .map((t) => (
          <text
            key={`x${t}`}
            className="met-xtick"
            x={x(t)}
            y={HEIGHT - M.bottom + 14}
            textAnchor="middle"
          >
            {t}
          </text>
        ))}
      {METRIC_KEYS.map((k) => {
        const d = line<Point>()
          .x((p) => x(p.step + 1))
          .y((p) => y(p[k]))
          .curve(curveStepAfter)(ext);
        return d ? <path key={k} className={`met-line met-${k}`} d={d} /> : null;
      })}
    </g>
  );
});

export default function MetricsView({ session, step, onSelectStep }: MetricsViewProps) {
  const states = session.states;
  const count = states.length;
  const revision = session.revision ?? 0;
  const [index] = useState(() => new MetricsIndex());
  // Extend the index with the states it has not seen (all of them after the past changed).
  // `states` is one array that grows (a new one when the past is rewritten): its length is
  // part of its identity.
  const version = useMemo(() => {
    index.update(states, count);
    return `${revision}:${index.version}`;
  }, [index, states, count, revision]);
  const nodes = useMemo(() => (version ? index.nodes() : []), [index, version]);
  const changes = useMemo(() => (version ? index.changeSteps() : []), [index, version]);

  const boxRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(600);
  useEffect(() => {
    const el = boxRef.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver((entries) => {
      const w = Math.floor(entries[0]?.contentRect.width ?? 600);
      if (w > 100) setWidth(w);
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const cur = Math.max(0, Math.min(step, count - 1));
  const x = scaleLinear()
    .domain([1, Math.max(2, count)])
    .range([M.left, width - M.right]);
  const prev = prevChange(changes, cur);
  const next = nextChange(changes, cur);

  const stepFromClick = (e: MouseEvent<SVGSVGElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    const s = Math.round(x.invert(e.clientX - r.left)) - 1;
    onSelectStep(Math.max(0, Math.min(count - 1, s)));
  };

  return (
    <section className="met-view" aria-label="Metrics">
      <div className="met-toolbar">
        <ul className="met-legend" aria-label="Legend">
          {METRIC_KEYS.map((k: MetricKey) => (
            <li key={k}>
              <svg width="22" height="8" aria-hidden="true">
                <line className={`met-line met-${k}`} x1="0" x2="22" y1="4" y2="4" />
              </svg>{' '}
              {METRIC_LABELS[k]}
            </li>
          ))}
        </ul>
        <div className="met-buttons">
          <button
            type="button"
            disabled={prev === null}
            onClick={() => prev !== null && onSelectStep(prev)}
          >
            Previous change
          </button>
          <button
            type="button"
            disabled={next === null}
            onClick={() => next !== null && onSelectStep(next)}
          >
            Next change
          </button>
        </div>
      </div>
      <div ref={boxRef} className="met-charts">
        {count === 0 && <p>No steps yet.</p>}
        {nodes.map((n) => {
          const points = index.series(n);
          const at = index.at(n, cur);
          let yMax = 4;
          for (const p of points) for (const k of METRIC_KEYS) if (p[k] > yMax) yMax = p[k];
          yMax = Math.ceil(yMax * 1.1);
          const summary = at
            ? `pods ${at.pods}, IPAM used ${at.reservations}${at.capacity !== null ? ` of ${at.capacity}` : ''}, orphan veths ${at.orphanVeths}, leaked IPs ${at.leakedIps}`
            : 'no data';
          return (
            <figure key={n} className="met-figure">
              <figcaption>
                <strong>{n}</strong>{' '}
                <span className={at && (at.leakedIps > 0 || at.orphanVeths > 0) ? 'met-bad' : ''}>
                  at step {cur + 1}: {summary}
                </span>
              </figcaption>
              <svg
                className="met-svg"
                width={width}
                height={HEIGHT}
                role="img"
                aria-label={`${n} metrics over ${count} steps; at step ${cur + 1}: ${summary}`}
                onClick={stepFromClick}
              >
                <title>{`${n}: metrics over the steps (click to go to a step)`}</title>
                <Lines
                  points={points}
                  steps={count}
                  width={width}
                  yMax={yMax}
                  version={points.length}
                />
                <line
                  className="met-cursor"
                  x1={x(cur + 1)}
                  x2={x(cur + 1)}
                  y1={M.top}
                  y2={HEIGHT - M.bottom}
                />
              </svg>
            </figure>
          );
        })}
      </div>
    </section>
  );
}
