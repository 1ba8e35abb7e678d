/**
 * State charts drawn from the XState machine definitions the simulation runs: the states and
 * transitions are read from the machine objects themselves (`machine.root.states`, each state
 * node's `transitions` and `after`), not written down a second time, so the chart cannot drift
 * from the code. Plus the actors' current states in a world state, and the lifecycle of kernel
 * links (`Link.life`).
 */
import type { AnyStateMachine } from 'xstate';
import {
  tentries,
  tget,
  tvalues,
  type ActorRecord,
  type KernelState,
  type LinkLife,
  type TraceEvent,
  type WorldState,
} from '../../../engine';

export interface ChartState {
  /** The state's key (its value when active). */
  key: string;
  initial: boolean;
  final: boolean;
  /** Events the state takes without changing state (it ignores them or only updates context). */
  internal: string[];
  layer: number;
  row: number;
}

export interface ChartEdge {
  from: string;
  to: string;
  /** The event's type, or `after <delay>` for a delayed transition. */
  label: string;
  event: string;
  guard: string | null;
  delayed: boolean;
}

export interface Chart {
  id: string;
  states: ChartState[];
  edges: ChartEdge[];
  /** Transitions the machine takes from any state (declared on its root). */
  fromAny: ChartEdge[];
  layers: number;
}

interface StateNodeLike {
  key: string;
  type: string;
  states: Record<string, StateNodeLike>;
  transitions: Map<string, Array<{ target?: readonly StateNodeLike[]; guard?: unknown }>>;
  after: Array<{ delay: string | number; eventType: string }>;
  initial?: { target: readonly StateNodeLike[] };
  parent?: StateNodeLike;
}

function guardName(g: unknown): string | null {
  if (!g) return null;
  if (typeof g === 'string') return g;
  if (typeof g === 'object' && 'type' in g) return String((g as { type: unknown }).type);
  if (typeof g === 'function') return g.name || 'guard';
  return 'guard';
}

/** The top-level state that `n` is or is inside of. */
function topKey(n: StateNodeLike, root: StateNodeLike): string {
  let cur = n;
  while (cur.parent && cur.parent !== root) cur = cur.parent;
  return cur.key;
}

function edgesOf(node: StateNodeLike, root: StateNodeLike, from: string): ChartEdge[] {
  const delays = new Map(node.after.map((a) => [a.eventType, String(a.delay)]));
  const out: ChartEdge[] = [];
  for (const [event, ts] of node.transitions) {
    for (const t of ts) {
      if (!t.target || t.target.length === 0) continue;
      for (const target of t.target) {
        const delay = delays.get(event);
        out.push({
          from,
          to: topKey(target, root),
          event,
          label: delay !== undefined ? `after ${delay}` : event,
          guard: guardName(t.guard),
          delayed: delay !== undefined,
        });
      }
    }
  }
  return out;
}

/**
 * The chart of a machine's top-level states. Layers: a breadth-first walk from the initial state;
 * states only reached from "any state" transitions (deletion, a daemon going down) start a new
 * layer after the others, so a lifecycle reads from left to right.
 */
export function chartOf(machine: AnyStateMachine): Chart {
  const root = machine.root as unknown as StateNodeLike;
  const keys = Object.keys(root.states);
  const initialKey = root.initial?.target[0]?.key ?? keys[0] ?? '';
  const edges: ChartEdge[] = [];
  const internal = new Map<string, string[]>();
  for (const k of keys) {
    const n = root.states[k]!;
    edges.push(...edgesOf(n, root, k));
    internal.set(
      k,
      [...n.transitions.entries()]
        .filter(([, ts]) => ts.every((t) => !t.target || t.target.length === 0))
        .map(([e]) => e),
    );
  }
  const fromAny = edgesOf(root, root, '*');
  const layer = new Map<string, number>();
  const bfs = (starts: string[], at: number) => {
    let frontier = starts.filter((s) => !layer.has(s));
    for (const s of frontier) layer.set(s, at);
    while (frontier.length) {
      const next: string[] = [];
      for (const s of frontier) {
        for (const e of edges) {
          if (e.from === s && !layer.has(e.to)) {
            layer.set(e.to, layer.get(s)! + 1);
            next.push(e.to);
          }
        }
      }
      frontier = next;
    }
  };
  bfs([initialKey], 0);
  const maxLayer = () => Math.max(-1, ...layer.values());
  const anyTargets = [...new Set(fromAny.map((e) => e.to))].filter((k) => !layer.has(k));
  if (anyTargets.length) bfs(anyTargets, maxLayer() + 1);
  for (const k of keys) if (!layer.has(k)) bfs([k], maxLayer() + 1);
  const rows = new Map<number, number>();
  const states: ChartState[] = keys.map((k) => {
    const l = layer.get(k)!;
    const row = rows.get(l) ?? 0;
    rows.set(l, row + 1);
    return {
      key: k,
      initial: k === initialKey,
      final: root.states[k]!.type === 'final',
      internal: internal.get(k) ?? [],
      layer: l,
      row,
    };
  });
  return { id: machine.id, states, edges, fromAny, layers: maxLayer() + 1 };
}

