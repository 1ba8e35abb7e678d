/** journalctl (systemd 252): the node's journal, from the trace's journal lines. */
import { kubeletLine, type Unit } from '../../node/journal';
import { BASE_TIME_MS, journalTime } from '../../trace/time';
import type { TraceEvent } from '../../trace/trace';
import type { CommandContext } from '../types';
import { KUBELET_VERSION, now, UNIT_NAMES } from './k8s-common';

/** A journal entry: who wrote it (`kubelet[1204]`, `systemd[1]`), when, and its line. */
interface Entry {
  time: number;
  ident: string;
  line: string;
  boot: number;
}

const KUBELET_UNIT = 'kubelet.service - kubelet: The Kubernetes Node Agent';

/**
 * What the journal holds of a kubelet start that the trace does not record as log lines: systemd
 * starting the unit, then the first lines the kubelet logs (cmd/kubelet/app/server.go `Run`:
 * "Kubelet version", then "Golang settings"; file:line as in v1.32). `journalctl -u kubelet`
 * shows systemd's lines about the unit too.
 */
function kubeletStart(time: number, pid: number, boot: number): Entry[] {
  return [
    { time, ident: 'systemd[1]', line: `Started ${KUBELET_UNIT}.`, boot },
    {
      time,
      ident: `kubelet[${pid}]`,
      line: kubeletLine(time, 'I', pid, 'server.go:486', 'Kubelet version', {
        kubeletVersion: KUBELET_VERSION,
      }),
      boot,
    },
    {
      time,
      ident: `kubelet[${pid}]`,
      line: kubeletLine(time, 'I', pid, 'server.go:488', 'Golang settings', {
        GOGC: '',
        GOMAXPROCS: '',
        GOTRACEBACK: '',
      }),
      boot,
    },
  ];
}

/** systemd stopping the kubelet (systemd 252: SIGTERM, the unit deactivated). */
function kubeletStop(time: number, boot: number): Entry[] {
  return [
    { time, ident: 'systemd[1]', line: `Stopping ${KUBELET_UNIT}...`, boot },
    { time, ident: 'systemd[1]', line: 'kubelet.service: Deactivated successfully.', boot },
    { time, ident: 'systemd[1]', line: `Stopped ${KUBELET_UNIT}.`, boot },
  ];
}

/** Boot ids: 32 hex digits, fixed per node and boot (the model draws no randomness for them). */
function bootId(node: string, n: number): string {
  let h = 0x811c9dc5;
  let out = '';
  for (let round = 0; out.length < 32; round++) {
    for (const c of `${node}/${n}/${round}`) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
    out += h.toString(16).padStart(8, '0');
  }
  return out.slice(0, 32);
}

function isReboot(e: TraceEvent, node: string): boolean {
  return e.node === node && e.kind === 'env' && 'op' in e.payload && e.payload.op === 'reboot';
}

/** A journalctl time: "YYYY-MM-DD HH:MM[:SS]", "YYYY-MM-DD", "HH:MM[:SS]", today, yesterday, now, -5min, "5 min ago". */
export function parseJournalTime(s: string, nowUs: number): number | null {
  const t = s.trim();
  const nowMs = BASE_TIME_MS + Math.floor(nowUs / 1000);
  const toUs = (ms: number) => (ms - BASE_TIME_MS) * 1000;
  const day = new Date(nowMs);
  const midnight = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate());
  if (t === 'now') return nowUs;
  if (t === 'today') return toUs(midnight);
  if (t === 'yesterday') return toUs(midnight - 86_400_000);
  if (t === 'tomorrow') return toUs(midnight + 86_400_000);
  const units: Record<string, number> = {
    us: 1e-3,
    usec: 1e-3,
    ms: 1,
    msec: 1,
    s: 1000,
    sec: 1000,
    second: 1000,
    seconds: 1000,
    m: 60_000,
    min: 60_000,
    minute: 60_000,
    minutes: 60_000,
    h: 3_600_000,
    hr: 3_600_000,
    hour: 3_600_000,
    hours: 3_600_000,
    d: 86_400_000,
    day: 86_400_000,
    days: 86_400_000,
    w: 604_800_000,
    week: 604_800_000,
    weeks: 604_800_000,
  };
  const span = (x: string): number | null => {
    let total = 0;
    let any = false;
    const re = /(\d+(?:\.\d+)?)\s*([a-z]*)/gy;
    let rest = x.trim();
    re.lastIndex = 0;
    for (;;) {
      rest = rest.trim();
      if (rest === '') break;
      re.lastIndex = 0;
      const m = re.exec(rest);
      if (!m) return null;
      const u = m[2] === '' ? 1000 : units[m[2]!];
      if (u === undefined) return null;
      total += Number(m[1]) * u;
      any = true;
      rest = rest.slice(m[0].length);
    }
    return any ? total : null;
  };
  let m = /^([+-])(.+)$/.exec(t);
  if (m) {
    const d = span(m[2]!);
    if (d === null) return null;
    return toUs(m[1] === '-' ? nowMs - d : nowMs + d);
  }
  m = /^(.+)\s+ago$/.exec(t);
  if (m) {
    const d = span(m[1]!);
    return d === null ? null : toUs(nowMs - d);
  }
  m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(t);
  if (m) {
    return toUs(
      Date.UTC(
        Number(m[1]),
        Number(m[2]) - 1,
        Number(m[3]),
        Number(m[4] ?? 0),
        Number(m[5] ?? 0),
        Number(m[6] ?? 0),
      ),
    );
  }
  m = /^(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(t);
  if (m)
    return toUs(midnight + ((Number(m[1]) * 60 + Number(m[2])) * 60 + Number(m[3] ?? 0)) * 1000);
  return null;
}

