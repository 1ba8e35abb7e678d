/**
 * Operations of the virtual kernel. Each function mutates a draft KernelState (callers wrap it
 * in immer's produce, so the previous state stays untouched) and throws a KernelError with the
 * errno text a real kernel returns. After every operation `linkwatch` brings carriers,
 * operational states, IPv6 link-local configuration and kernel routes up to date, the way
 * Linux's linkwatch and addrconf do.
 */
import {
  type Family,
  type IP,
  ipString,
  networkOf,
  parseIP,
  isLoopback,
  netContains,
  ipToBytes,
  lastOf,
} from '../net/ip';
import { emptyIptables } from './iptables';
import { eui64LinkLocal } from '../net/mac';
export { eui64LinkLocal };
import { GLOBAL_SYSCTL_DEFAULTS, INTERFACE_SYSCTL_DEFAULTS } from './sysctl-defaults';
import { tcActivate, tcLinkGone } from './tc-device';
import type {
  Addr,
  AddrScope,
  KernelState,
  Link,
  LinkKind,
  Netns,
  OperState,
  Route,
} from './types';
import { emptyTable, tdel, tget, tset } from '../state/table';

export type KErrno =
  | 'EACCES'
  | 'EEXIST'
  | 'ENODEV'
  | 'ENOENT'
  | 'EINVAL'
  | 'EADDRNOTAVAIL'
  | 'ENETUNREACH'
  | 'ENETDOWN'
  | 'EHOSTUNREACH'
  | 'EBUSY'
  | 'EPERM'
  | 'ESRCH'
  | 'EOPNOTSUPP'
  | 'ERANGE';

/** syscall.Errno.Error() texts, as Go programs print them. */
export const KERRNO_TEXT: Record<KErrno, string> = {
  EACCES: 'permission denied',
  EEXIST: 'file exists',
  ENODEV: 'no such device',
  ENOENT: 'no such file or directory',
  EINVAL: 'invalid argument',
  EADDRNOTAVAIL: 'cannot assign requested address',
  ENETUNREACH: 'network is unreachable',
  ENETDOWN: 'network is down',
  EHOSTUNREACH: 'no route to host',
  EBUSY: 'device or resource busy',
  EPERM: 'operation not permitted',
  ESRCH: 'no such process',
  EOPNOTSUPP: 'operation not supported',
  ERANGE: 'numerical result out of range',
};

/**
 * A failed kernel call: the errno (its Go text is the message, which is all the plugins' netlink
 * library reports) and, like netlink's extended ack, the kernel's explanation when it gives one
 * (the text of NL_SET_ERR_MSG, which iproute2 prints as "Error: <text>.").
 */
export class KernelError extends Error {
  constructor(
    readonly errno: KErrno,
    readonly extack?: string,
  ) {
    super(KERRNO_TEXT[errno]);
  }
}

/** vishvananda/netlink's LinkNotFoundError. */
export class LinkNotFoundError extends Error {
  constructor() {
    super('Link not found');
  }
}

export const ZERO_MAC = '00:00:00:00:00:00';
export const IFNAMSIZ_MAX = 15;

export interface RandomSource {
  mac(): string;
}

// ---------------------------------------------------------------------------------------------
// Namespaces

export function emptyKernel(): KernelState {
  const k: KernelState = {
    netns: emptyTable(),
    mounts: {},
    root: '',
    nextInode: 4026531840,
    now: 0,
    lwPending: [],
  };
  k.root = createNetns(k);
  return k;
}

export function createNetns(k: KernelState): string {
  const inode = k.nextInode;
  k.nextInode += 1 + (inode === 4026531840 ? 256 : 0);
  const id = `ns${inode}`;
  const lo: Link = newLink(1, 'lo', 'loopback', ZERO_MAC, 65536);
  lo.macAssign = 'perm';
  const ns: Netns = {
    id,
    inode,
    links: { 1: lo },
    names: { lo: 1 },
    nextIfindex: 2,
    routes: [],
    sysctl: {},
    iptables: emptyIptables(),
  };
  tset(k.netns, id, ns);
  return id;
}

export function mountNetns(k: KernelState, path: string, id: string): void {
  if (k.mounts[path]) throw new KernelError('EEXIST');
  k.mounts[path] = id;
}

export function unmountNetns(k: KernelState, path: string): void {
  if (!k.mounts[path]) throw new KernelError('EINVAL');
  delete k.mounts[path];
}

/** Destroys a namespace: its links go away (a veth takes its peer with it). */
export function destroyNetns(k: KernelState, id: string): void {
  const ns = tget(k.netns, id);
  if (!ns) return;
  const touched: Touched = [];
  for (const l of linksOf(ns)) {
    if (!ns.links[l.ifindex] || l.kind === 'loopback') continue;
    if (l.peer) {
      const pns = tget(k.netns, l.peer.ns);
      const pl = pns?.links[l.peer.ifindex];
      if (pns && pl?.master != null) touched.push([pns.id, pl.master]);
    }
    deleteLinkRaw(k, ns, l);
  }
  for (const [p, nid] of Object.entries(k.mounts)) if (nid === id) delete k.mounts[p];
  tdel(k.netns, id);
  k.lwPending = k.lwPending.filter((x) => !x.startsWith(`${id}/`));
  linkwatch(k, touched);
}

export function nsById(k: KernelState, id: string): Netns {
  const ns = tget(k.netns, id);
  if (!ns) throw new KernelError('EINVAL');
  return ns;
}

// ---------------------------------------------------------------------------------------------
// Links

function newLink(ifindex: number, name: string, kind: LinkKind, mac: string, mtu: number): Link {
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
    operstate: kind === 'veth' ? 'DOWN' : 'UNKNOWN',
    // What linkwatch last processed. Every device registers with carrier on; a veth then turns
    // its carrier off at once, which linkwatch processes as an event of its own (computing
    // its operstate from its iflink then).
    lwCarrier: true,
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

export function linkByName(ns: Netns, name: string): Link | undefined {
  const i = ns.names[name];
  return i === undefined ? undefined : ns.links[i];
}

export function linkByIndex(ns: Netns, ifindex: number): Link | undefined {
  return ns.links[ifindex];
}

function validIfName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= IFNAMSIZ_MAX &&
    name !== '.' &&
    name !== '..' &&
    !/[/:\s]/.test(name)
  );
}

function allocIfindex(ns: Netns, wanted?: number): number {
  if (wanted !== undefined && wanted > 0 && !ns.links[wanted]) return wanted;
  let i = ns.nextIfindex;
  while (ns.links[i]) i++;
  ns.nextIfindex = i + 1;
  return i;
}

function insertLink(ns: Netns, l: Link): void {
  ns.links[l.ifindex] = l;
  ns.names[l.name] = l.ifindex;
}

function unlinkLink(ns: Netns, l: Link): void {
  delete ns.links[l.ifindex];
  if (ns.names[l.name] === l.ifindex) delete ns.names[l.name];
}

export type LinkSpec =
  | { kind: 'bridge'; name: string; mtu?: number; vlanFiltering?: boolean }
  | { kind: 'dummy' | 'ifb'; name: string; mtu?: number; txqlen?: number }
  | {
      kind: 'veth';
      name: string;
      peerName: string;
      /** Namespace of the peer (defaults to the same one). */
      peerNs?: string;
      mtu?: number;
      mac?: string;
    };

