/**
 * npm run bench
 *
 * ADD then DEL of 110 pods (kubelet's default pod limit) on one node, as a runtime drives libcni,
 * for two chains: bridge + host-local alone, and bridge + host-local followed by portmap, tuning
 * and bandwidth (the chain most clusters' conflists resemble). Prints plugin invocations per
 * second and the median (and p95) time of one pod's ADD, over several rounds.
 *
 * Then a cluster of 2 nodes (kubelet, containerd, the default bridge + portmap conflist): a
 * deployment scaled to 110 pods and back to 0, with steps (trace events) per second and wall and
 * virtual times; and seeking in that trace (at least 10,000 steps): the world at a random step
 * plus what the views show there (kubectl rows, journals up to the step), median and max.
 */
import { performance } from 'node:perf_hooks';
import { kubectlGetPods } from '../src/engine/apiserver/apiserver';
import { Cluster } from '../src/engine/cluster/cluster';
import type { RuntimeConf } from '../src/engine/libcni/api';
import { clusterReport } from '../src/engine/scenario/report';
import { seekView } from '../src/engine/scenario/seek';
import { TestNode } from '../src/engine/testkit';
import { tkeys, tvalues } from '../src/engine/state/table';

const PODS = 110;
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);

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

for (const chain of CHAINS) {
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

const cluster = new Cluster(undefined, { seed: 1 });
const running = () => tvalues(cluster.sim.state.api!.pods).filter((p) => p.containerRunning).length;
const phases: Array<{ label: string; events: number; wall: number; cpu: number; virtual: number }> =
  [];
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
    const pods = tkeys(cluster.sim.state.api!.pods).length;
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

console.log(`cluster: ${CLUSTER_PODS} pods scaled up then down on 2 nodes (kubelet + containerd)`);
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
