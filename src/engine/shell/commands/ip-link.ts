/**
 * `ip link add | set | delete` (iproute2 6.1's iplink_parse / iplink_modify, with the kernel's
 * answers: rtnl_newlink, do_setlink in its order — netns, address, mtu, name, flags, master,
 * txqueuelen — and their extack messages).
 *
 * Supported: add [dev|name] NAME [mtu N] [address MAC] [txqueuelen N] [up] [master BR]
 * [netns NS] type bridge [vlan_filtering 0|1] | dummy | ifb | veth [peer [name] P [mtu N]
 * [address MAC] [txqueuelen N] [netns NS]] | vxlan ... | macvlan (with `link DEV`, looked up
 * where ip runs) [mode private|vepa|bridge|passthru]; set DEV up | down | mtu N | address MAC | master BR |
 * nomaster | name NEW | netns NS|PID | promisc on|off | allmulticast on|off | txqueuelen N;
 * delete DEV.
 */
import * as K from '../../kernel/kernel';
import type { KernelState, Link, LinkKind, MacvlanMode } from '../../kernel/types';
import { resolvePath } from '../paths';
import {
  Args,
  type IpRun,
  IpExit,
  checkIfname,
  duparg,
  duparg2,
  extack,
  getInteger,
  invarg,
  kernelCall,
  kernelValidName,
  linkNamed,
  llAddr,
  lookupNetnsByPath,
  macString,
  matches,
  nodev,
  notSimulated,
  nsOf,
  rtnl,
} from './ip-common';
import {
  IP_LINK_BRIDGE_USAGE,
  IP_LINK_MACVLAN_USAGE,
  IP_LINK_USAGE,
  IP_LINK_VETH_USAGE,
} from './usage';
import { tget } from '../../state/table';

const ETH_MIN_MTU = 68;
const ETH_MAX_MTU = 65535;

/** What iplink_parse collected. */
interface LinkReq {
  dev: string | null;
  name: string | null;
  up: boolean | null;
  mtu: number | null;
  address: number[] | null;
  txqlen: number | null;
  /** Target namespace id, or a pid that is not a process (ESRCH at the kernel). */
  netns: { id: string } | { badPid: number } | null;
  /** ifindex of the master, 0 for nomaster. */
  master: number | null;
  promisc: boolean | null;
  allmulti: boolean | null;
  type: string | null;
  typeArgs: string[];
  /** `link DEV`: the device's ifindex (modelled for `type macvlan` only). */
  link: number | null;
  /** Attributes given that the simulation does not model (refused once the command is valid). */
  unsupported: string[];
}

function onOff(key: string, v: string): boolean {
  if (v === 'on') return true;
  if (v === 'off') return false;
  throw new IpExit(`Error: argument of "${key}" must be "on" or "off", not "${v}"\n`, 1);
}

/** netns_get_fd + the pid fallback of `netns NAME|PID`. */
function parseNetnsArg(ip: IpRun, arg: string): { id: string } | { badPid: number } {
  const path = arg.includes('/') ? arg : `/run/netns/${arg}`;
  const r = lookupNetnsByPath(ip.ctx, resolvePath(ip.ctx.cwd, path));
  if ('id' in r) return r;
  const pid = getInteger(arg);
  if (pid === null) invarg('Invalid "netns" value\n', arg);
  // The node's processes are not modelled: pid 1 (init) is in the node's own namespace.
  if (pid === 1) return { id: ip.ctx.kernel().root };
  return { badPid: pid };
}

/**
 * iplink_parse: the generic link attributes, up to `type`. Keywords are matched the way iproute2
 * 6.1 matches them, prefixes included ("a" is "address", "t" is "txqueuelen", "m" is "master"),
 * in its order; anything else is the device name.
 */
