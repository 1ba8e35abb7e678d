/**
 * The state machines the simulation runs, drawn from their XState definitions (model.ts reads
 * the states and transitions off the machine objects): the kubelet, its pod workers, containerd
 * and its sandboxes, with the states the selected node's actors are in lit, the transition the
 * current step made highlighted, and the life of the node's kernel links.
 */
import { memo, useId, useMemo, useState } from 'react';
import type { Level, SessionView } from '../../../engine';
import { linkLifeMachine } from './linkLife';
import {
  LINK_LIVES,
  actorsOf,
  countByState,
  lifeMoves,
  linkLives,
  moveOf,
  type Chart,
  type ChartEdge,
  type ChartLayout,
} from './model';
import { drawnChart, machineKinds } from './registry';
import './machines.css';

/** What the view reads of the session (a SessionView has it all). */
export type MachinesSession = Pick<SessionView, 'events' | 'stateAt' | 'machines'>;

export interface MachinesViewProps {
  session: MachinesSession;
  step: number;
  level?: Level;
  onSelectStep(i: number): void;
}

const { chart: LINK_CHART, layout: LINK_LAYOUT } = drawnChart(linkLifeMachine);

type Box = { x: number; y: number; w: number; h: number };

function edgePath(a: Box, b: Box, self: boolean): { d: string; lx: number; ly: number } {
  if (self) {
    const x = a.x + a.w / 2;
    return {
      d: `M${x - 12},${a.y} C${x - 30},${a.y - 28} ${x + 30},${a.y - 28} ${x + 12},${a.y}`,
      lx: x,
      ly: a.y - 24,
    };
  }
  if (b.x > a.x) {
    const x1 = a.x + a.w;
    const y1 = a.y + a.h / 2;
    const x2 = b.x;
    const y2 = b.y + b.h / 2;
    const mx = (x1 + x2) / 2;
    return {
      d: `M${x1},${y1} C${mx},${y1} ${mx},${y2} ${x2},${y2}`,
      lx: mx,
      ly: (y1 + y2) / 2 - 4,
    };
  }
  // Back or same-column edge: an arc below the boxes.
  const x1 = a.x + a.w / 2 - 20;
  const y1 = a.y + a.h;
  const x2 = b.x + b.w / 2 + 20;
  const y2 = b.y + b.h;
  const dip = Math.max(y1, y2) + 18 + Math.abs(x1 - x2) / 12;
  return {
    d: `M${x1},${y1} C${x1},${dip} ${x2},${dip} ${x2},${y2}`,
    lx: (x1 + x2) / 2,
    ly: dip - 4,
  };
}

