/**
 * The topology: each node's host namespace (bridges, host ends of veth pairs, addresses) and its
 * pods' namespaces (their ends of the pairs), with what the current step changed highlighted and
 * a namespace's routes shown on hover or focus. Zoom and pan with d3-zoom.
 *
 * The layout is computed once per structural change (model.ts); the SVG is React components
 * memoised on the kernel's objects, which the world shares between steps when they did not
 * change, so a step re-renders only the few cells it touched.
 */
import { memo, useEffect, useId, useMemo, useRef, useState } from 'react';
import { select } from 'd3-selection';
import { zoom, zoomIdentity, type ZoomBehavior } from 'd3-zoom';
import { tget, type Level, type Link, type Netns, type SessionView } from '../../../engine';
import {
  StructureCache,
  addrText,
  LayoutCache,
  linkState,
  mergeStructures,
  routesText,
  stepChanges,
  type Box,
  type CellLayout,
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

function clipText(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max - 1)}…`;
}

function parseNames(s: string): Record<number, string> {
  const out: Record<number, string> = {};
  for (const part of s ? s.split(',') : []) {
    const eq = part.indexOf('=');
    out[Number(part.slice(0, eq))] = part.slice(eq + 1);
  }
  return out;
}

/** Class and spoken words of a mark ("is-added", "added at this step"). */
function markClass(m: Mark | null | undefined): string {
  return m ? ` is-${m}` : '';
}
function markWords(m: Mark | null | undefined): string {
  return m ? ` (${m} at this step)` : '';
}

function parseMarks(s: string): Map<string, Mark> {
  const out = new Map<string, Mark>();
  for (const part of s ? s.split(' ') : []) {
    const eq = part.lastIndexOf('=');
    out.set(part.slice(0, eq), part.slice(eq + 1) as Mark);
  }
  return out;
}

const LinkChip = memo(function LinkChip({
  link,
  box,
  mark,
  host,
  master,
}: {
  link: Link;
  box: Box;
  mark: Mark | null;
  host: boolean;
  master: string | null;
}) {
  const state = linkState(link);
  const addrs = addrText(link);
  const sub = [state, ...(master ? [`master ${master}`] : []), ...addrs].join(' · ');
  const cls = [
    'topo-chip',
    `topo-${link.kind}`,
    host ? 'topo-hostend' : '',
    state === 'DOWN' ? 'is-down' : '',
    mark ? `is-${mark}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <g className={cls} transform={`translate(${box.x},${box.y})`} data-mark={mark ?? undefined}>
      <title>{`${link.name} (${link.kind}, ifindex ${link.ifindex}) ${sub}${markWords(mark)}`}</title>
      <rect width={box.w} height={box.h} rx={4} />
      <text x={6} y={13} className="topo-chip-name">
        {clipText(link.name, 20)}
        <tspan className="topo-chip-kind"> {link.kind}</tspan>
      </text>
      <text x={6} y={27} className="topo-chip-sub">
        {clipText(sub, 26)}
      </text>
    </g>
  );
});