export function parseLinkArgs(ip: IpRun, argv: readonly string[]): LinkReq {
  const req: LinkReq = {
    dev: null,
    name: null,
    up: null,
    mtu: null,
    address: null,
    txqlen: null,
    netns: null,
    master: null,
    promisc: null,
    allmulti: null,
    type: null,
    typeArgs: [],
    link: null,
    unsupported: [],
  };
  let linkAttr: string | null = null;
  const a = new Args(argv);
  for (; a.more; a.advance()) {
    const arg = a.cur;
    if (arg === 'up') req.up = true;
    else if (arg === 'down') req.up = false;
    else if (arg === 'name') {
      const v = a.next();
      if (req.name !== null) duparg2('name', v);
      if (!checkIfname(v)) invarg('"name" not a valid ifname', v);
      req.name = v;
    } else if (arg === 'index') {
      a.next();
      req.unsupported.push('link index');
    } else if (matches(arg, 'link')) {
      linkAttr = a.next();
    } else if (matches(arg, 'address')) {
      req.address = llAddr(a.next());
    } else if (matches(arg, 'broadcast') || arg === 'brd') {
      llAddr(a.next());
      req.unsupported.push('link broadcast');
    } else if (matches(arg, 'txqueuelen') || arg === 'qlen' || matches(arg, 'txqlen')) {
      const v = a.next();
      if (req.txqlen !== null) duparg('txqueuelen', v);
      const n = getInteger(v);
      if (n === null) invarg('Invalid "txqueuelen" value\n', v);
      req.txqlen = n;
    } else if (arg === 'mtu') {
      const v = a.next();
      if (req.mtu !== null) duparg('mtu', v);
      const n = getInteger(v);
      if (n === null) invarg('Invalid "mtu" value\n', v);
      req.mtu = n;
    } else if (arg === 'xdp' || arg === 'xdpgeneric' || arg === 'xdpdrv' || arg === 'xdpoffload') {
      req.unsupported.push('link xdp');
    } else if (arg === 'netns') {
      const v = a.next();
      if (req.netns !== null) duparg('netns', v);
      req.netns = parseNetnsArg(ip, v);
    } else if (arg === 'multicast' || arg === 'trailers' || arg === 'arp' || arg === 'carrier') {
      onOff(arg, a.next());
      req.unsupported.push(`link ${arg}`);
    } else if (arg === 'allmulticast') {
      req.allmulti = onOff('allmulticast', a.next());
    } else if (arg === 'promisc') {
      req.promisc = onOff('promisc', a.next());
    } else if (arg === 'vf') {
      req.unsupported.push('link vf');
    } else if (matches(arg, 'master')) {
      const v = a.next();
      const m = linkNamed(ip, v);
      if (!m) invarg('Device does not exist\n', v);
      req.master = m.ifindex;
    } else if (arg === 'vrf') {
      req.unsupported.push('link vrf');
    } else if (matches(arg, 'nomaster')) {
      req.master = 0;
    } else if (matches(arg, 'dynamic')) {
      onOff('dynamic', a.next());
      req.unsupported.push('link dynamic');
    } else if (matches(arg, 'type')) {
      req.type = a.next();
      a.advance();
      req.typeArgs = a.rest();
      break;
    } else if (
      matches(arg, 'alias') ||
      arg === 'group' ||
      arg === 'mode' ||
      arg === 'state' ||
      matches(arg, 'numtxqueues') ||
      matches(arg, 'numrxqueues')
    ) {
      a.next();
      req.unsupported.push(`link ${arg}`);
    } else if (
      [
        'addrgenmode',
        'link-netns',
        'link-netnsid',
        'protodown',
        'protodown_reason',
        'gso_max_size',
        'gso_max_segs',
        'gro_max_size',
        'parentdev',
      ].includes(arg)
    ) {
      req.unsupported.push(`link ${arg}`);
    } else {
      if (matches(arg, 'help')) throw new IpExit(IP_LINK_USAGE, 255);
      let v = arg;
      if (arg === 'dev') v = a.next();
      if (req.dev !== null) duparg2('dev', v);
      if (!checkIfname(v, 128)) invarg('"dev" not a valid ifname', v);
      req.dev = v;
    }
  }
  if (linkAttr !== null) {
    const l = linkNamed(ip, linkAttr);
    if (!l) nodev(linkAttr);
    req.link = l.ifindex;
    if (req.type !== 'macvlan') req.unsupported.push('link "link" attribute');
  }
  return req;
}

