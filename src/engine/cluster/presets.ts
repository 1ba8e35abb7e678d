/**
 * Cluster presets: two nodes on the underlay with a cluster network (docs/dataplane.md), as real
 * clusters run them. Each node's conflist is bridge with `ipMasq: false`, and the cluster's agent
 * writes a masquerade rule at start that leaves the cluster CIDR alone: pods keep their
 * addresses towards other pods, on any node, and leave the cluster masqueraded. bridge's own
 * `ipMasq: true` (the default sandbox's conflist) masquerades everything leaving the node's pod
 * subnet, other nodes' pods included.
 */
import type { MasqAgent } from '../node/setup';
import { defaultConflist, type ClusterSpec } from './cluster';

export type PresetId = 'host-gw' | 'vxlan' | 'none';

export interface ClusterPreset {
  id: PresetId;
  title: string;
  /** One sentence: how pod traffic crosses nodes and who masquerades it. */
  summary: string;
  spec: ClusterSpec;
}

/**
 * The conflist of a preset's node: the default's bridge (cni0, gateway, host-local on the pod
 * CIDR) and portmap, with `ipMasq: false` (the agent masquerades) and, under flannel's VXLAN,
 * the MTU flannel's CNI plugin gives its bridge delegate (FLANNEL_MTU, 1450).
 */
export function clusterConflist(podCIDR: string, mtu?: number): string {
  return defaultConflist(podCIDR, { ipMasq: false, ...(mtu ? { mtu } : {}) });
}

function preset(
  id: PresetId,
  title: string,
  summary: string,
  masqAgent: MasqAgent,
  mtu?: number,
): ClusterPreset {
  const nodes = [
    { name: 'node-1', podCIDR: '10.244.1.0/24' },
    { name: 'node-2', podCIDR: '10.244.2.0/24' },
  ].map((n) => ({
    ...n,
    cniConfigs: { '10-containerd-net.conflist': clusterConflist(n.podCIDR, mtu) },
  }));
  return { id, title, summary, spec: { nodes, network: { mode: id, masqAgent } } };
}

export const CLUSTER_PRESETS: readonly ClusterPreset[] = [
  preset(
    'host-gw',
    'Two nodes, host-gw routes',
    "Each node routes the other's pod CIDR via its node IP, as kindnetd does; kindnetd's KIND-MASQ-AGENT chain masquerades what leaves 10.244.0.0/16.",
    'kindnetd',
  ),
  preset(
    'vxlan',
    'Two nodes, flannel VXLAN',
    "flanneld's flannel.1 carries pod traffic in UDP 8472; bridge gets flannel's MTU 1450, and flanneld's FLANNEL-POSTRTG chain masquerades what leaves 10.244.0.0/16.",
    'flanneld',
    1450,
  ),
  preset(
    'none',
    'Two nodes, no pod routes',
    "The nodes share the underlay but nothing routes pod CIDRs between them: pods reach their own node only. Only kindnetd's masquerade chain (KIND-MASQ-AGENT) is there, without its routes.",
    'kindnetd',
  ),
];

export function clusterPreset(id: string): ClusterPreset | undefined {
  return CLUSTER_PRESETS.find((p) => p.id === id);
}
