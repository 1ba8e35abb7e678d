/**
 * Where a run stands, at its end or at any step of its trace: the pods as `kubectl get pods -o
 * wide` lists them, each node's runtime state (NetworkReady, sandboxes, host veths, host-local
 * reservations, result cache files), the audit's findings, the journals' last lines and the
 * trace's counts. `formatReport` prints it for a terminal; the data is what `--json` prints.
 */
import { kubectlGetPods, podRows, type PodRow } from '../apiserver/apiserver';
import type { AuditFinding, Cluster } from '../cluster/cluster';
import * as inspect from '../node/inspect';
import { releaseOf } from '../runtime/releases';
import { crioReleaseOf } from '../runtime/crio-releases';
import type { WorldState } from '../sim/world';
import type { TraceEvent } from '../trace/trace';
import { formatDuration } from './duration';
import type { RunSummary } from './run';
import { stateAt, traceIndex, type TraceCounts } from './seek';
import { tvalues } from '../state/table';

export { stateAt, type TraceCounts };

export interface SandboxInfo {
  id: string;
  pod: string;
  state: string;
  ip: string;
  netns: string;
}

export interface NodeReport {
  name: string;
  /** The API server's Ready condition. */
  ready: boolean;
  readyMessage: string;
  /** The kubelet's last runtime Status: NetworkReady and its message. */
  networkReady: boolean;
  networkMessage: string;
  /**
   * The release it runs (`version`), its behaviour range, its libcni generation and the go-cni
   * and libcni modules it vendors (runtime/releases.ts).
   */
  containerd: {
    /** Present on a CRI-O node: the fields below are then CRI-O's (runtime/crio-releases.ts). */
    runtime?: 'cri-o';
    up: boolean;
    pid: number;
    version: string;
    range: string;
    libcni: string;
    vendors: string;
    /** A release installed since, that runs from containerd's next start. */
    installed?: string;
  };
  kubelet: { up: boolean; pid: number };
  /** Networks containerd loaded (name, interface, file), or the load error. */
  networks: string[];
  cniError: string | null;
  sandboxes: SandboxInfo[];
  hostVeths: string[];
  /** host-local reservations: `10.244.1.2 (containerd-net, 8138740522062)`. */
  reservations: string[];
  ipamCapacity: number | null;
  cacheFiles: string[];
  findings: AuditFinding[];
  /** The journal's last lines (containerd and kubelet). */
  journal: string[];
}

export interface ClusterReport {
  /** The step shown (index of the last event included), -1 before any event. */
  step: number;
  time: number;
  trace: TraceCounts;
  pods: PodRow[];
  nodes: NodeReport[];
  findings: AuditFinding[];
}

/** Counts of the trace's events up to and including `upTo` (default: all). */
export function traceCounts(events: readonly TraceEvent[], upTo = events.length - 1): TraceCounts {
  return traceIndex(events).counts(upTo);
}

function nodeReport(
  c: Cluster,
  state: WorldState,
  name: string,
  events: readonly TraceEvent[],
  upTo: number,
  journal: number,
  findings: AuditFinding[],
  capacity: number | null,
): NodeReport {
  const n = state.nodes[name]!;
  const cd = n.containerd!;
  const crio = cd.settings.runtime === 'cri-o';
  const rel = crio ? crioReleaseOf(cd.settings.version) : releaseOf(cd.settings);
  const kl = n.kubelet!;
  const k = n.kernel;
  const ready = state.api?.nodes[name]?.ready;
  const hostVeths = inspect.hostVeths(k).map((l) => l.name);
  const reservations = inspect
    .reservations(n.fs)
    .map((r) => `${r.ip} (${r.network}, ${r.containerId.slice(0, 13)})`);
  return {
    name,
    ready: ready?.status === 'True',
    readyMessage: ready?.message ?? ready?.reason ?? '',
    networkReady: kl.networkReady,
    networkMessage: kl.networkMessage,
    containerd: {
      ...(crio ? { runtime: 'cri-o' as const } : {}),
      up: cd.up,
      pid: cd.pid,
      version: rel.version,
      range: rel.range,
      libcni: rel.libcni,
      vendors: rel.vendors,
      ...(cd.installed !== undefined ? { installed: cd.installed } : {}),
    },
    kubelet: { up: kl.up, pid: kl.pid },
    networks: cd.cni.networks.map((x) => `${x.name} (${x.ifName}${x.file ? `, ${x.file}` : ''})`),
    cniError: cd.cni.error,
    sandboxes: tvalues(cd.sandboxes)
      .sort((a, b) => a.createdAt - b.createdAt)
      .map((s) => ({
        id: s.id.slice(0, 13),
        pod: `${s.pod.namespace}/${s.pod.name}`,
        state: s.unknown ? 'SANDBOX_UNKNOWN' : s.state,
        ip: s.ip,
        netns: s.netns,
      })),
    hostVeths,
    reservations,
    ipamCapacity: capacity,
    cacheFiles: inspect.cacheFiles(n.fs),
    findings,
    journal: journal > 0 ? traceIndex(events).journal(name, upTo, { last: journal }) : [],
  };
}

/**
 * The report at `step` (index of an event; default: now). `journal` is how many journal lines per node to keep.
 */
export function clusterReport(
  c: Cluster,
  opts: { step?: number; journal?: number } = {},
): ClusterReport {
  const events = c.events;
  const step = Math.min(opts.step ?? events.length - 1, events.length - 1);
  const state = stateAt(c, step);
  const audit = c.audit(state);
  const nodes = audit.map((a) =>
    nodeReport(c, state, a.node, events, step, opts.journal ?? 10, a.findings, a.ipamCapacity),
  );
  return {
    step,
    time: state.clock,
    trace: traceCounts(events, step),
    pods: state.api ? podRows(state.api, state.clock) : [],
    nodes,
    findings: audit.flatMap((a) => a.findings),
  };
}

