/**
 * The topology: each node's host namespace (bridges, host ends of veth pairs, addresses) and its
 * pods' namespaces (their ends of the pairs), with what the current step changed highlighted and
 * a namespace's routes shown on hover or focus. Zoom and pan with d3-zoom.
 *
 * The layout is computed once per structural change (model.ts); the SVG is React components
 * memoised on the kernel's objects, which the world shares between steps when they did not
 * change, so a step re-renders only the few cells it touched.
 */
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { select } from 'd3-selection';
import { zoom, zoomIdentity, zoomTransform, type ZoomBehavior } from 'd3-zoom';
import { tget, type Level, type SessionView } from '../../../engine';
import { shownWalk, useApp, useWalkState, walkCmd, type ShownWalk } from '../../store';
import { STEP_WORDS, TopologyDrawing } from './Drawing';
import { hopBox, hopLabel, hopPosition, hopTarget } from './hops';
import {
  StructureCache,
  LayoutCache,
  mergeStructures,
  routesText,
  stepChanges,
  type Mark,
  type StepItem,
} from './model';
import './topology.css';

/** What the view reads of the session (a SessionView has it all). */
export type TopologySession = Pick<SessionView, 'stateAt'>;

export interface TopologyViewProps {
  session: TopologySession;
  step: number;
  level?: Level;
  onSelectStep(i: number): void;
}

const KIND_PLURAL: Record<StepItem['kind'], string> = {
  namespace: 'namespaces',
  link: 'links',
  address: 'addresses',
  route: 'routes',
  reservation: 'reservations',
  'cache file': 'cache files',
};

/** "1 link added, 2 routes removed". */
function countText(items: readonly StepItem[]): string {
  const n = new Map<string, number>();
  for (const it of items) {
    const k = `${it.kind}|${it.mark}`;
    n.set(k, (n.get(k) ?? 0) + 1);
  }
  return [...n]
    .map(([k, c]) => {
      const [kind, mark] = k.split('|') as [StepItem['kind'], Mark];
      return `${c} ${c === 1 ? kind : KIND_PLURAL[kind]} ${mark}`;
    })
    .join(', ');
}

const LIST_MAX = 12;

/** The step's changes as text: what the drawing highlights, and the files it does not draw. */
function StepList({ items, step }: { items: readonly StepItem[]; step: number }) {
  if (items.length === 0) return null;
  const shown = items.slice(0, LIST_MAX);
  return (
    <div className="topo-steplist" role="region" aria-label={`Changes at step ${step + 1}`}>
      <ul>
        {shown.map((it, i) => (
          <li key={i} className={`topo-item is-${it.mark}`}>
            <span className="topo-mark">{it.mark}</span> {it.kind} <code>{it.text}</code>
            {it.node ? <span className="topo-item-node"> · {it.node}</span> : null}
          </li>
        ))}
      </ul>
      {items.length > LIST_MAX ? (
        <p className="topo-hint">and {items.length - LIST_MAX} more</p>
      ) : null}
    </div>
  );
}

/**
 * The packet walk's hop bar: where the current hop is, what the kernel did, and the controls to
 * step through the hops (buttons, and the arrow keys, Home and End while it has the focus).
 */
function HopBar({ walk, hop }: { walk: ShownWalk; hop: number }) {
  const hops = walk.res.hops;
  const h = hops[hop];
  if (!h) return null;
  const onKey = (e: KeyboardEvent) => {
    const go =
      e.key === 'ArrowRight' || e.key === 'ArrowDown'
        ? hop + 1
        : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
          ? hop - 1
          : e.key === 'Home'
            ? 0
            : e.key === 'End'
              ? hops.length - 1
              : null;
    if (go === null) return;
    // Not the app's step keys: while the hop bar has the focus, arrows walk the hops.
    e.preventDefault();
    e.stopPropagation();
    walkCmd.select(go);
  };
  return (
    <div
      className={`topo-hopbar${h.drop ? ' is-drop' : ''}`}
      role="region"
      aria-label="Packet walk on the topology"
    >
      <div
        className="topo-hopbar-controls"
        role="toolbar"
        aria-label="Step through the hops (arrow keys, Home, End)"
        onKeyDown={onKey}
      >
        {/* aria-disabled, not disabled: at either end the button keeps the focus (and the keys). */}
        <button type="button" onClick={() => walkCmd.prev()} aria-disabled={hop === 0}>
          Previous hop
        </button>
        <button type="button" onClick={() => walkCmd.next()} aria-disabled={hop >= hops.length - 1}>
          Next hop
        </button>
        <button type="button" onClick={() => walkCmd.clear()}>
          Close walk
        </button>
      </div>
      <p className="topo-hop-text" aria-live="polite">
        <strong>{hopPosition(hop, hops.length, walk.res.replyFrom)}</strong>: {h.node || 'outside'}
        {h.dev ? ` · ${h.dev}` : ''} · {h.step}
        {h.hook ? ` · ${h.hook}` : ''}
        {h.drop ? (
          <>
            {' '}
            · <strong className="topo-hop-drop">{hopLabel(h)}</strong>
          </>
        ) : null}
        {' — '}
        {h.text}
      </p>
      <p className="topo-hop-what">{walk.what}</p>
    </div>
  );
}