const KERNEL_KINDS_NOT_MODELLED = new Set([
  'vlan',
  'macvtap',
  'ipvlan',
  'ipvtap',
  'bond',
  'team',
  'tun',
  'tap',
  'gre',
  'gretap',
  'ipip',
  'sit',
  'geneve',
  'wireguard',
  'vrf',
  'nlmon',
  'can',
  'vcan',
  'hsr',
  'macsec',
  'ip6tnl',
  'ip6gre',
  'bareudp',
  'netkit',
]);

function mtuCheck(mtu: number | null): void {
  if (mtu === null || mtu === 0) return;
  if (mtu < ETH_MIN_MTU) extack('mtu less than device minimum.');
  if (mtu > ETH_MAX_MTU) extack('mtu greater than device maximum.');
}

function addressCheck(addr: number[] | null): string | undefined {
  if (!addr) return undefined;
  if (addr.length !== 6) rtnl('EINVAL');
  if ((addr[0]! & 1) === 1 || addr.every((b) => b === 0)) rtnl('EADDRNOTAVAIL');
  return macString(addr);
}

/** The name the kernel gives a new device without one: the first free `<pattern>N`. */
function autoName(k: KernelState, nsId: string, base: string, taken: string[] = []): string {
  const ns = tget(k.netns, nsId)!;
  for (let i = 0; ; i++) {
    const n = `${base}${i}`;
    if (!K.linkByName(ns, n) && !taken.includes(n)) return n;
  }
}

function nameChecks(ip: IpRun, nsId: string, name: string): void {
  if (name.length >= 16) extack('Attribute failed policy validation.');
  if (linkNamed(ip, name, nsId)) rtnl('EEXIST');
}

function targetNs(ip: IpRun, n: LinkReq['netns']): string {
  if (!n) return ip.ns;
  if ('badPid' in n) rtnl('ESRCH');
  return n.id;
}