/** Links whose carrier or state a change may have affected: [netns id, ifindex]. */
type Touched = Array<[string, number]>;

/** RTM_NEWLINK with NLM_F_CREATE|NLM_F_EXCL. Returns the new link's ifindex. */
export function linkAdd(k: KernelState, nsId: string, spec: LinkSpec, rnd: RandomSource): number {
  const ns = nsById(k, nsId);
  if (!validIfName(spec.name)) throw new KernelError('EINVAL');
  const mtu = spec.mtu && spec.mtu > 0 ? spec.mtu : 1500;
  // veth_validate (the link type's ops->validate) refuses a bad IFLA_MTU before
  // __rtnl_newlink looks the name up; other kinds check the MTU when creating the device.
  if (spec.kind === 'veth' && (mtu < 68 || mtu > 65535)) throw new KernelError('EINVAL');
  if (linkByName(ns, spec.name)) throw new KernelError('EEXIST');
  if (mtu < 68 || mtu > 65535) throw new KernelError('EINVAL');
  let created: Link;
  const touched: Touched = [];
  if (spec.kind === 'veth') {
    const peerNs = nsById(k, spec.peerNs ?? nsId);
    if (!validIfName(spec.peerName)) throw new KernelError('EINVAL');
    if (linkByName(peerNs, spec.peerName)) throw new KernelError('EEXIST');
    if (peerNs === ns && spec.peerName === spec.name) throw new KernelError('EEXIST');
    // veth_newlink registers the peer first.
    const peerIdx = allocIfindex(peerNs);
    const peer = newLink(peerIdx, spec.peerName, 'veth', rnd.mac(), mtu);
    insertLink(peerNs, peer);
    const idx = allocIfindex(ns);
    created = newLink(idx, spec.name, 'veth', spec.mac ?? rnd.mac(), mtu);
    if (spec.mac) created.macAssign = 'set';
    created.peer = { ns: peerNs.id, ifindex: peerIdx };
    peer.peer = { ns: ns.id, ifindex: idx };
    insertLink(ns, created);
    touched.push([peerNs.id, peerIdx]);
  } else {
    const idx = allocIfindex(ns);
    created = newLink(idx, spec.name, spec.kind, rnd.mac(), mtu);
    if (spec.kind === 'bridge') {
      created.bridge = {
        stp: false,
        vlanFiltering: !!spec.vlanFiltering,
        hadPorts: false,
        ports: [],
      };
    }
    if (spec.kind !== 'bridge' && spec.txqlen !== undefined) created.txqlen = spec.txqlen;
    insertLink(ns, created);
  }
  touched.push([ns.id, created.ifindex]);
  linkwatch(k, touched);
  return created.ifindex;
}

function peerOf(k: KernelState, l: Link): { ns: Netns; link: Link } | null {
  if (!l.peer) return null;
  const ns = tget(k.netns, l.peer.ns);
  const link = ns?.links[l.peer.ifindex];
  return ns && link ? { ns, link } : null;
}

function removeRoutesOfDev(ns: Netns, ifindex: number, family?: Family): void {
  if (!ns.routes.some((r) => r.dev === ifindex && (family === undefined || r.family === family)))
    return;
  ns.routes = ns.routes.filter(
    (r) => r.dev !== ifindex || (family !== undefined && r.family !== family),
  );
}

/** Detaches a port from its bridge (the bridge's MAC and MTU follow its remaining ports). */
function detachPort(ns: Netns, port: Link): Link | undefined {
  if (port.master === null) return undefined;
  const br = ns.links[port.master];
  port.master = null;
  port.brport = null;
  port.promisc = Math.max(0, port.promisc - 1);
  if (br?.bridge) {
    br.bridge.ports = br.bridge.ports.filter((i) => i !== port.ifindex);
    recalcBridgeMac(ns, br);
  }
  return br;
}

function deleteOne(k: KernelState, ns: Netns, l: Link): void {
  if (l.kind === 'bridge' && l.bridge) {
    for (const i of [...l.bridge.ports]) {
      const p = ns.links[i];
      if (p) detachPort(ns, p);
    }
  }
  detachPort(ns, l);
  unlinkLink(ns, l);
  removeRoutesOfDev(ns, l.ifindex);
  tcLinkGone(linksOf(ns), l.ifindex);
  if (l.lwPendingSince !== null)
    k.lwPending = k.lwPending.filter((x) => x !== `${ns.id}/${l.ifindex}`);
}

function deleteLinkRaw(k: KernelState, ns: Netns, l: Link): void {
  const p = peerOf(k, l);
  deleteOne(k, ns, l);
  if (p) deleteOne(k, p.ns, p.link);
}

/** The links a change to `l` can affect: itself, its veth peer, and the bridges of both. */
function around(k: KernelState, ns: Netns, l: Link): Touched {
  const t: Touched = [[ns.id, l.ifindex]];
  if (l.master !== null) t.push([ns.id, l.master]);
  const p = peerOf(k, l);
  if (p) {
    t.push([p.ns.id, p.link.ifindex]);
    if (p.link.master !== null) t.push([p.ns.id, p.link.master]);
  }
  return t;
}

export function linkDel(k: KernelState, nsId: string, ifindex: number): void {
  const ns = nsById(k, nsId);
  const l = ns.links[ifindex];
  if (!l) throw new KernelError('ENODEV');
  if (l.kind === 'loopback') throw new KernelError('EOPNOTSUPP');
  const touched = around(k, ns, l);
  deleteLinkRaw(k, ns, l);
  linkwatch(k, touched);
}

function getLink(k: KernelState, nsId: string, ifindex: number): { ns: Netns; l: Link } {
  const ns = nsById(k, nsId);
  const l = ns.links[ifindex];
  if (!l) throw new KernelError('ENODEV');
  return { ns, l };
}

function setPeerUp(k: KernelState, l: Link): void {
  const p = peerOf(k, l);
  if (p) p.link.peerUp = l.adminUp;
}

export function linkSetUp(k: KernelState, nsId: string, ifindex: number): void {
  const { ns, l } = getLink(k, nsId, ifindex);
  if (l.adminUp) return;
  l.adminUp = true;
  l.life = 'up';
  tcActivate(l);
  setPeerUp(k, l);
  // inetdev: the loopback device gets 127.0.0.1/8 the first time it comes up, and keeps it.
  if (l.kind === 'loopback' && !l.addrs.some((a) => a.local === '127.0.0.1')) {
    insertAddr(l, { family: 4, local: '127.0.0.1', prefix: 8, scope: 'host', broadcast: null });
  }
  // Addresses added while the device was down get their prefix routes now.
  for (const a of l.addrs) {
    if (a.family === 4) addConnectedRoute(ns, l, a);
    else if (a.scope !== 'link' && a.scope !== 'host') addPrefixRoute6(ns, l, a);
  }
  const touched = around(k, ns, l);
  if (l.bridge) for (const i of l.bridge.ports) touched.push([ns.id, i]);
  linkwatch(k, touched);
}

