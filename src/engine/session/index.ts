/**
 * Sessions: a cluster, the user's actions and a cursor over the trace (session.ts); saving and
 * loading them (serialize.ts); the interface views read (view.ts).
 */
import { DEFAULT_CLUSTER, type ClusterSpec } from '../cluster/cluster';
import type { FaultInjector } from './actions';
import { Session } from './session';

export * from './actions';
export * from './conditions';
export * from './serialize';
export * from './session';
export * from './repeats';
export * from './view';

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