export function linkAdd(ip: IpRun, argv: readonly string[]): number {
  const req = parseLinkArgs(ip, argv);
  if (req.type === null)
    throw new IpExit('Not enough information: "type" argument is required\n', 1);
  const kind = req.type;
  let vlanFiltering: boolean | undefined;
  let peer: LinkReq | null = null;
  let vx: VxlanReq | null = null;
  let mvMode: MacvlanMode = 'vepa';
  // The link type's own options (iproute2's link_util parse_opt).
  if (kind === 'bridge') {
    const a = new Args(req.typeArgs);
    for (; a.more; a.advance()) {
      const o = a.cur;
      if (o === 'vlan_filtering') {
        const v = getInteger(a.next());
        if (v === null) invarg('invalid vlan_filtering', a.cur);
        vlanFiltering = v !== 0;
      } else if (BRIDGE_OPTIONS.includes(o)) {
        a.next();
        notSimulated(`bridge option ${o}`);
      } else if (o === 'fdb_flush') notSimulated('bridge fdb_flush');
      else if (matches(o, 'help') && o.length > 0) throw new IpExit(IP_LINK_BRIDGE_USAGE, 255);
      else throw new IpExit(`bridge: unknown command "${o}"?\n${IP_LINK_BRIDGE_USAGE}`, 1);
    }
  } else if (kind === 'veth') {
    if (req.typeArgs.length > 0) {
      if (req.typeArgs[0] !== 'peer') throw new IpExit(IP_LINK_VETH_USAGE, 1, 'out');
      peer = parseLinkArgs(ip, req.typeArgs.slice(1));
      if (peer.type !== null) notSimulated('veth peer type');
      if (peer.master !== null || peer.up !== null) notSimulated('veth peer up/master');
    }
  } else if (kind === 'dummy' || kind === 'ifb') {
    if (req.typeArgs.length > 0) {
      const g = req.typeArgs[0]!;
      if (matches(g, 'help') && g.length > 0) throw new IpExit(IP_LINK_USAGE, 255);
      throw new IpExit(`Garbage instead of arguments "${g} ...". Try "ip link help".\n`, 1);
    }
  } else if (kind === 'vxlan') {
    vx = parseVxlan(ip, req.typeArgs);
  } else if (kind === 'macvlan') {
    mvMode = parseMacvlan(req.typeArgs);
  } else if (KERNEL_KINDS_NOT_MODELLED.has(kind)) {
    notSimulated(`link type ${kind}`);
  }
  if (req.unsupported.length > 0) notSimulated(req.unsupported[0]!);
  if (peer && peer.unsupported.length > 0) notSimulated(peer.unsupported[0]!);
  const nsId = targetNs(ip, req.netns);
  const k = ip.ctx.kernel();
  const name = req.dev ?? req.name ?? autoName(k, nsId, kind === 'veth' ? 'veth' : kind);
  // rtnl_newlink: the name attribute's policy, an existing device, the kind.
  nameChecks(ip, nsId, name);
  if (!['bridge', 'dummy', 'ifb', 'veth', 'vxlan', 'macvlan'].includes(kind))
    extack('Unknown device type.');
  // macvlan_validate... then macvlan_newlink: no IFLA_LINK is EINVAL.
  if (kind === 'macvlan' && req.link === null) rtnl('EINVAL');
  if (req.address && req.address.length !== 6) rtnl('EINVAL');
  mtuCheck(req.mtu);
  const mac = addressCheck(req.address);
  if (!kernelValidName(name)) rtnl('EINVAL');
  let peerNsId = nsId;
  let peerName = '';
  let peerMac: string | undefined;
  if (kind === 'veth') {
    peerNsId = peer ? targetNs(ip, peer.netns) : nsId;
    peerName =
      peer?.dev ?? peer?.name ?? autoName(k, peerNsId, 'veth', peerNsId === nsId ? [name] : []);
    if (peerName.length >= 16) extack('Attribute failed policy validation.');
    if (peer && peer.address && peer.address.length !== 6) rtnl('EINVAL');
    mtuCheck(peer?.mtu ?? null);
    peerMac = addressCheck(peer?.address ?? null);
    if (!kernelValidName(peerName)) rtnl('EINVAL');
    if (linkNamed(ip, peerName, peerNsId) || (peerNsId === nsId && peerName === name))
      rtnl('EEXIST');
  }
  if (req.txqlen !== null && req.txqlen < 0) rtnl('EINVAL');
  if (req.master !== null && req.master !== 0) masterChecks(ip, nsId, null, kind, req.master);
  kernelCall(ip, () =>
    ip.ctx.changeKernel((kd, rnd) => {
      let idx: number;
      if (kind === 'veth') {
        idx = K.linkAdd(
          kd,
          nsId,
          { kind: 'veth', name, peerName, peerNs: peerNsId, ...(mac ? { mac } : {}) },
          rnd,
        );
        const l = K.linkByIndex(tget(kd.netns, nsId)!, idx)!;
        const p = l.peer!;
        if (peer?.mtu) K.linkSetMtu(kd, p.ns, p.ifindex, peer.mtu);
        if (peerMac) K.linkSetMac(kd, p.ns, p.ifindex, peerMac);
        if (peer?.txqlen !== null && peer?.txqlen !== undefined)
          K.linkSetTxqlen(kd, p.ns, p.ifindex, peer.txqlen);
      } else if (kind === 'macvlan') {
        // IFLA_LINK is resolved in the namespace ip runs in, the device made in the target.
        idx = K.linkAdd(
          kd,
          nsId,
          {
            kind: 'macvlan',
            name,
            mode: mvMode,
            lowerNs: ip.ns,
            lower: req.link!,
            ...(req.mtu ? { mtu: req.mtu } : {}),
            ...(mac ? { mac } : {}),
          },
          rnd,
        );
      } else if (vx) {
        idx = K.linkAdd(
          kd,
          nsId,
          {
            kind: 'vxlan',
            name,
            id: vx.id,
            port: vx.port,
            local: vx.local,
            dev: vx.dev,
            learning: vx.learning,
            // vxlan_dev_configure: the lower device's MTU less the VXLAN headers (50).
            mtu: vx.dev !== null ? lowerMtu(kd, nsId, vx.dev) - 50 : 1500,
            ...(mac ? { mac } : {}),
          },
          rnd,
        );
      } else {
        // rtnl_create_link stores IFLA_MTU in dev->mtu without ndo_change_mtu, so a bridge's
        // MTU given at creation is not "set by the user": br_mtu_auto_adjust still follows ports.
        const spec: K.LinkSpec =
          kind === 'bridge'
            ? {
                kind: 'bridge',
                name,
                ...(vlanFiltering !== undefined ? { vlanFiltering } : {}),
                ...(req.mtu ? { mtu: req.mtu } : {}),
              }
            : { kind: kind as 'dummy' | 'ifb', name };
        idx = K.linkAdd(kd, nsId, spec, rnd);
        if (mac) K.linkSetMac(kd, nsId, idx, mac);
      }
      if (req.mtu && kind !== 'bridge' && kind !== 'macvlan') K.linkSetMtu(kd, nsId, idx, req.mtu);
      if (req.txqlen !== null) K.linkSetTxqlen(kd, nsId, idx, req.txqlen);
      if (req.promisc !== null) K.linkSetPromisc(kd, nsId, idx, req.promisc);
      if (req.allmulti !== null) K.linkSetAllmulti(kd, nsId, idx, req.allmulti);
      if (req.up) K.linkSetUp(kd, nsId, idx);
      if (req.master) K.linkSetMaster(kd, nsId, idx, req.master);
    }),
  );
  return 0;
}