// ---------------------------------------------------------------------------------------------
// Text

function indent(lines: string[], by = '  '): string[] {
  return lines.map((l) => (l ? by + l : l));
}

function list(label: string, items: string[], max = 8): string[] {
  if (!items.length) return [`${label}: none`];
  const shown = items.slice(0, max);
  const more = items.length > max ? [`... and ${items.length - max} more`] : [];
  return [`${label}: ${items.length}`, ...indent([...shown, ...more])];
}

function counts(r: Record<string, number>): string {
  return Object.entries(r)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
}

/** The readable summary `npm run sim` prints (`r` is the report at the run's stop step). */
export function formatReport(summary: RunSummary, r: ClusterReport, c: Cluster): string {
  const out: string[] = [];
  out.push(
    `Scenario ${summary.scenario}${summary.title ? ` — ${summary.title}` : ''} (seed ${summary.seed})`,
  );
  out.push(
    `Stopped at ${formatDuration(r.time)} of virtual time after ${r.trace.events} events: ${summary.stop.reason}${summary.stop.detail ? ` — ${summary.stop.detail}` : ''}`,
  );
  out.push('');
  out.push('Actions:');
  if (!summary.actions.length) out.push('  (none)');
  for (const a of summary.actions) {
    const when = a.time === null ? '—' : formatDuration(a.time);
    const status =
      a.status === 'done' ? '' : a.status === 'failed' ? `  FAILED: ${a.error}` : '  (not reached)';
    out.push(`  ${String(a.index + 1).padStart(2)}. ${when.padStart(8)}  ${a.text}${status}`);
    if (a.waited) out.push(`      ${' '.repeat(8)}  waited: ${a.waited}`);
  }
  if (summary.operations.length) {
    out.push('');
    out.push('Operations:');
    for (const o of summary.operations) {
      out.push(
        `  ${o.what}: ${o.status}${o.exitCode !== undefined ? ` (exit ${o.exitCode})` : ''}`,
      );
      const text = (o.output ?? '').replace(/\n$/, '');
      if (text) out.push(...indent(text.split('\n').slice(0, 12), '    '));
    }
  }
  out.push('');
  out.push('Pods (kubectl get pods -o wide):');
  const state = stateAt(c, r.step);
  out.push(
    ...indent(
      r.pods.length
        ? kubectlGetPods(state.api!, state.clock).split('\n')
        : ['No resources found in default namespace.'],
    ),
  );
  for (const n of r.nodes) {
    out.push('');
    const ready = n.ready ? 'Ready' : `NotReady${n.readyMessage ? ` (${n.readyMessage})` : ''}`;
    out.push(`Node ${n.name}: ${ready}`);
    out.push(
      `  ${n.containerd.runtime ?? 'containerd'} ${n.containerd.version} (behaviour ${n.containerd.range}; ${n.containerd.vendors}) ${n.containerd.up ? `up (pid ${n.containerd.pid})` : 'down'}${n.containerd.installed ? ` (${n.containerd.installed} installed: runs from the next start)` : ''}, kubelet ${n.kubelet.up ? `up (pid ${n.kubelet.pid})` : 'down'}, NetworkReady=${n.networkReady}${n.networkMessage ? ` (${n.networkMessage})` : ''}`,
    );
    out.push(
      `  CNI networks: ${n.cniError ? `${n.containerd.runtime ? 'no default network' : 'not initialized'}: ${n.cniError}` : n.networks.join(', ')}`,
    );
    out.push(
      ...indent(
        list(
          'sandboxes',
          n.sandboxes.map((s) => `${s.id}  ${s.pod}  ${s.state}  ${s.ip || '-'}`),
        ),
      ),
    );
    out.push(...indent(list('host veths', n.hostVeths)));
    out.push(
      ...indent(
        list(
          `IPAM reservations${n.ipamCapacity !== null ? ` (of ${n.ipamCapacity})` : ''}`,
          n.reservations,
        ),
      ),
    );
    out.push(...indent(list('result cache files', n.cacheFiles, 4)));
  }
  out.push('');
  out.push(`Audit: ${r.findings.length ? `${r.findings.length} finding(s)` : 'nothing found'}`);
  for (const f of r.findings.slice(0, 30)) out.push(`  ${f.node}  ${f.kind}  ${f.detail}`);
  if (r.findings.length > 30) out.push(`  ... and ${r.findings.length - 30} more`);
  for (const n of r.nodes) {
    if (!n.journal.length) continue;
    out.push('');
    out.push(`Journal of ${n.name} (last ${n.journal.length} lines):`);
    out.push(...indent(n.journal));
  }
  out.push('');
  out.push(
    `Trace: ${r.trace.events} events (${counts(r.trace.byKind)}); ${r.trace.errors} failure(s) (plugin exits, libcni and CRI calls)`,
  );
  return out.join('\n');
}

/** What `--json` prints. */
export function reportJson(summary: RunSummary, r: ClusterReport): Record<string, unknown> {
  return {
    scenario: summary.scenario,
    title: summary.title,
    seed: summary.seed,
    stop: summary.stop,
    time: r.time,
    step: r.step,
    trace: r.trace,
    actions: summary.actions,
    operations: summary.operations,
    pods: r.pods,
    nodes: r.nodes,
    audit: r.findings,
  };
}
