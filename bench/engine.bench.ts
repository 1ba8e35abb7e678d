/**
 * npm run bench
 *
 * Sections (BENCH_ONLY=chains,cluster,versus picks some; all by default):
 *
 * chains: ADD then DEL of 110 pods (kubelet's default pod limit) on one node, as a runtime drives
 * libcni, for two chains: bridge + host-local alone, and bridge + host-local followed by portmap,
 * tuning and bandwidth (the chain most clusters' conflists resemble). Prints plugin invocations
 * per second and the median (and p95) time of one pod's ADD, over BENCH_ROUNDS rounds (5).
 *
 * cluster: a cluster of 2 nodes (kubelet, containerd, the default bridge + portmap conflist): a
 * deployment scaled to 110 pods and back to 0, with steps (trace events) per second and wall and
 * virtual times; and seeking in that trace (at least 10,000 steps): the world at a random step
 * plus what the views show there (kubectl rows, journals up to the step), median and max.
 *
 * versus: the current checkout against a baseline commit (BENCH_BASELINE, 37de37a by default,
 * the engine before issue 13; BENCH_BASELINE= skips it), side by side in one table. The baseline
 * is checked out with `git worktree add --detach` in a temporary directory, with this checkout's
 * node_modules linked in, and removed at the end. Each measurement is a job of bench/measure.ts
 * run in a child process (node --expose-gc with tsx), so that memory figures are clean, against
 * either checkout; it imports that checkout's engine and uses only what both versions have
 * (`new Cluster(spec, { seed })`, `scale`, `run()`, `events`, `sim.states`, `TestNode`'s
 * add/del). The clusters have 3 nodes with /22 pod CIDRs and one deployment, `web`.
 *   a. A 110-pod scale-up from nothing (after a 20-pod one in another cluster, to warm the JIT):
 *      wall and CPU time of `scale` + `run()` until every pod is Running. Target: at least 5×
 *      faster than the baseline.
 *   b. One plugin invocation: 110 pods ADD then DEL in a TestNode with bridge + host-local (the
 *      first chain above), after a warm-up round; each ADD's or DEL's wall time divided by the
 *      execs it made; the median. Target: under 0.5 ms.
 *   c. The cost of one more pod at about 50 and about 500 pods: scaled to 30 (480), then one pod
 *      at a time to 70 (520), timing each `scale` + `run()` that brings the new pod to Running;
 *      the mean over each window of 40 pods (a mean, so that the garbage collections the pods
 *      cause count, spread over them), in wall and in CPU time. Target: the 500th pod at most
 *      1.5× the 50th, shown for both (when other processes share the machine, the wall times
 *      of single pods swing by 3× or more; the CPU times do not).
 *   d. Retained heap per trace step at 250 pods, in the same process as (c): after a warm-up
 *      cycle, heapUsed after gc; then 5 cycles of scaling to 245 and back to 250 (deleting 5
 *      pods, creating 5; about 2,500 steps), heapUsed after gc again. The difference, less the
 *      bytes of the strings in the new events' payloads (stdin, env, stdout, file contents,
 *      arguments: each distinct string once, a byte a character, no V8 header, which only makes
 *      the result stricter), divided by the number of new steps. Target: at most 2 KiB.
 *   e. 500 pods on 3 nodes from nothing: the child's peak RSS (Node, tsx and the modules
 *      included) and heapUsed after gc. Target: under 350 MB (peak RSS).
 * The quick job (a, b) runs BENCH_REPS times (3) per version, alternating which version goes
 * first; growth (c, d) and mem (e) once per version. Cells are median [min–max] over the runs
 * (a, b), mean [min–max] over the window's pods (c). Knobs to shorten it: BENCH_REPS,
 * BENCH_INVOKE_ROUNDS (1), BENCH_BIG (500: the pods of c's second window and of e),
 * BENCH_HEAP_CYCLES (5), BENCH_JOBS (quick,growth,mem). The baseline's jobs take about 2 minutes
 * of CPU (5 of wall time on this 2-core machine when other work shares it).
 */
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { kubectlGetPods } from '../src/engine/apiserver/apiserver';
import { Cluster } from '../src/engine/cluster/cluster';
import type { RuntimeConf } from '../src/engine/libcni/api';
import { clusterReport } from '../src/engine/scenario/report';
import { seekView } from '../src/engine/scenario/seek';
import { TestNode } from '../src/engine/testkit';
import { valuesOf } from './values';
import { versus } from './versus';
import type { Job } from './measure';