/**
 * `type macvlan` options (iproute2 6.1 iplink_macvlan.c): `mode`; the mode flags, `bcqueuelen`
 * and mode `source` are not modelled. Without `mode` the kernel's default is vepa.
 */
function parseMacvlan(argv: readonly string[]): MacvlanMode {
  let mode: MacvlanMode = 'vepa';
  const a = new Args(argv);
  for (; a.more; a.advance()) {
    const o = a.cur;
    if (o === 'mode') {
      const m = a.next();
      if (m === 'source') notSimulated('macvlan mode source');
      if (m !== 'private' && m !== 'vepa' && m !== 'bridge' && m !== 'passthru')
        throw new IpExit(
          `Error: argument of "mode" must be "private", "vepa", "bridge", "passthru" or "source", not "${m}"\n`,
          1,
        );
      mode = m;
    } else if (['flag', 'nopromisc', 'nodst', 'bcqueuelen', 'macaddr'].includes(o)) {
      notSimulated(`macvlan option ${o}`);
    } else {
      throw new IpExit(`macvlan: unknown option "${o}"?\n${IP_LINK_MACVLAN_USAGE}`, 1);
    }
  }
  return mode;
}

/** What `type vxlan` took (iproute2's vxlan_parse_opt, the options flanneld's setup uses). */
interface VxlanReq {
  id: number;
  port: number;
  local: string | null;
  /** ifindex of the lower device. */
  dev: number | null;
  learning: boolean;
}

const VXLAN_NOT_MODELLED = [
  'remote',
  'group',
  'ttl',
  'hoplimit',
  'tos',
  'dsfield',
  'ageing',
  'maxaddress',
  'srcport',
  'port',
  'label',
  'flowlabel',
  'df',
  'gbp',
  'gpe',
  'external',
  'vnifilter',
];

