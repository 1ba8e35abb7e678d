/**
 * Conditions: when to stop running ("until"), or when an action may start ("after").
 *
 *   condition := all ( "||" all )*        any of the alternatives holds
 *   all       := atom ( "&&" atom )*       every atom holds
 *   atom      := NAME [ ":" ARGUMENT ]
 *
 * Atoms about the world hold while the world is so (`pod-running:web-0`, `time:30s`); atoms about
 * something happening (`error`, `plugin:bridge`, `event:FailedKillPod`, `fault`, `log:...`) hold
 * once a matching event was recorded after the watch started. docs/scenarios.md lists them all.
 */
import type { ApiState, PodObj } from '../state/api';
import type { WorldState } from '../sim/world';
import type { TraceEvent } from '../trace/trace';
import { podStatusText } from '../apiserver/apiserver';
import { formatDuration, parseDuration } from './duration';
import { tvalues } from '../state/table';

export interface PodPattern {
  text: string;
  namespace: RegExp;
  name: RegExp;
}

export type Atom =
  | { kind: 'idle' }
  | { kind: 'error' }
  | { kind: 'fault'; id: string | null }
  | { kind: 'time'; us: number }
  | { kind: 'step'; n: number }
  | { kind: 'pod-running'; pod: PodPattern }
  | { kind: 'pod-gone'; pod: PodPattern }
  | { kind: 'pod-status'; pod: PodPattern; status: string }
  | { kind: 'node-ready'; node: string; ready: boolean }
  | { kind: 'plugin'; name: string; command: string | null }
  | { kind: 'event'; reason: string }
  | { kind: 'log'; text: string };

export interface Condition {
  /** The text it was parsed from (normalised spacing). */
  text: string;
  /** Alternatives (OR) of conjunctions (AND). */
  any: Atom[][];
}

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

export const ATOM_NAMES = [
  'idle',
  'error',
  'fault',
  'time',
  'step',
  'pod-running',
  'pod-gone',
  'pod-status',
  'node-ready',
  'node-not-ready',
  'plugin',
  'event',
  'log',
] as const;

const CNI_COMMANDS = ['ADD', 'DEL', 'CHECK', 'GC', 'STATUS', 'VERSION'];
const STATUSES = ['Running', 'ContainerCreating', 'Terminating', 'Pending'];