export function linkSetDown(k: KernelState, nsId: string, ifindex: number): void {
  const { ns, l } = getLink(k, nsId, ifindex);
  if (!l.adminUp) return;
  l.adminUp = false;
  l.life = 'down';
  setPeerUp(k, l);
  // fib_disable_ip: every IPv4 route through the device goes but those of scope host (their next
  // hop has scope "nowhere", which fib_sync_down_dev spares unless IPv4 goes from the device);
  // addrconf_ifdown: IPv6 addresses and routes go (keep_addr_on_down is off).
  ns.routes = ns.routes.filter(
    (r) => r.dev !== l.ifindex || (r.family === 4 && r.scope === 'host' && !r.gateway),
  );
  l.addrs = l.addrs.filter((a) => a.family === 4);
  l.ip6Configured = false;
  const touched = around(k, ns, l);
  if (l.bridge) for (const i of l.bridge.ports) touched.push([ns.id, i]);
  linkwatch(k, touched);
}

export function linkSetMaster(
  k: KernelState,
  nsId: string,
  ifindex: number,
  masterIfindex: number | null,
): void {
  const { ns, l } = getLink(k, nsId, ifindex);
  if (masterIfindex === null) {
    const old = detachPort(ns, l);
    if (!old) return;
    linkwatch(k, [
      [ns.id, l.ifindex],
      [ns.id, old.ifindex],
    ]);
    return;
  }
  const m = ns.links[masterIfindex];
  if (!m) throw new KernelError('ENODEV');
  if (m.kind !== 'bridge' || !m.bridge) throw new KernelError('EOPNOTSUPP');
  if (m.ifindex === l.ifindex || l.kind === 'bridge' || l.kind === 'loopback') {
    throw new KernelError('EINVAL');
  }
  if (l.master === m.ifindex) return;
  const old = detachPort(ns, l);
  l.master = m.ifindex;
  l.brport = { hairpin: false, learning: true, flood: true, isolated: false };
  l.promisc += 1;
  m.bridge.hadPorts = true;
  m.bridge.ports.push(l.ifindex);
  recalcBridgeMac(ns, m);
  const touched: Touched = [
    [ns.id, l.ifindex],
    [ns.id, m.ifindex],
  ];
  if (old) touched.push([ns.id, old.ifindex]);
  linkwatch(k, touched);
}

/** br_mtu_auto_adjust: the smallest port MTU (1500 without ports), unless the MTU was set by the user. */
function recalcBridgeMtu(ns: Netns, br: Link): void {
  if (!br.bridge || br.sysctl['__mtu_user'] === '1') return;
  let min = 0;
  for (const i of br.bridge.ports) {
    const p = ns.links[i];
    if (p && (min === 0 || p.mtu < min)) min = p.mtu;
  }
  br.mtu = min || 1500;
}

/** br_stp_recalculate_bridge_id: the lowest port MAC, unless the MAC was set explicitly. */
function recalcBridgeMac(ns: Netns, br: Link): void {
  recalcBridgeMtu(ns, br);
  if (!br.bridge || br.macAssign === 'set') return;
  let lowest: string | null = null;
  for (const i of br.bridge.ports) {
    const p = ns.links[i];
    if (p && (lowest === null || p.mac < lowest)) lowest = p.mac;
  }
  br.mac = lowest ?? ZERO_MAC;
}

export function linkSetHairpin(k: KernelState, nsId: string, ifindex: number, on: boolean): void {
  const { l } = getLink(k, nsId, ifindex);
  if (!l.brport) throw new KernelError('EOPNOTSUPP');
  l.brport.hairpin = on;
}

/**
 * dev_set_mac_address(): an address equal to the current one is not handed to the driver (so
 * even an all-zero one is accepted); otherwise the driver's eth_mac_addr() / br_set_mac_address()
 * refuses a multicast or zero address. Either way the address now counts as set by the user.
 */
export function linkSetMac(k: KernelState, nsId: string, ifindex: number, mac: string): void {
  const { ns, l } = getLink(k, nsId, ifindex);
  const bytes = mac.split(':').map((x) => parseInt(x, 16));
  if (bytes.length !== 6 || bytes.some((b) => Number.isNaN(b) || b < 0 || b > 255)) {
    throw new KernelError('EINVAL');
  }
  const text = bytes.map((b) => b.toString(16).padStart(2, '0')).join(':');
  if (text !== l.mac && ((bytes[0]! & 1) === 1 || bytes.every((b) => b === 0))) {
    throw new KernelError('EADDRNOTAVAIL');
  }
  l.mac = text;
  l.macAssign = 'set';
  if (l.master !== null) {
    const m = ns.links[l.master];
    if (m) recalcBridgeMac(ns, m);
  }
}

export function linkSetMtu(k: KernelState, nsId: string, ifindex: number, mtu: number): void {
  const { ns, l } = getLink(k, nsId, ifindex);
  if (mtu < 68 || mtu > 65535) throw new KernelError('EINVAL');
  l.mtu = mtu;
  if (l.kind === 'bridge') l.sysctl['__mtu_user'] = '1';
  if (l.master !== null) {
    const m = ns.links[l.master];
    if (m) recalcBridgeMtu(ns, m);
  }
}

export function linkSetTxqlen(k: KernelState, nsId: string, ifindex: number, q: number): void {
  const { l } = getLink(k, nsId, ifindex);
  if (q < 0) throw new KernelError('EINVAL');
  l.txqlen = q;
}

export function linkSetPromisc(k: KernelState, nsId: string, ifindex: number, on: boolean): void {
  const { l } = getLink(k, nsId, ifindex);
  // IFF_PROMISC set by the user counts once on top of what masters add.
  const userBit = l.sysctl['__promisc_user'] === '1';
  if (on && !userBit) {
    l.promisc += 1;
    l.sysctl['__promisc_user'] = '1';
  } else if (!on && userBit) {
    l.promisc = Math.max(0, l.promisc - 1);
    delete l.sysctl['__promisc_user'];
  }
}

export function linkSetAllmulti(k: KernelState, nsId: string, ifindex: number, on: boolean): void {
  const { l } = getLink(k, nsId, ifindex);
  l.allmulti = on;
}

/**
 * dev_change_name. Since Linux 6.2 a device that is up can be renamed too (veth, bridge, ifb and
 * lo checked on 6.18), so there is no EBUSY any more.
 */
export function linkSetName(k: KernelState, nsId: string, ifindex: number, name: string): void {
  const { ns, l } = getLink(k, nsId, ifindex);
  if (!validIfName(name)) throw new KernelError('EINVAL');
  if (l.name === name) return;
  if (linkByName(ns, name)) throw new KernelError('EEXIST');
  delete ns.names[l.name];
  l.name = name;
  ns.names[name] = l.ifindex;
}

/** RTM_NEWLINK with IFLA_NET_NS_FD: moves a link to another namespace (it goes down, loses addresses). */
export function linkSetNs(k: KernelState, nsId: string, ifindex: number, targetNsId: string): void {
  const { ns, l } = getLink(k, nsId, ifindex);
  const target = nsById(k, targetNsId);
  if (target === ns) return;
  if (l.kind === 'loopback' || l.kind === 'bridge') throw new KernelError('EINVAL');
  if (linkByName(target, l.name)) throw new KernelError('EEXIST');
  const touched = around(k, ns, l);
  detachPort(ns, l);
  removeRoutesOfDev(ns, l.ifindex);
  unlinkLink(ns, l);
  const newIdx = allocIfindex(target, l.ifindex);
  const moved: Link = {
    ...l,
    ifindex: newIdx,
    adminUp: false,
    addrs: [],
    ip6Configured: false,
    sysctl: {},
    life: 'moved',
  };
  // The device is unregistered from its namespace: its qdiscs and filters go.
  delete moved.tc;
  tcLinkGone(linksOf(ns), l.ifindex);
  insertLink(target, moved);
  const p = peerOf(k, moved);
  if (p) {
    p.link.peer = { ns: target.id, ifindex: newIdx };
    p.link.peerUp = false;
  }
  touched.push([target.id, newIdx]);
  linkwatch(k, touched);
}

