/**
 * Where "run until" stops, and which events the timeline marks: plugin calls, errors, pods
 * turning Running or gone, Kubernetes events, faults. Each is a function of the trace and the states, so a saved session's
 * markers are recomputed, never stored.
 */
import { isErrorEvent } from '../scenario/condition';
import type { WorldState } from '../sim/world';
import type { TraceEvent } from '../trace/trace';
import { tget, tkeys } from '../state/table';

/** Conditions "run until" understands. `predicate` is for headless use (not serialisable). */
export type StopCondition =
  | { kind: 'plugin'; name?: string }
  | { kind: 'error' }
  | { kind: 'pod-running'; pod?: string }
  /** A Kubernetes Event sent to the API server (of one reason, e.g. FailedKillPod). */
  | { kind: 'k8s-event'; reason?: string }
  /** A pod's object removed from the API server (deleted and its sandbox gone). */
  | { kind: 'pod-gone'; pod?: string }
  | { kind: 'fault' }
  | { kind: 'idle' }
  | {
      kind: 'predicate';
      test: (e: TraceEvent, i: number, state: WorldState, before: WorldState) => boolean;
    };

/**
 * Whether an event is a failure: a plugin exiting non-zero or killed, a failed libcni call or CRI
 * request (the scenario runner's definition: a kernel call a plugin expects to fail, such as
 * `iptables -N` of an existing chain, is not one).
 */
export { isErrorEvent };

/** A plugin process starting (`exec` of a binary, delegated IPAM included). */
export function isPluginExec(e: TraceEvent, name?: string): boolean {
  return e.kind === 'exec' && (name === undefined || e.target === name);
}

/** Pods (namespace/name) whose container runs after the event and did not before it. */
export function podsTurnedRunning(e: TraceEvent, before: WorldState, after: WorldState): string[] {
  if (e.kind !== 'api' || !after.api) return [];
  // Tables are immutable: an event that left the pods' table as it was turned no pod Running
  // (with 110 pods, checking each of them on every API event was most of a timeline's scan).
  if (before.api && after.api.pods === before.api.pods) return [];
  const out: string[] = [];
  const keys = 'pod' in e.payload ? [e.payload.pod] : tkeys(after.api.pods);
  for (const k of keys) {
    const now = tget(after.api.pods, k);
    const was = tget(before.api?.pods, k);
    if (now?.containerRunning && now.deletionTimestamp === null && !was?.containerRunning)
      out.push(k);
  }
  return out;
}

/** Pods (namespace/name) whose object the event removed from the API server. */
export function podsGone(e: TraceEvent, before: WorldState, after: WorldState): string[] {
  if (e.kind !== 'api' || !('pod' in e.payload)) return [];
  const k = e.payload.pod;
  return tget(before.api?.pods, k) !== undefined && tget(after.api?.pods, k) === undefined
    ? [k]
    : [];
}

function podMatches(key: string, pod: string | undefined): boolean {
  if (pod === undefined) return true;
  return pod.includes('/') ? key === pod : key === `default/${pod}`;
}

/**
 * Whether event `i` meets the condition. `faultSteps` holds the first step of each injected
 * fault; `idle` is handled by the caller (it is about the end of the trace, not an event).
 */
export function meets(
  c: StopCondition,
  e: TraceEvent,
  i: number,
  before: WorldState,
  after: WorldState,
  faultSteps: ReadonlySet<number>,
): boolean {
  switch (c.kind) {
    case 'plugin':
      return isPluginExec(e, c.name);
    case 'error':
      return isErrorEvent(e);
    case 'pod-running':
      return podsTurnedRunning(e, before, after).some((k) => podMatches(k, c.pod));
    case 'k8s-event':
      return (
        e.kind === 'api' &&
        'event' in e.payload &&
        (c.reason === undefined || e.payload.event.reason === c.reason)
      );
    case 'pod-gone':
      return podsGone(e, before, after).some((k) => podMatches(k, c.pod));
    case 'fault':
      return faultSteps.has(i);
    case 'idle':
      return false;
    case 'predicate':
      return c.test(e, i, after, before);
  }
}

/** A short text for a condition, e.g. for a "run until" menu. */
export function describeCondition(c: StopCondition): string {
  switch (c.kind) {
    case 'plugin':
      return c.name ? `${c.name} runs` : 'next plugin call';
    case 'error':
      return 'next error';
    case 'pod-running':
      return c.pod ? `pod ${c.pod} Running` : 'a pod is Running';
    case 'k8s-event':
      return c.reason ? `event ${c.reason}` : 'next Kubernetes event';
    case 'pod-gone':
      return c.pod ? `pod ${c.pod} gone` : 'the deleted pod is gone';
    case 'fault':
      return 'next fault';
    case 'idle':
      return 'nothing is left to happen';
    case 'predicate':
      return 'a condition';
  }
}
