/**
 * What a person looking at a node sees, as plain values: the pod as kubectl shows it, its events,
 * the node's journal, and what is left on the node (netns mounts, host links, iptables rules
 * tagged with a sandbox id, host-local reservations, result cache files). The fault tests assert
 * on these; views can show them.
 */
import { eventList, podKey, podStatusText } from '../apiserver/apiserver';
import type { Cluster } from '../cluster/cluster';
import type { K8sEvent, PodObj } from '../state/api';
import { iptablesSaveLines } from '../kernel/iptables/save';
import * as K from '../kernel/kernel';
import * as inspect from '../node/inspect';
import { journalLines, type Unit } from '../node/journal';
import { networkDir } from '../plugins/host-local-disk';
import { tget } from '../state/table';

function key(name: string): string {
  return name.includes('/') ? name : podKey('default', name);
}

export function pod(c: Cluster, name: string): PodObj | undefined {
  return tget(c.sim.state.api?.pods, key(name));
}

/** kubectl get pods' STATUS column, or "<gone>" once the pod object is deleted. */
export function podStatus(c: Cluster, name: string): string {
  const p = pod(c, name);
  return p ? podStatusText(p) : '<gone>';
}

/** The pod's events (this pod object's: by uid), oldest first. */
export function podEvents(c: Cluster, name: string, uid?: string): K8sEvent[] {
  const k = key(name);
  const [ns, n] = k.split('/') as [string, string];
  const u = uid ?? pod(c, name)?.spec.uid;
  return (c.sim.state.api ? eventList(c.sim.state.api) : []).filter(
    (e) => e.object === `pod/${n}` && e.namespace === ns && (u === undefined || e.uid === u),
  );
}

export function journal(c: Cluster, node: string, units?: readonly Unit[]): string[] {
  return journalLines(c.events, node, undefined, units);
}

/** host-local reservations (address files) of a network, and who holds each. */
export function reservations(
  c: Cluster,
  node: string,
  net = 'containerd-net',
): Array<{ ip: string; owner: string }> {
  return inspect
    .reservationsIn(c.sim.node(node).fs, networkDir(net))
    .map((r) => ({ ip: r.ip, owner: r.containerId }));
}

/** Files of /var/lib/cni/results. */
export function cacheFiles(c: Cluster, node: string): string[] {
  return inspect.cacheFiles(c.sim.node(node).fs);
}

/** Namespace bind mounts under /var/run/netns. */
export function netnsMounts(c: Cluster, node: string): string[] {
  return inspect.netnsMounts(c.sim.node(node).kernel);
}

/** Names of the links of the host's namespace. */
export function hostLinks(c: Cluster, node: string): string[] {
  return K.linksOf(inspect.hostNetns(c.sim.node(node).kernel)).map((l) => l.name);
}

/** The host's IPv4 iptables rules (iptables-save -A lines) that carry a sandbox id. */
export function taggedRules(c: Cluster, node: string, id?: string): string[] {
  return iptablesSaveLines(inspect.hostNetns(c.sim.node(node).kernel).iptables, 'ipv4').filter(
    (l) => {
      if (!l.startsWith('-A ')) return false;
      const tag = inspect.taggedRuleId(l);
      return id ? tag === id : tag !== undefined;
    },
  );
}

/** The node's sandboxes as containerd knows them, oldest first. */
export function sandboxes(c: Cluster, node: string) {
  return c.rt(node).containerd.listPodSandbox();
}