const PODS = 110;
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);
const env = (name: string, dflt: string) => process.env[name] ?? dflt;
const ONLY = env('BENCH_ONLY', 'chains,cluster,versus').split(',');

const IPAM = { type: 'host-local', subnet: '10.22.0.0/16', routes: [{ dst: '0.0.0.0/0' }] };
const CHAINS: { label: string; conflist?: string; extra?: (i: number) => Partial<RuntimeConf> }[] =
  [
    { label: 'bridge + host-local' },
    {
      label: 'bridge + host-local, portmap, tuning, bandwidth',
      conflist: JSON.stringify({
        cniVersion: '1.0.0',
        name: 'benchnet',
        plugins: [
          { type: 'bridge', bridge: 'cni0', isGateway: true, ipMasq: true, ipam: IPAM },
          { type: 'portmap', capabilities: { portMappings: true }, snat: true },
          { type: 'tuning', sysctl: { 'net.core.somaxconn': '512' } },
          { type: 'bandwidth', capabilities: { bandwidth: true } },
        ],
      }),
      extra: (i) => ({
        capabilityArgs: {
          portMappings: [{ hostPort: 30000 + i, containerPort: 80, protocol: 'tcp' }],
          bandwidth: {
            ingressRate: 10_000_000,
            ingressBurst: 1_000_000,
            egressRate: 10_000_000,
            egressBurst: 1_000_000,
          },
        },
      }),
    },
  ];

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

for (const chain of ONLY.includes('chains') ? CHAINS : []) {
  const addTimes: number[] = [];
  const rates: number[] = [];
  const stepsPerRound: number[] = [];
  for (let round = 0; round < ROUNDS + 1; round++) {
    const n = new TestNode({
      seed: round + 1,
      ...(chain.conflist ? { conflist: chain.conflist } : {}),
      plugins: ['bridge', 'host-local', 'loopback', 'portmap', 'tuning', 'bandwidth'],
    });
    const t0 = performance.now();
    const times: number[] = [];
    for (let i = 0; i < PODS; i++) {
      const a = performance.now();
      const r = n.add(`pod-${i}`, chain.extra?.(i) ?? {});
      times.push(performance.now() - a);
      if (!r.ok) throw new Error(`ADD pod-${i} failed: ${r.error.message}`);
    }
    for (let i = 0; i < PODS; i++) {
      const r = n.del(`pod-${i}`, chain.extra?.(i) ?? {});
      if (!r.ok) throw new Error(`DEL pod-${i} failed: ${r.error.message}`);
      n.deleteNetns(`pod-${i}`);
    }
    const elapsed = (performance.now() - t0) / 1000;
    const invocations = n.sim.events.filter((e) => e.kind === 'exec').length;
    if (round === 0) continue; // warm-up
    addTimes.push(...times);
    rates.push(invocations / elapsed);
    stepsPerRound.push(n.sim.events.length);
  }

  console.log(`${chain.label}: ${PODS} pods ADD then DEL, ${ROUNDS} rounds (after 1 warm-up)`);
  console.log(
    `  plugin invocations per second: ${Math.round(percentile(rates, 50))} (median of rounds; min ${Math.round(Math.min(...rates))}, max ${Math.round(Math.max(...rates))})`,
  );
  console.log(
    `  one pod's ADD: median ${percentile(addTimes, 50).toFixed(2)} ms, p95 ${percentile(addTimes, 95).toFixed(2)} ms`,
  );
  console.log(`  trace events per round: ${stepsPerRound[0]}`);
}

// ---------------------------------------------------------------------------------------------
// A cluster: 110 pods scaled up then down on 2 nodes (kubelet, containerd, libcni, plugins), and
// seeking in the trace that leaves.

const CLUSTER_PODS = 110;
const SEEK_STEPS = 10_000;
const SEEKS = Number(process.env['BENCH_SEEKS'] ?? 300);

function median(xs: number[]): number {
  return percentile(xs, 50);
}

/** Wall and CPU milliseconds of `f` (CPU time is what the process used, however busy the machine). */
function timed<T>(f: () => T): { value: T; wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const w0 = performance.now();
  const value = f();
  const wall = performance.now() - w0;
  const c = process.cpuUsage(c0);
  return { value, wall, cpu: (c.user + c.system) / 1000 };
}

