/**
 * The simulated world (one or more nodes) as immutable data, plus the trace recorder that keeps
 * the state after every event: stepping back is reading an earlier snapshot, never an undo.
 */
import { current, isDraft, produce as immerProduce, setAutoFreeze, type Draft } from 'immer';
import { emptyFs, type FsState } from '../fs/vfs';
import type { KernelState } from '../kernel/types';
import { emptyKernel } from '../kernel/kernel';
import { Rng, rngSeed, type RngState } from '../rng';
import type { EventInit, TraceEvent } from '../trace/trace';
import type { ApiState } from '../state/api';
import type { ContainerdState } from '../state/containerd';
import { freezeChanged, freezeFresh } from '../state/freeze';
import type { KubeletState } from '../state/kubelet';
import { emptyTable, type Table } from '../state/table';

/**
 * Snapshots are frozen, all the way down. Besides catching code that would mutate one, freezing
 * is what keeps a change cheap: a frozen subtree is known to be shared with earlier snapshots,
 * so nothing walks it again. The freezing is ours, not immer's (its auto-freeze walks every new
 * object's properties through its generic helpers, about 7 % of a scale-up's time in a
 * profile): `produce` below freezes what a change made new with `freezeFresh`, which stops at
 * what is frozen already.
 */
setAutoFreeze(false);

/** immer's produce, its result frozen (see above). Every change to the world goes through it. */
export function produce<T>(base: T, recipe: (draft: Draft<T>) => T | void | undefined): T {
  return freezeChanged(immerProduce(base, recipe as never) as T, base);
}

export interface NodeState {
  name: string;
  kernel: KernelState;
  fs: FsState;
  /** containerd's own state on this node (absent on a bare node without a runtime). */
  containerd?: ContainerdState;
  kubelet?: KubeletState;
}

/** A hosted state machine's snapshot (see sched/machines.ts): plain data. */
export interface ActorRecord {
  machine: string;
  value: string | Record<string, unknown>;
  context: Record<string, unknown>;
  status: string;
}

export interface WorldState {
  nodes: Record<string, NodeState>;
  rng: RngState;
  /** Virtual time, microseconds. */
  clock: number;
  nextPid: number;
  /** State machines by actor id (pod workers, sandboxes, ...). */
  actors: Table<ActorRecord>;
  /** The API server's objects (absent without a cluster). */
  api?: ApiState;
  /** The network joining the nodes' eth0 (absent: nodes are not wired to each other). */
  underlay?: Underlay;
}

/** The L2 segment joining the nodes' NICs, its subnet and the router at its edge. */
export interface Underlay {
  segment: string;
  cidr: string;
  /** The router at the segment's edge (the outside); '' when the segment has none. */
  gateway: string;
  /** How pod traffic crosses nodes (the scenario's `network.mode`). */
  mode: 'host-gw' | 'vxlan' | 'none';
}

/**
 * A draft's value as plain frozen data, for reading it (or handing it to a persistent operation
 * such as the file system's) without going through the draft's proxies: an unchanged draft gives
 * its base at no cost. Reading through a draft makes a proxy of every object it reaches.
 */
export function settled<T>(x: T | Draft<T>): T {
  return (isDraft(x) ? current(x as Draft<T>) : x) as T;
}

export function newWorld(seed: number): WorldState {
  return { nodes: {}, rng: rngSeed(seed), clock: 0, nextPid: 1000, actors: emptyTable() };
}

export function newNodeState(name: string): NodeState {
  return { name, kernel: emptyKernel(), fs: emptyFs() };
}

export type { EventInit };

/** Virtual durations of things, so that the trace has a plausible, deterministic timeline. */
export const COST_US = {
  kernel: 40,
  fs: 15,
  exec: 1500,
  exit: 200,
  libcni: 50,
  env: 100,
  note: 0,
  state: 0,
  log: 0,
  api: 0,
  cri: 50,
  packet: 5,
} as const;

export class Simulation {
  state: WorldState;
  readonly events: TraceEvent[] = [];
  /** states[i] is the world right after events[i]. */
  readonly states: WorldState[] = [];
  readonly initial: WorldState;

  constructor(state: WorldState) {
    this.state = state;
    this.initial = state;
  }

