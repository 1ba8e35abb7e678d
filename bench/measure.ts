/**
 * One measurement job of `npm run bench`'s comparison with the baseline (see engine.bench.ts for
 * the method), run in a process of its own against one checkout of cnisim: the current one, or
 * the baseline's temporary worktree. The engine is imported from that checkout at run time.
 *
 *   node --expose-gc --import tsx bench/measure.ts ROOT JOB [JSON-PARAMS]
 *
 * JOB is `quick` (a 110-pod scale-up, then plugin invocations in a TestNode), `growth` (the cost
 * of one more pod at about 50 and about 500 pods, retained heap per step at 250 pods) or `mem`
 * (memory with 500 pods). The last line printed is `RESULT {json}`.
 *
 * Only APIs that exist at 37de37a and are kept since are used: `new Cluster(spec, { seed })`,
 * `cluster.scale`, `cluster.run()`, `cluster.events`, `cluster.sim.states`, `new TestNode({...})`,
 * `add`/`del`; collections of the state are read through `valuesOf` (a plain record or a map).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { valuesOf } from './values';

// ---------------------------------------------------------------------------------------------
// The engine, as much of it as the bench needs.

interface EventLike {
  kind: string;
  payload?: unknown;
}
interface PodLike {
  containerRunning?: boolean;
}
type Pods = Readonly<Record<string, PodLike>> | { values(): Iterable<PodLike> };
interface WorldLike {
  api?: { pods: Pods };
}
interface ClusterLike {
  scale(deployment: string, replicas: number): unknown;
  run(): unknown;
  readonly events: ArrayLike<EventLike>;
  readonly sim: { readonly states: ArrayLike<WorldLike> };
}
export interface NodeSpecLike {
  name: string;
  podCIDR: string;
}
type ClusterCtor = new (spec: { nodes: NodeSpecLike[] }, opts: { seed: number }) => ClusterLike;
interface OutcomeLike {
  ok: boolean;
  error?: { message?: string } | string | null;
}
interface TestNodeLike {
  add(pod: string): OutcomeLike;
  del(pod: string): OutcomeLike;
  deleteNetns?(pod: string): void;
  readonly sim: { readonly events: ArrayLike<EventLike> };
}
type TestNodeCtor = new (opts: { seed: number; plugins?: string[] }) => TestNodeLike;

/**
 * Parts of the engine that load late in the app (since the landing's engine left them out) and
 * that a cluster needs to run: the iptables model. The facade imports them; a bench that imports
 * cluster.ts alone must too. Older checkouts have no such file.
 */
const LATE_MODULES = ['src/engine/kernel/iptables/late.ts'];

/** The first of `candidates` (paths under `root`) that exists and exports `name`. */
async function load<T>(root: string, name: string, candidates: string[]): Promise<T> {
  for (const rel of LATE_MODULES) {
    const file = join(root, rel);
    if (existsSync(file)) await import(pathToFileURL(file).href);
  }
  for (const rel of candidates) {
    const file = join(root, rel);
    if (!existsSync(file)) continue;
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    if (mod[name] !== undefined) return mod[name] as T;
  }
  throw new Error(`${name} is in none of ${candidates.join(', ')} under ${root}`);
}

// ---------------------------------------------------------------------------------------------
// Helpers

