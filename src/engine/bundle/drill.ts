/**
 * The staging drill on a bundle's node, run by the scenario machinery (scenario/): boot, ADD of a
 * pod and an operator's CHECK, scale to N pods, delete, a kubelet restart, a containerd restart,
 * scale to zero, and the IPAM audit. Each step keeps the warnings the cluster recorded while it
 * ran (the real messages: FailedCreatePodSandBox, ...).
 */
import { eventList } from '../apiserver/apiserver';
import { runScenario } from '../scenario/run';
import { formatDuration } from '../scenario/duration';
import type { NodeBundle } from './bundle';
import type { Loaded } from './findings';
import { NODE_NAME, type NodePlan, SIMULATED_PLUGINS, planNode } from './node';

export interface DrillStep {
  step: string;
  outcome: 'ok' | 'failed' | 'not-reached';
  /** Virtual time the step ran at, e.g. `1.2s`. */
  at: string | null;
  detail: string;
  /** Warnings (and CHECK output) seen during the step, each once with its count. */
  messages: string[];
}

export interface DrillResult {
  /** Null when the drill ran; else why it was not run. */
  skipped: string | null;
  steps: DrillStep[];
  /** The IPAM audit's findings after the drill (orphan reservations, duplicate IPs, ...). */
  audit: string[];
  pods: string[];
}

export interface Boot {
  ok: boolean;
  /** Scenario errors when the node could not be built. */
  errors: string[];
  loaded: Loaded;
  networkReady: boolean;
  networkMessage: string;
  plan: NodePlan;
}

const scenarioOf = (plan: NodePlan, actions: unknown[], end: unknown) => ({
  version: 1,
  name: 'your-node',
  title: 'A node from a bundle',
  seed: 1,
  nodes: [plan.node],
  actions,
  end,
  limits: { events: 60_000, time: '1h' },
});

/** Builds the node and lets it boot: what containerd loads and whether the network is ready. */
export function bootNode(b: NodeBundle): Boot {
  const plan = planNode(b);
  const r = runScenario(scenarioOf(plan, [], { until: 'time:20s', timeout: '30s' }));
  if (!r.ok)
    return {
      ok: false,
      errors: r.errors,
      loaded: { networks: [], error: null },
      networkReady: false,
      networkMessage: '',
      plan,
    };
  const st = r.cluster.sim.state;
  const c = st.nodes[NODE_NAME]!.containerd!;
  const k = st.nodes[NODE_NAME]!.kubelet!;
  const networks = c.cni.networks
    .filter((n) => n.file !== '')
    .map((n) => ({ name: n.name, ifName: n.ifName, file: n.file, bytes: n.bytes }));
  const ready = networks.length > 0 && c.cni.error === null;
  return {
    ok: true,
    errors: [],
    loaded: { networks, error: c.cni.error },
    networkReady: k.networkReady && ready,
    networkMessage: k.networkMessage,
    plan,
  };
}

/** Why the drill cannot run faithfully on this node, or null. */
export function drillBlocker(b: NodeBundle, boot: Boot): string | null {
  if (!boot.ok) return `the node could not be built: ${boot.errors.join('; ')}`;
  if (b.runtime.kind === 'cri-o')
    return "the runtime is CRI-O; cnisim simulates containerd's CRI plugin only, so the lifecycle is not dry-run";
  if (b.runtime.kind === 'unknown')
    return 'the runtime is unknown (runtime-version.txt names neither containerd nor CRI-O)';
  const unsim = new Set<string>();
  for (const n of boot.loaded.networks) {
    let v: unknown;
    try {
      v = JSON.parse(n.bytes);
    } catch {
      continue;
    }
    const plugins = (v as { plugins?: unknown }).plugins;
    if (!Array.isArray(plugins)) continue;
    for (const p of plugins) {
      const t = (p as { type?: unknown })?.type;
      const ipam = (p as { ipam?: { type?: unknown } })?.ipam?.type;
      for (const x of [t, ipam])
        if (typeof x === 'string' && !SIMULATED_PLUGINS.includes(x) && x in b.plugins) unsim.add(x);
    }
  }
  if (unsim.size)
    return `the loaded chain uses ${[...unsim].sort().join(', ')}, which cnisim does not simulate; the drill would invent their behaviour`;
  return null;
}

export interface DrillOptions {
  /** Pods to scale to (default 10). */
  pods?: number;
}