function clusterAndSeek(): void {
  const cluster = new Cluster(undefined, { seed: 1 });
  const running = () =>
    valuesOf<{ containerRunning: boolean }>(cluster.sim.state.api!.pods).filter(
      (p) => p.containerRunning,
    ).length;
  const phases: Array<{
    label: string;
    events: number;
    wall: number;
    cpu: number;
    virtual: number;
  }> = [];
  for (let cycle = 0; cycle === 0 || cluster.events.length < SEEK_STEPS; cycle++) {
    for (const [label, replicas] of [
      ['scale-up', CLUSTER_PODS],
      ['scale-down', 0],
    ] as const) {
      const e0 = cluster.events.length;
      const v0 = cluster.now;
      const t = timed(() => {
        cluster.scale('web', replicas);
        cluster.run(); // until idle: every pod Running, or every pod gone
      });
      const pods = valuesOf(cluster.sim.state.api!.pods).length;
      if (replicas > 0 ? running() !== replicas : pods !== 0)
        throw new Error(`${label}: ${running()} running, ${pods} pods`);
      phases.push({
        label: cycle ? `${label} (again, for a longer trace)` : label,
        events: cluster.events.length - e0,
        wall: t.wall,
        cpu: t.cpu,
        virtual: cluster.now - v0,
      });
    }
  }

  console.log(
    `cluster: ${CLUSTER_PODS} pods scaled up then down on 2 nodes (kubelet + containerd)`,
  );
  for (const p of phases) {
    console.log(
      `  ${p.label}: ${p.events} steps in ${(p.wall / 1000).toFixed(2)} s wall (${(p.cpu / 1000).toFixed(2)} s CPU), ${Math.round(p.events / (p.wall / 1000))} steps/s; ${(p.virtual / 1e6).toFixed(2)} s of virtual time`,
    );
  }

  // Seek: the world at a random step, and what the views show there.
  (globalThis as { gc?: () => void }).gc?.();
  let seed = 12345;
  const nextStep = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return seed % cluster.events.length;
  };
  timed(() => seekView(cluster, cluster.events.length - 1)); // builds the trace index once
  const view = { wall: [] as number[], cpu: [] as number[] };
  const report = { wall: [] as number[], cpu: [] as number[] };
  for (let i = 0; i < SEEKS; i++) {
    const step = nextStep();
    const v = timed(() => {
      const s = seekView(cluster, step);
      return kubectlGetPods(s.state.api!, s.state.clock).length + Object.keys(s.journal).length;
    });
    view.wall.push(v.wall);
    view.cpu.push(v.cpu);
    const r = timed(() => clusterReport(cluster, { step }));
    report.wall.push(r.wall);
    report.cpu.push(r.cpu);
  }
  const ms = (x: number) => `${x.toFixed(2)} ms`;
  console.log(
    `seek: ${SEEKS} random steps of a ${cluster.events.length}-step trace (target < 50 ms)`,
  );
  console.log(
    `  world + kubectl get pods + journals up to the step: median ${ms(median(view.wall))}, max ${ms(Math.max(...view.wall))} wall (CPU: median ${ms(median(view.cpu))}, max ${ms(Math.max(...view.cpu))})`,
  );
  console.log(
    `  full report (+ audit, per-node state, trace counts): median ${ms(median(report.wall))}, max ${ms(Math.max(...report.wall))} wall (CPU: median ${ms(median(report.cpu))}, max ${ms(Math.max(...report.cpu))})`,
  );
}

if (ONLY.includes('cluster')) clusterAndSeek();

const BASELINE = env('BENCH_BASELINE', '37de37a');
if (ONLY.includes('versus') && BASELINE) {
  await versus({
    root: fileURLToPath(new URL('..', import.meta.url)),
    baseline: BASELINE,
    reps: Number(env('BENCH_REPS', '3')),
    invokeRounds: Number(env('BENCH_INVOKE_ROUNDS', '1')),
    big: Number(env('BENCH_BIG', '500')),
    heapCycles: Number(env('BENCH_HEAP_CYCLES', '5')),
    jobs: env('BENCH_JOBS', 'quick,growth,mem').split(',') as Job[],
  });
}