  /**
   * Replaces each MAC address drawn through `rng` (null: none). The conformance replay sets it to
   * put the random MACs in the order the recording implies: a bridge's own MAC is its lowest
   * port's, and a recording keeps placeholders, not the values.
   */
  macHook: ((drawn: string) => string) | null = null;

  /**
   * A random source whose draws are part of the world state, for a change made by `apply` (take
   * it before the change draws anything). It starts from the state before the change, read
   * outside the draft, and `commit` writes only when something was drawn: most changes draw
   * nothing, and reading or writing the draft would copy the generator's state for each.
   */
  rng(d: Draft<WorldState>): Rng & { commit(): void } {
    const start = this.state.rng;
    const r = new Rng(start) as Rng & { commit(): void };
    r.commit = () => {
      if (r.state !== start) d.rng = r.state as number[];
    };
    const hook = this.macHook;
    if (hook) {
      const draw = r.mac.bind(r);
      r.mac = () => hook(draw());
    }
    return r;
  }

  /**
   * Applies `change` to a draft of the world and records `ev` with the new state. If `change`
   * throws, nothing changes and the event is recorded with `error`; the error is rethrown. An
   * error marked `keepsState` (kernel KernelErrorAfterChange) keeps what `change` did first.
   */
  apply<T>(ev: EventInit, change: (d: Draft<WorldState>) => T): T {
    let out: T | undefined;
    let failure: unknown = null;
    let next: WorldState;
    const cost = COST_US[ev.kind as keyof typeof COST_US] ?? 10;
    try {
      next = produce(this.state, (d) => {
        d.clock += cost;
        try {
          out = change(d);
        } catch (e) {
          // A kernel call that failed after a change it does not undo: keep the change.
          if (!(e as { keepsState?: boolean }).keepsState) throw e;
          failure = e;
        }
      });
    } catch (e) {
      failure = e;
      next = freezeFresh({ ...this.state, clock: this.state.clock + cost });
    }
    this.push(failure ? { ...ev, error: (failure as Error).message ?? String(failure) } : ev, next);
    if (failure) throw failure;
    return out as T;
  }

  /** Records an event that changes nothing but the clock. */
  note(ev: EventInit): TraceEvent {
    const cost = COST_US[ev.kind as keyof typeof COST_US] ?? 0;
    const next = cost ? produce(this.state, (d) => void (d.clock += cost)) : this.state;
    return this.push(ev, next);
  }

  /** Draws random values from the world's seeded generator (no event: nothing visible changed). */
  random<T>(draw: (r: Rng) => T): T {
    const r = new Rng(this.state.rng);
    const out = draw(r);
    this.state = freezeFresh({ ...this.state, rng: r.state });
    return out;
  }

  /** Moves the clock forward to `t` (never back); no event. */
  advanceTo(t: number): void {
    if (t > this.state.clock) this.state = freezeFresh({ ...this.state, clock: t });
  }

  advance(us: number): void {
    this.state = produce(this.state, (d) => void (d.clock += us));
  }

  private push(ev: EventInit, next: WorldState): TraceEvent {
    // Object.assign, not `{ ...ev, seq, time }`: the same keys in the same order, but V8 builds
    // a spread that adds keys the source lacks about ten times more slowly (~2 µs per event).
    const full = Object.assign({}, ev, { seq: this.events.length, time: next.clock }) as TraceEvent;
    this.events.push(full);
    this.states.push(next);
    this.state = next;
    return full;
  }

  /**
   * A copy of this simulation as it was right after event `last` (-1: before the first), to try
   * something on (a shell's read at a past step) without touching this one's trace.
   */
  fork(last: number): Simulation {
    const n = Math.max(0, Math.min(last + 1, this.events.length));
    const f = new Simulation(this.initial);
    for (let i = 0; i < n; i++) {
      f.events.push(this.events[i]!);
      f.states.push(this.states[i]!);
    }
    f.state = n > 0 ? this.states[n - 1]! : this.initial;
    return f;
  }

  node(name: string): NodeState {
    const n = this.state.nodes[name];
    if (!n) throw new Error(`no such node: ${name}`);
    return n;
  }
}