export function journalctl(ctx: CommandContext): number {
  const args = ctx.argv.slice(1);
  const units: string[] = [];
  let lines: number | null = null;
  let since: number | null = null;
  let until: number | null = null;
  let output = 'short';
  let bootOnly = false;
  let reverse = false;
  const need = (i: number, name: string): string | null => {
    const v = args[i + 1];
    if (v === undefined) {
      ctx.err(`journalctl: option '${name}' requires an argument\n`);
      return null;
    }
    return v;
  };
  for (let i = 0; i < args.length; i++) {
    let a = args[i]!;
    let val: string | undefined;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    if (eq > 0) {
      val = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    const take = (name: string): string | null => {
      if (val !== undefined) return val;
      const v = need(i, name);
      if (v !== null) i++;
      return v;
    };
    if (a === '-u' || a === '--unit') {
      const v = take(a);
      if (v === null) return 1;
      units.push(v);
    } else if (/^-u./.test(a)) units.push(a.slice(2));
    else if (a === '-n' || a === '--lines') {
      // -n takes an optional argument: a number right after it.
      const v =
        val ?? (args[i + 1] !== undefined && /^\+?\d+$/.test(args[i + 1]!) ? args[++i] : undefined);
      lines = v === undefined ? 10 : Number(v.replace(/^\+/, ''));
    } else if (/^-n\d+$/.test(a)) lines = Number(a.slice(2));
    else if (a === '-e' || a === '--pager-end') lines ??= 1000;
    else if (a === '-S' || a === '--since' || a === '-U' || a === '--until') {
      const v = take(a);
      if (v === null) return 1;
      const t = parseJournalTime(v, now(ctx));
      if (t === null) {
        ctx.err(`Failed to parse timestamp: ${v}\n`);
        return 1;
      }
      if (a === '-S' || a === '--since') since = t;
      else until = t;
    } else if (a === '-o' || a === '--output') {
      const v = take(a);
      if (v === null) return 1;
      if (v !== 'short' && v !== 'cat') {
        ctx.err(`journalctl: cnisim: output mode ${v} is not supported (short, cat)\n`);
        return 1;
      }
      output = v;
    } else if (a === '-f' || a === '--follow' || a === '-F') {
      ctx.err(
        'journalctl: cnisim: -f (follow) is not supported: a command here cannot run forever; run journalctl again (or with --since) to see new lines\n',
      );
      return 1;
    } else if (a === '-b' || a === '--boot') {
      if (val !== undefined && val !== '0') {
        ctx.err('journalctl: cnisim: only the current boot (-b) is supported\n');
        return 1;
      }
      bootOnly = true;
    } else if (a === '-r' || a === '--reverse') reverse = true;
    else if (
      a === '--no-pager' ||
      a === '-q' ||
      a === '--quiet' ||
      a === '-a' ||
      a === '--all' ||
      a === '-l' ||
      a === '--full' ||
      a === '--no-hostname' ||
      a === '-x' ||
      a === '--catalog'
    ) {
      if (a === '--no-hostname') output = output === 'cat' ? 'cat' : 'short-nohost';
      continue;
    } else if (a.startsWith('-')) {
      ctx.err(`journalctl: unrecognized option '${args[i]}'\n`);
      return 1;
    } else {
      ctx.err(`journalctl: cnisim: field matches (${a}) are not supported; use -u UNIT\n`);
      return 1;
    }
  }
  const wanted: Unit[] | undefined = units.length
    ? units.map((u) => UNIT_NAMES[u]).filter((u): u is Unit => u !== undefined)
    : undefined;
  const node = ctx.nodeName;
  const events = ctx.sim.events;
  // Boots: a reboot event starts a new one.
  let boot = 0;
  let lastBootStart = 0;
  const entries: Entry[] = [];
  const keep = (x: Entry) =>
    (since === null || x.time >= since) && (until === null || x.time <= until);
  const kubelet = !wanted || wanted.includes('kubelet');
  for (const e of events) {
    if (isReboot(e, node)) {
      boot++;
      lastBootStart = entries.length;
      continue;
    }
    if (e.node !== node) continue;
    if (e.kind === 'state' && e.target === 'kubelet' && kubelet) {
      // The kubelet's starts and stops (its state events): systemd's lines and its first ones.
      const pid = (e.payload as { pid?: unknown }).pid;
      if (/^kubelet started/.test(e.summary) && typeof pid === 'number')
        entries.push(...kubeletStart(e.time, pid, boot).filter(keep));
      else if (/^kubelet stopped/.test(e.summary))
        entries.push(...kubeletStop(e.time, boot).filter(keep));
      continue;
    }
    if (e.kind !== 'log') continue;
    const p = e.payload;
    if (wanted && !wanted.includes(p.unit)) continue;
    const x = { time: e.time, ident: `${p.unit}[${p.pid}]`, line: p.line, boot };
    if (keep(x)) entries.push(x);
  }
  let shown = bootOnly ? entries.slice(lastBootStart).filter((x) => x.boot === boot) : entries;
  if (lines !== null) shown = lines === 0 ? [] : shown.slice(-lines);
  if (reverse) shown = [...shown].reverse();
  if (shown.length === 0) {
    ctx.out('-- No entries --\n');
    return 0;
  }
  let out = '';
  let prevBoot = shown[0]!.boot;
  for (const { time, ident, line, boot: b } of shown) {
    if (b !== prevBoot) out += `-- Boot ${bootId(node, b)} --\n`;
    prevBoot = b;
    if (output === 'cat') out += `${line}\n`;
    else if (output === 'short-nohost') out += `${journalTime(time)} ${ident}: ${line}\n`;
    else out += `${journalTime(time)} ${node} ${ident}: ${line}\n`;
  }
  ctx.out(out);
  return 0;
}
