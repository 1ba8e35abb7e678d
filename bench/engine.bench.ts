/**
 * npm run bench
 *
 * ADD then DEL of 110 pods (kubelet's default pod limit) on one node, as a runtime drives libcni,
 * for two chains: bridge + host-local alone, and bridge + host-local followed by portmap, tuning
 * and bandwidth (the chain most clusters' conflists resemble). Prints plugin invocations per
 * second and the median (and p95) time of one pod's ADD, over several rounds.
 */
import { performance } from 'node:perf_hooks';
import type { RuntimeConf } from '../src/engine/libcni/api';
import { TestNode } from '../src/engine/testkit';

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
      if (!r.ok) throw new Error(`ADD pod-${i} failed: ${r.error?.message}`);
    }
    for (let i = 0; i < PODS; i++) {
      const r = n.del(`pod-${i}`, chain.extra?.(i) ?? {});
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

  console.log(`${chain.label}: ${PODS} pods ADD then DEL, ${ROUNDS} rounds (after 1 warm-up)`);
  console.log(
    `  plugin invocations per second: ${Math.round(percentile(rates, 50))} (median of rounds; min ${Math.round(Math.min(...rates))}, max ${Math.round(Math.max(...rates))})`,
  );
  console.log(
    `  one pod's ADD: median ${percentile(addTimes, 50).toFixed(2)} ms, p95 ${percentile(addTimes, 95).toFixed(2)} ms`,
  );
  console.log(`  trace events per round: ${stepsPerRound[0]}`);
}