// ---------------------------------------------------------------------------------------------
// Carrier, operstate, addrconf

/** netif_carrier_ok: the carrier the (virtual) driver reports right now, whatever the admin state. */
export function carrierOf(_k: KernelState, ns: Netns, l: Link): boolean {
  switch (l.kind) {
    case 'veth':
      return l.adminUp && l.peerUp;
    case 'bridge': {
      // A bridge has carrier from birth; once it had ports, only while a port forwards.
      if (!l.bridge?.hadPorts) return true;
      if (!l.adminUp) return false;
      return l.bridge.ports.some((i) => {
        const p = ns.links[i];
        return !!p && p.adminUp && portCarrier(p);
      });
    }
    default:
      return true;
  }
}

function portCarrier(p: Link): boolean {
  return p.kind === 'veth' ? p.adminUp && p.peerUp : true;
}

/** A bridge port forwards (STP off) when it and its bridge are up and it has carrier. */
export function portForwarding(k: KernelState, ns: Netns, port: Link, br: Link): boolean {
  return br.adminUp && port.adminUp && carrierOf(k, ns, port);
}

/** How long linkwatch may hold back an event of a non-urgent device (a bridge), in µs of virtual time. */
export const LINKWATCH_DELAY_US = 1000;

/**
 * What linkwatch's rfc2863 policy (default_operstate, Linux 6.12+) computes for a device from its
 * carrier. Without carrier: DOWN when the device is its own iflink; otherwise the device whose
 * ifindex is the iflink *in this device's namespace* is looked up (for a veth the iflink is its
 * peer's ifindex, so this is often an unrelated device such as cni0), and the result is
 * LOWERLAYERDOWN only if that device is not operationally up ("only report LOWERLAYERDOWN if
 * iflink is actually down"). Checked on a 6.18 kernel: a host veth whose pod end goes down
 * shows DOWN while cni0 (ifindex 2) is up, LOWERLAYERDOWN when cni0 is already down.
 */
function operFromCarrier(ns: Netns, l: Link, carrier: boolean): OperState {
  if (carrier) return 'UP';
  const iflink = l.peer ? l.peer.ifindex : l.ifindex;
  if (iflink === l.ifindex) return 'DOWN';
  const lower = ns.links[iflink];
  if (!lower) return 'DOWN';
  const o = displayedOperstate(lower);
  return o === 'UP' || o === 'UNKNOWN' ? 'DOWN' : 'LOWERLAYERDOWN';
}

/** Non-urgent devices (ifindex == iflink): their events wait for the next linkwatch run. */
function urgent(l: Link): boolean {
  return l.kind !== 'bridge';
}

/**
 * linkwatch: carrier changes become operational state. Events of veths (urgent devices) are
 * processed at once, and that run also handles the events deferred so far; a bridge's event
 * otherwise waits until LINKWATCH_DELAY_US of virtual time has passed (or `settleKernel`), so a
 * snapshot taken right after a bridge lost its carrier can still show the previous operstate, as
 * on a real node. Routes show "linkdown" from the processed carrier.
 */
