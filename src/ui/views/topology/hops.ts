/**
 * A packet walk on the topology: which drawn thing each hop is about (a link chip, a namespace,
 * the underlay or its router), and how the hop reads in a few words. Pure functions of a world
 * state and a hop, so they run headless (hops.test.ts).
 */
import { tget, type DropReason, type Hop, type HopStep, type WorldState } from '../../../engine';
import type { Box, Layout } from './model';

/** What the kernel's reason for a drop is called, in a few words. */
export const DROP_WORDS: Record<DropReason, string> = {
  'no-route': 'no route',
  'ip-forward': 'ip_forward is off',
  'rp-filter': 'rp_filter',
  netfilter: 'netfilter dropped it',
  neigh: 'no neighbour (ARP)',
  hairpin: 'hairpin off',
  mtu: 'MTU: fragmentation needed',
  ttl: 'TTL exceeded',
  'link-down': 'link down',
  'no-listener': 'no listener',
  'no-socket': 'no socket for the answer (RST)',
  outside: 'outside the model',
  loop: 'a routing loop',
};

const STEP_WORDS: Record<HopStep, string> = {
  output: 'routing (output)',
  netfilter: 'netfilter',
  neigh: 'neighbour',
  xmit: 'transmit',
  wire: 'on the wire',
  bridge: 'bridge',
  recv: 'receive',
  forward: 'forward',
  deliver: 'delivered',
  encap: 'VXLAN encapsulation',
  decap: 'VXLAN decapsulation',
  drop: 'dropped',
};

export interface HopTarget {
  /** The node the hop is on ('' at the underlay's router). */
  node: string;
  /** The namespace drawn for the hop: `node/nsId` (the topology's key), or null. */
  nsKey: string | null;
  /** The link chip drawn for the hop: `node/nsId/ifindex`, or null (a whole namespace's hop). */
  linkKey: string | null;
  /** The hop is on the underlay (the wire between the nodes, or its router). */
  underlay: boolean;
  /** The hop is at the router at the underlay's edge (the outside). */
  router: boolean;
  /** Why the packet was dropped here, in a few words; null when it was not. */
  drop: string | null;
  /** A short label for the drawing: "bridge cni0", "netfilter POSTROUTING", "dropped: no route". */
  label: string;
}

/** "bridge cni0", "netfilter POSTROUTING", "dropped: ip_forward is off". */
export function hopLabel(h: Hop): string {
  if (h.drop) return `dropped: ${DROP_WORDS[h.drop]}`;
  const what = h.step === 'netfilter' && h.hook ? `netfilter ${h.hook}` : STEP_WORDS[h.step];
  return h.dev && h.step !== 'netfilter' ? `${what} ${h.dev}` : what;
}

/** Where hop `h` is drawn on the topology of `state` (the world the walk was made on). */
export function hopTarget(state: WorldState, h: Hop): HopTarget {
  const label = hopLabel(h);
  const drop = h.drop ? DROP_WORDS[h.drop] : null;
  const node = state.nodes[h.node];
  const ns = node ? tget(node.kernel.netns, h.ns) : undefined;
  if (!node || !ns)
    // Beyond the nodes: the router at the underlay's edge.
    return { node: '', nsKey: null, linkKey: null, underlay: true, router: true, drop, label };
  const nsKey = `${h.node}/${ns.id}`;
  // A netfilter hop is about the namespace's tables, not a device.
  const link =
    h.dev && h.step !== 'netfilter'
      ? Object.values(ns.links).find((l) => l.name === h.dev)
      : undefined;
  return {
    node: h.node,
    nsKey,
    linkKey: link ? `${nsKey}/${link.ifindex}` : null,
    underlay: h.step === 'wire',
    router: false,
    drop,
    label,
  };
}

/** The hop's place in the walk, for a person: "Hop 3 of 27 (request)". */
export function hopPosition(i: number, total: number, replyFrom: number): string {
  return `Hop ${i + 1} of ${total} (${i >= replyFrom ? 'reply' : 'request'})`;
}

/** Where a hop is drawn: its chip, its namespace's box, or the underlay (or its router). */
export function hopBox(lay: Layout, state: WorldState, hop: HopTarget): Box | null {
  if (hop.router) return lay.underlay?.router ?? null;
  const nl = lay.nodes.find((n) => n.node.name === hop.node);
  if (!nl) return hop.underlay ? (lay.underlay?.box ?? null) : null;
  const root = nl.node.root;
  const rootKey = `${hop.node}/${root}`;
  if (hop.linkKey) {
    const ifindex = Number(hop.linkKey.slice(hop.linkKey.lastIndexOf('/') + 1));
    if (hop.nsKey === rootKey) {
      const chip = nl.hostChips.find((c) => c.ifindex === ifindex);
      if (chip) return chip.box;
      for (const c of nl.cells) {
        const p = c.peers.find((x) => x.ifindex === ifindex);
        if (p) return p.box;
      }
    } else {
      const c = nl.cells.find((x) => `${hop.node}/${x.ns.id}` === hop.nsKey);
      const ns = c ? tget(state.nodes[hop.node]!.kernel.netns, c.ns.id) : undefined;
      if (c && ns) {
        const j = Object.values(ns.links).findIndex((l) => l.ifindex === ifindex);
        if (c.slots[j]) return c.slots[j];
        return c.nsBox;
      }
    }
  }
  if (hop.nsKey === rootKey) return nl.hostBox;
  const c = nl.cells.find((x) => `${hop.node}/${x.ns.id}` === hop.nsKey);
  return c ? c.nsBox : null;
}
