/**
 * Small drivers the fault tests share: a one-node cluster with a fixed seed, a running pod, and
 * injection results that must have succeeded.
 */
import { Cluster, type NodeSpec } from '../cluster/cluster';
import { injectFault, type InjectResult, recoverFault } from './inject';
import { podStatus, sandboxes } from './observe';
import { tget } from '../state/table';

export const NODE = 'node-1';

export function oneNode(extra: Partial<NodeSpec> = {}, seed = 7): Cluster {
  return new Cluster({ nodes: [{ name: NODE, podCIDR: '10.244.1.0/24', ...extra }] }, { seed });
}

/** Creates a pod and runs until it is Running; returns its sandbox id. */
export function runningPod(c: Cluster, name = 'web-0'): string {
  c.createPod({ name });
  c.runFor(3_000_000);
  if (podStatus(c, name) !== 'Running') throw new Error(`${name} is ${podStatus(c, name)}`);
  const uid = tget(c.sim.state.api!.pods, `default/${name}`)!.spec.uid;
  return sandboxes(c, NODE)
    .filter((s) => s.pod.uid === uid)
    .pop()!.id;
}

function must(r: InjectResult): Extract<InjectResult, { ok: true }> {
  if (!r.ok) throw new Error(r.error);
  return r;
}

export function inject(c: Cluster, id: string, params: Record<string, unknown> = {}) {
  return must(injectFault(c, id, params));
}

export function recover(c: Cluster, id: string, params: Record<string, unknown> = {}) {
  return must(recoverFault(c, id, params));
}
