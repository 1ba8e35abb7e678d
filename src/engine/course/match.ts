/**
 * Event matchers (schema.ts): which trace events a narration, a goal or a quiz link is about,
 * by what the events are, never by their position in the trace.
 */
import { isErrorEvent } from '../scenario/condition';
import type { TraceEvent } from '../trace/trace';
import type { EventMatcher } from './schema';

function glob(s: string): RegExp {
  return new RegExp(`^${s.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);
}

const regexCache = new Map<string, RegExp>();
function re(source: string): RegExp {
  let r = regexCache.get(source);
  if (!r) {
    r = new RegExp(source);
    regexCache.set(source, r);
  }
  return r;
}

const globCache = new Map<string, RegExp>();
function globRe(s: string): RegExp {
  let r = globCache.get(s);
  if (!r) {
    r = glob(s);
    globCache.set(s, r);
  }
  return r;
}

function cniArgs(e: TraceEvent<'exec'>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const kv of (e.payload.env['CNI_ARGS'] ?? '').split(';')) {
    const i = kv.indexOf('=');
    if (i > 0) out[kv.slice(0, i)] = kv.slice(i + 1);
  }
  return out;
}

/** The CNI command an event is about: exec env, or the libcni operation. */
export function commandOf(e: TraceEvent): string | null {
  if (e.kind === 'exec') return e.payload.env['CNI_COMMAND'] ?? null;
  if (e.kind === 'libcni.call' || e.kind === 'libcni.return') return e.payload.op;
  return null;
}

function podName(p: string): string {
  const i = p.indexOf('/');
  return i < 0 ? p : p.slice(i + 1);
}

function podMatches(e: TraceEvent, pod: string): boolean {
  const name = globRe(podName(pod));
  switch (e.kind) {
    case 'exec': {
      const n = cniArgs(e)['K8S_POD_NAME'];
      return n !== undefined && name.test(n);
    }
    case 'api': {
      const p = e.payload;
      if ('pod' in p && name.test(podName(p.pod))) return true;
      const ev = 'event' in p ? p.event : undefined;
      return !!ev?.object && ev.object.startsWith('pod/') && name.test(ev.object.slice(4));
    }
    case 'cri':
    case 'state':
    case 'log':
      return e.summary.split(/[\s/,{}:]+/).some((w) => name.test(w));
    default:
      return false;
  }
}

/**
 * Whether `e` is one of the events `m` describes. `events` (the trace) is needed for `within`,
 * which follows the events' parent links.
 */
export function matches(m: EventMatcher, e: TraceEvent, events?: readonly TraceEvent[]): boolean {
  if (m.kind !== undefined) {
    const kinds = Array.isArray(m.kind) ? m.kind : [m.kind];
    if (!kinds.includes(e.kind)) return false;
  }
  if (m.node !== undefined && !globRe(m.node).test(e.node ?? '')) return false;
  if (m.source !== undefined && !globRe(m.source).test(e.source)) return false;
  if (m.target !== undefined && !globRe(m.target).test(e.target)) return false;
  if (m.summary !== undefined && !re(m.summary).test(e.summary)) return false;
  if (m.command !== undefined && commandOf(e) !== m.command) return false;
  if (m.reason !== undefined) {
    if (e.kind !== 'api' || !('event' in e.payload) || e.payload.event.reason !== m.reason)
      return false;
  }
  if (m.log !== undefined || m.unit !== undefined) {
    if (e.kind !== 'log') return false;
    const p = e.payload;
    if (m.log !== undefined && !p.line.includes(m.log)) return false;
    if (m.unit !== undefined && p.unit !== m.unit) return false;
  }
  if (m.env !== undefined) {
    if (e.kind !== 'exec') return false;
    const env = e.payload.env;
    for (const [k, v] of Object.entries(m.env)) if ((env[k] ?? undefined) !== v) return false;
  }
  if (m.stdin !== undefined) {
    if (e.kind !== 'exec' || !re(m.stdin).test(e.payload.stdin)) return false;
  }
  if (m.stdout !== undefined) {
    if (e.kind !== 'exit' || !re(m.stdout).test(e.payload.stdout)) return false;
  }
  if (m.failed !== undefined && isErrorEvent(e) !== m.failed) return false;
  if (m.pod !== undefined && !podMatches(e, m.pod)) return false;
  if (m.within !== undefined) {
    if (!events) return false;
    let p = e.parent;
    let found = false;
    for (let guard = 0; p !== undefined && guard < 64; guard++) {
      const up = events[p];
      if (!up) break;
      if (matches(m.within, up)) {
        found = true;
        break;
      }
      p = up.parent;
    }
    if (!found) return false;
  }
  return true;
}

/** Index of the first event matching `m` in [from, to], or -1. */
export function findEvent(
  events: readonly TraceEvent[],
  m: EventMatcher,
  from = 0,
  to = events.length - 1,
): number {
  for (let i = Math.max(0, from); i <= to && i < events.length; i++)
    if (matches(m, events[i]!, events)) return i;
  return -1;
}

/** Indexes of every event matching `m` in [from, to]. */
export function findEvents(
  events: readonly TraceEvent[],
  m: EventMatcher,
  from = 0,
  to = events.length - 1,
): number[] {
  const out: number[] = [];
  for (let i = Math.max(0, from); i <= to && i < events.length; i++)
    if (matches(m, events[i]!, events)) out.push(i);
  return out;
}

/** A matcher as a person reads it: `exec of bridge (ADD)`, `Kubernetes event FailedKillPod`. */
export function describeMatcher(m: EventMatcher): string {
  return matcherParts(m).join(' ');
}

/**
 * A matcher's description as its noun phrase (`bridge ADD run`) and what qualifies it
 * (` on node-1 that failed`), for counting it: "exactly 2 bridge ADD runs on node-1".
 */
export function matcherNoun(m: EventMatcher): { noun: string; after: string } {
  const [noun, ...rest] = matcherParts(m);
  return { noun: noun!, after: rest.map((p) => ` ${p}`).join('') };
}

function matcherParts(m: EventMatcher): string[] {
  const parts: string[] = [];
  const kinds = m.kind === undefined ? [] : Array.isArray(m.kind) ? m.kind : [m.kind];
  if (m.reason) parts.push(`Kubernetes event ${m.reason}`);
  else if (kinds.length === 1 && kinds[0] === 'exec' && m.target)
    parts.push(`${m.target} ${m.command ?? ''} run`.replace(/\s+/g, ' '));
  else if (kinds.length === 1 && kinds[0] === 'libcni.return')
    parts.push(`libcni ${m.command ?? ''} outcome`.replace(/\s+/g, ' '));
  else if (kinds.length === 1 && kinds[0] === 'libcni.call')
    parts.push(`libcni ${m.command ?? ''} call`.replace(/\s+/g, ' '));
  else if (m.log !== undefined) parts.push(`journal line containing "${m.log}"`);
  else if (kinds.length) parts.push(`${kinds.join('/')} event`);
  else parts.push('event');
  if (m.source && !m.reason) parts.push(`from ${m.source}`);
  if (m.target && !(kinds.length === 1 && kinds[0] === 'exec')) parts.push(`to ${m.target}`);
  if (m.command && !kinds.length) parts.push(`(${m.command})`);
  if (m.node) parts.push(`on ${m.node}`);
  if (m.pod) parts.push(`for pod ${m.pod}`);
  if (m.summary) parts.push(`matching /${m.summary}/`);
  if (m.env)
    parts.push(
      `with ${Object.entries(m.env)
        .map(([k, v]) => `${k}=${JSON.stringify(v)}`)
        .join(', ')}`,
    );
  if (m.stdin) parts.push(`whose stdin matches /${m.stdin}/`);
  if (m.stdout) parts.push(`whose output matches /${m.stdout}/`);
  if (m.failed === true) parts.push('that failed');
  if (m.failed === false) parts.push('that succeeded');
  if (m.within) parts.push(`during ${describeMatcher(m.within)}`);
  return parts;
}
