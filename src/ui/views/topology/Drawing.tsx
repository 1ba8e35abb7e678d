/**
 * The topology's drawing, shared by the Topology view (one step, with what it changed and the
 * packet walk's current hop) and "Show goal" (the learner's state and the goal's, with what
 * differs): the underlay joining the nodes, each node's host namespace (bridges, NICs, host ends
 * of veth pairs, addresses) and its pods' namespaces (their ends of the pairs).
 *
 * Cells are memoised on the kernel's objects, which the world shares between steps when they did
 * not change, so a step re-renders only the few cells it touched.
 */
import { memo } from 'react';
import { tget, type Link, type Netns, type WorldState } from '../../../engine';
import { hopBox, type HopTarget } from './hops';
import {
  addrText,
  linkState,
  type Box,
  type CellLayout,
  type Layout,
  type UnderlayDrop,
} from './model';
import './topology.css';

/**
 * How the drawing marks an item: what a step added, changed or removed, and how the learner's
 * state differs from the goal (missing: not there yet; extra: not in the goal; differs).
 */
export type DrawMark = 'added' | 'changed' | 'removed' | 'missing' | 'extra' | 'differs';

export const STEP_WORDS = (m: DrawMark): string => ` (${m} at this step)`;

export const GOAL_WORDS = (m: DrawMark): string =>
  m === 'missing'
    ? ' (not there yet)'
    : m === 'extra'
      ? ' (not in the goal)'
      : m === 'differs'
        ? ' (differs from the goal)'
        : ` (${m})`;

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

function markClass(m: DrawMark | null | undefined): string {
  return m ? ` is-${m}` : '';
}

function parseMarks(s: string): Map<string, DrawMark> {
  const out = new Map<string, DrawMark>();
  for (const part of s ? s.split(' ') : []) {
    const eq = part.lastIndexOf('=');
    out.set(part.slice(0, eq), part.slice(eq + 1) as DrawMark);
  }
  return out;
}

/** The hop's class on what it is drawn on: the current hop, or where the packet was dropped. */
function hopClass(hop: 'hop' | 'drop' | null): string {
  return hop === 'drop' ? ' is-hop is-drop' : hop === 'hop' ? ' is-hop' : '';
}

const LinkChip = memo(function LinkChip({
  link,
  box,
  mark,
  host,
  master,
  words,
  hop,
}: {
  link: Link;
  box: Box;
  mark: DrawMark | null;
  host: boolean;
  master: string | null;
  words(m: DrawMark): string;
  hop: 'hop' | 'drop' | null;
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
    <g
      className={cls + hopClass(hop)}
      transform={`translate(${box.x},${box.y})`}
      data-mark={mark ?? undefined}
    >
      <title>{`${link.name} (${link.kind}, ifindex ${link.ifindex}) ${sub}${mark ? words(mark) : ''}`}</title>
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
    hop,
    node,
    words,
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
    /** The packet walk's hop in this cell: "key=hop" or "key=drop", or "". */
    hop: string;
    node: string;
    words(m: DrawMark): string;
    onHover?: ((key: string | null) => void) | undefined;
  }) {
    if (!ns) return null;
    const bridges = parseNames(hostNames);
    const marks = parseMarks(changed);
    const hops = parseMarks(hop) as unknown as Map<string, 'hop' | 'drop'>;
    const spoken = (m: DrawMark | undefined) => (m ? words(m) : '');
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
    const nsHop = hops.get(nsKey) ?? null;
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
              words={words}
              hop={hops.get(`${node}/root/${l.ifindex}`) ?? null}
            />
          ) : null;
        })}
        <g
          className={`topo-ns topo-podns${markClass(nsMark)}${hopClass(nsHop)}`}
          tabIndex={0}
          role="group"
          aria-label={`Pod namespace ${label}${spoken(nsMark)}: ${links
            .map(
              (l) =>
                `${l.name} ${addrText(l).join(' ')}${spoken(marks.get(`${nsKey}/${l.ifindex}`))}`,
            )
            .join(', ')}`}
          onMouseEnter={onHover && (() => onHover(nsKey))}
          onMouseLeave={onHover && (() => onHover(null))}
          onFocus={onHover && (() => onHover(nsKey))}
          onBlur={onHover && (() => onHover(null))}
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
              words={words}
              hop={hops.get(`${nsKey}/${l.ifindex}`) ?? null}
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
    a.hop === b.hop &&
    a.node === b.node &&
    a.words === b.words &&
    a.onHover === b.onHover &&
    a.hostNames === b.hostNames &&
    a.hostLinks.length === b.hostLinks.length &&
    a.hostLinks.every((l, i) => l === b.hostLinks[i]),
);

const MODE_WORDS = {
  'host-gw': "host-gw: each node routes the other nodes' pod CIDRs via their node IPs",
  vxlan: 'vxlan: flannel.1 carries pod traffic in UDP 8472 over it',
  none: 'none: pods reach only their own node',
} as const;

