/**
 * The landing's precomputed trace: the default sandbox's first `LANDING_EVENTS` events, with
 * what the landing's views (Steps, Inspector, Pods) show at each of them, computed by the engine
 * at build time (landing-trace-build.ts, served as `virtual:cnisim-landing-trace` by
 * vite.config.ts). The first screen is painted from it, and "Step forward" and "Step back" move
 * through it while the engine loads; the engine's session then takes over at the step reached
 * (app/preview.ts). landing-trace.test.ts checks it against the engine's own session, step by
 * step and at every detail level, so the two cannot drift apart.
 */
import { levelShows, type Level, type Marker, type TraceEvent } from '../engine';
import type { StepDetail } from './panels/inspector-data';
import type { PodsData } from './panels/pods-data';

export interface LandingTrace {
  /** The session's cursor when it opens: the last event of the nodes' boot. */
  start: number;
  /** The first events of the sandbox's trace. */
  events: TraceEvent[];
  /**
   * How many events the session has computed once it has reached step i (it computes in units
   * of one or more events): the timeline's length at each step.
   */
  lengths: number[];
  /** The timeline's markers among them. */
  markers: Marker[];
  /** What the Inspector shows of each event. */
  details: StepDetail[];
  /** The Pods view's data, each different one once: `podsAt[i + 1]` is the one at step i. */
  pods: PodsData[];
  podsAt: number[];
}

/** The next step shown at `level` after `cursor` (Session.stepForward); null past the trace. */
export function nextStep(t: LandingTrace, cursor: number, level: Level): number | null {
  for (let i = cursor + 1; i < t.events.length; i++)
    if (levelShows(level, t.events[i]!.level)) return i;
  return null;
}

/** The step before `cursor` shown at `level`, or -1 (Session.stepBack); null at -1 already. */
export function previousStep(t: LandingTrace, cursor: number, level: Level): number | null {
  if (cursor < 0) return null;
  for (let i = Math.min(cursor, t.events.length) - 1; i >= 0; i--)
    if (levelShows(level, t.events[i]!.level)) return i;
  return -1;
}

/** The Pods view's data at step `i` (-1: before the first event). */
export function podsAtStep(t: LandingTrace, i: number): PodsData {
  return t.pods[t.podsAt[i + 1]!]!;
}
