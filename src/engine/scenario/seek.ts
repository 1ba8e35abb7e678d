/**
 * Seeking: what a view needs at any step of a long trace, fast. The world after each event is
 * already kept (`sim.states[i]`); what would cost a pass over the trace at every seek (a node's
 * journal up to the step, the trace's counts) comes from an index built once, incrementally, as
 * the trace grows. The trace is append-only, so an index stays valid; one whose events array
 * shrank (a replay writing a new history) is rebuilt. Nothing here changes the simulation.
 */
import { podRows, type PodRow } from '../apiserver/apiserver';
import type { Cluster } from '../cluster/cluster';
import { journalLine, type LogPayload } from '../node/journal';
import type { WorldState } from '../sim/world';
import type { TraceEvent } from '../trace/trace';
import { isErrorEvent } from './condition';

export interface TraceCounts {
  /** Events counted: those up to and including the step. */
  events: number;
  byKind: Record<string, number>;
  byLevel: Record<string, number>;
  /** Failures: plugins exiting non-zero or killed, failed libcni and CRI calls. */
  errors: number;
}

interface NodeJournal {
  /** Indices of the node's log events, ascending. */
  seq: number[];
  /** Their journalctl lines. */
  lines: string[];
  units: LogPayload['unit'][];
}

/** How many events apart the counts are kept. */
const CHECKPOINT = 512;

function emptyCounts(): TraceCounts {
  return { events: 0, byKind: {}, byLevel: {}, errors: 0 };
}

function addTo(c: TraceCounts, e: TraceEvent): void {
  c.events++;
  c.byKind[e.kind] = (c.byKind[e.kind] ?? 0) + 1;
  c.byLevel[e.level] = (c.byLevel[e.level] ?? 0) + 1;
  if (isErrorEvent(e)) c.errors++;
}

function copyCounts(c: TraceCounts): TraceCounts {
  return { events: c.events, byKind: { ...c.byKind }, byLevel: { ...c.byLevel }, errors: c.errors };
}

/** The last index i with xs[i] <= v, or -1. */
function lastAtMost(xs: readonly number[], v: number): number {
  let lo = 0;
  let hi = xs.length - 1;
  let best = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (xs[mid]! <= v) {
      best = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return best;
}

export class TraceIndex {
  private indexed = 0;
  private journals = new Map<string, NodeJournal>();
  /** checkpoints[k]: counts of events [0, k * CHECKPOINT). */
  private checkpoints: TraceCounts[] = [emptyCounts()];
  private running = emptyCounts();

  constructor(readonly events: readonly TraceEvent[]) {}

  /** Indexes the events recorded since the last call. */
  update(): void {
    if (this.events.length < this.indexed) this.reset();
    for (; this.indexed < this.events.length; this.indexed++) {
      const e = this.events[this.indexed]!;
      if (e.kind === 'log' && e.node !== null) {
        let j = this.journals.get(e.node);
        if (!j) this.journals.set(e.node, (j = { seq: [], lines: [], units: [] }));
        j.seq.push(this.indexed);
        j.lines.push(journalLine(e));
        j.units.push(e.payload.unit);
      }
      addTo(this.running, e);
      if ((this.indexed + 1) % CHECKPOINT === 0) this.checkpoints.push(copyCounts(this.running));
    }
  }

  private reset(): void {
    this.indexed = 0;
    this.journals = new Map();
    this.checkpoints = [emptyCounts()];
    this.running = emptyCounts();
  }

  /** A node's journalctl lines up to and including event `upTo` (the last `last` of them). */
  journal(node: string, upTo: number, opts: { last?: number; units?: readonly string[] } = {}) {
    this.update();
    const j = this.journals.get(node);
    if (!j) return [];
    const end = lastAtMost(j.seq, upTo) + 1;
    if (!opts.units)
      return j.lines.slice(opts.last === undefined ? 0 : Math.max(0, end - opts.last), end);
    const out: string[] = [];
    for (let i = end - 1; i >= 0 && (opts.last === undefined || out.length < opts.last); i--)
      if (opts.units.includes(j.units[i]!)) out.push(j.lines[i]!);
    return out.reverse();
  }

  /** Counts of the events up to and including `upTo`. */
  counts(upTo: number): TraceCounts {
    this.update();
    const n = Math.max(0, Math.min(upTo + 1, this.events.length));
    const k = Math.floor(n / CHECKPOINT);
    const out = copyCounts(this.checkpoints[k]!);
    for (let i = k * CHECKPOINT; i < n; i++) addTo(out, this.events[i]!);
    return out;
  }
}

const indexes = new WeakMap<readonly TraceEvent[], TraceIndex>();

/** The index of a trace (one per events array, kept as long as the array lives). */
export function traceIndex(events: readonly TraceEvent[]): TraceIndex {
  let ix = indexes.get(events);
  if (!ix) indexes.set(events, (ix = new TraceIndex(events)));
  return ix;
}

/** The world after event `step`; at the last event, now (the clock may have moved on). */
export function stateAt(c: Cluster, step: number): WorldState {
  if (step >= c.events.length - 1) return c.sim.state;
  return c.sim.states[step] ?? c.sim.initial;
}

export interface SeekView {
  step: number;
  state: WorldState;
  /** kubectl get pods -o wide, as rows. */
  pods: PodRow[];
  /** Each node's journal up to the step (its last `journal` lines). */
  journal: Record<string, string[]>;
}

/** What the cluster views show at `step`: the world, the pods, the journals. */
export function seekView(c: Cluster, step: number, opts: { journal?: number } = {}): SeekView {
  const s = Math.max(-1, Math.min(step, c.events.length - 1));
  const state = stateAt(c, s);
  const ix = traceIndex(c.events);
  const journal: Record<string, string[]> = {};
  for (const node of c.nodes.keys())
    journal[node] = ix.journal(node, s, opts.journal === undefined ? {} : { last: opts.journal });
  return { step: s, state, pods: state.api ? podRows(state.api, state.clock) : [], journal };
}
