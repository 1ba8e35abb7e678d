/**
 * A node's journal. Each line a daemon writes is a `log` event of the trace; a journal view is
 * the node's log events up to a step, with journald's prefix. Only lines that real nodes print
 * are written, in their formats: logrus for containerd, klog for the kubelet.
 */
import { q } from '../gofmt';
import type { Simulation } from '../sim/world';
import { journalTime, klogTime, rfc3339Nano } from '../trace/time';
import { logEvent, type LogPayload, type TraceEvent, type Unit } from '../trace/trace';

export type { LogPayload, Unit };

function logfmtValue(v: string): string {
  return /^[A-Za-z0-9_.\-/:@]+$/.test(v) ? v : q(v);
}

/** A containerd (logrus text formatter) line. */
export function containerdLine(
  us: number,
  level: 'info' | 'warning' | 'error' | 'fatal',
  msg: string,
  fields: Record<string, string> = {},
): string {
  let out = `time=${q(rfc3339Nano(us))} level=${level} msg=${q(msg)}`;
  for (const [k, v] of Object.entries(fields)) out += ` ${k}=${logfmtValue(v)}`;
  return out;
}

/**
 * A CRI-O line: logrus's text formatter with CRI-O's timestamp layout ("2006-01-02
 * 15:04:05.000000000Z07:00", cmd/crio/main.go), then the request's fields (`id`, `name`: the
 * CRI method) in logrus's sorted order (internal/log).
 */
export function crioLine(
  us: number,
  level: 'info' | 'warning' | 'error',
  msg: string,
  fields: Record<string, string> = {},
): string {
  const t = rfc3339Nano(us).replace('T', ' ');
  let out = `time=${q(t)} level=${level} msg=${q(msg)}`;
  for (const k of Object.keys(fields).sort()) out += ` ${k}=${logfmtValue(fields[k]!)}`;
  return out;
}

/** A kubelet (klog, structured) line. */
export function kubeletLine(
  us: number,
  severity: 'I' | 'W' | 'E',
  pid: number,
  where: string,
  msg: string,
  fields: Record<string, KlogValue> = {},
): string {
  let out = `${severity}${klogTime(us)} ${String(pid).padStart(7)} ${where}] ${q(msg)}`;
  for (const [k, v] of Object.entries(fields))
    out += ` ${k}=${typeof v === 'string' ? q(v) : v.raw}`;
  return out;
}

/**
 * A klog key/value: a string is quoted (`key="value"`); `{ raw }` is printed as it is, as klog
 * prints a value it serializes itself (a struct as JSON: `podSandboxID={"Type":…,"ID":…}`).
 */
export type KlogValue = string | { raw: string };

export function writeLog(
  sim: Simulation,
  node: string,
  unit: Unit,
  pid: number,
  severity: LogPayload['severity'],
  line: string,
  parent?: number,
): void {
  const payload: LogPayload = { unit, pid, line, severity };
  sim.note(
    logEvent({
      node,
      source: unit,
      target: 'journal',
      level: 'runtime',
      summary: line,
      payload,
      ...(parent !== undefined ? { parent } : {}),
    }),
  );
}

/** The `journalctl` line of a `log` event: journald's prefix and the daemon's line. */
export function journalLine(e: TraceEvent<'log'>): string {
  const p = e.payload;
  return `${journalTime(e.time)} ${e.node} ${p.unit}[${p.pid}]: ${p.line}`;
}

/** `journalctl` lines of a node from the trace up to (and including) event `upTo`. */
export function journalLines(
  events: readonly TraceEvent[],
  node: string,
  upTo = events.length - 1,
  units?: readonly Unit[],
): string[] {
  const out: string[] = [];
  for (let i = 0; i <= upTo && i < events.length; i++) {
    const e = events[i]!;
    if (e.kind !== 'log' || e.node !== node) continue;
    const p = e.payload;
    if (units && !units.includes(p.unit)) continue;
    out.push(journalLine(e));
  }
  return out;
}
