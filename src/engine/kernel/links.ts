/**
 * Links (rtnetlink's RTM_NEWLINK / RTM_DELLINK / RTM_SETLINK): creating veths, bridges and
 * dummies, setting them up and down, attaching ports to bridges, renaming, moving between
 * namespaces, deleting. What the rest of the kernel does about it (routes, addresses, qdiscs)
 * runs from the netdev notifier chain.
 */
import { latest } from '../state/draft';
import { utf8Length } from '../utf8';
import { KernelError, KernelErrorAfterChange } from './errors';
import {
  allocIfindex,
  getLink,
  insertLink,
  linkByName,
  macvlanLowerOf,
  newLink,
  nsById,
  peerOf,
  setLinkName,
  unlinkLink,
  unsetLinkName,
  validIfName,
  IFNAMSIZ_MAX,
  ZERO_MAC,
  type RandomSource,
  type Touched,
} from './device';
import { bridgePortJoined, linkwatch } from './linkwatch';
import { netdevChain } from './notifier';
import { tget } from '../state/table';
import type { KernelState, Link, LinkKind, MacvlanMode, Netns } from './types';

export type LinkSpec =
  /** vlanFiltering: the IFLA_BR_VLAN_FILTERING attribute, refused by this kernel (see linkAdd). */
  | { kind: 'bridge'; name: string; mtu?: number; vlanFiltering?: boolean }
  | { kind: 'dummy' | 'ifb'; name: string; mtu?: number; txqlen?: number }
  /** A physical NIC plugged into the L2 segment `segment` (a node's eth0 on the underlay). */
  | { kind: 'ether'; name: string; segment: string; mtu?: number; mac?: string }
  | {
      kind: 'vxlan';
      name: string;
      id: number;
      port: number;
      local?: string | null;
      /** The underlay device (ifindex). */
      dev?: number | null;
      learning?: boolean;
      mtu?: number;
      mac?: string;
    }
  /**
   * A macvlan in namespace `nsId` on the lower device `lower` of namespace `lowerNs` (IFLA_LINK,
   * resolved where the request came from, as with IFLA_NET_NS_FD the device is made elsewhere).
   */
  | {
      kind: 'macvlan';
      name: string;
      mode: MacvlanMode;
      lowerNs: string;
      lower: number;
      mtu?: number;
      /** IFLA_ADDRESS as colon-separated bytes (any number of them: the kernel checks). */
      mac?: string;
      txqlen?: number;
    }
  | {
      kind: 'veth';
      name: string;
      peerName: string;
      /** Namespace of the peer (defaults to the same one). */
      peerNs?: string;
      mtu?: number;
      mac?: string;
    };

/**
 * The netlink policy of IFLA_IFNAME (NLA_STRING, len IFNAMSIZ-1) refuses a longer name with
 * ERANGE while the message is parsed, before dev_valid_name's EINVAL (a veth peer's nested
 * IFLA_IFNAME is parsed with the same policy in veth_newlink). iproute2 refuses such names
 * itself, so only netlink callers (the plugins) see this.
 */
function ifNameAttrCheck(name: string): void {
  if (name.length > IFNAMSIZ_MAX || utf8Length(name) > IFNAMSIZ_MAX)
    throw new KernelError('ERANGE');
}

