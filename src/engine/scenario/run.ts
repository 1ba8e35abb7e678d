/**
 * Running a scenario: builds the cluster it describes, then carries out its actions in order,
 * running the simulation in between (up to an action's `at` time, or until its `after`
 * condition holds), and after the last one until the `end` condition. A run never throws: an
 * action that fails (deleting a pod that does not exist, say) is reported and the run goes on; a
 * wait that cannot be met ends the run, and the summary says where and why.
 */
import { Cluster, DEFAULT_CLUSTER, type ClusterSpec, type NodeSpec } from '../cluster/cluster';
// A scenario's `shell` actions run on the cluster's nodes.
import '../cluster/with-shell';
import '../plugins/late';
import '../runtime/crio-late';
import { podKey } from '../apiserver/apiserver';
import type { LibcniOutcome } from '../libcni/api';
import { FAULTS } from '../faults/catalogue';
import { injectFault } from '../faults/inject';
import type { KubeletSettings } from '../state/kubelet';
import type { Task } from '../sched/scheduler';
import { type Condition, parseCondition, podsMatching, parsePodPattern, Watch } from './condition';
import { formatDuration, parseDuration } from './duration';
import {
  type ActionName,
  parseScenario,
  setKnownFaults,
  type Scenario,
  type ScenarioAction,
  type ScenarioNode,
} from './schema';

export const DEFAULT_WAIT_US = 600_000_000;
export const DEFAULT_LIMITS = { events: 100_000, timeUs: 7_200_000_000 };

export interface RunOptions {
  /** Overrides the scenario's seed. */
  seed?: number;
  /** Stop as soon as this condition holds (watched from the first event on). */
  until?: string;
  /** Overrides the scenario's event limit. */
  maxEvents?: number;
}

export type StopReason =
  | 'completed' // the end condition held
  | 'until' // the run's `until` condition held
  | 'timeout' // a wait (or the end) was not met within its timeout
  | 'stalled' // nothing left to happen, and the awaited condition does not hold
  | 'event-limit'
  | 'time-limit';

export interface ActionReport {
  index: number;
  do: ActionName;
  /** What it does, as a person would say or type it. */
  text: string;
  note?: string;
  status: 'done' | 'failed' | 'not-reached';
  /** Virtual time (µs) and trace position (number of events before it) when it ran. */
  time: number | null;
  step: number | null;
  error?: string;
  /** How its wait ended, e.g. `pod-running:web-0 held at 4.1s`. */
  waited?: string;
}

export interface OperationReport {
  action: number;
  /** e.g. `cnitool check default/web-0`, `node-1# ip link`. */
  what: string;
  node: string;
  status: 'ok' | 'failed' | 'running';
  exitCode?: number;
  output?: string;
}

export interface RunSummary {
  scenario: string;
  title: string | null;
  seed: number;
  stop: { reason: StopReason; detail: string; time: number; step: number };
  actions: ActionReport[];
  operations: OperationReport[];
}

export type ScenarioRun =
  | { ok: true; cluster: Cluster; summary: RunSummary; scenario: Scenario }
  | { ok: false; errors: string[] };

// ---------------------------------------------------------------------------------------------
// The cluster a scenario describes

const us = (v: string | number | undefined): number | undefined =>
  v === undefined ? undefined : (parseDuration(v) ?? undefined);

function fileText(data: string | Record<string, unknown>): string {
  return typeof data === 'string' ? data : `${JSON.stringify(data, null, 2)}\n`;
}

export function clusterSpec(s: Scenario): ClusterSpec {
  const spec = nodesSpec(s);
  if (!s.network) return spec;
  const { mode, masqAgent } = s.network;
  return { ...spec, network: masqAgent ? { mode, masqAgent } : { mode } };
}