// ---------------------------------------------------------------------------------------------
// Layout

export const STATE_W = 150;
export const STATE_H = 34;
const COL_GAP = 70;
const ROW_GAP = 26;
const TOP = 30;

export interface ChartLayout {
  width: number;
  height: number;
  boxes: Map<string, { x: number; y: number; w: number; h: number }>;
}

export function layoutChart(c: Chart): ChartLayout {
  const boxes = new Map<string, { x: number; y: number; w: number; h: number }>();
  let rows = 0;
  for (const s of c.states) {
    rows = Math.max(rows, s.row + 1);
    boxes.set(s.key, {
      x: 10 + s.layer * (STATE_W + COL_GAP),
      y: TOP + s.row * (STATE_H + ROW_GAP),
      w: STATE_W,
      h: STATE_H,
    });
  }
  return {
    width: 20 + c.layers * STATE_W + Math.max(0, c.layers - 1) * COL_GAP,
    height: TOP + rows * (STATE_H + ROW_GAP) + 10,
    boxes,
  };
}

// ---------------------------------------------------------------------------------------------
// Actors

/** The top-level state of an actor's value (`a.b` → `a`). */
export function topState(value: ActorRecord['value']): string {
  if (typeof value === 'string') return value;
  const k = Object.keys(value)[0];
  return k ?? '';
}

export interface ActorView {
  id: string;
  state: string;
  record: ActorRecord;
}

/** The actors of `kind` on `node` (by their context's node), in id order. */
export function actorsOf(state: WorldState, kind: string, node: string | null): ActorView[] {
  const out: ActorView[] = [];
  for (const [id, a] of tentries(state.actors)) {
    if (a.machine !== kind) continue;
    const n = (a.context as { node?: unknown }).node;
    if (node !== null && n !== undefined && n !== node) continue;
    out.push({ id, state: topState(a.value), record: a });
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

export function countByState(actors: readonly ActorView[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const a of actors) m.set(a.state, (m.get(a.state) ?? 0) + 1);
  return m;
}

export interface Move {
  actor: string;
  machine: string;
  from: string | null;
  to: string;
  event: string | null;
}

/** The state change a trace event records, if it is one. */
export function moveOf(e: TraceEvent | undefined): Move | null {
  if (!e || e.kind !== 'state') return null;
  const p = e.payload;
  if (!('actor' in p)) return null;
  return {
    actor: p.actor,
    machine: p.machine,
    from: p.from !== undefined ? topState(p.from) : null,
    to: topState(p.to),
    event: p.event ?? null,
  };
}

// ---------------------------------------------------------------------------------------------
// Kernel links

export const LINK_LIVES: readonly LinkLife[] = ['created', 'moved', 'up', 'down'];

/** Links of a node's kernel per life state (all namespaces). */
export function linkLives(k: KernelState): Map<LinkLife, number> {
  const m = new Map<LinkLife, number>(LINK_LIVES.map((l) => [l, 0]));
  for (const ns of tvalues(k.netns)) {
    for (const l of Object.values(ns.links)) m.set(l.life, (m.get(l.life) ?? 0) + 1);
  }
  return m;
}

export interface LifeMove {
  name: string;
  ns: string;
  from: LinkLife | 'none';
  to: LinkLife | 'deleted';
}

const ZERO_MAC = '00:00:00:00:00:00';

/** Links are matched across namespaces by MAC; loopbacks (all-zero MAC) only within theirs. */
function macKey(ns: string, l: { mac: string; ifindex: number }): string {
  return l.mac === ZERO_MAC || l.mac === '' ? `${ns}/${l.ifindex}` : l.mac;
}

/** Links whose life changed between two kernels (made, moved, brought up or down, deleted). */
export function lifeMoves(prev: KernelState | undefined, k: KernelState): LifeMove[] {
  if (!prev || prev.netns === k.netns) return [];
  const out: LifeMove[] = [];
  const gone = new Map<string, LifeMove>();
  for (const ns of tvalues(prev.netns)) {
    const now = tget(k.netns, ns.id);
    if (now === ns) continue;
    for (const l of Object.values(ns.links)) {
      if (!now?.links[l.ifindex] || now.links[l.ifindex]!.mac !== l.mac)
        gone.set(macKey(ns.id, l), { name: l.name, ns: ns.id, from: l.life, to: 'deleted' });
    }
  }
  for (const ns of tvalues(k.netns)) {
    const pns = tget(prev.netns, ns.id);
    if (pns === ns) continue;
    for (const l of Object.values(ns.links)) {
      const b = pns?.links[l.ifindex];
      if (b && b.mac === l.mac) {
        if (b.life !== l.life) out.push({ name: l.name, ns: ns.id, from: b.life, to: l.life });
        continue;
      }
      // New here: made now, or moved from another namespace (a link keeps its MAC when it moves).
      const from = gone.get(macKey(ns.id, l));
      if (from) {
        gone.delete(macKey(ns.id, l));
        out.push({ name: l.name, ns: ns.id, from: from.from, to: l.life });
      } else out.push({ name: l.name, ns: ns.id, from: 'none', to: l.life });
    }
  }
  out.push(...gone.values());
  return out;
}