/** RTM_NEWLINK with NLM_F_CREATE|NLM_F_EXCL. Returns the new link's ifindex. */
export function linkAdd(k: KernelState, nsId: string, spec: LinkSpec, rnd: RandomSource): number {
  const ns = nsById(k, nsId);
  ifNameAttrCheck(spec.name);
  if (!validIfName(spec.name)) throw new KernelError('EINVAL');
  const mtu = spec.mtu && spec.mtu > 0 ? spec.mtu : 1500;
  // veth_validate (the link type's ops->validate) refuses a bad IFLA_MTU before
  // __rtnl_newlink looks the name up; other kinds check the MTU when creating the device.
  if (spec.kind === 'veth' && (mtu < 68 || mtu > 65535)) throw new KernelError('EINVAL');
  if (linkByName(ns, spec.name)) throw new KernelError('EEXIST');
  if (mtu < 68 || mtu > 65535) throw new KernelError('EINVAL');
  let created: Link;
  const touched: Touched = [];
  if (spec.kind === 'macvlan') {
    created = newMacvlan(k, ns, spec, rnd);
  } else if (spec.kind === 'veth') {
    const peerNs = nsById(k, spec.peerNs ?? nsId);
    ifNameAttrCheck(spec.peerName);
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
    if (spec.kind === 'bridge' && spec.vlanFiltering !== undefined) {
      // The modelled kernel (6.18.44-fc, as on the recording nodes) is built without
      // CONFIG_BRIDGE_VLAN_FILTERING: br_dev_newlink registers the bridge (it uses up an
      // ifindex), then br_changelink's br_vlan_filter_toggle stub refuses any
      // IFLA_BR_VLAN_FILTERING, 0 included, and the device is unregistered again.
      throw new KernelErrorAfterChange('EOPNOTSUPP');
    }
    const mac = (spec.kind === 'ether' || spec.kind === 'vxlan') && spec.mac ? spec.mac : rnd.mac();
    created = newLink(idx, spec.name, spec.kind, mac, mtu);
    if ((spec.kind === 'ether' || spec.kind === 'vxlan') && spec.mac) created.macAssign = 'set';
    if (spec.kind === 'ether') created.segment = spec.segment;
    if (spec.kind === 'vxlan') {
      created.vxlan = {
        id: spec.id,
        port: spec.port,
        local: spec.local ?? null,
        dev: spec.dev ?? null,
        learning: spec.learning ?? false,
      };
    }
    if (spec.kind === 'bridge') {
      created.bridge = {
        stp: false,
        vlanFiltering: !!spec.vlanFiltering,
        hadPorts: false,
        ports: [],
      };
    }
    if ((spec.kind === 'dummy' || spec.kind === 'ifb') && spec.txqlen !== undefined)
      created.txqlen = spec.txqlen;
    insertLink(ns, created);
  }
  touched.push([ns.id, created.ifindex]);
  linkwatch(k, touched);
  return created.ifindex;
}

/**
 * macvlan_common_newlink (Linux 6.x): the lower device must be an Ethernet device that is no
 * loopback (macvlan_port_create), a macvlan standing for its own lower device; without IFLA_MTU
 * the macvlan takes the lower MTU, a larger one is refused; a passthru macvlan must be the only
 * one on its lower device, and none can join one that has a passthru macvlan (all EINVAL). A
 * passthru macvlan inherits the lower MAC.
 */
function newMacvlan(
  k: KernelState,
  ns: Netns,
  spec: Extract<LinkSpec, { kind: 'macvlan' }>,
  rnd: RandomSource,
): Link {
  // macvlan_validate: IFLA_ADDRESS must be 6 bytes (EINVAL) and a valid unicast address.
  if (spec.mac !== undefined) {
    const bytes = spec.mac.split(':').map((x) => parseInt(x, 16));
    if (bytes.length !== 6) throw new KernelError('EINVAL');
    if ((bytes[0]! & 1) === 1 || bytes.every((b) => b === 0))
      throw new KernelError('EADDRNOTAVAIL');
  }
  let lns = nsById(k, spec.lowerNs);
  let lower = lns.links[spec.lower];
  if (!lower) throw new KernelError('ENODEV');
  // A macvlan on a macvlan is made on that one's lower device (`ip link` shows `mv1@eth0`).
  const real = macvlanLowerOf(k, lower);
  if (real) ({ ns: lns, link: lower } = real);
  if (lower.kind === 'loopback') throw new KernelError('EINVAL');
  let mtu = lower.mtu;
  if (spec.mtu && spec.mtu > 0) {
    if (spec.mtu > lower.mtu) throw new KernelError('EINVAL');
    mtu = spec.mtu;
  }
  const port = lower.macvlanPort;
  if (port) {
    const passthru = port.vlans.some((v) => macvlanAt(k, v)?.macvlan?.mode === 'passthru');
    if (passthru || (spec.mode === 'passthru' && port.vlans.length > 0))
      throw new KernelError('EINVAL');
  }
  const mac = spec.mode === 'passthru' ? lower.mac : (spec.mac ?? rnd.mac());
  const idx = allocIfindex(ns);
  const created = newLink(idx, spec.name, 'macvlan', mac, mtu);
  if (spec.mac && spec.mode !== 'passthru') created.macAssign = 'set';
  if (spec.txqlen !== undefined) created.txqlen = spec.txqlen;
  created.macvlan = { mode: spec.mode, lower: { ns: lns.id, ifindex: lower.ifindex } };
  lower.macvlanPort ??= { vlans: [], promisc: false };
  lower.macvlanPort.vlans.push({ ns: ns.id, ifindex: idx });
  insertLink(ns, created);
  return created;
}