function parseVxlan(ip: IpRun, args: readonly string[]): VxlanReq {
  let id: number | null = null;
  let port: number | null = null;
  let local: string | null = null;
  let dev: number | null = null;
  let learning = true;
  const a = new Args(args);
  for (; a.more; a.advance()) {
    const o = a.cur;
    if (o === 'id' || o === 'vni') {
      const v = a.next();
      const n = getInteger(v);
      if (n === null || n < 0 || n >= 1 << 24) invarg('invalid id', v);
      id = n;
    } else if (o === 'local') {
      const v = a.next();
      if (!/^\d+\.\d+\.\d+\.\d+$/.test(v)) invarg('invalid address', v);
      local = v;
    } else if (o === 'dev') {
      const v = a.next();
      const l = linkNamed(ip, v);
      if (!l) invarg('not a valid ifname', v);
      dev = l!.ifindex;
    } else if (o === 'dstport') {
      const v = a.next();
      const n = getInteger(v);
      if (n === null || n < 0 || n > 65535) invarg('dstport', v);
      port = n;
    } else if (o === 'nolearning') learning = false;
    else if (o === 'learning') learning = true;
    else if (o === 'udpcsum' || o === 'noudpcsum') continue;
    else if (VXLAN_NOT_MODELLED.includes(o) || o.startsWith('no')) {
      notSimulated(`vxlan option ${o}`);
    } else if (matches(o, 'help')) notSimulated('vxlan help');
    else throw new IpExit(`vxlan: unknown command "${o}"?\n`, 255);
  }
  if (id === null) throw new IpExit('vxlan: missing virtual network identifier\n', 255);
  if (port === null) {
    // iproute2 warns, and the kernel uses Linux's own default.
    ip.ctx.err(
      "vxlan: destination port not specified\nWill use Linux kernel default (non-standard value)\nUse 'dstport 4789' to get the IANA assigned value\nUse 'dstport 0' to get default and quiet this message\n",
    );
  }
  return { id, port: port === null || port === 0 ? 8472 : port, local, dev, learning };
}

function lowerMtu(k: KernelState, nsId: string, ifindex: number): number {
  return tget(k.netns, nsId)?.links[ifindex]?.mtu ?? 1500;
}

const BRIDGE_OPTIONS = [
  'forward_delay',
  'hello_time',
  'max_age',
  'ageing_time',
  'stp_state',
  'priority',
  'group_fwd_mask',
  'group_address',
  'no_linklocal_learn',
  'vlan_protocol',
  'vlan_default_pvid',
  'vlan_stats_enabled',
  'vlan_stats_per_port',
  'mcast_snooping',
  'mcast_vlan_snooping',
  'mcast_router',
  'mcast_query_use_ifaddr',
  'mcast_querier',
  'mcast_hash_elasticity',
  'mcast_hash_max',
  'mcast_last_member_count',
  'mcast_startup_query_count',
  'mcast_last_member_interval',
  'mcast_membership_interval',
  'mcast_querier_interval',
  'mcast_query_interval',
  'mcast_query_response_interval',
  'mcast_startup_query_interval',
  'mcast_stats_enabled',
  'mcast_igmp_version',
  'mcast_mld_version',
  'nf_call_iptables',
  'nf_call_ip6tables',
  'nf_call_arptables',
];

/** do_set_master's refusals, with the kernel's messages. */
function masterChecks(
  ip: IpRun,
  nsId: string,
  l: Link | null,
  kind: LinkKind | string,
  master: number,
): void {
  const m = K.linkByIndex(nsOf(ip, nsId), master);
  if (!m) rtnl('ENODEV');
  if (m.kind !== 'bridge') rtnl('EOPNOTSUPP');
  if (kind === 'bridge') extack('Can not enslave a bridge to a bridge.');
  if (kind === 'loopback') rtnl('EINVAL');
  if (l && l.ifindex === m.ifindex) extack('Can not enslave a bridge to a bridge.');
}