const ChartSvg = memo(function ChartSvg({
  title,
  chart,
  layout,
  counts,
  focus,
  move,
  unit,
}: {
  title: string;
  chart: Chart;
  layout: ChartLayout;
  /** "state=count,..." so that memo compares it by value. */
  counts: string;
  /** State of the followed actor. */
  focus: string | null;
  /** "from>to" of the transition the current step made, if in this machine. */
  move: string | null;
  unit: string;
}) {
  const markerId = useId().replace(/[^A-Za-z0-9_-]/g, '');
  const count = new Map(
    counts
      ? counts.split(',').map((p) => {
          const i = p.lastIndexOf('=');
          return [p.slice(0, i), Number(p.slice(i + 1))] as [string, number];
        })
      : [],
  );
  const [mFrom, mTo] = move ? move.split('>') : [null, null];
  const isMove = (e: ChartEdge) => e.from === mFrom && e.to === mTo;
  const desc = chart.states
    .map((s) => `${s.key}${count.get(s.key) ? ` (${count.get(s.key)} ${unit})` : ''}`)
    .join(', ');
  // Small charts label every transition; larger ones only those out of the followed actor's
  // state and the one just taken (all of them have a title on hover), or the labels pile up.
  const allLabels = chart.edges.length <= 8;
  // Extra room below for back edges' arcs.
  const height = layout.height + 40;
  return (
    <svg
      className="mach-svg"
      role="img"
      aria-label={`${title} states: ${desc}${focus ? `; followed: ${focus}` : ''}`}
      viewBox={`0 0 ${layout.width} ${height}`}
      width={layout.width}
      height={height}
    >
      <title>{`${title}: ${desc}`}</title>
      <defs>
        <marker
          id={`${markerId}-a`}
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto-start-reverse"
        >
          <path d="M0,0 L10,5 L0,10 z" className="mach-arrow" />
        </marker>
      </defs>
      {chart.edges.map((e, i) => {
        const a = layout.boxes.get(e.from)!;
        const b = layout.boxes.get(e.to)!;
        const p = edgePath(a, b, e.from === e.to);
        const cls = `mach-edge${isMove(e) ? ' is-move' : ''}${e.delayed ? ' is-delayed' : ''}`;
        const label = `${e.label}${e.guard ? ` [${e.guard}]` : ''}`;
        return (
          <g key={i} className={cls}>
            <title>{`${e.from} → ${e.to} on ${label}`}</title>
            <path d={p.d} markerEnd={`url(#${markerId}-a)`} />
            {(allLabels || isMove(e) || e.from === focus) && (
              <text x={p.lx} y={p.ly} textAnchor="middle">
                {label.length > 24 ? `${label.slice(0, 23)}…` : label}
              </text>
            )}
          </g>
        );
      })}
      {chart.states.map((s) => {
        const b = layout.boxes.get(s.key)!;
        const n = count.get(s.key) ?? 0;
        const cls = [
          'mach-state',
          n > 0 ? 'is-active' : '',
          focus === s.key ? 'is-focus' : '',
          s.final ? 'is-final' : '',
          mTo === s.key ? 'is-target' : '',
        ]
          .filter(Boolean)
          .join(' ');
        return (
          <g key={s.key} className={cls}>
            {s.initial && <circle cx={b.x - 8} cy={b.y + b.h / 2} r={4} className="mach-initial" />}
            <rect x={b.x} y={b.y} width={b.w} height={b.h} rx={s.final ? 14 : 6} />
            <text x={b.x + b.w / 2} y={b.y + 21} textAnchor="middle">
              {s.key}
              {n > 0 ? ` (${n})` : ''}
            </text>
          </g>
        );
      })}
    </svg>
  );
});

function countsKey(m: Map<string, number>): string {
  return [...m.entries()].map(([k, v]) => `${k}=${v}`).join(',');
}

