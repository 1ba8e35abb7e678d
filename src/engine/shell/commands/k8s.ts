/**
 * The node's view of its cluster: journalctl (systemd 252), crictl (cri-tools 1.28 against
 * containerd 1.7's CRI), kubectl (1.32), systemctl and reboot. They read the world (the trace's
 * journal lines, containerd's sandboxes, the API server's objects); the changes (systemctl
 * restart / stop / start, reboot, kubectl delete pod) go through the cluster (ClusterHooks), which
 * records them as steps of the trace, after a step naming the command.
 *
 * On a node without a cluster there is no kubelet or containerd unit, no CRI socket and no API
 * server, and the tools answer as they do on such a machine.
 *
 * Values the model does not have are fixed (and listed in docs/shell.md): the kubelet version,
 * the node's OS and kernel in `kubectl get nodes -o wide`, the pause image. Not modelled: app
 * containers (crictl ps lists none), pod labels, the pause process's pid, journalctl's own
 * follow mode and most output formats (-o json / yaml).
 */
import type { ApiState, PodObj } from '../../apiserver/types';
import { journalLines, type LogPayload, type Unit } from '../../node/journal';
import type { SandboxRec } from '../../runtime/types';
import { BASE_TIME_MS, klogTime, rfc3339Nano } from '../../trace/time';
import type { TraceEvent } from '../../trace/trace';
import { tabwrite } from '../tabwriter';
import type { CommandContext, CommandSpec } from '../types';

export const KUBELET_VERSION = 'v1.32.4';
const PAUSE_IMAGE = 'registry.k8s.io/pause:3.9';
const CONTAINERD_SOCK = '/run/containerd/containerd.sock';

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const p2 = (n: number) => String(n).padStart(2, '0');

function wall(us: number): Date {
  return new Date(BASE_TIME_MS + Math.floor(us / 1000));
}

