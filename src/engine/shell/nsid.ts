/**
 * Network namespace ids (nsid), as the kernel gives them and `ip` shows them (`link-netnsid 0`,
 * `ip netns list`'s `(id: 0)`): each namespace numbers the other namespaces it refers to. The
 * kernel allocates the lowest free id in a namespace the first time a device of that namespace
 * refers to a device in another one (a veth whose peer or a macvlan whose lower device is
 * elsewhere: its RTM_NEWLINK
 * notification, or a dump, calls peernet2id_alloc), keeps it while both namespaces live (the veth
 * may go), and frees it when the other namespace is destroyed.
 *
 * The kernel model keeps no ids, so they are derived from the trace: every recorded state of the
 * node is visited in order (once; the result is cached per simulation and node), which gives the
 * allocation order and the frees. A node whose kernel starts over (a reboot: its inode counter
 * goes back) starts with no ids.
 */
import type { KernelState } from '../kernel/types';
import type { Simulation } from '../sim/world';
import { tget, tvalues } from '../state/table';

/** Per viewing namespace: the ids it gave other namespaces (namespace id -> nsid). */
export type NsidTable = Map<string, Map<string, number>>;

interface Cache {
  /** Index of the next state of sim.states to visit. */
  next: number;
  last: KernelState | null;
  table: NsidTable;
}

const CACHE = new WeakMap<Simulation, Map<string, Cache>>();

function cloneTable(t: NsidTable): NsidTable {
  return new Map([...t].map(([k, v]) => [k, new Map(v)]));
}

function lowestFree(ids: Map<string, number>): number {
  const used = new Set(ids.values());
  let n = 0;
  while (used.has(n)) n++;
  return n;
}

/** Brings `table` from kernel state `prev` to `k` (mutates the table). */
function advance(table: NsidTable, prev: KernelState | null, k: KernelState): void {
  if (prev && k.nextInode < prev.nextInode) table.clear();
  // Namespaces that are gone: their ids are freed everywhere.
  for (const viewer of [...table.keys()]) {
    if (!tget(k.netns, viewer)) table.delete(viewer);
  }
  for (const ids of table.values()) {
    for (const other of [...ids.keys()]) if (!tget(k.netns, other)) ids.delete(other);
  }
  // New references to other namespaces, in namespace then ifindex order.
  for (const ns of tvalues(k.netns)) {
    if (prev && tget(prev.netns, ns.id) === ns) continue;
    for (const l of Object.values(ns.links)) {
      // A veth's peer, or a macvlan's lower device (its IFLA_LINK_NETNSID).
      const other = l.peer?.ns ?? l.macvlan?.lower.ns;
      if (!other || other === ns.id || !tget(k.netns, other)) continue;
      let ids = table.get(ns.id);
      if (!ids) table.set(ns.id, (ids = new Map()));
      if (!ids.has(other)) ids.set(other, lowestFree(ids));
    }
  }
}

/**
 * The nsid table of `node` for the kernel state `current` (the simulation's state, or a command's
 * pending change of it).
 */
export function nsidTable(sim: Simulation, node: string, current: KernelState): NsidTable {
  let perNode = CACHE.get(sim);
  if (!perNode) CACHE.set(sim, (perNode = new Map()));
  let c = perNode.get(node);
  if (!c) {
    c = { next: 0, last: null, table: new Map() };
    const k0 = sim.initial.nodes[node]?.kernel;
    if (k0) {
      advance(c.table, null, k0);
      c.last = k0;
    }
    perNode.set(node, c);
  }
  for (; c.next < sim.states.length; c.next++) {
    const k = sim.states[c.next]!.nodes[node]?.kernel;
    if (!k || k === c.last) continue;
    advance(c.table, c.last, k);
    c.last = k;
  }
  if (current === c.last) return c.table;
  const t = cloneTable(c.table);
  advance(t, c.last, current);
  return t;
}

/** The id `viewer` gave namespace `other`, if any. */
export function nsidOf(table: NsidTable, viewer: string, other: string): number | undefined {
  return table.get(viewer)?.get(other);
}