export default function TopologyView({ session, step }: TopologyViewProps) {
  // Step -1 is the world before the first event.
  const state = session.stateAt(step);
  const prev = step >= 0 ? session.stateAt(step - 1) : undefined;

  const [cache] = useState(() => new StructureCache());
  const [prevCache] = useState(() => new StructureCache());
  // Structure and layout: recomputed only when namespaces or links come or go. What this step
  // removed stays in the structure for this step, drawn ghosted.
  const structure = useMemo(() => (state ? cache.get(state) : null), [cache, state]);
  const prevStructure = useMemo(() => (prev ? prevCache.get(prev) : null), [prevCache, prev]);
  const merged = useMemo(
    () => (structure ? mergeStructures(prevStructure, structure) : null),
    [prevStructure, structure],
  );
  const [layouts] = useState(() => new LayoutCache());
  const lay = useMemo(() => (merged ? layouts.get(merged) : null), [layouts, merged]);
  const changes = useMemo(() => (state ? stepChanges(prev, state) : null), [prev, state]);

  // The packet walk made at this step (Packets panel), and its current hop.
  const revision = useApp((s) => s.revision);
  const walkState = useWalkState((s) => s);
  const walk = shownWalk(walkState, step, revision);
  const hopIndex = walk ? walkState.hop : -1;
  const hop = useMemo(() => {
    const h = walk?.res.hops[hopIndex];
    return h && state
      ? { target: hopTarget(state, h), n: `${hopIndex + 1}/${walk!.res.hops.length}` }
      : null;
  }, [walk, hopIndex, state]);

  const [hovered, setHovered] = useState<string | null>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const gRef = useRef<SVGGElement>(null);
  const zoomRef = useRef<ZoomBehavior<SVGSVGElement, unknown> | null>(null);
  const titleId = useId();

  // d3-zoom writes the transform to the DOM directly: zooming never re-renders React.
  useEffect(() => {
    const svg = svgRef.current;
    const g = gRef.current;
    if (!svg || !g) return;
    const z = zoom<SVGSVGElement, unknown>()
      .scaleExtent([0.1, 4])
      .on('zoom', (ev: { transform: { k: number; toString(): string } }) => {
        g.setAttribute('transform', ev.transform.toString());
        // Zoomed far out, the chips' texts are unreadable: not drawing them keeps a 110-pod
        // node cheap to paint. Their <title>s and the namespaces' labels stay.
        svg.classList.toggle('is-far', ev.transform.k < 0.45);
      });
    zoomRef.current = z;
    select(svg).call(z);
    return () => {
      select(svg).on('.zoom', null);
      zoomRef.current = null;
    };
  }, []);

  const fit = () => {
    const svg = svgRef.current;
    const z = zoomRef.current;
    if (!svg || !z || !lay || lay.width === 0) return;
    const w = svg.clientWidth || 800;
    const h = svg.clientHeight || 500;
    const k = Math.min(1.5, Math.max(0.1, Math.min((w - 20) / lay.width, (h - 20) / lay.height)));
    select(svg).call(z.transform, zoomIdentity.translate(10, 10).scale(k));
  };
  const zoomBy = (f: number) => {
    const svg = svgRef.current;
    const z = zoomRef.current;
    if (svg && z) select(svg).call(z.scaleBy, f);
  };

  // Fit when the layout's size changes (a node or a row of pods appeared), not on every step.
  const layW = lay?.width ?? 0;
  const layH = lay?.height ?? 0;
  const fitRef = useRef(fit);
  useEffect(() => {
    fitRef.current = fit;
  });
  useEffect(() => {
    fitRef.current();
  }, [layW, layH]);

  // The current hop out of sight (zoomed into a big cluster): bring it to the middle, at once
  // (no transition: nothing moves by itself, whatever the motion preference).
  const hopAt = hop && lay && state ? hopBox(lay, state, hop.target) : null;
  const hopX = hopAt ? hopAt.x + hopAt.w / 2 : null;
  const hopY = hopAt ? hopAt.y + hopAt.h / 2 : null;
  useEffect(() => {
    const svg = svgRef.current;
    const z = zoomRef.current;
    if (!svg || !z || hopX === null || hopY === null) return;
    const t = zoomTransform(svg);
    const [sx, sy] = t.apply([hopX, hopY]);
    const w = svg.clientWidth || 800;
    const h = svg.clientHeight || 500;
    if (sx >= 20 && sy >= 30 && sx <= w - 20 && sy <= h - 20) return;
    select(svg).call(z.translateTo, hopX, hopY);
  }, [hopX, hopY]);

  const hoveredRoutes = useMemo(() => {
    if (!hovered || !state) return null;
    const [node, nsId] = hovered.split('/') as [string, string];
    const ns = tget(state.nodes[node]?.kernel.netns, nsId);
    if (!ns) return null;
    return { title: hovered, routes: routesText(ns) };
  }, [hovered, state]);

  if (!state || !lay || !changes) {
    return (
      <section className="topo-view" aria-label="Topology">
        <p>No state to show yet.</p>
      </section>
    );
  }

  const podCount = lay.nodes.reduce((a, n) => a + n.cells.length, 0);

  return (
    <section className="topo-view" aria-label="Topology">
      <div className="topo-toolbar">
        <p className="topo-summary">
          {lay.nodes.length} node{lay.nodes.length === 1 ? '' : 's'}, {podCount} pod namespace
          {podCount === 1 ? '' : 's'}
          {lay.underlay ? ` · underlay ${lay.underlay.info.cidr} (${lay.underlay.info.mode})` : ''}
          {changes.items.length > 0 ? ` · step ${step + 1}: ${countText(changes.items)}` : ''}
        </p>
        <div className="topo-buttons">
          <button type="button" onClick={() => zoomBy(1.25)} aria-label="Zoom in">
            +
          </button>
          <button type="button" onClick={() => zoomBy(0.8)} aria-label="Zoom out">
            −
          </button>
          <button type="button" onClick={fit}>
            Fit
          </button>
        </div>
      </div>
      {walk && <HopBar walk={walk} hop={hopIndex} />}
      {/* The drawing, with the step's changes as text over its lower left corner (they take no
          room from it: presenter mode gives the drawing the whole pane). */}
      <div className="topo-stage">
        <svg ref={svgRef} className="topo-svg" role="group" aria-labelledby={titleId}>
          <title id={titleId}>
            Network topology: nodes, host and pod namespaces, bridges and veth pairs
            {lay.underlay ? ', and the underlay joining the nodes' : ''}
          </title>
          <g ref={gRef}>
            <TopologyDrawing
              state={state}
              prev={prev}
              lay={lay}
              marks={changes.marks}
              words={STEP_WORDS}
              hop={hop}
              onHover={setHovered}
            />
          </g>
        </svg>
        <StepList items={changes.items} step={step} />
        <p className="topo-legend" aria-hidden="true">
          <span className="topo-key is-added">added</span>
          <span className="topo-key is-changed">changed</span>
          <span className="topo-key is-removed">removed</span>
          {walk && <span className="topo-key is-hop">hop</span>}
        </p>
      </div>
      <div className="topo-routes" aria-live="polite">
        {hoveredRoutes ? (
          <>
            <h3>Routes of {hoveredRoutes.title}</h3>
            {hoveredRoutes.routes.length === 0 ? (
              <p>No routes.</p>
            ) : (
              <ul>
                {hoveredRoutes.routes.map((r, i) => (
                  <li key={i}>
                    <code>{r}</code>
                  </li>
                ))}
              </ul>
            )}
          </>
        ) : (
          <p className="topo-hint">Hover or focus a namespace to see its routes.</p>
        )}
      </div>
    </section>
  );
}