/** k8s.io/apimachinery duration.HumanDuration (kubectl's AGE). */
export function humanDuration(us: number): string {
  const seconds = Math.floor(us / 1_000_000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  if (hours < 192)
    return hours % 24 === 0
      ? `${Math.floor(hours / 24)}d`
      : `${Math.floor(hours / 24)}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24)}d`;
  if (hours < 24 * 365 * 8) {
    const dy = Math.floor(hours / 24) % 365;
    return dy === 0 ? `${Math.floor(hours / 24 / 365)}y` : `${Math.floor(hours / 24 / 365)}y${dy}d`;
  }
  return `${Math.floor(hours / 24 / 365)}y`;
}

/** github.com/docker/go-units HumanDuration (crictl's CREATED, with " ago"). */
export function unitsHumanDuration(us: number): string {
  const seconds = Math.floor(us / 1_000_000);
  if (seconds < 1) return 'Less than a second';
  if (seconds === 1) return '1 second';
  if (seconds < 60) return `${seconds} seconds`;
  const minutes = Math.floor(seconds / 60);
  if (minutes === 1) return 'About a minute';
  if (minutes < 60) return `${minutes} minutes`;
  const hours = Math.floor(us / 3_600_000_000 + 0.5);
  if (hours === 1) return 'About an hour';
  if (hours < 48) return `${hours} hours`;
  if (hours < 24 * 7 * 2) return `${Math.floor(hours / 24)} days`;
  if (hours < 24 * 30 * 2) return `${Math.floor(hours / 24 / 7)} weeks`;
  if (hours < 24 * 365 * 2) return `${Math.floor(hours / 24 / 30)} months`;
  return `${Math.floor(us / 3_600_000_000 / 24 / 365)} years`;
}

/** The world as the command sees it: now is the end of the trace. */
function now(ctx: CommandContext): number {
  return ctx.sim.state.clock;
}

// -----------------------------------------------------------------------------------------------
// journalctl

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
  return e.node === node && e.kind === 'env' && e.payload['op'] === 'reboot';
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

const UNIT_NAMES: Record<string, Unit> = {
  kubelet: 'kubelet',
  'kubelet.service': 'kubelet',
  containerd: 'containerd',
  'containerd.service': 'containerd',
};

function journalctl(ctx: CommandContext): number {
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
  const entries: Array<{ e: TraceEvent; boot: number }> = [];
  for (const e of events) {
    if (isReboot(e, node)) {
      boot++;
      lastBootStart = entries.length;
      continue;
    }
    if (e.kind !== 'log' || e.node !== node) continue;
    const p = e.payload as unknown as LogPayload;
    if (wanted && !wanted.includes(p.unit)) continue;
    if (since !== null && e.time < since) continue;
    if (until !== null && e.time > until) continue;
    entries.push({ e, boot });
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
  for (const { e, boot: b } of shown) {
    if (b !== prevBoot) out += `-- Boot ${bootId(node, b)} --\n`;
    prevBoot = b;
    const p = e.payload as unknown as LogPayload;
    if (output === 'cat') out += `${p.line}\n`;
    else {
      const line = journalLines([e], node)[0]!;
      out += output === 'short-nohost' ? line.replace(` ${node} `, ' ') + '\n' : line + '\n';
    }
  }
  ctx.out(out);
  return 0;
}

// -----------------------------------------------------------------------------------------------
// crictl

function logrusFatal(ctx: CommandContext, msg: string): number {
  ctx.err(
    ctx.isatty
      ? `FATA[0000] ${msg.padEnd(44)} \n`
      : `time="${rfc3339Nano(now(ctx)).replace(/\.\d+Z$/, 'Z')}" level=fatal msg=${JSON.stringify(msg)}\n`,
  );
  return 1;
}

/** containerd's CRI socket: the sandboxes, or why crictl cannot connect. */
function criSandboxes(ctx: CommandContext): SandboxRec[] | number {
  const c = ctx.sim.state.nodes[ctx.nodeName]?.containerd;
  if (!c || !c.up) {
    const why = c ? 'connection refused' : 'no such file or directory';
    return logrusFatal(
      ctx,
      `validate service connection: validate CRI v1 runtime API for endpoint "unix://${CONTAINERD_SOCK}": rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix ${CONTAINERD_SOCK}: connect: ${why}"`,
    );
  }
  return Object.values(c.sandboxes).sort(
    (a, b) => b.createdAt - a.createdAt || (a.id < b.id ? -1 : 1),
  );
}

function sandboxState(s: SandboxRec): string {
  return s.state === 'SANDBOX_READY' ? 'Ready' : 'NotReady';
}

function crictlPods(ctx: CommandContext, args: string[]): number {
  let quiet = false;
  let name: RegExp | null = null;
  let namespace: RegExp | null = null;
  let state: string | null = null;
  let id: string | null = null;
  let last: number | null = null;
  let latest = false;
  for (let i = 0; i < args.length; i++) {
    let a = args[i]!;
    let val: string | undefined;
    const eq = a.startsWith('--') ? a.indexOf('=') : -1;
    if (eq > 0) {
      val = a.slice(eq + 1);
      a = a.slice(0, eq);
    }
    const take = () => val ?? args[++i] ?? '';
    if (a === '-q' || a === '--quiet') quiet = true;
    else if (a === '--name') name = new RegExp(take());
    else if (a === '--namespace') namespace = new RegExp(take());
    else if (a === '-s' || a === '--state') state = take().toLowerCase();
    else if (a === '--id') id = take();
    else if (a === '--last') last = Number(take());
    else if (a === '-l' || a === '--latest') latest = true;
    else if (a === '-v' || a === '--verbose' || a === '-o' || a === '--output' || a === '--label') {
      ctx.err(`crictl: cnisim: crictl pods ${a} is not supported\n`);
      return 1;
    } else if (a === '--no-trunc') continue;
    else {
      ctx.err(`Incorrect Usage: flag provided but not defined: -${a.replace(/^-+/, '')}\n`);
      return 1;
    }
  }
  const sbs = criSandboxes(ctx);
  if (typeof sbs === 'number') return sbs;
  let list = sbs.filter(
    (s) =>
      (!name || name.test(s.pod.name)) &&
      (!namespace || namespace.test(s.pod.namespace)) &&
      (!state || (state === 'ready') === (s.state === 'SANDBOX_READY')) &&
      (!id || s.id.startsWith(id)),
  );
  if (latest) list = list.slice(0, 1);
  if (last !== null && last > 0) list = list.slice(0, last);
  if (quiet) {
    ctx.out(list.map((s) => s.id + '\n').join(''));
    return 0;
  }
  const noTrunc = args.includes('--no-trunc');
  let text = 'POD ID\tCREATED\tSTATE\tNAME\tNAMESPACE\tATTEMPT\tRUNTIME\n';
  for (const s of list) {
    text += `${noTrunc ? s.id : s.id.slice(0, 13)}\t${unitsHumanDuration(now(ctx) - s.createdAt)} ago\t${sandboxState(s)}\t${s.pod.name}\t${s.pod.namespace}\t${s.pod.attempt}\t(default)\n`;
  }
  ctx.out(tabwrite(text, { minwidth: 20, padding: 3 }));
  return 0;
}

/** Go's json.MarshalIndent(v, "", "  ") layout of a plain value (keys in the given order). */
function indentJson(v: unknown, depth = 0): string {
  const pad = '  '.repeat(depth + 1);
  const end = '  '.repeat(depth);
  if (Array.isArray(v)) {
    if (v.length === 0) return '[]';
    return `[\n${v.map((x) => pad + indentJson(x, depth + 1)).join(',\n')}\n${end}]`;
  }
  if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.length === 0) return '{}';
    return `{\n${entries.map(([k, x]) => `${pad}${JSON.stringify(k)}: ${indentJson(x, depth + 1)}`).join(',\n')}\n${end}}`;
  }
  return JSON.stringify(v);
}

