/**
 * The sandbox the app opens on (its own module, without serialize.ts's zod and sha2, so that the
 * landing's engine, landing.ts, stays small).
 */
import { DEFAULT_CLUSTER, type ClusterSpec } from '../cluster/cluster';
import type { FaultInjector } from './actions';
import { Session } from './session';

/** The pod the sandbox is about to create. */
export const SANDBOX_POD = 'web-0';

/**
 * The sandbox the app opens on: the default cluster (2 nodes, bridge + host-local + portmap),
 * booted, with one pod about to be created (the first step forward creates it).
 */
export function newSandbox(
  opts: { cluster?: ClusterSpec; seed?: number; faults?: FaultInjector | null } = {},
): Session {
  const s = new Session({
    cluster: opts.cluster ?? DEFAULT_CLUSTER,
    seed: opts.seed ?? 1,
    ...(opts.faults !== undefined ? { faults: opts.faults } : {}),
  });
  s.plan({ do: 'createPod', name: SANDBOX_POD });
  return s;
}