function globRe(s: string): RegExp {
  return new RegExp(`^${s.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
}

/** `name`, `ns/name` or `*`-globs of either; without a namespace, `default`. */
export function parsePodPattern(text: string): ParseResult<PodPattern> {
  const parts = text.split('/');
  if (parts.length > 2 || parts.some((p) => p === '')) {
    return { ok: false, error: `expected a pod name or namespace/name, got "${text}"` };
  }
  const [ns, name] = parts.length === 2 ? [parts[0]!, parts[1]!] : ['default', parts[0]!];
  if (!/^[a-z0-9.*-]+$/.test(ns) || !/^[a-z0-9.*-]+$/.test(name)) {
    return {
      ok: false,
      error: `"${text}" is not a pod name (lower-case letters, digits, - and .)`,
    };
  }
  return { ok: true, value: { text, namespace: globRe(ns), name: globRe(name) } };
}

export function podsMatching(api: ApiState | undefined, p: PodPattern): PodObj[] {
  return (api ? tvalues(api.pods) : []).filter(
    (x) => p.namespace.test(x.spec.namespace) && p.name.test(x.spec.name),
  );
}

function parseAtom(raw: string): ParseResult<Atom> {
  const text = raw.trim();
  if (!text) return { ok: false, error: 'empty condition' };
  const colon = text.indexOf(':');
  const name = colon < 0 ? text : text.slice(0, colon);
  const arg = colon < 0 ? null : text.slice(colon + 1).trim();
  const need = (what: string): ParseResult<Atom> => ({
    ok: false,
    error: `"${name}" needs ${what}, e.g. ${example(name)}`,
  });
  const noArg = (atom: Atom): ParseResult<Atom> =>
    arg === null ? { ok: true, value: atom } : { ok: false, error: `"${name}" takes no argument` };
  switch (name) {
    case 'idle':
      return noArg({ kind: 'idle' });
    case 'error':
      return noArg({ kind: 'error' });
    case 'fault':
      return { ok: true, value: { kind: 'fault', id: arg || null } };
    case 'time': {
      if (!arg) return need('a virtual time');
      const us = parseDuration(arg);
      if (us === null) return { ok: false, error: `time: "${arg}" is not a duration like 30s` };
      return { ok: true, value: { kind: 'time', us } };
    }
    case 'step': {
      if (!arg || !/^\d+$/.test(arg)) return need('a number of events');
      return { ok: true, value: { kind: 'step', n: Number(arg) } };
    }
    case 'pod-running':
    case 'pod-gone': {
      if (!arg) return need('a pod');
      const p = parsePodPattern(arg);
      if (!p.ok) return p;
      return { ok: true, value: { kind: name, pod: p.value } };
    }
    case 'pod-status': {
      const i = arg?.lastIndexOf(':') ?? -1;
      if (!arg || i < 0) return need('a pod and a status');
      const status = arg.slice(i + 1);
      if (!STATUSES.includes(status)) {
        return {
          ok: false,
          error: `pod-status: "${status}" is not a status (${STATUSES.join(', ')})`,
        };
      }
      const p = parsePodPattern(arg.slice(0, i));
      if (!p.ok) return p;
      return { ok: true, value: { kind: 'pod-status', pod: p.value, status } };
    }
    case 'node-ready':
    case 'node-not-ready':
      if (!arg) return need('a node');
      return { ok: true, value: { kind: 'node-ready', node: arg, ready: name === 'node-ready' } };
    case 'plugin': {
      if (!arg) return need('a plugin type');
      const [type, cmd, ...rest] = arg.split(':');
      if (rest.length || !type) return need('a plugin type');
      if (cmd !== undefined && !CNI_COMMANDS.includes(cmd)) {
        return {
          ok: false,
          error: `plugin: "${cmd}" is not a CNI command (${CNI_COMMANDS.join(', ')})`,
        };
      }
      return { ok: true, value: { kind: 'plugin', name: type, command: cmd ?? null } };
    }
    case 'event':
      if (!arg) return need('an event reason');
      return { ok: true, value: { kind: 'event', reason: arg } };
    case 'log':
      if (!arg) return need('a text');
      return { ok: true, value: { kind: 'log', text: arg } };
    default:
      return {
        ok: false,
        error: `unknown condition "${name}" (expected one of ${ATOM_NAMES.join(', ')})`,
      };
  }
}

function example(name: string): string {
  const ex: Record<string, string> = {
    time: 'time:30s',
    step: 'step:500',
    'pod-running': 'pod-running:web-0',
    'pod-gone': 'pod-gone:web-*',
    'pod-status': 'pod-status:web-0:Terminating',
    'node-ready': 'node-ready:node-1',
    'node-not-ready': 'node-not-ready:node-1',
    plugin: 'plugin:bridge:DEL',
    event: 'event:FailedKillPod',
    log: 'log:failed to destroy network',
  };
  return ex[name] ?? name;
}

export function atomText(a: Atom): string {
  switch (a.kind) {
    case 'time':
      return `time:${formatDuration(a.us)}`;
    case 'step':
      return `step:${a.n}`;
    case 'fault':
      return a.id ? `fault:${a.id}` : 'fault';
    case 'pod-running':
    case 'pod-gone':
      return `${a.kind}:${a.pod.text}`;
    case 'pod-status':
      return `pod-status:${a.pod.text}:${a.status}`;
    case 'node-ready':
      return `${a.ready ? 'node-ready' : 'node-not-ready'}:${a.node}`;
    case 'plugin':
      return `plugin:${a.name}${a.command ? `:${a.command}` : ''}`;
    case 'event':
      return `event:${a.reason}`;
    case 'log':
      return `log:${a.text}`;
    default:
      return a.kind;
  }
}

export function parseCondition(text: string): ParseResult<Condition> {
  const any: Atom[][] = [];
  for (const alt of text.split('||')) {
    const all: Atom[] = [];
    for (const part of alt.split('&&')) {
      const r = parseAtom(part);
      if (!r.ok) return r;
      all.push(r.value);
    }
    any.push(all);
  }
  return {
    ok: true,
    value: { text: any.map((all) => all.map(atomText).join(' && ')).join(' || '), any },
  };
}

/**
 * Whether an event is a failure: a plugin process exiting non-zero or killed, a failed libcni
 * call, a failed CRI call. (A kernel call a plugin expects to fail, like `iptables -N` of a chain
 * that exists, is not one.)
 */
export function isErrorEvent(e: TraceEvent): boolean {
  if (e.kind === 'exit') return e.payload.exitCode !== 0 || 'signal' in e.payload;
  if (e.kind === 'libcni.return') return !e.payload.ok;
  return e.kind === 'cri' && 'ok' in e.payload && !e.payload.ok;
}

/** Fault ids by the trace step each was injected at (the runner knows; the trace may not). */
export type FaultSteps = ReadonlyMap<number, string>;

/**
 * Whether an event is where a fault was injected: one the runner recorded in `faults` (no event's
 * payload names a fault: an injection is made of ordinary events).
 */
export function isFaultEvent(e: TraceEvent, id: string | null, faults?: FaultSteps): boolean {
  const known = faults?.get(e.seq);
  return known !== undefined && (id === null || known === id);
}

function eventMatches(a: Atom, e: TraceEvent, faults?: FaultSteps): boolean {
  switch (a.kind) {
    case 'error':
      return isErrorEvent(e);
    case 'fault':
      return isFaultEvent(e, a.id, faults);
    case 'plugin': {
      if (e.kind !== 'exec' || e.target !== a.name) return false;
      if (!a.command) return true;
      return e.payload.env['CNI_COMMAND'] === a.command;
    }
    case 'event':
      return e.kind === 'api' && 'event' in e.payload && e.payload.event.reason === a.reason;
    case 'log':
      return e.kind === 'log' && e.payload.line.includes(a.text);
    default:
      return false;
  }
}

const EDGE = new Set(['error', 'fault', 'plugin', 'event', 'log']);

export function isEdgeAtom(a: Atom): boolean {
  return EDGE.has(a.kind);
}

/** Whether a world-state atom holds (edge atoms and `idle` are the watcher's business). */
export function stateHolds(a: Atom, state: WorldState, events: number): boolean {
  switch (a.kind) {
    case 'time':
      return state.clock >= a.us;
    case 'step':
      return events >= a.n;
    case 'pod-running': {
      const pods = podsMatching(state.api, a.pod);
      return pods.length > 0 && pods.every((p) => podStatusText(p) === 'Running');
    }
    case 'pod-gone':
      return podsMatching(state.api, a.pod).length === 0;
    case 'pod-status': {
      const pods = podsMatching(state.api, a.pod);
      return pods.length > 0 && pods.every((p) => podStatusText(p) === a.status);
    }
    case 'node-ready': {
      const n = state.api?.nodes[a.node];
      return !!n && (n.ready.status === 'True') === a.ready;
    }
    default:
      return false;
  }
}

/**
 * Watches a condition from a point of the trace on: call `update` with the events recorded
 * since the last call, then `holds`.
 */
export class Watch {
  private readonly seen: boolean[][];
  private scanned: number;

  constructor(
    readonly condition: Condition,
    fromEvent: number,
    /** Where faults were injected, for `fault` atoms (filled as the run goes). */
    private readonly faults?: FaultSteps,
  ) {
    this.seen = condition.any.map((all) => all.map(() => false));
    this.scanned = fromEvent;
  }

  /** Looks at events [scanned, events.length). */
  update(events: readonly TraceEvent[]): void {
    const end = events.length;
    if (this.scanned >= end) return;
    this.condition.any.forEach((all, i) =>
      all.forEach((a, j) => {
        if (!isEdgeAtom(a) || this.seen[i]![j]) return;
        for (let k = this.scanned; k < end; k++) {
          if (eventMatches(a, events[k]!, this.faults)) {
            this.seen[i]![j] = true;
            break;
          }
        }
      }),
    );
    this.scanned = end;
  }

  /**
   * Looks at the events recorded since the last look, one at a time, with the world after each
   * (`states[k]`); returns the index of the first event after which the condition holds, or null.
   */
  scan(events: readonly TraceEvent[], states: readonly WorldState[]): number | null {
    while (this.scanned < events.length) {
      const k = this.scanned++;
      const e = events[k]!;
      this.condition.any.forEach((all, i) =>
        all.forEach((a, j) => {
          if (isEdgeAtom(a) && !this.seen[i]![j] && eventMatches(a, e, this.faults))
            this.seen[i]![j] = true;
        }),
      );
      if (this.holds(states[k]!, k + 1, false)) return k;
    }
    return null;
  }

  /** Whether it holds now (after `update`/`scan`), in `state` with `events` events recorded. */
  holds(state: WorldState, events: number, idle: boolean): boolean {
    return this.condition.any.some((all, i) =>
      all.every((a, j) => {
        if (a.kind === 'idle') return idle;
        if (isEdgeAtom(a)) return this.seen[i]![j]!;
        return stateHolds(a, state, events);
      }),
    );
  }

  /** The earliest `time:` atom after `now`, or null. */
  nextTime(now: number): number | null {
    let best: number | null = null;
    for (const all of this.condition.any)
      for (const a of all)
        if (a.kind === 'time' && a.us > now && (best === null || a.us < best)) best = a.us;
    return best;
  }
}