function crictlInspectp(ctx: CommandContext, args: string[]): number {
  const ids = args.filter((a) => !a.startsWith('-'));
  if (args.some((a) => a.startsWith('-') && a !== '--output=json' && a !== '-o' && a !== 'json')) {
    const bad = args.find((a) => a.startsWith('-'))!;
    if (bad !== '-o') {
      ctx.err(`crictl: cnisim: crictl inspectp ${bad} is not supported (JSON output only)\n`);
      return 1;
    }
  }
  const real = ids.filter((a) => a !== 'json');
  if (real.length === 0) return logrusFatal(ctx, 'ID cannot be empty');
  const sbs = criSandboxes(ctx);
  if (typeof sbs === 'number') return sbs;
  const k = ctx.kernel();
  let status = 0;
  for (const want of real) {
    const matches = sbs.filter((s) => s.id.startsWith(want));
    if (matches.length !== 1) {
      const e =
        matches.length === 0
          ? `getting the pod sandbox status for "${want}": rpc error: code = NotFound desc = an error occurred when try to find sandbox: not found`
          : `getting the pod sandbox status for "${want}": rpc error: code = NotFound desc = an error occurred when try to find sandbox "${want}": multiple IDs found`;
      status = logrusFatal(ctx, e);
      break;
    }
    const s = matches[0]!;
    const closed = !k.mounts[s.netns];
    const ready = s.state === 'SANDBOX_READY';
    const obj = {
      status: {
        id: s.id,
        metadata: {
          attempt: s.pod.attempt,
          name: s.pod.name,
          namespace: s.pod.namespace,
          uid: s.pod.uid,
        },
        state: s.state,
        createdAt: rfc3339Nano(s.createdAt),
        network: {
          additionalIps: ready && !closed ? s.additionalIps.map((ip) => ({ ip })) : [],
          ip: ready && !closed ? s.ip : '',
        },
        linux: {
          namespaces: {
            options: {
              ipc: 'POD',
              network: 'POD',
              pid: 'CONTAINER',
              targetId: '',
              userNsOptions: null,
            },
          },
        },
        labels: {
          'io.kubernetes.pod.name': s.pod.name,
          'io.kubernetes.pod.namespace': s.pod.namespace,
          'io.kubernetes.pod.uid': s.pod.uid,
        },
        annotations: {},
        runtimeHandler: '',
      },
      info: {
        processStatus: s.pauseRunning ? 'running' : 'deleted',
        netNamespaceClosed: closed,
        image: PAUSE_IMAGE,
        snapshotKey: s.id,
        snapshotter: 'overlayfs',
        runtimeHandler: '',
        runtimeType: 'io.containerd.runc.v2',
        config: {
          metadata: {
            name: s.pod.name,
            uid: s.pod.uid,
            namespace: s.pod.namespace,
            attempt: s.pod.attempt,
          },
        },
        runtimeSpec: {
          linux: {
            namespaces: [
              { type: 'pid' },
              { type: 'ipc' },
              { type: 'uts' },
              { type: 'mount' },
              { type: 'network', path: s.netns },
            ],
          },
        },
      },
    };
    ctx.out(indentJson(obj) + '\n');
  }
  return status;
}

const CRICTL_COMMANDS = ['pods', 'inspectp', 'ps', 'version', 'help'];

function crictl(ctx: CommandContext): number {
  const args = ctx.argv.slice(1).filter((a) => !/^--(runtime|image)-endpoint=/.test(a));
  const [cmd, ...rest] = args;
  if (cmd === undefined || cmd === 'help' || cmd === '-h' || cmd === '--help') {
    ctx.out(
      'NAME:\n   crictl - client for CRI\n\nUSAGE:\n   crictl [global options] command [command options] [arguments...]\n\nCOMMANDS (simulated):\n   inspectp  Display the status of one or more pods\n   pods      List pods\n   ps        List containers\n   version   Display runtime version information\n',
    );
    return 0;
  }
  switch (cmd) {
    case 'pods':
      return crictlPods(ctx, rest);
    case 'inspectp':
      return crictlInspectp(ctx, rest);
    case 'ps': {
      const sbs = criSandboxes(ctx);
      if (typeof sbs === 'number') return sbs;
      if (rest.includes('-q') || rest.includes('--quiet')) return 0;
      ctx.out(
        tabwrite('CONTAINER\tIMAGE\tCREATED\tSTATE\tNAME\tATTEMPT\tPOD ID\tPOD\n', {
          minwidth: 20,
          padding: 3,
        }),
      );
      ctx.err('cnisim: containers are not modelled, only pod sandboxes: see crictl pods\n');
      return 0;
    }
    case 'version': {
      const sbs = criSandboxes(ctx);
      if (typeof sbs === 'number') return sbs;
      ctx.out(
        'Version:  0.1.0\nRuntimeName:  containerd\nRuntimeVersion:  v1.7.24\nRuntimeApiVersion:  v1\n',
      );
      return 0;
    }
    default:
      if (CRICTL_COMMANDS.includes(cmd)) return 0;
      if (/^[a-z]+$/.test(cmd)) {
        ctx.err(`cnisim: crictl ${cmd}: not simulated (pods, inspectp, ps, version)\n`);
        return 1;
      }
      ctx.err(`Incorrect Usage: flag provided but not defined: -${cmd.replace(/^-+/, '')}\n`);
      return 1;
  }
}