export function linkwatch(k: KernelState, touched: Touched): void {
  const now = k.now ?? 0;
  const seen = new Set<string>();
  const items: Array<{ ns: Netns; l: Link }> = [];
  for (const [nsId, idx] of touched) {
    const key = `${nsId}/${idx}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const ns = tget(k.netns, nsId);
    const l = ns?.links[idx];
    if (ns && l) items.push({ ns, l });
  }
  let urgentRun = false;
  for (const { ns, l } of items) {
    if (!urgent(l)) continue;
    const c = carrierOf(k, ns, l);
    if (c !== l.lwCarrier) {
      l.lwCarrier = c;
      if (l.kind === 'veth') {
        l.operstate = operFromCarrier(ns, l, c);
        urgentRun = true;
      }
    }
  }
  for (const { ns, l } of items) {
    if (!urgent(l) && l.lwPendingSince === null && carrierOf(k, ns, l) !== l.lwCarrier) {
      l.lwPendingSince = now;
      k.lwPending.push(`${ns.id}/${l.ifindex}`);
    }
    addrconf(ns, l);
  }
  if (k.lwPending.length === 0) return;
  const keep: string[] = [];
  for (const key of k.lwPending) {
    const [nsId, idx] = key.split('/') as [string, string];
    const ns = tget(k.netns, nsId);
    const l = ns?.links[Number(idx)];
    if (!ns || !l || l.lwPendingSince === null) continue;
    if (urgentRun || now - l.lwPendingSince >= LINKWATCH_DELAY_US) {
      processEvent(k, ns, l);
      addrconf(ns, l);
    } else keep.push(key);
  }
  k.lwPending = keep;
}

function processEvent(k: KernelState, ns: Netns, l: Link): void {
  const c = carrierOf(k, ns, l);
  l.lwPendingSince = null;
  l.lwCarrier = c;
  l.operstate = operFromCarrier(ns, l, c);
}

/** Time passed: linkwatch has run for every deferred event. */
export function settleKernel(k: KernelState): void {
  for (const key of k.lwPending) {
    const [nsId, idx] = key.split('/') as [string, string];
    const ns = tget(k.netns, nsId);
    const l = ns?.links[Number(idx)];
    if (ns && l && l.lwPendingSince !== null) {
      processEvent(k, ns, l);
      addrconf(ns, l);
    }
  }
  k.lwPending = [];
}

/**
 * Processes the deferred events whose display would contradict the carrier (operstate UP
 * without carrier, DOWN with it): what an observer who waits for consistency sees.
 */
export function settleInconsistent(k: KernelState): void {
  const keep: string[] = [];
  for (const key of k.lwPending) {
    const [nsId, idx] = key.split('/') as [string, string];
    const ns = tget(k.netns, nsId);
    const l = ns?.links[Number(idx)];
    if (!ns || !l || l.lwPendingSince === null) continue;
    const c = carrierOf(k, ns, l);
    if (l.adminUp && l.operstate !== 'UNKNOWN' && (l.operstate === 'UP') !== c) {
      processEvent(k, ns, l);
      addrconf(ns, l);
    } else keep.push(key);
  }
  k.lwPending = keep;
}

/** The operational state `ip link` shows. */
export function displayedOperstate(l: Link): OperState {
  return l.adminUp ? l.operstate : 'DOWN';
}

function operUp(l: Link): boolean {
  return l.adminUp && (l.operstate === 'UP' || l.operstate === 'UNKNOWN');
}

function ipv6Disabled(ns: Netns, l: Link): boolean {
  return interfaceSysctl(ns, l, 'ipv6.conf.disable_ipv6') === '1';
}

function addrconf(ns: Netns, l: Link): void {
  if (l.ip6Configured || !operUp(l) || ipv6Disabled(ns, l)) return;
  l.ip6Configured = true;
  if (l.kind === 'loopback') {
    insertAddr(l, { family: 6, local: '::1', prefix: 128, scope: 'host', broadcast: null });
    return;
  }
  const ll = eui64LinkLocal(l.mac);
  if (!l.addrs.some((a) => a.local === ll)) {
    insertAddr(l, { family: 6, local: ll, prefix: 64, scope: 'link', broadcast: null });
  }
  addKernelRoute6(ns, l, 'fe80::', 64, 'addrconf');
}

function scopeRank(s: AddrScope): number {
  return s === 'global' ? 14 : s === 'site' ? 5 : s === 'link' ? 2 : 1;
}

/** An IPv4 scope as the kernel numbers it (host 254 > link 253 > site 200 > universe 0). */
function v4Rank(x: AddrScope): number {
  return x === 'host' ? 254 : x === 'link' ? 253 : x === 'site' ? 200 : 0;
}

/** Two IPv4 addresses with the same prefix length and subnet (a primary and its secondaries). */
function sameSubnet4(x: Addr, y: Addr): boolean {
  return (
    x.family === 4 &&
    y.family === 4 &&
    x.prefix === y.prefix &&
    netContains({ ip: parseIP(x.local)!, prefix: x.prefix }, parseIP(y.local)!)
  );
}

/** IPv4 addresses in order of addition; IPv6 ordered by decreasing scope, newest first within one. */
function insertAddr(l: Link, a: Addr): void {
  if (a.family === 4) {
    // inet_insert_ifa: an address in the subnet of one the device has is a secondary and goes
    // after every IPv4 address; a primary goes after the last primary whose scope is at least as
    // narrow (host 254 > link 253 > global 0), so host-scope addresses come first.
    const secondary = l.addrs.some((x) => sameSubnet4(x, a));
    let at = 0;
    l.addrs.forEach((x, i) => {
      if (x.family !== 4) return;
      if (secondary || (!x.secondary && v4Rank(x.scope) >= v4Rank(a.scope))) at = i + 1;
    });
    if (secondary) a.secondary = true;
    l.addrs.splice(at, 0, a);
    return;
  }
  const rank = scopeRank(a.scope);
  let i = l.addrs.findIndex((x) => x.family === 6 && rank >= scopeRank(x.scope));
  if (i < 0) i = l.addrs.length;
  l.addrs.splice(i, 0, a);
}

function addConnectedRoute(ns: Netns, l: Link, a: Addr): void {
  // A loopback device's prefix route goes to the local table, not main.
  if (a.family !== 4 || a.prefix >= 32 || l.kind === 'loopback') return;
  const ip = parseIP(a.local)!;
  const net = ipString(networkOf({ ip, prefix: a.prefix }));
  if (
    ns.routes.some(
      (r) =>
        r.family === 4 &&
        r.origin === 'connected' &&
        r.dev === l.ifindex &&
        r.dst === net &&
        r.prefix === a.prefix,
    )
  ) {
    return;
  }
  ns.routes.push({
    family: 4,
    dst: net,
    prefix: a.prefix,
    dev: l.ifindex,
    gateway: null,
    protocol: 'kernel',
    scope: 'link',
    prefsrc: a.local,
    metric: 0,
    origin: 'connected',
  });
}

function addPrefixRoute6(ns: Netns, l: Link, a: Addr): void {
  const net = ipString(networkOf({ ip: parseIP(a.local)!, prefix: a.prefix }));
  addKernelRoute6(ns, l, net, a.prefix, 'addrconf');
}

function addKernelRoute6(
  ns: Netns,
  l: Link,
  dst: string,
  prefix: number,
  origin: Route['origin'],
): void {
  if (
    ns.routes.some(
      (r) =>
        r.family === 6 &&
        r.dev === l.ifindex &&
        r.dst === dst &&
        r.prefix === prefix &&
        r.metric === 256,
    )
  ) {
    return;
  }
  ns.routes.push({
    family: 6,
    dst,
    prefix,
    dev: l.ifindex,
    gateway: null,
    protocol: 'kernel',
    scope: 'universe',
    prefsrc: null,
    metric: 256,
    origin,
  });
}

// ---------------------------------------------------------------------------------------------
// Addresses

export function scopeOfV6(ip: IP): AddrScope {
  if (ip.n === 1n) return 'host';
  if (ip.n >> 118n === 0x3fan) return 'link'; // fe80::/10
  return 'global';
}

export function addrAdd(
  k: KernelState,
  nsId: string,
  ifindex: number,
  a: { ip: IP; prefix: number; broadcast?: string | null; scope?: AddrScope },
): void {
  const { ns, l } = getLink(k, nsId, ifindex);
  const local = ipString(a.ip);
  if (a.prefix < 0 || a.prefix > (a.ip.v === 4 ? 32 : 128)) throw new KernelError('EINVAL');
  // addrconf_add_dev refuses a device with IPv6 disabled before anything else.
  if (a.ip.v === 6 && ipv6Disabled(ns, l))
    throw new KernelError('EACCES', 'ipv6: IPv6 is disabled on this device');
  if (
    l.addrs.some(
      (x) => x.family === a.ip.v && x.local === local && (a.ip.v === 6 || x.prefix === a.prefix),
    )
  ) {
    throw new KernelError(
      'EEXIST',
      a.ip.v === 4 ? 'ipv4: Address already assigned' : 'ipv6: address already assigned',
    );
  }
  const scope: AddrScope =
    a.ip.v === 6
      ? scopeOfV6(a.ip)
      : (a.scope ?? (isLoopback(a.ip) && l.kind === 'loopback' ? 'host' : 'global'));
  const addr: Addr = {
    family: a.ip.v,
    local,
    prefix: a.prefix,
    scope,
    broadcast: a.broadcast ?? null,
  };
  // A secondary must have its primary's scope (inet_insert_ifa).
  if (l.addrs.some((x) => sameSubnet4(x, addr) && x.scope !== scope))
    throw new KernelError('EINVAL', 'ipv4: Invalid scope value');
  insertAddr(l, addr);
  if (a.ip.v === 4) {
    if (l.adminUp) addConnectedRoute(ns, l, addr);
  } else if (scope !== 'link' && l.adminUp) {
    // addrconf adds the prefix route for every global IPv6 address, a /128 included, once the
    // device is up.
    addPrefixRoute6(ns, l, addr);
  }
}

export function addrDel(
  k: KernelState,
  nsId: string,
  ifindex: number,
  a: { ip: IP; prefix: number },
): void {
  const { ns, l } = getLink(k, nsId, ifindex);
  const local = ipString(a.ip);
  const i = l.addrs.findIndex(
    (x) => x.family === a.ip.v && x.local === local && x.prefix === a.prefix,
  );
  if (i < 0) {
    throw new KernelError(
      'EADDRNOTAVAIL',
      a.ip.v === 4 ? 'ipv4: Address not found' : 'ipv6: address not found',
    );
  }
  const removed = l.addrs.splice(i, 1)[0]!;
  const gone: string[] = [local];
  let promoted: Addr | undefined;
  if (removed.family === 4 && !removed.secondary) {
    // __inet_del_ifa: the primary's secondaries go with it, unless promote_secondaries is on
    // (for the device or "all"): then the first of them becomes the primary, moved after the
    // last primary (following the deleted one) whose scope is at least as narrow.
    const isSecondary = (x: Addr) => !!x.secondary && sameSubnet4(removed, x);
    const promote =
      ns.sysctl['net.ipv4.conf.all.promote_secondaries'] === '1' ||
      interfaceSysctl(ns, l, 'ipv4.conf.promote_secondaries') === '1';
    if (promote) {
      const j = l.addrs.findIndex(isSecondary);
      if (j >= 0) {
        promoted = l.addrs.splice(j, 1)[0]!;
        delete promoted.secondary;
        let at = i;
        for (let m = i; m < l.addrs.length; m++) {
          const x = l.addrs[m]!;
          if (x.family === 4 && !x.secondary && v4Rank(x.scope) >= v4Rank(removed.scope))
            at = m + 1;
        }
        l.addrs.splice(at, 0, promoted);
      }
    } else {
      for (const x of l.addrs) if (isSecondary(x)) gone.push(x.local);
      l.addrs = l.addrs.filter((x) => !isSecondary(x));
    }
  }
  const net = { ip: a.ip, prefix: a.prefix };
  const netAddr = ipString(networkOf(net));
  const stillCovered = l.addrs.some(
    (x) => x.family === a.ip.v && x.prefix === a.prefix && netContains(net, parseIP(x.local)!),
  );
  if (!stillCovered) {
    ns.routes = ns.routes.filter(
      (r) =>
        !(
          r.dev === l.ifindex &&
          r.family === a.ip.v &&
          r.dst === netAddr &&
          r.prefix === a.prefix &&
          (r.origin === 'connected' || (r.origin === 'addrconf' && removed.scope !== 'link'))
        ),
    );
  }
  if (a.ip.v === 4) {
    // Routes whose preferred source was a deleted address go with it (the connected route of a
    // promoted secondary comes back with it as the source); when the device has no IPv4 address
    // left, IPv4 is disabled on it and every route through it goes (fib_disable_ip).
    ns.routes = ns.routes.filter((r) => !(r.family === 4 && r.prefsrc && gone.includes(r.prefsrc)));
    if (promoted && l.adminUp) addConnectedRoute(ns, l, promoted);
    if (!l.addrs.some((x) => x.family === 4))
      ns.routes = ns.routes.filter((r) => !(r.family === 4 && r.dev === l.ifindex));
  }
  linkwatch(k, [[ns.id, l.ifindex]]);
}

// ---------------------------------------------------------------------------------------------
// Routes

export interface RouteSpec {
  family: Family;
  dst: IP;
  prefix: number;
  /** The output device (RTA_OIF); may be left out with a gateway: the kernel finds it. */
  dev?: number | null;
  gateway?: IP | null;
  /** rtm_scope; by default what iproute2 sends: link for an IPv4 route without a gateway. */
  scope?: Route['scope'];
  prefsrc?: IP | null;
  metric?: number;
  protocol?: Route['protocol'];
}

/**
 * The RTM_NEWROUTE flags that decide what happens to the routes of the same destination and
 * metric: `ip route add` sends create+excl, `append` create+append, `prepend` create alone,
 * `replace` create+replace and `change` replace alone.
 */
export interface RouteFlags {
  create?: boolean;
  excl?: boolean;
  replace?: boolean;
  append?: boolean;
}

/**
 * RTM_NEWROUTE with NLM_F_CREATE|NLM_F_EXCL (netlink.RouteAdd), or without NLM_F_EXCL when
 * `append` (netlink.RouteAddEcmp: another next hop for the same destination and metric is added).
 */
export function routeAdd(
  k: KernelState,
  nsId: string,
  spec: RouteSpec,
  opts: { append?: boolean } = {},
): void {
  routeNew(k, nsId, spec, opts.append ? { create: true } : { create: true, excl: true });
}

/** RTM_NEWROUTE with NLM_F_CREATE|NLM_F_REPLACE (`ip route replace`, netlink.RouteReplace). */
export function routeReplace(k: KernelState, nsId: string, spec: RouteSpec): void {
  routeNew(k, nsId, spec, { create: true, replace: true });
}

const SCOPE_NUMBER: Record<Route['scope'], number> = { universe: 0, link: 253, host: 254 };

/**
 * RTM_NEWROUTE: validates the route as fib_create_info / fib_check_nh (IPv4) and
 * ip6_route_info_create / fib6_nh_init (IPv6) do, with their errnos and extack messages, then
 * inserts it as fib_table_insert / fib6_add_rt2info do under `flags`.
 */
export function routeNew(k: KernelState, nsId: string, spec: RouteSpec, flags: RouteFlags): void {
  const ns = nsById(k, nsId);
  let dev: Link | undefined;
  if (spec.dev !== undefined && spec.dev !== null) {
    dev = ns.links[spec.dev];
    if (!dev) throw new KernelError('ENODEV');
  }
  const gw = spec.gateway ?? null;
  if (gw && gw.v !== spec.family) throw new KernelError('EINVAL');
  let dst = spec.dst;
  if (spec.family === 4) {
    // fib_valid_key_len: no host bits.
    if (networkOf({ ip: dst, prefix: spec.prefix }).n !== dst.n)
      throw new KernelError('EINVAL', 'Invalid prefix for given prefix length');
  } else {
    // IPv6 masks the destination itself.
    dst = networkOf({ ip: dst, prefix: spec.prefix });
  }
  const metric = spec.metric ?? (spec.family === 6 ? 1024 : 0);
  const scope = spec.scope ?? (gw ? 'universe' : spec.family === 4 ? 'link' : 'universe');
  const out = spec.family === 4 ? nexthop4(ns, dev, gw, scope) : nexthop6(ns, dev, gw);
  if (spec.prefsrc) {
    if (spec.family === 4 && localTable4(ns, spec.prefsrc, null)?.type !== 'local')
      throw new KernelError('EINVAL', 'Invalid prefsrc address');
    if (spec.family === 6 && !localAddr6(ns, spec.prefsrc, out, false))
      throw new KernelError('EINVAL', 'Invalid source address');
  }
  const route: Route = {
    family: spec.family,
    dst: ipString(dst),
    prefix: spec.prefix,
    dev: out.ifindex,
    gateway: gw ? ipString(gw) : null,
    protocol: spec.protocol ?? 'boot',
    scope,
    prefsrc: spec.prefsrc ? ipString(spec.prefsrc) : null,
    metric,
    origin: 'user',
  };
  if (spec.family === 4) insertRoute4(ns, route, flags);
  else insertRoute6(ns, route, flags);
}

/**
 * fib_check_nh for one next hop. Without a gateway the device must be up; a gateway must be
 * reached by a route of scope link or narrower (host with `scope link`), searched like a packet
 * would be (local table first, then main, limited to the device when one is given); the device
 * of that route is the route's device and must be up.
 */
function nexthop4(ns: Netns, dev: Link | undefined, gw: IP | null, scope: Route['scope']): Link {
  if (scope === 'host') {
    // A host-scope route gets no next hop check at all: its device may be down.
    if (gw) throw new KernelError('EINVAL', 'Route with host scope can not have a gateway');
    if (!dev) throw new KernelError('ENODEV');
    return dev;
  }
  if (!gw) {
    if (!dev) throw new KernelError('ENODEV');
    if (!dev.adminUp) throw new KernelError('ENETDOWN', 'Device for nexthop is not up');
    return dev;
  }
  const minScope = Math.max(SCOPE_NUMBER[scope] + 1, SCOPE_NUMBER.link);
  const oif = dev ? dev.ifindex : null;
  const res = localTable4(ns, gw, oif, minScope) ?? mainTable4(ns, gw, oif, minScope);
  if (!res) throw new KernelError('ENETUNREACH', 'Nexthop has invalid gateway');
  if (res.type === 'broadcast') throw new KernelError('EINVAL', 'Nexthop has invalid gateway');
  const out = ns.links[res.dev]!;
  if (!out.adminUp) throw new KernelError('ENETDOWN');
  return out;
}

interface FibResult {
  type: 'local' | 'broadcast' | 'unicast';
  dev: number;
  prefix: number;
}

function longest(a: FibResult | undefined, b: FibResult): FibResult {
  return !a || b.prefix > a.prefix ? b : a;
}

/**
 * A lookup of `addr` in the local table, which the model derives from the addresses: each IPv4
 * address is a local /32 of its device whatever the device's state, a loopback device's prefix is
 * local, and on a device that is up each primary's subnet broadcast (prefixes up to /30) and an
 * explicit broadcast are broadcast routes (scope link).
 */
function localTable4(ns: Netns, addr: IP, oif: number | null, minScope = 0): FibResult | undefined {
  let best: FibResult | undefined;
  const s = ipString(addr);
  for (const l of linksOf(ns)) {
    if (oif !== null && l.ifindex !== oif) continue;
    for (const a of l.addrs) {
      if (a.family !== 4) continue;
      if (a.local === s) best = longest(best, { type: 'local', dev: l.ifindex, prefix: 32 });
      const net = { ip: parseIP(a.local)!, prefix: a.prefix };
      if (l.kind === 'loopback' && !a.secondary && netContains(net, addr))
        best = longest(best, { type: 'local', dev: l.ifindex, prefix: a.prefix });
      if (!l.adminUp || minScope > SCOPE_NUMBER.link) continue;
      const brd =
        (!a.secondary && a.prefix < 31 && ipString(lastOf(net)) === s) ||
        (a.broadcast !== null && a.broadcast !== '255.255.255.255' && a.broadcast === s);
      if (brd) best = longest(best, { type: 'broadcast', dev: l.ifindex, prefix: 32 });
    }
  }
  return best;
}

/** A lookup in the main table among the routes without a gateway of scope `minScope` or narrower. */
function mainTable4(
  ns: Netns,
  addr: IP,
  oif: number | null,
  minScope: number,
): FibResult | undefined {
  let best: Route | undefined;
  for (const r of ns.routes) {
    if (r.family !== 4 || r.gateway || SCOPE_NUMBER[r.scope] < minScope) continue;
    if (oif !== null && r.dev !== oif) continue;
    if (!netContains({ ip: parseIP(r.dst)!, prefix: r.prefix }, addr)) continue;
    if (!best || r.prefix > best.prefix || (r.prefix === best.prefix && r.metric < best.metric))
      best = r;
  }
  return best && { type: 'unicast', dev: best.dev, prefix: best.prefix };
}

/**
 * ipv6_chk_addr_and_flags: `addr` is an address of the namespace; unless `anyDev`, a link-local
 * or host-scope address counts only on `dev`. (A preferred source must also not be tentative, i.e.
 * still doing DAD; the model has no DAD, as if every address were added with `nodad`.)
 */
function localAddr6(ns: Netns, addr: IP, dev: Link | undefined, anyDev: boolean): boolean {
  const s = ipString(addr);
  return linksOf(ns).some((l) =>
    l.addrs.some(
      (a) =>
        a.family === 6 &&
        a.local === s &&
        (anyDev || !dev || l === dev || (a.scope !== 'link' && a.scope !== 'host')),
    ),
  );
}

/**
 * fib6_nh_init: a gateway (ip6_validate_gw) must not be a local address, must be unicast, and
 * unless link-local must be reached by a route without a gateway (on the device, when one is
 * given; EHOSTUNREACH otherwise), which then gives the device; the device must not be the loopback
 * device, must have IPv6 on (EACCES) and be up (ENETDOWN).
 */
function nexthop6(ns: Netns, dev: Link | undefined, gw: IP | null): Link {
  if (gw) {
    const linkLocal = scopeOfV6(gw) === 'link';
    const local = (d: Link | undefined) => localAddr6(ns, gw, d, !linkLocal);
    if (dev && local(dev)) throw new KernelError('EINVAL', 'Gateway can not be a local address');
    const needAddrCheck = !dev;
    if (!linkLocal) {
      if (gw.n === 0n || gw.n >> 120n === 0xffn)
        throw new KernelError('EINVAL', 'Invalid gateway address');
      let best: Route | undefined;
      for (const r of ns.routes) {
        if (r.family !== 6 || (dev && r.dev !== dev.ifindex)) continue;
        if (!netContains({ ip: parseIP(r.dst)!, prefix: r.prefix }, gw)) continue;
        if (!best || r.prefix > best.prefix || (r.prefix === best.prefix && r.metric < best.metric))
          best = r;
      }
      if (!best || best.gateway) throw new KernelError('EHOSTUNREACH');
      dev = ns.links[best.dev];
    }
    if (!dev) throw new KernelError('EINVAL', 'Egress device not specified');
    if (dev.kind === 'loopback')
      throw new KernelError('EINVAL', 'Egress device can not be loopback device for this route');
    if (needAddrCheck && local(dev))
      throw new KernelError('EINVAL', 'Gateway can not be a local address');
  }
  if (!dev) throw new KernelError('ENODEV');
  if (ipv6Disabled(ns, dev)) throw new KernelError('EACCES', 'IPv6 is disabled on nexthop device');
  if (!dev.adminUp) throw new KernelError('ENETDOWN', 'Nexthop device is not up');
  return dev;
}

/** The routes of the same family, destination and metric as `r`, in the table's order. */
function sameKey(ns: Netns, r: Route): Route[] {
  return ns.routes.filter(
    (x) =>
      x.family === r.family && x.dst === r.dst && x.prefix === r.prefix && x.metric === r.metric,
  );
}

/**
 * fib_table_insert. Among routes of the same destination and metric: excl refuses any; an
 * identical one (same next hop, scope, source, protocol) is EEXIST, except that replacing the
 * first by itself changes nothing; replace takes the place of the first; append goes after them,
 * otherwise before them.
 */
function insertRoute4(ns: Netns, r: Route, flags: RouteFlags): void {
  const group = sameKey(ns, r);
  if (group.length === 0) {
    if (!flags.create) throw new KernelError('ENOENT');
    ns.routes.push(r);
    return;
  }
  if (flags.excl) throw new KernelError('EEXIST');
  const match = group.find(
    (x) =>
      x.dev === r.dev &&
      x.gateway === r.gateway &&
      x.scope === r.scope &&
      x.prefsrc === r.prefsrc &&
      x.protocol === r.protocol,
  );
  const first = ns.routes.indexOf(group[0]!);
  if (flags.replace) {
    if (match === group[0]) return;
    if (match) throw new KernelError('EEXIST');
    ns.routes[first] = r;
    return;
  }
  if (match) throw new KernelError('EEXIST');
  if (flags.append) ns.routes.splice(ns.routes.indexOf(group[group.length - 1]!) + 1, 0, r);
  else ns.routes.splice(first, 0, r);
}

/**
 * fib6_add_rt2info. Among routes of the same destination and metric: excl refuses any; replace
 * takes the place of the first route that is multipath-capable (has a gateway) exactly when the
 * new one is, else of the first one, and removes the replaced route's siblings (the other routes
 * with a gateway); otherwise a route with the same device and gateway is EEXIST, and the new one
 * goes after them (routes with gateways become siblings of one multipath route, which `ip` shows
 * as one route with several next hops; the model keeps them as separate routes).
 */
function insertRoute6(ns: Netns, r: Route, flags: RouteFlags): void {
  const group = sameKey(ns, r);
  if (group.length > 0 && flags.excl) throw new KernelError('EEXIST');
  if (flags.replace) {
    const ecmp = (x: Route) => x.gateway !== null && x.origin === 'user';
    const target = group.find((x) => ecmp(x) === ecmp(r)) ?? group[0];
    if (!target) {
      if (!flags.create) throw new KernelError('ENOENT', 'Can not replace route - no match found');
      ns.routes.push(r);
      return;
    }
    ns.routes[ns.routes.indexOf(target)] = r;
    if (ecmp(target)) {
      const siblings = group.filter((x) => x !== target && ecmp(x));
      ns.routes = ns.routes.filter((x) => !siblings.includes(x));
    }
    return;
  }
  if (group.some((x) => x.dev === r.dev && x.gateway === r.gateway))
    throw new KernelError('EEXIST');
  ns.routes.push(r);
}

export interface RouteMatch {
  family: Family;
  dst?: IP | null;
  prefix?: number;
  dev?: number;
  gateway?: IP | null;
  metric?: number;
}

export function routeDel(k: KernelState, nsId: string, m: RouteMatch): void {
  const ns = nsById(k, nsId);
  const i = ns.routes.findIndex((r) => routeMatches(r, m));
  if (i < 0) throw new KernelError('ESRCH');
  ns.routes.splice(i, 1);
}

export function routeMatches(r: Route, m: RouteMatch): boolean {
  if (r.family !== m.family) return false;
  if (
    m.dst !== undefined &&
    m.dst !== null &&
    (r.dst !== ipString(m.dst) || r.prefix !== m.prefix)
  ) {
    return false;
  }
  if (m.dst === null && r.prefix !== 0) return false;
  if (m.dev !== undefined && r.dev !== m.dev) return false;
  if (m.gateway && r.gateway !== ipString(m.gateway)) return false;
  if (m.metric !== undefined && r.metric !== m.metric) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// sysctl

/** Splits `net.ipv6.conf.eth0.accept_ra` into interface + per-interface key. */
function splitInterfaceKey(key: string): { ifname: string; sub: string } | null {
  const m = /^net\.(ipv4|ipv6)\.(conf|neigh)\.([^.]+)\.(.+)$/.exec(key);
  if (!m) return null;
  const ifname = m[3]!;
  if (ifname === 'all' || ifname === 'default') return null;
  return { ifname, sub: `${m[1]}.${m[2]}.${m[4]}` };
}

export function interfaceSysctl(ns: Netns, l: Link, sub: string): string | undefined {
  return l.sysctl[sub] ?? defaultInterfaceSysctl(ns, sub);
}

function defaultInterfaceSysctl(ns: Netns, sub: string): string | undefined {
  const [fam, kind, ...rest] = sub.split('.');
  const dflt = `net.${fam}.${kind}.default.${rest.join('.')}`;
  return ns.sysctl[dflt] ?? INTERFACE_SYSCTL_DEFAULTS[sub];
}

/** Reads /proc/sys/<key>; undefined when the file does not exist. */
export function sysctlGet(k: KernelState, nsId: string, key: string): string | undefined {
  const ns = nsById(k, nsId);
  const split = splitInterfaceKey(key);
  if (split) {
    const l = linkByName(ns, split.ifname);
    return l ? interfaceSysctl(ns, l, split.sub) : undefined;
  }
  return ns.sysctl[key] ?? GLOBAL_SYSCTL_DEFAULTS[key];
}

/** Writes /proc/sys/<key>; throws ENOENT when the file does not exist, EINVAL for bad values. */
export function sysctlSet(k: KernelState, nsId: string, key: string, value: string): void {
  const ns = nsById(k, nsId);
  const v = value.trim();
  const split = splitInterfaceKey(key);
  if (split) {
    const l = linkByName(ns, split.ifname);
    if (!l || INTERFACE_SYSCTL_DEFAULTS[split.sub] === undefined) throw new KernelError('ENOENT');
    if (!validSysctlValue(INTERFACE_SYSCTL_DEFAULTS[split.sub]!, v))
      throw new KernelError('EINVAL');
    l.sysctl[split.sub] = v;
    if (split.sub === 'ipv6.conf.disable_ipv6' && v === '1') {
      l.addrs = l.addrs.filter((a) => a.family === 4);
      removeRoutesOfDev(ns, l.ifindex, 6);
      l.ip6Configured = false;
    }
    linkwatch(k, [[ns.id, l.ifindex]]);
    return;
  }
  if (GLOBAL_SYSCTL_DEFAULTS[key] === undefined) throw new KernelError('ENOENT');
  if (!validSysctlValue(GLOBAL_SYSCTL_DEFAULTS[key]!, v)) throw new KernelError('EINVAL');
  const before = ns.sysctl[key] ?? GLOBAL_SYSCTL_DEFAULTS[key];
  ns.sysctl[key] = v;
  // Forwarding switched for "all" switches it for every interface and the default (as
  // inet_forward_change / addrconf_forward_change do).
  const fam =
    key === 'net.ipv4.ip_forward' || key === 'net.ipv4.conf.all.forwarding'
      ? 'ipv4'
      : key === 'net.ipv6.conf.all.forwarding'
        ? 'ipv6'
        : null;
  // devinet_sysctl_forward / addrconf_sysctl_forward act only when the value changes: writing
  // the current value (as every bridge ADD does with ip_forward=1) leaves the devices alone.
  if (fam && before !== v) {
    if (fam === 'ipv4') {
      ns.sysctl['net.ipv4.ip_forward'] = v;
      ns.sysctl['net.ipv4.conf.all.forwarding'] = v;
    }
    ns.sysctl[`net.${fam}.conf.default.forwarding`] = v;
    for (const l of linksOf(ns)) l.sysctl[`${fam}.conf.forwarding`] = v;
  }
}

function validSysctlValue(dflt: string, v: string): boolean {
  // Integer-valued keys accept integers only.
  if (/^-?\d+$/.test(dflt)) return /^-?\d+$/.test(v);
  return true;
}

/** All sysctl keys of the namespace (for `sysctl -a`). */
export function sysctlKeys(k: KernelState, nsId: string): string[] {
  const ns = nsById(k, nsId);
  const keys = Object.keys(GLOBAL_SYSCTL_DEFAULTS);
  for (const l of linksOf(ns)) {
    for (const sub of Object.keys(INTERFACE_SYSCTL_DEFAULTS)) {
      const [fam, kind, ...rest] = sub.split('.');
      keys.push(`net.${fam}.${kind}.${l.name}.${rest.join('.')}`);
    }
  }
  return keys.sort();
}

export function macBytes(mac: string): number[] {
  return mac.split(':').map((x) => parseInt(x, 16));
}

export { ipToBytes };
