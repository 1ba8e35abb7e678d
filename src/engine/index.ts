/**
 * Public API of the cnisim engine (pure TypeScript, no DOM, runs in Node).
 */
import { describeEvent, runDemo } from './demo';

export { runDemo } from './demo';
export { Simulation, newWorld } from './sim/world';
export type { TraceEvent, Level, EventKind } from './trace/trace';

/** One line of the first page's step list. */
export interface DemoStep {
  index: number;
  source: string;
  target: string;
  summary: string;
}

export interface DemoRun {
  steps: DemoStep[];
  podIp: string | null;
  error: string | null;
}

/**
 * Runs ADD for one pod (network "cni-sandbox": bridge cni0 + host-local 10.88.0.0/16) on a fresh
 * simulated node and returns the trace's steps and the pod's IP.
 */
export function runSinglePodAdd(options: { seed?: number } = {}): DemoRun {
  const { sim, outcomes, podIp } = runDemo(options.seed ?? 1);
  const failed = outcomes.find((o) => !o.ok);
  return {
    steps: sim.events.map((e) => ({
      index: e.seq + 1,
      source: e.source,
      target: e.target,
      summary: describeEvent(e),
    })),
    podIp,
    error: failed?.error?.message ?? null,
  };
}