// -----------------------------------------------------------------------------------------------
// kubectl

function noApiServer(ctx: CommandContext): number {
  const t = klogTime(now(ctx));
  const pid = String(ctx.sim.state.nextPid).padStart(7);
  const line = `E${t} ${pid} memcache.go:265] "Unhandled Error" err="couldn't get current server API group list: Get \\"http://localhost:8080/api?timeout=32s\\": dial tcp 127.0.0.1:8080: connect: connection refused"\n`;
  ctx.err(
    line.repeat(5) +
      'The connection to the server localhost:8080 was refused - did you specify the right host or port?\n',
  );
  return 1;
}

interface KubectlArgs {
  positional: string[];
  namespace: string;
  allNamespaces: boolean;
  output: string | null;
}

function kubectlArgs(ctx: CommandContext, args: string[]): KubectlArgs | number {
  const o: KubectlArgs = {
    positional: [],
    namespace: 'default',
    allNamespaces: false,
    output: null,
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = (flag: string): string | null => {
      if (a.startsWith(flag + '=')) return a.slice(flag.length + 1);
      const v = args[i + 1];
      if (v === undefined) {
        ctx.err(
          `error: flag needs an argument: ${flag.startsWith('--') ? `--${flag.slice(2)}` : `'${flag.slice(1)}' in ${flag}`}\nSee 'kubectl ${args[0] ?? ''} --help' for usage.\n`,
        );
        return null;
      }
      i++;
      return v;
    };
    if (a === '-A' || a === '--all-namespaces') o.allNamespaces = true;
    else if (a === '-n' || a === '--namespace' || a.startsWith('--namespace=')) {
      const v = value(a.startsWith('--') ? '--namespace' : '-n');
      if (v === null) return 1;
      o.namespace = v;
    } else if (/^-n./.test(a)) o.namespace = a.slice(2);
    else if (a === '-o' || a === '--output' || a.startsWith('--output=')) {
      const v = value(a.startsWith('--') ? '--output' : '-o');
      if (v === null) return 1;
      o.output = v;
    } else if (/^-o./.test(a)) o.output = a.slice(2);
    else if (a === '-w' || a === '--watch') {
      ctx.err('kubectl: cnisim: --watch is not supported: a command here cannot run forever\n');
      return 1;
    } else if (a.startsWith('-')) {
      ctx.err(`error: unknown flag: ${a}\nSee 'kubectl --help' for usage.\n`);
      return 1;
    } else o.positional.push(a);
  }
  if (o.output !== null && o.output !== 'wide' && o.output !== 'name') {
    ctx.err(`kubectl: cnisim: -o ${o.output} is not supported (wide, name)\n`);
    return 1;
  }
  return o;
}

const RESOURCES: Record<string, 'pods' | 'nodes' | 'events'> = {
  pods: 'pods',
  pod: 'pods',
  po: 'pods',
  nodes: 'nodes',
  node: 'nodes',
  no: 'nodes',
  events: 'events',
  event: 'events',
  ev: 'events',
};

function lastRestart(api: ApiState, p: PodObj): number | null {
  let t: number | null = null;
  for (const e of api.events) {
    if (
      e.object === `pod/${p.spec.name}` &&
      e.namespace === p.spec.namespace &&
      e.reason === 'SandboxChanged'
    )
      t = Math.max(t ?? 0, e.lastTime);
  }
  return t;
}

function podStatusText(p: PodObj): string {
  if (p.deletionTimestamp !== null) return 'Terminating';
  if (p.containerRunning) return 'Running';
  return p.waitingReason ?? p.phase;
}

function noResources(ctx: CommandContext, a: KubectlArgs): void {
  ctx.err(
    a.allNamespaces ? 'No resources found\n' : `No resources found in ${a.namespace} namespace.\n`,
  );
}

