/**
 * The device core's lookups: namespaces by id, links by name and ifindex, ifindex allocation, a
 * veth's peer. Every other part of the kernel builds on these.
 */
import type { IP } from '../net/ip';
import { fnv1a } from '../state/hash';
import { tget } from '../state/table';
import { KernelError } from './errors';
import type { Addr, AddrScope, KernelState, Link, LinkKind, Netns } from './types';

export const ZERO_MAC = '00:00:00:00:00:00';

export const IFNAMSIZ_MAX = 15;

export interface RandomSource {
  mac(): string;
}

// Namespaces

export function nsById(k: KernelState, id: string): Netns {
  const ns = tget(k.netns, id);
  if (!ns) throw new KernelError('EINVAL');
  return ns;
}

// Links

export function newLink(
  ifindex: number,
  name: string,
  kind: LinkKind,
  mac: string,
  mtu: number,
): Link {
  return {
    ifindex,
    name,
    kind,
    mac,
    macAssign: 'random',
    adminUp: false,
    mtu,
    // tx_queue_len: DEFAULT_TX_QUEUE_LEN (1000) from ether_setup / loopback_setup, a bridge
    // included (`ip -d link` shows qlen 1000 for a new bridge on 6.18); ifb sets 32.
    txqlen: kind === 'ifb' ? 32 : 1000,
    promisc: 0,
    allmulti: false,
    master: null,
    peer: null,
    peerUp: false,
    addrs: [],
    operstate: kind === 'veth' || kind === 'macvlan' ? 'DOWN' : 'UNKNOWN',
    // What linkwatch last processed. Every device registers with carrier on; a veth then turns
    // its carrier off at once, which linkwatch processes as an event of its own (computing
    // its operstate from its iflink then). A macvlan takes its lower device's carrier when it
    // opens (netif_stacked_transfer_operstate): modelled as the same event.
    lwCarrier: kind !== 'macvlan',
    lwPendingSince: null,
    ip6Configured: false,
    bridge: null,
    brport: null,
    sysctl: {},
    life: 'created',
  };
}

/** The links of a namespace in ifindex order. */
export function linksOf(ns: Netns): Link[] {
  return Object.values(ns.links);
}

/** The chunk of `Netns.names` that holds `name`: the low 4 bits of its FNV-1a hash. */
export function nameChunk(name: string): number {
  return fnv1a(name) & 15;
}

/**
 * A new chunk: no prototype, so that a link may be called `__proto__` or `constructor` (legal
 * Linux names) and be a key like any other.
 */
export function nameChunkOf(
  entries: Readonly<Record<string, number>> = {},
): Record<string, number> {
  return Object.assign(Object.create(null) as Record<string, number>, entries);
}

/** The ifindex of the link called `name`. */
export function ifindexByName(ns: Netns, name: string): number | undefined {
  const c = ns.names[nameChunk(name)];
  return c !== undefined && Object.prototype.hasOwnProperty.call(c, name) ? c[name] : undefined;
}

/** Indexes `name` (in place: a draft or a namespace being built). */
export function setLinkName(ns: Netns, name: string, ifindex: number): void {
  const h = nameChunk(name);
  // Re-read after creating: inside immer, what was assigned is then reached through its draft.
  if (!ns.names[h]) ns.names[h] = nameChunkOf();
  ns.names[h]![name] = ifindex;
}

/** Drops `name` from the index (in place) if it names `ifindex` (any link when absent). */
export function unsetLinkName(ns: Netns, name: string, ifindex?: number): void {
  const h = nameChunk(name);
  const c = ns.names[h];
  if (!c || !Object.prototype.hasOwnProperty.call(c, name)) return;
  if (ifindex !== undefined && c[name] !== ifindex) return;
  delete c[name];
  for (const _ in c) return;
  delete ns.names[h];
}

export function linkByName(ns: Netns, name: string): Link | undefined {
  const i = ifindexByName(ns, name);
  return i === undefined ? undefined : ns.links[i];
}

export function linkByIndex(ns: Netns, ifindex: number): Link | undefined {
  return ns.links[ifindex];
}

export function validIfName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= IFNAMSIZ_MAX &&
    name !== '.' &&
    name !== '..' &&
    !/[/:\s]/.test(name)
  );
}

export function allocIfindex(ns: Netns, wanted?: number): number {
  if (wanted !== undefined && wanted > 0 && !ns.links[wanted]) return wanted;
  let i = ns.nextIfindex;
  while (ns.links[i]) i++;
  ns.nextIfindex = i + 1;
  return i;
}

export function insertLink(ns: Netns, l: Link): void {
  ns.links[l.ifindex] = l;
  setLinkName(ns, l.name, l.ifindex);
}

export function unlinkLink(ns: Netns, l: Link): void {
  delete ns.links[l.ifindex];
  unsetLinkName(ns, l.name, l.ifindex);
}

/** Links whose carrier or state a change may have affected: [netns id, ifindex]. */
export type Touched = Array<[string, number]>;

export function peerOf(k: KernelState, l: Link): { ns: Netns; link: Link } | null {
  if (!l.peer) return null;
  const ns = tget(k.netns, l.peer.ns);
  const link = ns?.links[l.peer.ifindex];
  return ns && link ? { ns, link } : null;
}

/** A macvlan's lower device, wherever it is (null once gone, or for other kinds). */
export function macvlanLowerOf(k: KernelState, l: Link): { ns: Netns; link: Link } | null {
  if (!l.macvlan) return null;
  const ns = tget(k.netns, l.macvlan.lower.ns);
  const link = ns?.links[l.macvlan.lower.ifindex];
  return ns && link ? { ns, link } : null;
}

export function getLink(k: KernelState, nsId: string, ifindex: number): { ns: Netns; l: Link } {
  const ns = nsById(k, nsId);
  const l = ns.links[ifindex];
  if (!l) throw new KernelError('ENODEV');
  return { ns, l };
}

export function scopeOfV6(ip: IP): AddrScope {
  if (ip.n === 1n) return 'host';
  if (ip.n >> 118n === 0x3fan) return 'link'; // fe80::/10
  return 'global';
}

export function macBytes(mac: string): number[] {
  return mac.split(':').map((x) => parseInt(x, 16));
}

/** IFA_F_TENTATIVE: duplicate address detection has not ended for `a` at `now`. */
export function isTentative(a: Addr, now: number): boolean {
  return a.dadUntil !== undefined && (a.dadUntil < 0 || a.dadUntil > now);
}