/** A node's first global IPv4 address on a link (its node IP on the underlay). */
function ipv4Of(l: Link | undefined): string | null {
  return l?.addrs.find((a) => a.family === 4 && a.scope === 'global')?.local ?? null;
}

/** The underlay: a band across the top, a wire down to each node's NIC, the router at its edge. */
function Underlay({
  lay,
  state,
  hop,
}: {
  lay: Layout;
  state: WorldState;
  hop: HopTarget | null | undefined;
}) {
  const u = lay.underlay;
  if (!u) return null;
  const nics: string[] = [];
  for (const d of u.drops) {
    if (d.tunnel) continue;
    const k = state.nodes[d.node]?.kernel;
    const l = k ? tget(k.netns, k.root)?.links[d.ifindex] : undefined;
    nics.push(`${d.node} ${l?.name ?? `if${d.ifindex}`} ${ipv4Of(l) ?? 'no address'}`);
  }
  const onWire = hop?.underlay ? hop : null;
  const label = `Underlay network ${u.info.cidr} joining the nodes (${MODE_WORDS[u.info.mode]}): ${nics.join(', ')}; router ${u.info.gateway}, the outside${onWire ? `; the packet is here: ${onWire.label}` : ''}`;
  return (
    <g className="topo-underlay-group">
      <g
        className={`topo-underlay${onWire && !onWire.router ? hopClass(onWire.drop ? 'drop' : 'hop') : ''}`}
        tabIndex={0}
        role="group"
        aria-label={label}
      >
        <rect x={u.box.x} y={u.box.y} width={u.box.w} height={u.box.h} rx={6} />
        <text x={u.box.x + 10} y={u.box.y + 18} className="topo-underlay-label">
          underlay {u.info.cidr}
        </text>
        <text x={u.box.x + 10} y={u.box.y + 34} className="topo-underlay-sub">
          {clipText(MODE_WORDS[u.info.mode], Math.max(20, Math.floor((u.box.w - 220) / 6.2)))}
        </text>
      </g>
      <g className={`topo-router${onWire?.router ? hopClass(onWire.drop ? 'drop' : 'hop') : ''}`}>
        <rect x={u.router.x} y={u.router.y} width={u.router.w} height={u.router.h} rx={4} />
        <text x={u.router.x + 8} y={u.router.y + 20} className="topo-router-label">
          router {u.info.gateway} (outside)
        </text>
      </g>
    </g>
  );
}

/** A node's wires down from the underlay: solid to its NIC, dashed to a VXLAN device. */
function Wires({
  drops,
  hop,
}: {
  drops: readonly UnderlayDrop[];
  hop: HopTarget | null | undefined;
}) {
  const onWire = hop?.underlay && !hop.router ? hop : null;
  return (
    <>
      {drops.map((d) => (
        <line
          key={d.ifindex}
          className={`topo-wire${d.tunnel ? ' is-tunnel' : ''}${
            onWire && onWire.node === d.node && !d.tunnel ? ' is-hop' : ''
          }`}
          x1={d.x}
          y1={d.y1}
          x2={d.x}
          y2={d.y2}
        />
      ))}
    </>
  );
}

/** The current hop's label over what it is drawn on. */
function HopCallout({ box, hop, n }: { box: Box; hop: HopTarget; n: string }) {
  const text = `${n} ${hop.drop ? `✕ ${hop.label}` : hop.label}`;
  const w = Math.max(80, text.length * 6.6 + 14);
  const y = Math.max(0, box.y - 22);
  return (
    <g className={`topo-callout${hop.drop ? ' is-drop' : ''}`} aria-hidden="true">
      <rect x={box.x} y={y} width={w} height={20} rx={4} />
      <text x={box.x + 7} y={y + 14}>
        {text}
      </text>
    </g>
  );
}

export interface DrawingProps {
  state: WorldState;
  /** The world before the step: what the step removed is drawn ghosted from it. */
  prev?: WorldState | undefined;
  lay: Layout;
  /** Marks by the topology's keys: `node/nsId` and `node/nsId/ifindex`. */
  marks: ReadonlyMap<string, DrawMark>;
  /** The words a mark adds to an item's name (module-level functions: cells compare them). */
  words(m: DrawMark): string;
  /** The packet walk's current hop, and its number ("3/27"). */
  hop?: { target: HopTarget; n: string } | null | undefined;
  onHover?: ((key: string | null) => void) | undefined;
}