/** Three nodes whose pod CIDRs are /22 (1,021 pod addresses each): 500 pods fit. */
export const THREE_NODES: NodeSpecLike[] = [0, 1, 2].map((i) => ({
  name: `node-${i + 1}`,
  podCIDR: `10.244.${i * 4}.0/22`,
}));

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Wall and CPU milliseconds of `f` (CPU time is what the process used, however busy the machine). */
function timed(f: () => void): { wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  f();
  const wall = performance.now() - w0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

/** heapUsed after full collections. */
function heapAfterGc(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** Scales the deployment `web` to `n` pods and runs until idle; throws unless n pods run. */
function scaleTo(c: ClusterLike, n: number): void {
  c.scale('web', n);
  c.run();
  const states = c.sim.states;
  const pods = valuesOf<{ containerRunning: boolean }>(states[states.length - 1]!.api!.pods);
  const running = pods.filter((p) => p.containerRunning === true).length;
  if (pods.length !== n || running !== n)
    throw new Error(`scaled to ${n}: ${pods.length} pods, ${running} running`);
}

const HEADER = new Set(['seq', 'time', 'node', 'source', 'target', 'kind', 'level', 'summary']);

/**
 * Bytes of the strings in the payloads of events [from, to): the stdin, env, stdout, file contents
 * and arguments a step carries. A payload is an event's `payload`, or (should the trace put them
 * at the top level) every field but the common header. Each distinct string counts once, at one
 * byte a character (two if it has one above U+00FF), without V8's header: identical text in two
 * events may be one string, and undercounting what is subtracted only makes the result stricter.
 */
function payloadBytes(events: ArrayLike<EventLike>, from: number, to: number): number {
  const seen = new Set<string>();
  let bytes = 0;
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      if (seen.has(v)) return;
      seen.add(v);
      bytes += /[\u0100-\uffff]/.test(v) ? 2 * v.length : v.length;
    } else if (Array.isArray(v)) for (const x of v) walk(x);
    else if (v && typeof v === 'object') for (const x of Object.values(v)) walk(x);
  };
  for (let i = from; i < to; i++) {
    const e = events[i]!;
    if ('payload' in e) walk(e.payload);
    else for (const [k, v] of Object.entries(e)) if (!HEADER.has(k)) walk(v);
  }
  return bytes;
}

// ---------------------------------------------------------------------------------------------
// Jobs

export interface QuickParams {
  /** Pods of the scale-up (a). */
  pods: number;
  /** Measured rounds of 110 pods ADD then DEL in a TestNode (b), after one warm-up round. */
  invokeRounds: number;
}
export interface QuickResult {
  scaleUp: { wall: number; cpu: number; steps: number };
  /** Median milliseconds of one plugin invocation: each ADD or DEL's time over its execs. */
  invocation: number;
  invocations: number;
}

async function quick(root: string, p: QuickParams): Promise<QuickResult> {
  const Cluster = await load<ClusterCtor>(root, 'Cluster', CLUSTER_MODULES);
  const TestNode = await load<TestNodeCtor>(root, 'TestNode', TESTKIT_MODULES);

  // (a) A scale-up from nothing, after a small one in another cluster to warm the JIT.
  scaleTo(new Cluster({ nodes: THREE_NODES }, { seed: 2 }), 20);
  const c = new Cluster({ nodes: THREE_NODES }, { seed: 1 });
  const t = timed(() => scaleTo(c, p.pods));
  const scaleUp = { ...t, steps: c.events.length };

  // (b) 110 pods ADD then DEL with bridge + host-local, as the bench's first chain.
  const per: number[] = [];
  let invocations = 0;
  for (let round = 0; round <= p.invokeRounds; round++) {
    const n = new TestNode({
      seed: round + 1,
      plugins: ['bridge', 'host-local', 'loopback', 'portmap', 'tuning', 'bandwidth'],
    });
    const op = (label: string, f: () => OutcomeLike) => {
      const e0 = n.sim.events.length;
      const a = performance.now();
      const r = f();
      const dt = performance.now() - a;
      if (!r.ok) throw new Error(`${label} failed: ${JSON.stringify(r.error)}`);
      let execs = 0;
      for (let i = e0; i < n.sim.events.length; i++) if (n.sim.events[i]!.kind === 'exec') execs++;
      if (execs === 0) throw new Error(`${label}: no exec events in the trace`);
      if (round === 0) return; // warm-up
      per.push(dt / execs);
      invocations += execs;
    };
    for (let i = 0; i < 110; i++) op(`ADD pod-${i}`, () => n.add(`pod-${i}`));
    for (let i = 0; i < 110; i++) {
      op(`DEL pod-${i}`, () => n.del(`pod-${i}`));
      n.deleteNetns?.(`pod-${i}`);
    }
  }
  return { scaleUp, invocation: median(per), invocations };
}