function getPods(ctx: CommandContext, api: ApiState, a: KubectlArgs, names: string[]): number {
  const t = now(ctx);
  let pods = Object.values(api.pods).filter(
    (p) => a.allNamespaces || p.spec.namespace === a.namespace,
  );
  let status = 0;
  if (names.length) {
    const found: PodObj[] = [];
    for (const n of names) {
      const p = pods.find((x) => x.spec.name === n && x.spec.namespace === a.namespace);
      if (!p) {
        ctx.err(`Error from server (NotFound): pods "${n}" not found\n`);
        status = 1;
      } else found.push(p);
    }
    pods = found;
    if (!pods.length) return status;
  } else {
    pods.sort((x, y) =>
      x.spec.namespace !== y.spec.namespace
        ? x.spec.namespace < y.spec.namespace
          ? -1
          : 1
        : x.spec.name < y.spec.name
          ? -1
          : x.spec.name > y.spec.name
            ? 1
            : 0,
    );
  }
  if (!pods.length) {
    noResources(ctx, a);
    return 0;
  }
  if (a.output === 'name') {
    ctx.out(pods.map((p) => `pod/${p.spec.name}\n`).join(''));
    return status;
  }
  const wide = a.output === 'wide';
  const ns = a.allNamespaces ? 'NAMESPACE\t' : '';
  let text = `${ns}NAME\tREADY\tSTATUS\tRESTARTS\tAGE${wide ? '\tIP\tNODE\tNOMINATED NODE\tREADINESS GATES' : ''}\n`;
  for (const p of pods) {
    const ready = p.containerRunning && p.deletionTimestamp === null ? '1/1' : '0/1';
    const lr = p.restarts > 0 ? lastRestart(api, p) : null;
    const restarts =
      lr !== null ? `${p.restarts} (${humanDuration(t - lr)} ago)` : String(p.restarts);
    text += `${a.allNamespaces ? p.spec.namespace + '\t' : ''}${p.spec.name}\t${ready}\t${podStatusText(p)}\t${restarts}\t${humanDuration(t - p.createdAt)}`;
    if (wide) text += `\t${p.podIP ?? '<none>'}\t${p.spec.nodeName}\t<none>\t<none>`;
    text += '\n';
  }
  ctx.out(tabwrite(text, { minwidth: 6, padding: 3 }));
  return status;
}

function getNodes(ctx: CommandContext, api: ApiState, a: KubectlArgs, names: string[]): number {
  const t = now(ctx);
  let nodes = Object.values(api.nodes).sort((x, y) => (x.name < y.name ? -1 : 1));
  let status = 0;
  if (names.length) {
    nodes = names.flatMap((n) => {
      const x = api.nodes[n];
      if (!x) {
        ctx.err(`Error from server (NotFound): nodes "${n}" not found\n`);
        status = 1;
        return [];
      }
      return [x];
    });
    if (!nodes.length) return status;
  }
  if (a.output === 'name') {
    ctx.out(nodes.map((n) => `node/${n.name}\n`).join(''));
    return status;
  }
  const wide = a.output === 'wide';
  let text = `NAME\tSTATUS\tROLES\tAGE\tVERSION${wide ? '\tINTERNAL-IP\tEXTERNAL-IP\tOS-IMAGE\tKERNEL-VERSION\tCONTAINER-RUNTIME' : ''}\n`;
  for (const n of nodes) {
    text += `${n.name}\t${n.ready.status === 'True' ? 'Ready' : 'NotReady'}\t<none>\t${humanDuration(t)}\t${KUBELET_VERSION}`;
    if (wide)
      text +=
        '\t<none>\t<none>\tDebian GNU/Linux 12 (bookworm)\t6.1.0-28-amd64\tcontainerd://1.7.24';
    text += '\n';
  }
  ctx.out(tabwrite(text, { minwidth: 6, padding: 3 }));
  return status;
}

function getEvents(ctx: CommandContext, api: ApiState, a: KubectlArgs): number {
  const t = now(ctx);
  const evs = api.events
    .filter((e) => a.allNamespaces || e.namespace === a.namespace)
    .map((e, i) => ({ e, i }))
    .sort((x, y) => {
      const nx = x.e.object.split('/')[1]!;
      const ny = y.e.object.split('/')[1]!;
      if (x.e.namespace !== y.e.namespace) return x.e.namespace < y.e.namespace ? -1 : 1;
      if (nx !== ny) return nx < ny ? -1 : 1;
      return x.e.firstTime - y.e.firstTime || x.i - y.i;
    })
    .map((x) => x.e);
  if (!evs.length) {
    noResources(ctx, a);
    return 0;
  }
  const wide = a.output === 'wide';
  const ns = a.allNamespaces ? 'NAMESPACE\t' : '';
  let text = wide
    ? `${ns}LAST SEEN\tTYPE\tREASON\tOBJECT\tSUBOBJECT\tSOURCE\tMESSAGE\tFIRST SEEN\tCOUNT\tNAME\n`
    : `${ns}LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\n`;
  for (const e of evs) {
    const pre = a.allNamespaces ? `${e.namespace}\t` : '';
    const last = humanDuration(t - e.lastTime);
    if (wide) {
      const name = `${e.object.split('/')[1]}.${(BigInt(BASE_TIME_MS) * 1000000n + BigInt(e.firstTime) * 1000n).toString(16)}`;
      text += `${pre}${last}\t${e.type}\t${e.reason}\t${e.object}\t\t${e.source}\t${e.message}\t${humanDuration(t - e.firstTime)}\t${e.count}\t${name}\n`;
    } else text += `${pre}${last}\t${e.type}\t${e.reason}\t${e.object}\t${e.message}\n`;
  }
  ctx.out(tabwrite(text, { minwidth: 6, padding: 3 }));
  return 0;
}

