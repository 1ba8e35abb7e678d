/**
 * What a view of the app may read of a session: the trace, the world after each step, the
 * current step, the detail level and the machine definitions. Read-only: views never change the
 * simulation; they ask for another step through `onSelectStep`.
 *
 * Views receive `{ session: SessionView; step: number; onSelectStep(i: number): void }`.
 *
 * Caching: `events` and `states` only grow while `revision` stays the same (stepping forward
 * computes more of the trace; stepping back reads it). When the user changes the past (an
 * action performed after stepping back, a new sandbox, a loaded one), the trace is recomputed
 * and `revision` changes: drop everything derived from the old trace. A cache keyed on
 * `(revision, events.length)` is always right; one keyed on `revision` alone is right for
 * anything about steps that already existed.
 */
import type { AnyStateMachine } from 'xstate';
import type { ClusterSpec, NodeAudit } from '../cluster/cluster';
import type { WorldState } from '../sim/world';
import type { Level, TraceEvent } from '../trace/trace';

/** Detail levels from least to most detailed; a level shows its events and those above it. */
export const LEVELS: readonly Level[] = ['cluster', 'runtime', 'cni', 'kernel'];

/** Whether an event of level `eventLevel` is shown at detail level `detail`. */
export function levelShows(detail: Level, eventLevel: Level): boolean {
  return LEVELS.indexOf(eventLevel) <= LEVELS.indexOf(detail);
}

export type MarkerKind = 'action' | 'fault' | 'error' | 'pod-running';

/** A point of the timeline worth a mark on the scrubber. */
export interface Marker {
  step: number;
  kind: MarkerKind;
  /** One line, plain text (never HTML). */
  label: string;
}

export interface SessionView {
  /** Every event computed so far; `events[i].seq === i`. */
  readonly events: readonly TraceEvent[];
  /** `states[i]` is the world right after `events[i]`. */
  readonly states: readonly WorldState[];
  /** The world before the first event. */
  readonly initial: WorldState;
  /** The current step: an index into `events`, or -1 before the first event. */
  readonly cursor: number;
  /** The detail level: events below it are folded away (see `levelShows`). */
  readonly level: Level;
  /** Changes whenever the trace is recomputed from the start (see the file comment). */
  readonly revision: number;
  /** The cluster the session simulates and its seed. */
  readonly spec: ClusterSpec;
  readonly seed: number;
  /** Node names in the spec's order. */
  readonly nodeNames: readonly string[];
  /** Faults, errors, pods turning Running and the user's actions, in step order. */
  readonly markers: readonly Marker[];
  /** The world at step `i` (-1: the initial world); clamped to the computed trace. */
  stateAt(i: number): WorldState;
  /** Whether an event shows at the current detail level. */
  isVisible(e: TraceEvent): boolean;
  /**
   * XState machine definitions by the name `WorldState.actors[id].machine` carries
   * (`podWorker`, `kubelet`, `containerd`, `sandbox`, ...), for drawing state charts.
   */
  readonly machines: Readonly<Record<string, AnyStateMachine>>;
  /** Per node: IPAM use against pods, host veths, cache files and what is left behind. */
  audit(state: WorldState): NodeAudit[];
}

/** The props every view of the app receives. */
export interface ViewProps {
  session: SessionView;
  step: number;
  onSelectStep(i: number): void;
}