function macvlanAt(k: KernelState, v: { ns: string; ifindex: number }): Link | undefined {
  return tget(k.netns, v.ns)?.links[v.ifindex];
}

/**
 * The one promiscuity count the macvlans of a lower device hold while one of them is up: a
 * passthru macvlan sets it when it opens; the others add their unicast address, and a lower
 * device without unicast filtering (veth) goes promiscuous for it (__dev_set_rx_mode).
 */
function macvlanPortPromisc(k: KernelState, lower: Link): void {
  const port = lower.macvlanPort;
  if (!port) return;
  const want = port.vlans.some((v) => macvlanAt(k, v)?.adminUp === true);
  if (want === port.promisc) return;
  port.promisc = want;
  lower.promisc = Math.max(0, lower.promisc + (want ? 1 : -1));
}

/** A macvlan leaves its lower device's port (deleted or moved); the port goes with the last one. */
function macvlanDetach(k: KernelState, nsId: string, l: Link): void {
  const lo = macvlanLowerOf(k, l);
  const port = lo?.link.macvlanPort;
  if (!lo || !port) return;
  port.vlans = port.vlans.filter((v) => !(v.ns === nsId && v.ifindex === l.ifindex));
  macvlanPortPromisc(k, lo.link);
  if (port.vlans.length === 0) delete lo.link.macvlanPort;
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
  // macvlan_device_event(NETDEV_UNREGISTER): the lower device takes its macvlans with it.
  if (l.macvlanPort) {
    for (const v of [...l.macvlanPort.vlans]) {
      const vns = tget(k.netns, v.ns);
      const vl = vns?.links[v.ifindex];
      if (vns && vl) deleteOne(k, vns, vl);
    }
  }
  if (l.macvlan) macvlanDetach(k, ns.id, l);
  if (l.kind === 'bridge' && l.bridge) {
    for (const i of [...l.bridge.ports]) {
      const p = ns.links[i];
      if (p) detachPort(ns, p);
    }
  }
  detachPort(ns, l);
  unlinkLink(ns, l);
  netdevChain.call('unregister', { k, ns, link: l });
  if (l.lwPendingSince !== null)
    k.lwPending = k.lwPending.filter((x) => x !== `${ns.id}/${l.ifindex}`);
}