/** The drawing's <g>: the underlay, then each node with its host namespace and pod cells. */
export function TopologyDrawing({ state, prev, lay, marks, words, hop, onHover }: DrawingProps) {
  const target = hop?.target ?? null;
  const hopMark: 'hop' | 'drop' = target?.drop ? 'drop' : 'hop';
  const box = target ? hopBox(lay, state, target) : null;
  const wiresOf = new Map<string, UnderlayDrop[]>();
  for (const d of lay.underlay?.drops ?? []) {
    const l = wiresOf.get(d.node);
    if (l) l.push(d);
    else wiresOf.set(d.node, [d]);
  }
  // Marks grouped by namespace (`node/nsId`), so that each cell reads its own.
  const byNs = new Map<string, string[]>();
  for (const [k, m] of marks) {
    const a = k.indexOf('/');
    const b = k.indexOf('/', a + 1);
    const ns = b < 0 ? k : k.slice(0, b);
    const l = byNs.get(ns);
    if (l) l.push(`${k}=${m}`);
    else byNs.set(ns, [`${k}=${m}`]);
  }
  return (
    <>
      <Underlay lay={lay} state={state} hop={target} />
      {lay.nodes.map((nl) => {
        const node = state.nodes[nl.node.name];
        if (!node) return null;
        const kernel = node.kernel;
        const ctrd = node.containerd;
        const root = tget(kernel.netns, nl.node.root);
        if (!root) return null;
        // What this step removed is read from the state before it.
        const prevKernel = prev?.nodes[nl.node.name]?.kernel;
        const prevRoot = prevKernel ? tget(prevKernel.netns, nl.node.root) : undefined;
        const hostKey = `${nl.node.name}/${root.id}`;
        const parts: string[] = [];
        for (const i of nl.node.hostLinks) {
          const l = root.links[i];
          if (l?.kind === 'bridge') parts.push(`${i}=${l.name}`);
        }
        const hostNames = parts.join(',');
        const bridges = parseNames(hostNames);
        const hostMark = marks.get(hostKey);
        const hostHop = target && !target.linkKey && target.nsKey === hostKey ? hopMark : null;
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
            <g
              className={`topo-ns topo-hostns${markClass(hostMark)}${hopClass(hostHop)}`}
              tabIndex={0}
              role="group"
              aria-label={`Host namespace of ${nl.node.name}${hostMark ? words(hostMark) : ''}: ${nl.node.hostLinks
                .map((i) => root.links[i])
                .filter((l): l is Link => !!l && l.kind !== 'loopback')
                .map(
                  (l) =>
                    `${l.name} ${addrText(l).join(' ')}${(() => {
                      const m = marks.get(`${hostKey}/${l.ifindex}`);
                      return m ? words(m) : '';
                    })()}`,
                )
                .join(', ')}`}
              onMouseEnter={onHover && (() => onHover(hostKey))}
              onMouseLeave={onHover && (() => onHover(null))}
              onFocus={onHover && (() => onHover(hostKey))}
              onBlur={onHover && (() => onHover(null))}
            >
              <rect
                x={nl.hostBox.x}
                y={nl.hostBox.y}
                width={nl.hostBox.w}
                height={nl.hostBox.h}
                rx={6}
              />
            </g>
            {/* The wires from the underlay run behind the labels (which have a halo). */}
            <Wires drops={wiresOf.get(nl.node.name) ?? []} hop={target} />
            <text className="topo-node-label" x={nl.box.x + 10} y={nl.box.y + 19}>
              {nl.node.name}
              {ctrd && (
                <tspan className="topo-node-release">
                  {` · ${ctrd.settings.runtime ?? 'containerd'} ${ctrd.settings.version}`}
                </tspan>
              )}
            </text>
            <text
              x={nl.hostBox.x + 8}
              y={nl.hostBox.y + 18}
              className="topo-ns-label topo-host-label"
              aria-hidden="true"
            >
              host namespace
            </text>
            {nl.hostChips.map((c) => {
              const l = root.links[c.ifindex] ?? prevRoot?.links[c.ifindex];
              const key = `${hostKey}/${c.ifindex}`;
              return l ? (
                <LinkChip
                  key={c.ifindex}
                  link={l}
                  box={c.box}
                  host
                  master={l.master !== null ? (bridges[l.master] ?? null) : null}
                  mark={marks.get(key) ?? null}
                  words={words}
                  hop={target?.linkKey === key ? hopMark : null}
                />
              ) : null;
            })}
            {nl.cells.map((c) => {
              const nsKey = `${nl.node.name}/${c.ns.id}`;
              const keys = [...(byNs.get(nsKey) ?? [])];
              const hopKeys: string[] = [];
              if (target?.nsKey === nsKey) hopKeys.push(`${target.linkKey ?? nsKey}=${hopMark}`);
              for (const p of c.peers) {
                const m = marks.get(`${hostKey}/${p.ifindex}`);
                if (m) keys.push(`${nl.node.name}/root/${p.ifindex}=${m}`);
                if (target?.linkKey === `${hostKey}/${p.ifindex}`)
                  hopKeys.push(`${nl.node.name}/root/${p.ifindex}=${hopMark}`);
              }
              const changed = keys.join(' ');
              const before = changed.includes('=removed')
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
                  changed={changed}
                  hop={hopKeys.join(' ')}
                  node={nl.node.name}
                  words={words}
                  onHover={onHover}
                />
              );
            })}
          </g>
        );
      })}
      {target && box && <HopCallout box={box} hop={target} n={hop!.n} />}
    </>
  );
}