const CONDITION_ORDER = [
  'PodReadyToStartContainers',
  'Initialized',
  'Ready',
  'ContainersReady',
  'PodScheduled',
];

function rfc1123z(us: number): string {
  const d = wall(us);
  return `${DAYS[d.getUTCDay()]}, ${p2(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} +0000`;
}

function describePod(ctx: CommandContext, api: ApiState, a: KubectlArgs, name: string): number {
  const p = Object.values(api.pods).find(
    (x) => x.spec.name === name && x.spec.namespace === a.namespace,
  );
  if (!p) {
    ctx.err(`Error from server (NotFound): pods "${name}" not found\n`);
    return 1;
  }
  const t = now(ctx);
  let w = '';
  w += `Name:\t${p.spec.name}\n`;
  w += `Namespace:\t${p.spec.namespace}\n`;
  w += 'Priority:\t0\n';
  w += 'Service Account:\tdefault\n';
  w += `Node:\t${p.spec.nodeName}/\n`;
  w += `Start Time:\t${rfc1123z(p.createdAt)}\n`;
  w += 'Labels:\t<none>\n';
  const ann = Object.entries(p.spec.annotations).sort(([x], [y]) => (x < y ? -1 : 1));
  if (ann.length === 0) w += 'Annotations:\t<none>\n';
  else ann.forEach(([k, v], i) => (w += `${i === 0 ? 'Annotations:' : ''}\t${k}: ${v}\n`));
  if (p.deletionTimestamp !== null) {
    w += `Status:\tTerminating (lasts ${humanDuration(t - p.deletionTimestamp)})\n`;
    w += 'Termination Grace Period:\t30s\n';
  } else w += `Status:\t${p.phase}\n`;
  w += `IP:\t${p.podIP ?? ''}\n`;
  if (p.podIPs.length) {
    w += 'IPs:\n';
    for (const ip of p.podIPs) w += `  IP:\t${ip}\n`;
  } else w += 'IPs:\t<none>\n';
  w += 'Conditions:\n  Type\tStatus\n';
  const conds = [...p.conditions].sort(
    (x, y) => CONDITION_ORDER.indexOf(x.type) - CONDITION_ORDER.indexOf(y.type),
  );
  for (const c of conds) w += `  ${c.type} \t${c.status} \n`;
  w += 'Volumes:\t<none>\n';
  w += 'QoS Class:\tBestEffort\n';
  w += 'Node-Selectors:\t<none>\n';
  w += 'Tolerations:\tnode.kubernetes.io/not-ready:NoExecute op=Exists for 300s\n';
  w += '\tnode.kubernetes.io/unreachable:NoExecute op=Exists for 300s\n';
  const evs = api.events.filter(
    (e) => e.object === `pod/${p.spec.name}` && e.namespace === p.spec.namespace,
  );
  if (!evs.length) w += 'Events:\t<none>\n';
  else {
    w += 'Events:\n  Type\tReason\tAge\tFrom\tMessage\n  ----\t------\t----\t----\t-------\n';
    for (const e of [...evs].sort((x, y) => x.firstTime - y.firstTime)) {
      const interval =
        e.count > 1
          ? `${humanDuration(t - e.lastTime)} (x${e.count} over ${humanDuration(t - e.firstTime)})`
          : humanDuration(t - e.firstTime);
      w += `  ${e.type}\t${e.reason}\t${interval}\t${e.source.split(',')[0]}\t${e.message.trim()}\n`;
    }
  }
  ctx.out(tabwrite(w, { minwidth: 0, padding: 2 }));
  return 0;
}

