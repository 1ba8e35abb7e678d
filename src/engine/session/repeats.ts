/**
 * Telling a run that only repeats the same failure: a kubelet retrying a sandbox against a broken
 * conflist does the same thing every back-off, forever, and "run until a pod is Running" would
 * look at 200,000 events (17 virtual hours) before giving up. A `RepeatWatch` is fed the events
 * of a run; it says so once a failure has come back `REPEATS` times in a row, over a minute of
 * virtual time at least, with exactly the same events in between, apart from what changes on
 * every retry by itself: ids of sandboxes,
 * netns names, veth names and MACs, timestamps and durations. An address, a file name or a
 * count that grows (a reservation leaked on every retry) makes the rounds differ: that run goes
 * on, as it changes something.
 */
import { isErrorEvent } from './conditions';
import { STATUS_POLL_LINE } from '../kubelet/kubelet';
import { COMBINED_PREFIX } from '../apiserver/apiserver';
import { fnv1a } from '../state/hash';
import type { TraceEvent } from '../trace/trace';

/** Identical rounds in a row (the failure seen one time more) before a run is said to repeat. */
export const REPEATS = 3;

/**
 * ... spanning at least this much virtual time (µs): longer than the daemons' periodic work (the
 * kubelet's 5 s network status poll, its 10 s node status), so that a change a timer is about to
 * bring (a conflist fixed, seen at the next poll) is not mistaken for nothing changing.
 */
export const MIN_SPAN_US = 60_000_000;

/** How many different failures are followed at once (the oldest is forgotten). */
const TRACKED = 32;

/** A run that stopped because it only repeats a failure. */
export interface Repetition {
  /** The failure as the error of a round that says most says it (libcni's error, if any). */
  failure: string;
  node: string | null;
  /** Pods whose kubelet pod worker took part in a round (the pods being retried). */
  pods: string[];
  /** How many times the failure came in this run. */
  times: number;
  /** Events in one round. */
  round: number;
  /** The step of the failure's first event in this run. */
  firstStep: number;
}

