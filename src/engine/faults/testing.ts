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

/** A bridge conflist as a flannel-style cluster has it: hairpinMode on, ipMasq, portmap. */
export function netConflist(
  podCIDR: string,
  o: { mtu?: number; snat?: boolean; hairpin?: boolean } = {},
): string {
  const bridge: Record<string, unknown> = {
    type: 'bridge',
    bridge: 'cni0',
    isGateway: true,
    ipMasq: true,
  };
  if (o.mtu) bridge['mtu'] = o.mtu;
  if (o.hairpin !== false) bridge['hairpinMode'] = true;
  bridge['ipam'] = {
    type: 'host-local',
    ranges: [[{ subnet: podCIDR }]],
    routes: [{ dst: '0.0.0.0/0' }],
  };
  const portmap: Record<string, unknown> = {
    type: 'portmap',
    capabilities: { portMappings: true },
  };
  if (o.snat === false) portmap['snat'] = false;
  return `${JSON.stringify({ cniVersion: '1.0.0', name: 'containerd-net', plugins: [bridge, portmap] }, null, 2)}\n`;
}

/**
 * What a network fault needs of the cluster (the others: nothing): a second node routed by
 * host-gw (pod-route-missing), VXLAN with the pods' MTU in the conflist (vxlan-mtu-mismatch),
 * hairpinMode in the conflist (hairpin-off).
 */
const NEEDS: Record<string, { mode: 'host-gw' | 'vxlan'; mtu?: number; peer?: boolean }> = {
  'pod-route-missing': { mode: 'host-gw', peer: true },
  'vxlan-mtu-mismatch': { mode: 'vxlan', mtu: 1450, peer: true },
  'hairpin-off': { mode: 'host-gw' },
};

/**
 * The cluster a fault of the catalogue can be injected into: one node (NODE) as `oneNode`, or
 * for a network fault NODE and a peer (node-2) with the network it needs. Pods go to NODE when
 * created with `node: NODE`; a fault `when: any` takes `{ node: NODE }`.
 */
export function clusterFor(fault: string, extra: Partial<NodeSpec> = {}, seed = 7): Cluster {
  const need = NEEDS[fault];
  if (!need) return oneNode(extra, seed);
  const node = (name: string, podCIDR: string): NodeSpec => ({
    name,
    podCIDR,
    cniConfigs: {
      '10-containerd-net.conflist': netConflist(podCIDR, need.mtu ? { mtu: need.mtu } : {}),
    },
    ...extra,
  });
  const nodes = [node(NODE, '10.244.1.0/24')];
  if (need.peer) nodes.push(node('node-2', '10.244.2.0/24'));
  return new Cluster({ nodes, network: { mode: need.mode } }, { seed });
}

/** Creates a pod and runs until it is Running; returns its sandbox id. */
export function runningPod(c: Cluster, name = 'web-0'): string {
  c.createPod(c.spec.nodes.length > 1 ? { name, node: NODE } : { name });
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