function kubectl(ctx: CommandContext): number {
  const args = ctx.argv.slice(1);
  const verb = args[0];
  if (verb === undefined || verb === 'help' || verb === '--help' || verb === '-h') {
    ctx.out(
      'kubectl controls the Kubernetes cluster manager.\n\n Find more information at: https://kubernetes.io/docs/reference/kubectl/\n\nCommands (simulated):\n  get pods|nodes|events [-o wide|name] [-A] [-n NAMESPACE]\n  describe pod NAME\n  delete pod NAME\n',
    );
    return 0;
  }
  if (!['get', 'describe', 'delete'].includes(verb)) {
    if (/^[a-z-]+$/.test(verb)) {
      ctx.err(`cnisim: kubectl ${verb}: not simulated (get, describe, delete)\n`);
      return 1;
    }
    ctx.err(`error: unknown command "${verb}" for "kubectl"\n`);
    return 1;
  }
  const a = kubectlArgs(ctx, args.slice(1));
  if (typeof a === 'number') return a;
  const api = ctx.sim.state.api;
  if (!api) return noApiServer(ctx);
  // TYPE NAME..., TYPE/NAME
  let [type, ...names] = a.positional;
  if (type?.includes('/')) {
    const [t0, n0] = type.split('/') as [string, string];
    type = t0;
    names = [n0, ...names];
  }
  if (type === undefined) {
    ctx.err(
      verb === 'get'
        ? 'You must specify the type of resource to get. Use "kubectl api-resources" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse "kubectl explain <resource>" for a detailed description of that resource (e.g. kubectl explain pods).\nSee \'kubectl get -h\' for help and examples\n'
        : `error: You must provide one or more resources by argument or filename.\n`,
    );
    return 1;
  }
  const res = RESOURCES[type];
  if (!res) {
    ctx.err(`error: the server doesn't have a resource type "${type}"\n`);
    return 1;
  }
  if (verb === 'get') {
    if (res === 'pods') return getPods(ctx, api, a, names);
    if (res === 'nodes') return getNodes(ctx, api, a, names);
    return getEvents(ctx, api, a);
  }
  if (res !== 'pods') {
    ctx.err(`cnisim: kubectl ${verb} ${type}: not simulated (pods only)\n`);
    return 1;
  }
  if (names.length === 0) {
    ctx.err(
      verb === 'delete'
        ? 'error: resource(s) were provided, but no name was specified\n'
        : 'cnisim: kubectl describe pod: name a pod\n',
    );
    return 1;
  }
  let status = 0;
  for (const n of names) {
    if (verb === 'describe') {
      if (describePod(ctx, api, a, n) !== 0) status = 1;
      continue;
    }
    const key = `${a.namespace}/${n}`;
    if (!ctx.sim.state.api?.pods[key]) {
      ctx.err(`Error from server (NotFound): pods "${n}" not found\n`);
      status = 1;
      continue;
    }
    const hooks = ctx.cluster;
    if (!hooks) return noApiServer(ctx);
    ctx.outside(() => {
      ctx.note('apiserver', 'cluster');
      hooks.deletePod(key);
    });
    ctx.out(`pod "${n}" deleted\n`);
  }
  return status;
}

// -----------------------------------------------------------------------------------------------
// systemctl, reboot

const UNITS: Record<'kubelet' | 'containerd', { description: string; docs: string; cmd: string }> =
  {
    kubelet: {
      description: 'kubelet: The Kubernetes Node Agent',
      docs: 'https://kubernetes.io/docs/',
      cmd: '/usr/bin/kubelet --bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf --config=/var/lib/kubelet/config.yaml --container-runtime-endpoint=unix:///run/containerd/containerd.sock',
    },
    containerd: {
      description: 'containerd container runtime',
      docs: 'https://containerd.io',
      cmd: '/usr/bin/containerd',
    },
  };

/** systemd's format_timestamp_relative. */
function relative(us: number): string {
  const S = 1_000_000;
  const M = 60 * S;
  const H = 60 * M;
  const D = 24 * H;
  const d = Math.max(0, us);
  const f = Math.floor;
  if (d >= 2 * D) return `${f(d / D)} days ago`;
  if (d >= 25 * H) return `1 day ${f((d - D) / H)}h ago`;
  if (d >= 6 * H) return `${f(d / H)}h ago`;
  if (d >= H) return `${f(d / H)}h ${f((d % H) / M)}min ago`;
  if (d >= 5 * M) return `${f(d / M)}min ago`;
  if (d >= M) return `${f(d / M)}min ${f((d % M) / S)}s ago`;
  if (d >= S) return `${f(d / S)}s ago`;
  if (d >= 1000) return `${f(d / 1000)}ms ago`;
  if (d > 0) return `${d}us ago`;
  return 'now';
}

function systemdTime(us: number): string {
  const d = wall(us);
  return `${DAYS[d.getUTCDay()]} ${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} UTC`;
}

/** When the unit last started or stopped (its daemon's state events). */
function lastTransition(ctx: CommandContext, unit: 'kubelet' | 'containerd', up: boolean): number {
  const re = new RegExp(`^${unit} ${up ? 'started' : 'stopped'}`);
  const evs = ctx.sim.events;
  for (let i = evs.length - 1; i >= 0; i--) {
    const e = evs[i]!;
    if (e.node === ctx.nodeName && e.kind === 'state' && e.target === unit && re.test(e.summary))
      return e.time;
  }
  return 0;
}

function unitState(
  ctx: CommandContext,
  unit: 'kubelet' | 'containerd',
): { up: boolean; pid: number } | null {
  const n = ctx.sim.state.nodes[ctx.nodeName];
  const s = unit === 'kubelet' ? n?.kubelet : n?.containerd;
  if (!s || !ctx.cluster) return null;
  return { up: s.up, pid: s.pid };
}

