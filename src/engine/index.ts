/**
 * The engine's facade: the one module the UI (src/ui, src/embed, src/element) imports from
 * src/engine. Lint forbids deeper imports from there.
 *
 * - Types: everything a view reads (the world, the trace, a session and its actions, the course).
 *   They cost nothing at run time.
 * - `LEVELS`, the trace's detail levels: the only value the first screen needs, from a module
 *   without value imports.
 * - Readers of the world's tables and directories (`tget`, `entriesIn`, ...): small pure
 *   functions that views call as they render, from the two bottom modules state/table.ts and
 *   fs/vfs.ts; a bundle holds only the ones it calls, and they import nothing else.
 * - Every other value is reached through an async loader below, so that this module pulls no
 *   simulation code into the first screen's bytes: each loader is one lazy chunk (shared code is
 *   split out by the bundler), fetched when the UI first needs it.
 */

export { LEVELS, levelShows } from './session/view';
/** A session's limits (the longest file an action may write, ...): constants, no code. */
export { LIMITS } from './session/limits';
export { isTable, tchangedKeys, tentries, tget, tkeys, tvalues, type Table } from './state/table';
export { dirChildren, entriesIn, entryIn, namesIn, stat } from './fs/vfs';
export type { Inflight } from './node/inspect';

/**
 * A part of the engine that loads late: calling it fetches the part (once) and resolves to it; `now()` returns it synchronously once fetched, and throws before.
 * The UI fetches a part before it shows what uses it (a lazy chunk's loader awaits it), so that
 * components and the functions they call can use `now()`.
 */
export interface Late<T> {
  (): Promise<T>;
  now(): T;
}

function late<T>(fetch: () => Promise<T>): Late<T> {
  let part: T | undefined;
  let pending: Promise<T> | undefined;
  const now = () => {
    if (part === undefined) throw new Error('cnisim: engine part not loaded');
    return part;
  };
  return Object.assign(() => (pending ??= fetch().then((m) => (part = m))), { now });
}

/**
 * The engine the landing steps through (the default sandbox), without the node shell, the fault
 * catalogue, zod and the plugins the default conflist does not use: the app fetches it first,
 * so that "Step forward" works early, and the whole engine (`loadEngine`) right after.
 */
export const loadLanding = late(() => import('./landing'));
/**
 * The engine the app drives: sessions (with their saved form), the default cluster, plugin
 * builds, and what the panels read (pods, journals, error events, Go's JSON scanner).
 */
export const loadEngine = late(() => import('./app'));
/** A node's terminal: one command line against a session, and Tab completion. */
export const loadTerminal = late(() => import('./terminal'));
/** The fault catalogue, and whether a fault can be injected at a step. */
export const loadFaults = late(() => import('./faults'));
/** The course: lessons and challenges (their data), goals, quiz, narration, handouts. */
export const loadCourseEngine = late(() => import('./course'));
/** A scenario (a lesson's or a file's) as a Session, without the course's data. */
export const loadScenarioSession = late(() => import('./course/session'));
/** Bring your own node (docs/your-node.md): read a node bundle, build the node, dry-run it, report. */
export const loadNodeBundle = late(() => import('./bundle'));
export type EngineModule = Awaited<ReturnType<typeof loadEngine>>;
export type LandingEngine = Awaited<ReturnType<typeof loadLanding>>;
export type CourseEngine = Awaited<ReturnType<typeof loadCourseEngine>>;

export type { PodObj } from './state/api';
export type { BundleFile, NodeReport } from './bundle';
export type { PodRow } from './apiserver/apiserver';
export type { ClusterSpec } from './cluster/cluster';
export type {
  HintLevel,
  GoalResult,
  CheckContext,
  ChallengeRun,
  Verdict,
  PendingPrediction,
  PredictionOutcome,
  ComparedSection,
  ComparedItem,
  Debrief,
  Attempt,
  AttemptEvent,
} from './course';
export type { Lesson, Challenge, QuizQuestion, Goal, Prediction, Track } from './course/schema';
export type { Handout } from './course/handout';
export type { FaultDef } from './faults';
export type { FsFile, FsState } from './fs/vfs';
export type { KernelState, Link, LinkLife, Netns, Route } from './kernel/types';
export type { Unit } from './node/journal';
export type { ContainerdState } from './state/containerd';
export type { SavedSession } from './session/serialize';
export type { Job, PerformResult, RunEnd, Session } from './session/session';
export type { Repetition } from './session/repeats';
export type { SessionAction } from './session/actions';
export type { StopCondition } from './session/conditions';
export type { TermState } from './session/terminal';
export type { Marker, MarkerKind, SessionView, ViewProps } from './session/view';
export type { ActorRecord, NodeState, WorldState } from './sim/world';
export type { EventKind, Level, TraceEvent } from './trace/trace';
export type { Endpoint, WalkResult, WalkSpec } from './dataplane/api';
export type { DropReason, Hop, HopStep } from './dataplane/walk';