export function linkSet(ip: IpRun, argv: readonly string[]): number {
  const req = parseLinkArgs(ip, argv);
  if (req.dev === null)
    throw new IpExit('Not enough information: "dev" argument is required.\n', 255);
  let l = linkNamed(ip, req.dev) ?? nodev(req.dev);
  // `type KIND` with no options changes nothing; options of a link type are not modelled.
  if (req.type !== null && (req.typeArgs.length > 0 || req.type !== l.kind))
    notSimulated(`link set type ${req.type}`);
  if (req.unsupported.length > 0) notSimulated(req.unsupported[0]!);
  if (req.address && req.address.length !== 6) {
    throw new IpExit(`Invalid address length ${req.address.length} - must be 6 bytes\n`, 1);
  }
  let nsId = ip.ns;
  const idx = () => l.ifindex;
  const refresh = (name: string) => {
    l = linkNamed(ip, name, nsId)!;
  };
  // netns
  if (req.netns !== null) {
    const target = targetNs(ip, req.netns);
    if (target !== nsId) {
      if (l.kind === 'bridge' || l.kind === 'loopback') extack('The interface netns is immutable.');
      if (linkNamed(ip, l.name, target))
        extack('An interface with the same name exists in the target netns.');
      kernelCall(ip, () => ip.ctx.changeKernel((kd) => K.linkSetNs(kd, nsId, idx(), target)));
      nsId = target;
      refresh(l.name);
    }
  }
  // address
  if (req.address) {
    const mac = addressCheck(req.address)!;
    kernelCall(ip, () => ip.ctx.changeKernel((kd) => K.linkSetMac(kd, nsId, idx(), mac)));
    refresh(l.name);
  }
  // mtu
  if (req.mtu !== null) {
    // The bounds are the device's own (dev_validate_mtu): the kernel's extack says which.
    kernelCall(ip, () => ip.ctx.changeKernel((kd) => K.linkSetMtu(kd, nsId, idx(), req.mtu!)));
    refresh(l.name);
  }
  // name
  if (req.name !== null && req.name !== l.name) {
    const newName = req.name;
    if (!kernelValidName(newName)) rtnl('EINVAL');
    kernelCall(ip, () => ip.ctx.changeKernel((kd) => K.linkSetName(kd, nsId, idx(), newName)));
    refresh(newName);
  }
  // flags
  if (req.up !== null || req.promisc !== null || req.allmulti !== null) {
    kernelCall(ip, () =>
      ip.ctx.changeKernel((kd) => {
        if (req.promisc !== null) K.linkSetPromisc(kd, nsId, idx(), req.promisc);
        if (req.allmulti !== null) K.linkSetAllmulti(kd, nsId, idx(), req.allmulti);
        if (req.up === true) K.linkSetUp(kd, nsId, idx());
        if (req.up === false) K.linkSetDown(kd, nsId, idx());
      }),
    );
    refresh(l.name);
  }
  // master
  if (req.master !== null) {
    const master = req.master;
    if (master === 0)
      kernelCall(ip, () => ip.ctx.changeKernel((kd) => K.linkSetMaster(kd, nsId, idx(), null)));
    else {
      if (nsId !== ip.ns) rtnl('ENODEV');
      masterChecks(ip, nsId, l, l.kind, master);
      kernelCall(ip, () => ip.ctx.changeKernel((kd) => K.linkSetMaster(kd, nsId, idx(), master)));
    }
    refresh(l.name);
  }
  // txqueuelen
  if (req.txqlen !== null) {
    if (req.txqlen < 0) rtnl('EINVAL');
    kernelCall(ip, () =>
      ip.ctx.changeKernel((kd) => K.linkSetTxqlen(kd, nsId, idx(), req.txqlen!)),
    );
  }
  return 0;
}

export function linkDel(ip: IpRun, argv: readonly string[]): number {
  const req = parseLinkArgs(ip, argv);
  if (req.dev === null)
    throw new IpExit('Not enough information: "dev" argument is required.\n', 255);
  const l = linkNamed(ip, req.dev) ?? nodev(req.dev);
  if (req.unsupported.length > 0) notSimulated(req.unsupported[0]!);
  kernelCall(ip, () => ip.ctx.changeKernel((kd) => K.linkDel(kd, ip.ns, l.ifindex)));
  return 0;
}

export function doLink(ip: IpRun, argv: readonly string[]): number {
  if (argv.length === 0) notSimulated('link show');
  const [cmd, ...rest] = argv as [string, ...string[]];
  if (matches(cmd, 'add')) return linkAdd(ip, rest);
  if (matches(cmd, 'set') || matches(cmd, 'change')) return linkSet(ip, rest);
  if (matches(cmd, 'replace')) notSimulated('link replace');
  if (matches(cmd, 'delete')) return linkDel(ip, rest);
  if (matches(cmd, 'show') || matches(cmd, 'lst') || matches(cmd, 'list'))
    notSimulated('link show');
  if (matches(cmd, 'xstats') || matches(cmd, 'afstats') || matches(cmd, 'property'))
    notSimulated(`link ${cmd}`);
  if (matches(cmd, 'help')) throw new IpExit(IP_LINK_USAGE, 255);
  throw new IpExit(`Command "${cmd}" is unknown, try "ip link help".\n`, 255);
}