export function runDrill(b: NodeBundle, boot: Boot, opts: DrillOptions = {}): DrillResult {
  const blocker = drillBlocker(b, boot);
  if (blocker) return { skipped: blocker, steps: [], audit: [], pods: [] };
  const n = Math.max(1, Math.min(opts.pods ?? 10, 120));
  const steps: Array<{ step: string; actions: Array<Record<string, unknown>> }> = [
    {
      step: 'boot: the node comes up',
      actions: [{ do: 'runUntil', until: `node-ready:${NODE_NAME}`, timeout: '1m' }],
    },
    {
      step: 'ADD: one pod (kubectl run probe)',
      actions: [
        { do: 'createPod', name: 'probe', node: NODE_NAME },
        { do: 'runUntil', until: 'pod-running:probe', timeout: '1m' },
      ],
    },
    {
      step: "CHECK of the pod (as a runtime calls libcni, with the sandbox's id; containerd never runs CHECK)",
      actions: [
        { do: 'cniCheck', pod: 'probe' },
        { do: 'wait', for: '2s' },
      ],
    },
    {
      step: `scale to ${n} pods`,
      actions: [
        { do: 'scale', deployment: 'drill', replicas: n, node: NODE_NAME },
        { do: 'runUntil', until: 'pod-running:drill-*', timeout: '2m' },
      ],
    },
    {
      step: 'delete the pod (DEL)',
      actions: [
        { do: 'deletePod', pod: 'probe' },
        { do: 'runUntil', until: 'pod-gone:probe', timeout: '2m', optional: true },
      ],
    },
    {
      step: 'kubelet restart',
      actions: [
        { do: 'restartKubelet', node: NODE_NAME },
        { do: 'wait', for: '30s' },
        { do: 'runUntil', until: 'pod-running:drill-*', timeout: '2m', optional: true },
      ],
    },
    {
      step: 'containerd restart',
      actions: [
        { do: 'restartContainerd', node: NODE_NAME },
        { do: 'wait', for: '30s' },
        { do: 'runUntil', until: 'pod-running:drill-*', timeout: '2m', optional: true },
      ],
    },
    {
      step: 'scale to 0 (DEL of every pod)',
      actions: [
        { do: 'scale', deployment: 'drill', replicas: 0 },
        { do: 'runUntil', until: 'pod-gone:drill-*', timeout: '3m', optional: true },
      ],
    },
  ];
  const actions = steps.flatMap((s) => s.actions);
  const r = runScenario(scenarioOf(boot.plan, actions, { until: 'idle', timeout: '5m' }));
  if (!r.ok)
    return {
      skipped: `the drill could not run: ${r.errors.join('; ')}`,
      steps: [],
      audit: [],
      pods: [],
    };
  const st = r.cluster.sim.state;
  const events = eventList(st.api!);
  const reps = r.summary.actions;
  const ops = r.summary.operations;
  const out: DrillStep[] = [];
  let ai = 0;
  steps.forEach((s, si) => {
    const mine = reps.slice(ai, ai + s.actions.length);
    const firstIdx = ai;
    ai += s.actions.length;
    const next = reps[ai];
    const t0 = mine[0]?.time ?? null;
    const t1 = next?.time ?? (si === steps.length - 1 ? Infinity : null) ?? Infinity;
    const failed = mine.filter(
      (a) =>
        a.status === 'failed' ||
        a.error !== undefined ||
        (a.waited !== undefined && !/held/.test(a.waited)),
    );
    const notReached = !failed.length && mine.every((a) => a.status === 'not-reached');
    // Warnings seen during the step, each text once: sandbox ids folded, pods counted.
    const seen = new Map<string, { n: number; objects: Set<string> }>();
    if (t0 !== null) {
      for (const e of events) {
        if (e.type !== 'Warning') continue;
        if (e.lastTime < t0 || e.firstTime >= (t1 ?? Infinity)) continue;
        const text = `${e.reason}: ${e.message.replace(/[0-9a-f]{64}/g, '<id>')}`;
        const m = seen.get(text) ?? { n: 0, objects: new Set<string>() };
        m.n += e.count;
        m.objects.add(e.object);
        seen.set(text, m);
      }
    }
    const messages: string[] = [...seen].map(([text, m]) => {
      const objs = [...m.objects];
      const more = objs.length > 3 ? `, +${objs.length - 3} more` : '';
      return `Warning ${text} (${m.n}x on ${objs.slice(0, 3).join(', ')}${more})`;
    });
    for (const o of ops)
      if (o.action >= firstIdx && o.action < ai)
        messages.push(`${o.what}: ${o.status}${o.output ? `: ${o.output.trim()}` : ''}`);
    const opFailed = ops.some(
      (o) => o.action >= firstIdx && o.action < ai && o.status === 'failed',
    );
    out.push({
      step: s.step,
      outcome: notReached ? 'not-reached' : failed.length || opFailed ? 'failed' : 'ok',
      at: t0 === null ? null : formatDuration(t0),
      detail: mine
        .map((a) => [a.error, a.waited].filter(Boolean).join('; '))
        .filter(Boolean)
        .join('; '),
      messages: messages.slice(0, 12),
    });
  });
  const audit = r.cluster.audit(st).flatMap((a) => a.findings.map((f) => `${f.kind}: ${f.detail}`));
  return { skipped: null, steps: out, audit, pods: [] };
}