/** One pod: the host ends of its veths (host namespace) above its namespace box. */
const PodCell = memo(
  function PodCell({
    cell,
    ns,
    prevNs,
    hostLinks,
    hostNames,
    changed,
    node,
    onHover,
  }: {
    cell: CellLayout;
    /** The namespace at this step, or before it if this step removed it. */
    ns: Netns | undefined;
    /** The namespace before this step, only when this step removed links from it (drawn ghosted). */
    prevNs?: Netns | undefined;
    hostLinks: readonly (Link | undefined)[];
    /** Names of host bridges by ifindex, "3=cni0,7=br1" (for the "master" text). */
    hostNames: string;
    /** Marks inside this cell ("key=added ..."): a string so that memo compares it cheaply. */
    changed: string;
    node: string;
    onHover(key: string | null): void;
  }) {
    if (!ns) return null;
    const bridges = parseNames(hostNames);
    const marks = parseMarks(changed);
    const nsKey = `${node}/${ns.id}`;
    const nsMark = marks.get(nsKey);
    const label = cell.ns.pod ?? cell.ns.mounts[0]?.split('/').pop() ?? `${ns.id} (no mount)`;
    const links = Object.values(ns.links);
    // Links this step removed keep their slot for this step, ghosted.
    if (prevNs && prevNs !== ns)
      for (const l of Object.values(prevNs.links)) if (!ns.links[l.ifindex]) links.push(l);
    const lines: Array<{ x1: number; y1: number; x2: number; y2: number }> = [];
    cell.peers.forEach((p, i) => {
      const l = hostLinks[i];
      if (!l?.peer) return;
      const j = links.findIndex((x) => x.ifindex === l.peer!.ifindex);
      const slot = cell.slots[j];
      if (!slot) return;
      lines.push({
        x1: p.box.x + p.box.w / 2,
        y1: p.box.y + p.box.h,
        x2: slot.x + slot.w / 2,
        y2: slot.y,
      });
    });
    return (
      <g className="topo-cell">
        {lines.map((ln, i) => (
          <line key={i} className="topo-pair" {...ln} />
        ))}
        {cell.peers.map((p, i) => {
          const l = hostLinks[i];
          return l ? (
            <LinkChip
              key={p.ifindex}
              link={l}
              box={p.box}
              host
              master={l.master !== null ? (bridges[l.master] ?? String(l.master)) : null}
              mark={marks.get(`${node}/root/${l.ifindex}`) ?? null}
            />
          ) : null;
        })}
        <g
          className={`topo-ns topo-podns${markClass(nsMark)}`}
          tabIndex={0}
          role="group"
          aria-label={`Pod namespace ${label}${markWords(nsMark)}: ${links
            .map(
              (l) =>
                `${l.name} ${addrText(l).join(' ')}${markWords(marks.get(`${nsKey}/${l.ifindex}`))}`,
            )
            .join(', ')}`}
          onMouseEnter={() => onHover(nsKey)}
          onMouseLeave={() => onHover(null)}
          onFocus={() => onHover(nsKey)}
          onBlur={() => onHover(null)}
        >
          <rect
            x={cell.nsBox.x}
            y={cell.nsBox.y}
            width={cell.nsBox.w}
            height={cell.nsBox.h}
            rx={6}
          />
          <text x={cell.nsBox.x + 8} y={cell.nsBox.y + 17} className="topo-ns-label">
            {clipText(label, 24)}
          </text>
        </g>
        {links.map((l, j) => {
          const slot = cell.slots[j];
          return slot ? (
            <LinkChip
              key={l.ifindex}
              link={l}
              box={slot}
              host={false}
              master={null}
              mark={marks.get(`${nsKey}/${l.ifindex}`) ?? null}
            />
          ) : null;
        })}
      </g>
    );
  },
  (a, b) =>
    a.cell === b.cell &&
    a.ns === b.ns &&
    a.prevNs === b.prevNs &&
    a.changed === b.changed &&
    a.node === b.node &&
    a.onHover === b.onHover &&
    a.hostNames === b.hostNames &&
    a.hostLinks.length === b.hostLinks.length &&
    a.hostLinks.every((l, i) => l === b.hostLinks[i]),
);

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

  // Marks per cell ("node/root/<ifindex>" for host ends), as stable strings.
  const perCell = useMemo(() => {
    const out = new Map<string, string>();
    if (!lay || !changes || !state) return out;
    for (const nl of lay.nodes) {
      const root = nl.node.root;
      for (const c of nl.cells) {
        const keys: string[] = [];
        const nsKey = `${nl.node.name}/${c.ns.id}`;
        for (const [k, m] of changes.marks) {
          if (k === nsKey || k.startsWith(`${nsKey}/`)) keys.push(`${k}=${m}`);
        }
        for (const p of c.peers) {
          const m = changes.marks.get(`${nl.node.name}/${root}/${p.ifindex}`);
          if (m) keys.push(`${nl.node.name}/root/${p.ifindex}=${m}`);
        }
        if (keys.length) out.set(nsKey, keys.join(' '));
      }
    }
    return out;
  }, [lay, changes, state]);

  // Bridge names by ifindex per node, as a string ("3=cni0") so that cells compare it by value.
  const hostNamesByNode = new Map<string, string>();
  if (state && lay) {
    for (const nl of lay.nodes) {
      const root = tget(state.nodes[nl.node.name]!.kernel.netns, nl.node.root)!;
      const parts: string[] = [];
      for (const i of nl.node.hostLinks) {
        const l = root.links[i];
        if (l?.kind === 'bridge') parts.push(`${i}=${l.name}`);
      }
      hostNamesByNode.set(nl.node.name, parts.join(','));
    }
  }

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
      {/* The drawing, with the step's changes as text over its lower left corner (they take no
          room from it: presenter mode gives the drawing the whole pane). */}
      <div className="topo-stage">
        <svg ref={svgRef} className="topo-svg" role="group" aria-labelledby={titleId}>
          <title id={titleId}>
            Network topology: nodes, host and pod namespaces, bridges and veth pairs
          </title>
          <g ref={gRef}>
            {lay.nodes.map((nl) => {
              const kernel = state.nodes[nl.node.name]!.kernel;
              const ctrd = state.nodes[nl.node.name]!.containerd;
              const root = tget(kernel.netns, nl.node.root)!;
              // What this step removed is read from the state before it.
              const prevKernel = prev?.nodes[nl.node.name]?.kernel;
              const prevRoot = prevKernel ? tget(prevKernel.netns, nl.node.root) : undefined;
              const hostKey = `${nl.node.name}/${root.id}`;
              const hostNames = hostNamesByNode.get(nl.node.name) ?? '';
              const bridges = parseNames(hostNames);
              return (
                <g key={nl.node.name} className="topo-node">
                  <rect
                    className="topo-node-frame"
                    x={nl.box.x}
                    y={nl.box.y}
                    width={nl.box.w}
                    height={nl.box.h}
                    rx={8}
                  />
                  <text className="topo-node-label" x={nl.box.x + 10} y={nl.box.y + 19}>
                    {nl.node.name}
                    {ctrd && (
                      <tspan className="topo-node-release">
                        {` · ${ctrd.settings.runtime ?? 'containerd'} ${ctrd.settings.version}`}
                      </tspan>
                    )}
                  </text>
                  <g
                    className={`topo-ns topo-hostns${markClass(changes.marks.get(hostKey))}`}
                    tabIndex={0}
                    role="group"
                    aria-label={`Host namespace of ${nl.node.name}`}
                    onMouseEnter={() => setHovered(hostKey)}
                    onMouseLeave={() => setHovered(null)}
                    onFocus={() => setHovered(hostKey)}
                    onBlur={() => setHovered(null)}
                  >
                    <rect
                      x={nl.hostBox.x}
                      y={nl.hostBox.y}
                      width={nl.hostBox.w}
                      height={nl.hostBox.h}
                      rx={6}
                    />
                    <text x={nl.hostBox.x + 8} y={nl.hostBox.y + 18} className="topo-ns-label">
                      host namespace
                    </text>
                  </g>
                  {nl.hostChips.map((c) => {
                    const l = root.links[c.ifindex] ?? prevRoot?.links[c.ifindex];
                    return l ? (
                      <LinkChip
                        key={c.ifindex}
                        link={l}
                        box={c.box}
                        host
                        master={l.master !== null ? (bridges[l.master] ?? null) : null}
                        mark={changes.marks.get(`${hostKey}/${c.ifindex}`) ?? null}
                      />
                    ) : null;
                  })}
                  {nl.cells.map((c) => {
                    const marks = perCell.get(`${nl.node.name}/${c.ns.id}`) ?? '';
                    const before = marks.includes('=removed')
                      ? tget(prevKernel?.netns, c.ns.id)
                      : undefined;
                    return (
                      <PodCell
                        key={c.ns.id}
                        cell={c}
                        ns={tget(kernel.netns, c.ns.id) ?? before}
                        prevNs={before}
                        hostLinks={c.peers.map(
                          (p) => root.links[p.ifindex] ?? prevRoot?.links[p.ifindex],
                        )}
                        hostNames={hostNames}
                        changed={marks}
                        node={nl.node.name}
                        onHover={setHovered}
                      />
                    );
                  })}
                </g>
              );
            })}
          </g>
        </svg>
        <StepList items={changes.items} step={step} />
        <p className="topo-legend" aria-hidden="true">
          <span className="topo-key is-added">added</span>
          <span className="topo-key is-changed">changed</span>
          <span className="topo-key is-removed">removed</span>
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
