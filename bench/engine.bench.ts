/**
 * npm run bench
 *
 * ADD then DEL of 110 pods (kubelet's default pod limit) on one node through bridge + host-local,
 * as a runtime drives libcni. Prints plugin invocations per second and the median (and p95) time
 * of one pod's ADD, over several rounds.
 */
import { performance } from 'node:perf_hooks';
import { TestNode } from '../src/engine/testkit';

const PODS = 110;
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 5);

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

const addTimes: number[] = [];
const rates: number[] = [];
const stepsPerRound: number[] = [];
for (let round = 0; round < ROUNDS + 1; round++) {
  const n = new TestNode({ seed: round + 1 });
  const t0 = performance.now();
  const times: number[] = [];
  for (let i = 0; i < PODS; i++) {
    const a = performance.now();
    const r = n.add(`pod-${i}`);
    times.push(performance.now() - a);
    if (!r.ok) throw new Error(`ADD pod-${i} failed: ${r.error?.message}`);
  }
  for (let i = 0; i < PODS; i++) {
    const r = n.del(`pod-${i}`);
    if (!r.ok) throw new Error(`DEL pod-${i} failed: ${r.error?.message}`);
    n.deleteNetns(`pod-${i}`);
  }
  const elapsed = (performance.now() - t0) / 1000;
  const invocations = n.sim.events.filter((e) => e.kind === 'exec').length;
  if (round === 0) continue; // warm-up
  addTimes.push(...times);
  rates.push(invocations / elapsed);
  stepsPerRound.push(n.sim.events.length);
}

console.log(`bridge + host-local, ${PODS} pods ADD then DEL, ${ROUNDS} rounds (after 1 warm-up):`);
console.log(
  `  plugin invocations per second: ${Math.round(percentile(rates, 50))} (median of rounds; min ${Math.round(Math.min(...rates))}, max ${Math.round(Math.max(...rates))})`,
);
console.log(
  `  one pod's ADD: median ${percentile(addTimes, 50).toFixed(2)} ms, p95 ${percentile(addTimes, 95).toFixed(2)} ms`,
);
console.log(`  trace events per round: ${stepsPerRound[0]}`);