const NORMALISE: [RegExp, string][] = [
  [/time="[^"]*"/g, 'time=T'],
  [/\b[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+/g, 'T'],
  [/\b\d{4}-\d\d-\d\dT[\d:.]+Z?/g, 'T'],
  [/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'U'],
  [/\b[0-9a-f]{12,64}\b/g, 'H'],
  [/\bveth[0-9a-f]{8}\b/g, 'vethX'],
  [/\b[0-9a-f]{2}(:[0-9a-f]{2}){5}\b/g, 'M'],
  [/\b\d+(\.\d+)?(ns|µs|us|ms|s|m|h)\b/g, 'D'],
  [/\bAttempt:\d+/g, 'Attempt:N'],
];

/** An event the kubelet sent, or that its event client folded or kept back: the same to a round. */
function sentForm(e: TraceEvent): { target: string; summary: string } {
  if (e.kind !== 'api') return e;
  const ev =
    'event' in e.payload ? e.payload.event : 'dropped' in e.payload ? e.payload.dropped : null;
  if (!ev) return e;
  const message = ev.message.startsWith(COMBINED_PREFIX)
    ? ev.message.slice(COMBINED_PREFIX.length)
    : ev.message;
  return { target: 'apiserver', summary: `${ev.type} ${ev.reason} ${ev.object}: ${message}` };
}

/**
 * What an event says, without what differs on every retry by itself; `pods` (the names of the
 * pods being retried) are said as one: two pods retrying the same failure interleave their
 * retries differently from one round to the next, and each round is then one pod's retry.
 */
export function eventShape(e: TraceEvent, pods?: RegExp | null): string {
  const { target, summary } = sentForm(e);
  let s = `${e.kind}|${e.node ?? ''}|${e.source}|${target}|${summary}`;
  for (const [re, to] of NORMALISE) s = s.replace(re, to);
  return pods ? s.replace(pods, 'P') : s;
}

/** A pattern of these pod names, each whole (not web-1 inside web-12). */
function namesRe(names: Iterable<string>): RegExp {
  const alt = [...names]
    .sort((a, b) => b.length - a.length)
    .map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|');
  return new RegExp(`(?<![\\w.-])(?:${alt})(?![\\w.-])`, 'g');
}

interface Track {
  /** Hash of the events since the failure was last seen. */
  acc: number;
  count: number;
  /** The hash of the previous round, and how many rounds in a row had it. */
  prev: number | null;
  same: number;
  times: number;
  firstStep: number;
  lastStep: number;
  /** Virtual time of the failure's last coming, and of the start of the identical rounds. */
  lastTime: number;
  since: number;
  pods: Set<string>;
  /** The error of the round that says most (libcni's, then the CRI's, then the first). */
  said: TraceEvent | null;
}

const SAYS: Partial<Record<TraceEvent['kind'], number>> = { 'libcni.return': 3, cri: 2, api: 1 };

/**
 * A failure: an error event (a plugin, libcni call or CRI request failing), or a Warning the
 * kubelet records on a pod (NetworkNotReady, which is no CRI error: the kubelet does not even
 * try a sandbox while the node's network is not ready).
 */
export function isFailure(e: TraceEvent): boolean {
  if (isErrorEvent(e)) return true;
  if (e.kind !== 'api') return false;
  const ev =
    'event' in e.payload ? e.payload.event : 'dropped' in e.payload ? e.payload.dropped : null;
  return ev?.type === 'Warning';
}

function saysMore(a: TraceEvent, b: TraceEvent | null): boolean {
  return b === null || (SAYS[a.kind] ?? 0) > (SAYS[b.kind] ?? 0);
}

const POD_WORKER = /^pod\/[^/]+\/([^/]+)\/([^:]+):/;

export class RepeatWatch {
  private readonly tracks = new Map<string, Track>();
  /** Pods whose kubelet pod worker has been seen, and a pattern of their names. */
  private readonly podNames = new Set<string>();
  private podsRe: RegExp | null = null;

  /** Feeds event `e` (step `i`); returns the repetition once it is one. */
  feed(e: TraceEvent, i: number): Repetition | null {
    // The kubelet's status poll lines come every 5 s whatever the pods do: a round of a retry
    // (10 - 15 s) holds two or three of them, so they are no part of it.
    if (e.kind === 'log' && e.source === 'kubelet' && STATUS_POLL_LINE.test(e.summary)) return null;
    const worker = e.kind === 'state' && e.source === 'kubelet' ? POD_WORKER.exec(e.summary) : null;
    if (worker && !this.podNames.has(worker[2]!)) {
      this.podNames.add(worker[2]!);
      this.podsRe = namesRe(this.podNames);
    }
    const error = isFailure(e);
    // Only a failure starts a track, and only tracks need the shape of other events: a run
    // without failures normalises nothing.
    if (!error && this.tracks.size === 0) return null;
    const shape = eventShape(e, this.podsRe);
    const h = fnv1a(shape);
    for (const t of this.tracks.values()) {
      t.acc = fnv1a(String(h), Math.imul(t.acc, 31) >>> 0);
      t.count++;
      if (worker) t.pods.add(worker[1] === 'default' ? worker[2]! : `${worker[1]}/${worker[2]}`);
      if (error && saysMore(e, t.said)) t.said = e;
    }
    if (!error) return null;
    const t = this.tracks.get(shape);
    if (!t) {
      if (this.tracks.size >= TRACKED) this.tracks.delete(this.tracks.keys().next().value!);
      this.tracks.set(shape, {
        acc: 0x811c9dc5,
        count: 0,
        prev: null,
        same: 0,
        times: 1,
        firstStep: i,
        lastStep: i,
        lastTime: e.time,
        since: e.time,
        pods: new Set(),
        said: e,
      });
      return null;
    }
    t.times++;
    const round = fnv1a(String(t.count), t.acc);
    t.same = round === t.prev ? t.same + 1 : 1;
    if (t.same === 1) t.since = t.lastTime;
    t.lastTime = e.time;
    t.prev = round;
    const length = i - t.lastStep;
    t.lastStep = i;
    t.acc = 0x811c9dc5;
    t.count = 0;
    const said = t.said ?? e;
    if (t.same < REPEATS || e.time - t.since < MIN_SPAN_US) {
      // The pods of the identical rounds so far (two pods take turns, a round each).
      if (t.same === 1) t.pods.clear();
      t.said = null;
      return null;
    }
    return {
      failure: sentForm(said).summary,
      node: e.node,
      pods: [...t.pods].sort(),
      times: t.times,
      round: length,
      firstStep: t.firstStep,
    };
  }
}

/** What the app says when a run stopped on a repetition. */
export function repetitionText(r: Repetition): string {
  const where = r.node ? `on ${r.node} ` : '';
  const who = r.pods.length
    ? `the kubelet has retried ${r.pods.join(', ')}`
    : 'the cluster has retried';
  return `Stopped: ${where}${who} ${r.times} times with the same error, and nothing else changes (${r.round} steps each time): ${r.failure}. Fix the cause, or act on the cluster, then run again.`;
}

/**
 * What the app says when "run until `label`" stopped without meeting its condition (null when it
 * met it): nothing left to happen, the limit of events looked at, or a repetition. `faultNode`:
 * the node of a node-scoped fault injected before, whose pods show it (said when the run ended
 * idle: the fault shows only when that node creates a pod).
 */
export function runEndText(
  end: {
    kind: 'met' | 'idle' | 'limit' | 'repeating';
    step: number;
    events?: number;
    repetition?: Repetition;
  },
  label: string,
  faultNode?: string | null,
): string | null {
  switch (end.kind) {
    case 'met':
      return null;
    case 'idle':
      return `Nothing is left to happen after step ${end.step + 1}, and "${label}" did not come: the cluster is idle.${faultNode ? ` The fault on ${faultNode} shows only in pods created on ${faultNode}: create one there.` : ' Act on it to go on.'}`;
    case 'limit':
      return `Stopped after looking at ${end.events ?? 0} steps without reaching "${label}".`;
    case 'repeating':
      return end.repetition ? repetitionText(end.repetition) : null;
  }
}