function nodesSpec(s: Scenario): ClusterSpec {
  const version = s.containerd?.version;
  if (!s.nodes) {
    if (version === undefined) return DEFAULT_CLUSTER;
    return {
      nodes: DEFAULT_CLUSTER.nodes.map((n) => ({
        ...n,
        containerd: { ...n.containerd, version },
      })),
    };
  }
  return {
    nodes: s.nodes.map((n: ScenarioNode): NodeSpec => {
      const kubelet: Partial<KubeletSettings> = {};
      const k = n.kubelet ?? {};
      const set = (key: keyof KubeletSettings, v: string | number | undefined) => {
        const x = us(v);
        if (x !== undefined) kubelet[key] = x;
      };
      set('runtimeRequestTimeoutUs', k.runtimeRequestTimeout);
      set('backoffUs', k.backoff);
      set('networkRetryUs', k.networkRetry);
      set('statusPeriodUs', k.statusPeriod);
      return {
        name: n.name,
        podCIDR: n.podCIDR,
        ...(n.cniConfigs
          ? {
              cniConfigs: Object.fromEntries(
                Object.entries(n.cniConfigs).map(([f, d]) => [f, fileText(d)]),
              ),
            }
          : {}),
        ...(n.pluginBuild ? { pluginBuild: n.pluginBuild } : {}),
        ...(n.plugins ? { plugins: n.plugins } : {}),
        ...(n.pluginBuilds ? { pluginBuilds: n.pluginBuilds } : {}),
        ...(n.files
          ? {
              files: Object.fromEntries(Object.entries(n.files).map(([f, d]) => [f, fileText(d)])),
            }
          : {}),
        ...(crioOf(n)
          ? { runtime: crioOf(n)! }
          : n.containerd || version !== undefined
            ? {
                containerd: {
                  // The scenario's release, unless the node names its own (or a libcni shorthand).
                  ...(version !== undefined && !n.containerd?.libcni ? { version } : {}),
                  ...n.containerd,
                },
              }
            : {}),
        kubelet,
      };
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Faults (the catalogue in ../faults plugs in here)

/**
 * Injects a fault of the catalogue: what `injectFault(cluster, id, params)` of ../faults does.
 * `at` is the trace step the fault was injected at (its first change); a refusal names the
 * parameter or the problem.
 */
export type FaultInjector = (
  cluster: Cluster,
  id: string,
  params: Record<string, unknown>,
) => { ok: true; at: number } | { ok: false; error: string };

const catalogueIds = () => FAULTS.map((f) => f.id);

let injector: FaultInjector = injectFault;

/**
 * Wires `injectFault` actions (and the check of fault ids) to another injector, for tests;
 * null puts the fault catalogue back.
 */
export function setFaultInjector(f: FaultInjector | null, ids?: () => readonly string[]): void {
  injector = f ?? injectFault;
  setKnownFaults(f ? (ids ?? null) : catalogueIds);
}

// ---------------------------------------------------------------------------------------------
// Actions

export function actionText(a: ScenarioAction): string {
  const on = (n: string | undefined) => (n ? ` on ${n}` : '');
  switch (a.do) {
    case 'createPod':
      return `create pod ${a.namespace ? `${a.namespace}/` : ''}${a.name}${on(a.node)}`;
    case 'deletePod':
      return `kubectl delete pod ${a.pod}`;
    case 'scale':
      return `kubectl scale deployment ${a.deployment} --replicas=${a.replicas}${on(a.node)}`;
    case 'restartKubelet':
      return `systemctl restart kubelet${on(a.node)}`;
    case 'restartContainerd':
      return `systemctl restart containerd${on(a.node)}`;
    case 'setContainerdVersion':
      return `install containerd ${a.version}${on(a.node)}`;
    case 'reboot':
      return `reboot${on(a.node)}`;
    case 'shell':
      return `${a.node ?? 'node'}# ${a.line}`;
    case 'writeFile':
      return `write ${a.path}${on(a.node)}`;
    case 'removeFile':
      return `rm ${a.path}${on(a.node)}`;
    case 'installPlugin':
      return `install ${a.plugin} ${a.build}${on(a.node)}`;
    case 'hangPlugin':
      return a.commands.length
        ? `make ${a.plugin} hang on ${a.commands.join(', ')}${on(a.node)}`
        : `make ${a.plugin} behave${on(a.node)}`;
    case 'cniCheck':
      return `cnitool check ${a.pod}`;
    case 'cniGc':
      return `cnitool gc${on(a.node)}`;
    case 'cniStatus':
      return `cnitool status${on(a.node)}`;
    case 'injectFault':
      return `inject fault ${a.fault}${a.params && Object.keys(a.params).length ? ` ${JSON.stringify(a.params)}` : ''}`;
    case 'wait':
      return `wait ${formatDuration(us(a.for) ?? 0)}`;
    case 'runUntil':
      return `run until ${parseConditionText(a.until)}`;
  }
}

function parseConditionText(s: string): string {
  const r = parseCondition(s);
  return r.ok ? r.value.text : s;
}

interface PendingOp {
  report: OperationReport;
  task?: Task<LibcniOutcome>;
}

function outcomeText(o: LibcniOutcome | undefined): string {
  if (!o) return '';
  if (!o.ok) return o.error.message;
  return o.result ? JSON.stringify(o.result) : '';
}

// ---------------------------------------------------------------------------------------------
// The run

type WaitEnd = 'met' | 'timeout' | 'stalled' | 'halt';

class Runner {
  readonly actions: ActionReport[] = [];
  readonly ops: PendingOp[] = [];
  stop: RunSummary['stop'] | null = null;
  /** Where each fault was injected (trace step → fault id), for `fault` conditions. */
  readonly faults = new Map<number, string>();

  /** The run's `until`, watched from the first event on. */
  readonly global: Watch | null;

  constructor(
    readonly c: Cluster,
    until: Condition | null,
    readonly maxEvents: number,
    readonly maxTime: number,
  ) {
    this.global = until ? new Watch(until, 0, this.faults) : null;
  }

  private get now(): number {
    return this.c.now;
  }

  halt(reason: StopReason, detail: string, step?: number): void {
    const at = step ?? this.c.events.length - 1;
    const time = step === undefined ? this.now : this.c.events[step]!.time;
    this.stop ??= { reason, detail, time, step: at };
  }

  /**
   * Whether the run's `until` holds: after one of the events recorded since the last look (the
   * run then stops at that event), or now.
   */
  private globalHolds(idle: boolean): boolean {
    const g = this.global;
    if (!g) return false;
    const k = g.scan(this.c.events, this.c.sim.states);
    if (k !== null) {
      const t = formatDuration(this.c.events[k]!.time);
      this.halt('until', `"${g.condition.text}" held at ${t} (event ${k})`, k);
      return true;
    }
    if (g.holds(this.c.sim.state, this.c.events.length, idle)) {
      this.halt('until', `"${g.condition.text}" held at ${formatDuration(this.now)}`);
      return true;
    }
    return false;
  }

  /** After an action recorded its events: the run's `until` may hold now. */
  afterAction(): boolean {
    return this.globalHolds(false) || this.limitsHit();
  }

  private limitsHit(): boolean {
    if (this.c.events.length >= this.maxEvents) {
      this.halt('event-limit', `stopped after ${this.maxEvents} events (limits.events)`);
      return true;
    }
    if (this.now >= this.maxTime) {
      this.halt(
        'time-limit',
        `stopped at ${formatDuration(this.maxTime)} of virtual time (limits.time)`,
      );
      return true;
    }
    return false;
  }

  /** Runs the simulation until `w` holds, `deadline` (µs) passes, or the run must stop. */
  runUntil(w: Watch, deadline: number): WaitEnd {
    const job = this.runUntilJob(w, deadline);
    for (;;) {
      const r = job.next();
      if (r.done) return r.value;
    }
  }

  /** `runUntil`, yielding (the trace's length) after each step of the cluster. */
  *runUntilJob(w: Watch, deadline: number): Generator<number, WaitEnd, void> {
    const sim = this.c.sim;
    const check = (idle: boolean): WaitEnd | null => {
      if (this.globalHolds(idle)) return 'halt';
      if (w.scan(sim.events, sim.states) !== null) return 'met';
      if (w.holds(sim.state, sim.events.length, idle)) return 'met';
      return null;
    };
    for (;;) {
      const r = check(false);
      if (r) return r;
      if (this.limitsHit()) return 'halt';
      const times = [w.nextTime(this.now), this.global?.nextTime(this.now) ?? null].filter(
        (t): t is number => t !== null,
      );
      const timeAtom = times.length ? Math.min(...times) : Infinity;
      const target = Math.min(deadline, this.maxTime, timeAtom);
      if (this.c.step(target)) {
        yield sim.events.length;
        continue;
      }
      const idle = this.c.sched.nextDueAt() === null;
      if (idle) {
        const r2 = check(true);
        if (r2) return r2;
        // Nothing will happen any more: only the passing of time can still make it hold.
        if (timeAtom === Infinity) return 'stalled';
      }
      if (target === Infinity) return 'stalled';
      sim.advanceTo(target);
      const r3 = check(idle);
      if (r3) return r3;
      if (this.limitsHit()) return 'halt';
      if (target >= deadline) return 'timeout';
    }
  }

  waitText(w: Watch, end: WaitEnd, deadline: number, start: number): string {
    const cond = `"${w.condition.text}"`;
    switch (end) {
      case 'met':
        return `${cond} held at ${formatDuration(this.now)}`;
      case 'timeout':
        return `${cond} did not hold within ${formatDuration(deadline - start)} (at ${formatDuration(this.now)})`;
      case 'stalled':
        return `${cond} cannot hold: nothing is left to happen (at ${formatDuration(this.now)})`;
      case 'halt':
        return `stopped before ${cond} held`;
    }
  }

  /** Carries out one action; throws what the cluster throws. */
  perform(index: number, a: ScenarioAction, defaultNode: string): void {
    const c = this.c;
    const node = ('node' in a ? a.node : undefined) ?? defaultNode;
    switch (a.do) {
      case 'createPod':
        c.createPod({
          name: a.name,
          ...(a.namespace ? { namespace: a.namespace } : {}),
          ...(a.node ? { node: a.node } : {}),
          ...(a.hostPorts
            ? { hostPorts: a.hostPorts.map((h) => ({ protocol: 'TCP' as const, ...h })) }
            : {}),
          ...(a.annotations ? { annotations: a.annotations } : {}),
        });
        return;
      case 'deletePod': {
        const p = parsePodPattern(a.pod);
        const pods = p.ok ? podsMatching(c.sim.state.api, p.value) : [];
        if (!pods.length) throw new Error(`no pod matches "${a.pod}"`);
        for (const pod of pods) c.deletePod(podKey(pod.spec.namespace, pod.spec.name));
        return;
      }
      case 'scale':
        c.scale(a.deployment, a.replicas, {
          ...(a.namespace ? { namespace: a.namespace } : {}),
          ...(a.node ? { node: a.node } : {}),
        });
        return;
      case 'restartKubelet':
        c.restartKubelet(node, us(a.down));
        return;
      case 'restartContainerd':
        c.restartContainerd(node, us(a.down));
        return;
      case 'setContainerdVersion':
        c.setContainerdVersion(node, a.version);
        return;
      case 'reboot':
        c.reboot(node, us(a.down));
        return;
      case 'shell': {
        const r = c.shell(node, a.line);
        this.ops.push({
          report: {
            action: index,
            what: `${node}# ${a.line}`,
            node,
            status: r.exitCode === 0 ? 'ok' : 'failed',
            exitCode: r.exitCode,
            output: r.output,
          },
        });
        return;
      }
      case 'writeFile': {
        const mode =
          a.mode === undefined
            ? undefined
            : typeof a.mode === 'number'
              ? a.mode
              : parseInt(a.mode, 8);
        c.writeFile(node, a.path, fileText(a.data), mode);
        return;
      }
      case 'removeFile':
        c.removeFile(node, a.path);
        return;
      case 'installPlugin':
        c.installPlugin(node, a.plugin, a.build);
        return;
      case 'hangPlugin':
        c.hangPlugin(node, a.plugin, a.commands);
        return;
      case 'cniCheck': {
        const p = parsePodPattern(a.pod);
        const pods = p.ok ? podsMatching(c.sim.state.api, p.value) : [];
        if (!pods.length) throw new Error(`no pod matches "${a.pod}"`);
        for (const pod of pods) {
          const key = podKey(pod.spec.namespace, pod.spec.name);
          this.op(index, `cnitool check ${key}`, pod.spec.nodeName, () => c.cniCheck(key));
        }
        return;
      }
      case 'cniGc':
        this.op(index, `cnitool gc`, node, () => c.cniGc(node));
        return;
      case 'cniStatus':
        this.op(index, `cnitool status`, node, () => c.cniStatus(node));
        return;
      case 'injectFault': {
        const r = injector(c, a.fault, a.params ?? {});
        if (!r.ok) throw new Error(r.error);
        this.faults.set(r.at, a.fault);
        return;
      }
      case 'wait':
      case 'runUntil':
        return;
    }
  }

  private op(index: number, what: string, node: string, start: () => Task<LibcniOutcome>): void {
    this.ops.push({ report: { action: index, what, node, status: 'running' }, task: start() });
  }

  operations(): OperationReport[] {
    return this.ops.map(({ report, task }) => {
      if (!task) return report;
      if (!task.done) return report;
      const out = task.value;
      if (task.killed || task.error || !out)
        return {
          ...report,
          status: 'failed',
          output: String((task.error as Error)?.message ?? 'killed'),
        };
      return { ...report, status: out.ok ? 'ok' : 'failed', output: outcomeText(out) };
    });
  }
}

/**
 * Validates (when given text or unknown data) and runs a scenario. Never throws: an invalid
 * scenario or `until` gives `{ ok: false, errors }`.
 */
export function runScenario(input: Scenario | unknown, opts: RunOptions = {}): ScenarioRun {
  const job = runScenarioJob(input, opts);
  for (;;) {
    const r = job.next();
    if (r.done) return r.value;
  }
}

/**
 * `runScenario` as a job: it yields (the trace's length) after each step of the cluster, so
 * that a page can run a lesson headless (its handout) in slices. The same run either way.
 */
export function* runScenarioJob(
  input: Scenario | unknown,
  opts: RunOptions = {},
): Generator<number, ScenarioRun, void> {
  const parsed = parseScenario(input);
  if (!parsed.ok) return parsed;
  const s = parsed.scenario;
  let until: Condition | null = null;
  if (opts.until !== undefined) {
    const u = parseCondition(opts.until);
    if (!u.ok) return { ok: false, errors: [`until: ${u.error}`] };
    until = u.value;
  }
  const seed = opts.seed ?? s.seed ?? 1;
  let cluster: Cluster;
  try {
    cluster = new Cluster(clusterSpec(s), { seed });
  } catch (e) {
    return { ok: false, errors: [`nodes: ${(e as Error).message ?? String(e)}`] };
  }
  const maxEvents = opts.maxEvents ?? s.limits?.events ?? DEFAULT_LIMITS.events;
  const maxTime = us(s.limits?.time) ?? DEFAULT_LIMITS.timeUs;
  const r = new Runner(cluster, until, maxEvents, maxTime);
  const defaultNode = cluster.spec.nodes[0]!.name;
  const actions = s.actions ?? [];

  const report = (i: number, a: ScenarioAction): ActionReport => ({
    index: i,
    do: a.do,
    text: actionText(a),
    ...(a.note ? { note: a.note } : {}),
    status: 'not-reached',
    time: null,
    step: null,
  });
  r.afterAction();
  for (let i = 0; i < actions.length && !r.stop; i++) {
    const a = actions[i]!;
    const rep = report(i, a);
    r.actions.push(rep);
    // The waits before the action: its `at` or `after`, then a `wait` or `runUntil` itself.
    // Each condition is made when its wait begins (a `wait` counts from there).
    const waits: Array<{ cond: () => string; timeout: number }> = [];
    const timeout = us(a.timeout) ?? DEFAULT_WAIT_US;
    if (a.at !== undefined) waits.push({ cond: () => `time:${us(a.at)}us`, timeout: Infinity });
    if (a.after !== undefined) waits.push({ cond: () => a.after!, timeout });
    if (a.do === 'wait')
      waits.push({ cond: () => `time:${r.c.now + (us(a.for) ?? 0)}us`, timeout: Infinity });
    if (a.do === 'runUntil') waits.push({ cond: () => a.until, timeout });
    let carryOn = true;
    const waited: string[] = [];
    for (const w of waits) {
      const cond = parseCondition(w.cond());
      if (!cond.ok) {
        // Validated already; a bug if it happens.
        rep.error = `${w.cond()}: ${cond.error}`;
        carryOn = false;
        break;
      }
      const start = r.c.now;
      const deadline = start + w.timeout;
      const watch = new Watch(cond.value, r.c.events.length, r.faults);
      const end = yield* r.runUntilJob(watch, deadline);
      waited.push(r.waitText(watch, end, deadline, start));
      rep.waited = waited.join('; ');
      if (end === 'met') continue;
      if (end === 'halt' || !a.optional) {
        if (end !== 'halt') r.halt(end, `actions[${i}] (${rep.text}): ${rep.waited}`);
        carryOn = false;
        break;
      }
    }
    if (!carryOn) break;
    rep.time = r.c.now;
    rep.step = r.c.events.length;
    try {
      r.perform(i, a, defaultNode);
      rep.status = 'done';
    } catch (e) {
      rep.status = 'failed';
      rep.error = (e as Error).message ?? String(e);
    }
    r.afterAction();
  }
  for (let i = r.actions.length; i < actions.length; i++) r.actions.push(report(i, actions[i]!));
  if (!r.stop) {
    const end = parseCondition(s.end?.until ?? 'idle');
    if (end.ok) {
      const start = r.c.now;
      const deadline = start + (us(s.end?.timeout) ?? DEFAULT_WAIT_US);
      const watch = new Watch(end.value, r.c.events.length, r.faults);
      const e = yield* r.runUntilJob(watch, deadline);
      const text = r.waitText(watch, e, deadline, start);
      if (e === 'met') r.halt('completed', `end condition ${text}`);
      else if (e !== 'halt') r.halt(e, `end condition ${text}`);
    }
  }
  const summary: RunSummary = {
    scenario: s.name ?? 'scenario',
    title: s.title ?? null,
    seed,
    stop: r.stop ?? {
      reason: 'completed',
      detail: '',
      time: r.c.now,
      step: r.c.events.length - 1,
    },
    actions: r.actions,
    operations: r.operations(),
  };
  return { ok: true, cluster, summary, scenario: s };
}

/** A node's CRI-O runtime, from `"runtime": "cri-o"` with `"crio"`, or the object form. */
function crioOf(n: {
  runtime?: string | { name: 'cri-o'; version?: string | undefined } | undefined;
  crio?: { version?: string | undefined } | undefined;
}): { name: 'cri-o'; version?: string } | null {
  if (n.runtime === undefined || n.runtime === 'containerd') return null;
  const version = typeof n.runtime === 'string' ? n.crio?.version : n.runtime.version;
  return { name: 'cri-o', ...(version !== undefined ? { version } : {}) };
}