export default function MachinesView({ session, step }: MachinesViewProps) {
  const state = session.stateAt(step);
  const prev = step >= 0 ? session.stateAt(step - 1) : undefined;
  const event = step >= 0 ? session.events[step] : undefined;
  // Charts depend only on the definitions (computed once per machine).
  const kinds = useMemo(() => machineKinds(session.machines), [session.machines]);
  const nodes = useMemo(() => (state ? Object.keys(state.nodes).sort() : []), [state]);
  const [picked, setPicked] = useState<string | null>(null);
  const [followed, setFollowed] = useState<Record<string, string>>({});
  const node =
    picked !== null && nodes.includes(picked)
      ? picked
      : (event?.node ?? null) !== null && nodes.includes(event!.node!)
        ? event!.node!
        : (nodes[0] ?? null);
  const move = moveOf(event);

  const lives = useMemo(() => {
    if (!state || node === null) return null;
    const k = state.nodes[node]!.kernel;
    return { counts: linkLives(k), moves: lifeMoves(prev?.nodes[node]?.kernel, k) };
  }, [state, prev, node]);

  if (!state || node === null) {
    return (
      <section className="mach-view" aria-label="State machines">
        <p>No state to show yet.</p>
      </section>
    );
  }

  const lifeMove = lives?.moves.find((m) => m.from !== 'none' && m.to !== 'deleted');

  return (
    <section className="mach-view" aria-label="State machines">
      <div className="mach-toolbar">
        {nodes.length > 1 && (
          <label>
            Node<span className="visually-hidden"> of the state machines</span>{' '}
            <select value={node} onChange={(e) => setPicked(e.target.value)}>
              {nodes.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>
          </label>
        )}
        <p className="mach-step" aria-live="polite">
          {move
            ? `Step ${step + 1}: ${move.actor} ${move.from ?? 'starts'} → ${move.to}${move.event ? ` on ${move.event}` : ''}`
            : `Step ${step + 1}: no state machine changed`}
        </p>
      </div>
      {kinds.map((c) => {
        const actors = actorsOf(state, c.kind, node);
        const counts = countByState(actors);
        // The current step's actor (it may have just ended: final states leave the world).
        const here = move && move.machine === c.kind ? move : null;
        if (here && !actors.some((a) => a.id === here.actor)) {
          counts.set(here.to, (counts.get(here.to) ?? 0) + 1);
        }
        const follow =
          here?.actor ??
          (followed[c.kind] && actors.some((a) => a.id === followed[c.kind])
            ? followed[c.kind]
            : actors[0]?.id) ??
          null;
        const focusState = here ? here.to : (actors.find((a) => a.id === follow)?.state ?? null);
        const unit =
          c.kind === 'podWorker' ? 'pods' : c.kind === 'sandbox' ? 'sandboxes' : 'actors';
        return (
          <figure key={c.kind} className="mach-figure">
            <figcaption>
              <strong>{c.title}</strong>{' '}
              <span className="mach-meta">
                ({actors.length} on {node}; machine <code>{c.chart.id}</code>)
              </span>
              {actors.length > 1 && (
                <label className="mach-follow">
                  Follow{' '}
                  <select
                    value={follow ?? ''}
                    onChange={(e) => setFollowed({ ...followed, [c.kind]: e.target.value })}
                  >
                    {actors.map((a) => (
                      <option key={a.id} value={a.id}>
                        {a.id} ({a.state})
                      </option>
                    ))}
                  </select>
                </label>
              )}
              {c.chart.fromAny.length > 0 && (
                <span className="mach-any">
                  From any state: {c.chart.fromAny.map((e) => `${e.label} → ${e.to}`).join('; ')}
                </span>
              )}
            </figcaption>
            <div
              className="mach-scroll"
              tabIndex={0}
              role="group"
              aria-label={`State chart of ${c.title}`}
            >
              <ChartSvg
                title={c.title}
                chart={c.chart}
                layout={c.layout}
                counts={countsKey(counts)}
                focus={focusState}
                move={here && here.from ? `${here.from}>${here.to}` : null}
                unit={unit}
              />
            </div>
          </figure>
        );
      })}
      {lives && (
        <figure className="mach-figure">
          <figcaption>
            <strong>kernel links</strong>{' '}
            <span className="mach-meta">
              (Link.life of every link on {node}:{' '}
              {LINK_LIVES.map((l) => `${lives.counts.get(l) ?? 0} ${l}`).join(', ')})
            </span>
            {lives.moves.length > 0 && (
              <span className="mach-any">
                This step:{' '}
                {lives.moves
                  .slice(0, 4)
                  .map((m) => `${m.name} ${m.from === 'none' ? 'new' : m.from} → ${m.to}`)
                  .join('; ')}
                {lives.moves.length > 4 ? ` and ${lives.moves.length - 4} more` : ''}
              </span>
            )}
          </figcaption>
          <div
            className="mach-scroll"
            tabIndex={0}
            role="group"
            aria-label="State chart of kernel links"
          >
            <ChartSvg
              title="kernel link"
              chart={LINK_CHART}
              layout={LINK_LAYOUT}
              counts={countsKey(lives.counts)}
              focus={lives.moves[0] ? lives.moves[0].to : null}
              move={lifeMove ? `${lifeMove.from}>${lifeMove.to}` : null}
              unit="links"
            />
          </div>
        </figure>
      )}
    </section>
  );
}