function systemctlStatus(ctx: CommandContext, unit: 'kubelet' | 'containerd'): number {
  const st = unitState(ctx, unit)!;
  const u = UNITS[unit];
  const t = now(ctx);
  let out = `${st.up ? '●' : '○'} ${unit}.service - ${u.description}\n`;
  out += `     Loaded: loaded (/lib/systemd/system/${unit}.service; enabled; preset: enabled)\n`;
  if (unit === 'kubelet')
    out +=
      '    Drop-In: /usr/lib/systemd/system/kubelet.service.d\n             └─10-kubeadm.conf\n';
  const since = lastTransition(ctx, unit, st.up);
  out += `     Active: ${st.up ? 'active (running)' : 'inactive (dead)'} since ${systemdTime(since)}; ${relative(t - since)}\n`;
  out += `       Docs: ${u.docs}\n`;
  if (st.up) {
    out += `   Main PID: ${st.pid} (${unit})\n`;
    out += `     CGroup: /system.slice/${unit}.service\n             └─${st.pid} ${u.cmd}\n`;
  }
  const journal = journalLines(ctx.sim.events, ctx.nodeName, ctx.sim.events.length - 1, [
    unit,
  ]).slice(-10);
  if (journal.length) out += '\n' + journal.map((l) => l + '\n').join('');
  ctx.out(out);
  return st.up ? 0 : 3;
}

function systemctl(ctx: CommandContext): number {
  const args = ctx.argv
    .slice(1)
    .filter(
      (a) => a !== '--no-pager' && a !== '-l' && a !== '--full' && a !== '-q' && a !== '--quiet',
    );
  const [verb, ...rawUnits] = args;
  if (verb === undefined || ['list-units', 'list-unit-files', 'daemon-reload'].includes(verb)) {
    ctx.err(
      `cnisim: systemctl ${verb ?? ''}: not simulated (status, start, stop, restart, is-active)\n`,
    );
    return 1;
  }
  if (!['status', 'start', 'stop', 'restart', 'is-active'].includes(verb)) {
    ctx.err(`Unknown command verb ${verb}.\n`);
    return 1;
  }
  if (rawUnits.length === 0) {
    ctx.err(verb === 'status' ? 'cnisim: systemctl status: name a unit\n' : `Too few arguments.\n`);
    return 1;
  }
  let status = 0;
  for (const raw of rawUnits) {
    const name = raw.endsWith('.service') ? raw : `${raw}.service`;
    const unit = UNIT_NAMES[raw];
    const st = unit ? unitState(ctx, unit) : null;
    if (!unit || !st) {
      if (verb === 'status') {
        ctx.err(`Unit ${name} could not be found.\n`);
        status = 4;
      } else if (verb === 'is-active') {
        ctx.out('inactive\n');
        status = 3;
      } else {
        ctx.err(
          verb === 'stop'
            ? `Failed to stop ${name}: Unit ${name} not loaded.\n`
            : `Failed to ${verb} ${name}: Unit ${name} not found.\n`,
        );
        status = 5;
      }
      continue;
    }
    const hooks = ctx.cluster!;
    const node = ctx.nodeName;
    if (verb === 'status') {
      const r = systemctlStatus(ctx, unit);
      if (r !== 0) status = r;
    } else if (verb === 'is-active') {
      ctx.out(st.up ? 'active\n' : 'inactive\n');
      if (!st.up) status = 3;
    } else {
      ctx.outside(() => {
        ctx.note('systemd', 'cluster');
        if (verb === 'restart') {
          if (unit === 'kubelet') hooks.restartKubelet(node);
          else hooks.restartContainerd(node);
        } else if (verb === 'stop') {
          if (st.up) hooks.stopUnit(node, unit);
        } else if (!st.up) hooks.startUnit(node, unit);
      });
    }
  }
  return status;
}

function reboot(ctx: CommandContext): number {
  const hooks = ctx.cluster;
  if (!hooks) {
    ctx.err('cnisim: reboot: a node without a cluster cannot reboot in the simulation\n');
    return 1;
  }
  ctx.outside(() => {
    ctx.note('systemd', 'cluster');
    hooks.reboot(ctx.nodeName);
  });
  // The session ends with the machine.
  ctx.shell.requestExit(0);
  return 0;
}

export const K8S_COMMANDS: CommandSpec[] = [
  { name: 'journalctl', dir: '/usr/bin', run: journalctl },
  { name: 'crictl', dir: '/usr/bin', run: crictl },
  { name: 'kubectl', dir: '/usr/bin', run: kubectl },
  { name: 'systemctl', dir: '/usr/bin', run: systemctl },
  { name: 'reboot', dir: '/usr/sbin', run: reboot },
];