export function deleteLinkRaw(k: KernelState, ns: Netns, l: Link): void {
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
  // The macvlans on a lower device follow its carrier.
  for (const v of l.macvlanPort?.vlans ?? []) t.push([v.ns, v.ifindex]);
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

function setPeerUp(k: KernelState, l: Link): void {
  const p = peerOf(k, l);
  if (p) p.link.peerUp = l.adminUp;
}

export function linkSetUp(k: KernelState, nsId: string, ifindex: number): void {
  const { ns, l } = getLink(k, nsId, ifindex);
  if (l.adminUp) return;
  l.adminUp = true;
  l.life = 'up';
  setPeerUp(k, l);
  const lower = macvlanLowerOf(k, l);
  if (lower) macvlanPortPromisc(k, lower.link);
  netdevChain.call('up', { k, ns, link: l });
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
  const lower = macvlanLowerOf(k, l);
  if (lower) macvlanPortPromisc(k, lower.link);
  netdevChain.call('down', { k, ns, link: l });
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
  bridgePortJoined(k, ns, m);
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
  // Only reads, through no draft: a bridge has a port per pod (state/draft.ts).
  const links = latest(latest(ns).links);
  for (const i of latest(latest(br.bridge).ports)) {
    const p = latest(links[i]);
    if (p && (min === 0 || p.mtu < min)) min = p.mtu;
  }
  br.mtu = min || 1500;
}

/** br_stp_recalculate_bridge_id: the lowest port MAC, unless the MAC was set explicitly. */
function recalcBridgeMac(ns: Netns, br: Link): void {
  recalcBridgeMtu(ns, br);
  if (!br.bridge || br.macAssign === 'set') return;
  let lowest: string | null = null;
  const links = latest(latest(ns).links);
  for (const i of latest(latest(br.bridge).ports)) {
    const p = latest(links[i]);
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

/**
 * The device's min_mtu / max_mtu (0: no maximum), as its setup function leaves them (Linux 6.1):
 * loopback_setup, ifb_setup and dummy_setup clear both; ether_setup's 68 with veth's and the
 * bridge's ETH_MAX_MTU for the others (`ip -d link` on the recording kernel agrees for lo).
 */
export function mtuBounds(kind: LinkKind): { min: number; max: number } {
  if (kind === 'loopback' || kind === 'ifb' || kind === 'dummy') return { min: 0, max: 0 };
  return { min: 68, max: 65535 };
}

/** dev_set_mtu: dev_validate_mtu's bounds, with its extack messages. */
export function linkSetMtu(k: KernelState, nsId: string, ifindex: number, mtu: number): void {
  const { ns, l } = getLink(k, nsId, ifindex);
  const { min, max } = mtuBounds(l.kind);
  if (mtu < 0 || mtu < min) throw new KernelError('EINVAL', 'mtu less than device minimum');
  if (max > 0 && mtu > max) throw new KernelError('EINVAL', 'mtu greater than device maximum');
  // macvlan_change_mtu: never above the lower device's MTU.
  const lower = macvlanLowerOf(k, l);
  if (lower && mtu > lower.link.mtu) throw new KernelError('EINVAL');
  l.mtu = mtu;
  if (l.kind === 'bridge') l.sysctl['__mtu_user'] = '1';
  // macvlan_device_event(NETDEV_CHANGEMTU): macvlans above the new lower MTU follow it down.
  for (const v of l.macvlanPort?.vlans ?? []) {
    const vl = macvlanAt(k, v);
    if (vl && vl.mtu > mtu) vl.mtu = mtu;
  }
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
  ifNameAttrCheck(name);
  const { ns, l } = getLink(k, nsId, ifindex);
  if (!validIfName(name)) throw new KernelError('EINVAL');
  if (l.name === name) return;
  if (linkByName(ns, name)) throw new KernelError('EEXIST');
  unsetLinkName(ns, l.name);
  l.name = name;
  setLinkName(ns, name, l.ifindex);
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
  unlinkLink(ns, l);
  netdevChain.call('unregister', { k, ns, link: l });
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
  insertLink(target, moved);
  const p = peerOf(k, moved);
  if (p) {
    p.link.peer = { ns: target.id, ifindex: newIdx };
    p.link.peerUp = false;
  }
  if (moved.macvlan) {
    const lo = macvlanLowerOf(k, moved);
    const port = lo?.link.macvlanPort;
    if (lo && port) {
      port.vlans = port.vlans.map((v) =>
        v.ns === ns.id && v.ifindex === l.ifindex ? { ns: target.id, ifindex: newIdx } : v,
      );
      macvlanPortPromisc(k, lo.link);
    }
  }
  for (const v of moved.macvlanPort?.vlans ?? []) {
    const vl = macvlanAt(k, v);
    if (vl?.macvlan) vl.macvlan.lower = { ns: target.id, ifindex: newIdx };
  }
  touched.push([target.id, newIdx]);
  linkwatch(k, touched);
}

// Carrier, operstate, addrconf