export interface GrowthParams {
  /** The pod whose cost is compared with the `high`th (the 50th). */
  low: number;
  high: number;
  /** Pods timed one at a time around `low` and `high` (the median is their cost). */
  window: number;
  /** Pods at which the retained heap per step is measured, and the activity there. */
  heapPods: number;
  heapCycles: number;
  heapBatch: number;
}
export interface GrowthResult {
  /** Wall ms of each pod of the window around `low`, and around `high`. */
  low: { first: number; wall: number[]; cpu: number[] };
  high: { first: number; wall: number[]; cpu: number[] };
  heap: { steps: number; retained: number; payload: number };
  steps: number;
}

async function growth(root: string, p: GrowthParams): Promise<GrowthResult> {
  const Cluster = await load<ClusterCtor>(root, 'Cluster', CLUSTER_MODULES);
  const c = new Cluster({ nodes: THREE_NODES }, { seed: 1 });

  /** Pods first+1 .. first+window, one at a time: the time of the run that makes each Running. */
  const window = (at: number) => {
    const first = at - Math.floor(p.window / 2) + 1;
    scaleTo(c, first - 1);
    const wall: number[] = [];
    const cpu: number[] = [];
    for (let k = first; k < first + p.window; k++) {
      const t = timed(() => scaleTo(c, k));
      wall.push(t.wall);
      cpu.push(t.cpu);
    }
    return { first, wall, cpu };
  };

  /** Retained heap over `heapCycles` cycles of deleting `heapBatch` pods and creating as many. */
  const heap = () => {
    const cycle = () => {
      scaleTo(c, p.heapPods - p.heapBatch);
      scaleTo(c, p.heapPods);
    };
    scaleTo(c, p.heapPods);
    cycle(); // warm-up: what the first deletions create once (code, caches) is not per step
    const h0 = heapAfterGc();
    const e0 = c.events.length;
    for (let i = 0; i < p.heapCycles; i++) cycle();
    const h1 = heapAfterGc();
    const e1 = c.events.length;
    return { steps: e1 - e0, retained: h1 - h0, payload: payloadBytes(c.events, e0, e1) };
  };

  const phases: Array<{ at: number; run: () => void }> = [];
  let low: GrowthResult['low'] | undefined;
  let high: GrowthResult['high'] | undefined;
  let h: GrowthResult['heap'] | undefined;
  phases.push({ at: p.low, run: () => void (low = window(p.low)) });
  phases.push({ at: p.heapPods, run: () => void (h = heap()) });
  phases.push({ at: p.high, run: () => void (high = window(p.high)) });
  for (const ph of phases.sort((a, b) => a.at - b.at)) ph.run();
  return { low: low!, high: high!, heap: h!, steps: c.events.length };
}

export interface MemParams {
  pods: number;
}
export interface MemResult {
  wall: number;
  steps: number;
  /** heapUsed after gc with the pods running, and before the cluster was made. */
  heap: number;
  heapBefore: number;
  /** The process's peak resident set size (bytes), Node and the loaded modules included. */
  peakRss: number;
}

async function mem(root: string, p: MemParams): Promise<MemResult> {
  const Cluster = await load<ClusterCtor>(root, 'Cluster', CLUSTER_MODULES);
  const heapBefore = heapAfterGc();
  const c = new Cluster({ nodes: THREE_NODES }, { seed: 1 });
  const t = timed(() => scaleTo(c, p.pods));
  const heap = heapAfterGc();
  const peakRss = process.resourceUsage().maxRSS * 1024;
  return { wall: t.wall, steps: c.events.length, heap, heapBefore, peakRss };
}

const CLUSTER_MODULES = [
  'src/engine/cluster/cluster.ts',
  'src/engine/cluster/index.ts',
  'src/engine/index.ts',
];
const TESTKIT_MODULES = ['src/engine/testkit.ts', 'src/engine/testkit/index.ts'];

export const JOBS = { quick, growth, mem };
export type Job = keyof typeof JOBS;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [root, job, params] = process.argv.slice(2);
  if (!root || !job || !(job in JOBS)) {
    console.error(`usage: measure.ts ROOT ${Object.keys(JOBS).join('|')} [JSON-PARAMS]`);
    process.exit(2);
  }
  const run = JOBS[job as Job] as (root: string, p: unknown) => Promise<unknown>;
  const result = await run(root, JSON.parse(params ?? '{}'));
  console.log(`RESULT ${JSON.stringify(result)}`);
}
