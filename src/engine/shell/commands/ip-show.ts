/**
 * `ip link show`, `ip address show` and `ip route show` (iproute2 6.1: ipaddress.c print_linkinfo,
 * print_addrinfo, the brief and oneline forms; iproute.c print_route), in text, `-j` and `-j -p`,
 * with `-br`, `-o`, `-4` / `-6`. Checked against the real `ip` in network namespaces (see
 * golden/README.md).
 *
 * Details that follow the real tool's quirks:
 * - a veth's `@` part is its peer's name when the peer is in the same namespace, `@ifN` when it is
 *   in another one (then `link-netns NAME` or `link-netnsid N`, see ../nsid.ts); a macvlan's
 *   likewise names its lower device;
 * - `ip -6 addr` without `dev` dumps links with AF_INET6 (the kernel's inet6_dump_ifinfo): the
 *   header has no qdisc, master, group or link line, and the `@` part is the name of the device
 *   with the peer's ifindex in this namespace (`ve0@br0`), as iproute2 looks it up;
 * - with -4 / -6, `ip address` leaves out the link line and devices without such an address.
 *
 * `-s` prints the counters of the packets the dataplane walked. Not modelled: -s -s (error
 * details), -s for other objects than link and address, -d (details) but of `ip link` for
 * VXLAN devices and macvlans, address lifetimes other than forever, DAD failures (dadfailed:
 * no address is ever duplicated here; `tentative` and `nodad` are shown), route tables other
 * than main, and the selectors not listed in each parser below.
 */
import * as vfs from '../../fs/vfs';
import { displayedOperstate, isTentative, linkByName, linksOf } from '../../kernel/kernel';
import type { Addr, KernelState, Link, Netns, Route } from '../../kernel/types';
import { linkFlags, routeJson, routesInDumpOrder } from '../../kernel/view';
import { type IP, ipString, netContains, networkOf, parseIP } from '../../net/ip';
import { NETNS_DIR } from '../../node/setup';
import { nsidOf, nsidTable, type NsidTable } from '../nsid';
import {
  Args,
  type IpRun,
  IpExit,
  duparg2,
  getPrefix,
  matches,
  notSimulated,
  nsOf,
} from './ip-common';
import { type JsonValue, jsonOutput } from './jsonw';
import { tentries } from '../../state/table';

/** Display options of `ip` (global flags). */
export interface ShowFlags {
  json: boolean;
  pretty: boolean;
  brief: boolean;
  oneline: boolean;
  details: boolean;
  stats: boolean;
}

export function defaultShowFlags(): ShowFlags {
  return {
    json: false,
    pretty: false,
    brief: false,
    oneline: false,
    details: false,
    stats: false,
  };
}

function flagsOf(ip: IpRun): ShowFlags {
  return ip.show ?? defaultShowFlags();
}

function refuseUnmodelled(ip: IpRun, stats = false): void {
  const f = flagsOf(ip);
  if (f.stats && !stats) notSimulated('-s (statistics of this object)');
  if (f.details) notSimulated('-d (details)');
}

// -----------------------------------------------------------------------------------------------
// Namespaces: the names `ip` knows other namespaces by

/** The name /run/netns gives namespace `id` (the first mount there), if any. */
export function netnsNameOf(k: KernelState, id: string): string | undefined {
  for (const [path, nid] of tentries(k.mounts)) {
    if (nid === id && vfs.dirname(path) === NETNS_DIR) return vfs.basename(path);
  }
  return undefined;
}

export function nsids(ip: IpRun): NsidTable {
  return nsidTable(ip.ctx.sim, ip.ctx.nodeName, ip.ctx.kernel());
}

// -----------------------------------------------------------------------------------------------
// Links

/** What the RTM_NEWLINK message says about a device's lower link (IFLA_LINK). */
interface LinkRef {
  /** Text after the name: `@vd2`, `@if3` (empty: no IFLA_LINK). */
  at: string;
  json: Record<string, JsonValue>;
  /** IFLA_LINK_NETNSID, when the peer is in another namespace (full messages only). */
  netnsid?: number;
  netnsName?: string;
}

function linkRef(ip: IpRun, ns: Netns, l: Link, reduced: boolean, table: NsidTable): LinkRef {
  // IFLA_LINK: a veth's peer, a macvlan's lower device.
  const lower = l.peer ?? l.macvlan?.lower;
  if (!lower) return { at: '', json: {} };
  const idx = lower.ifindex;
  const local = (): string => ns.links[idx]?.name ?? `if${idx}`;
  if (reduced || lower.ns === ns.id) {
    const name = local();
    return { at: `@${name}`, json: { link: name } };
  }
  const id = nsidOf(table, ns.id, lower.ns);
  const ref: LinkRef = { at: `@if${idx}`, json: { link_index: idx } };
  if (id !== undefined) {
    ref.netnsid = id;
    const name = netnsNameOf(ip.ctx.kernel(), lower.ns);
    if (name !== undefined) ref.netnsName = name;
  }
  return ref;
}

function qdiscName(l: Link): string {
  return l.tc?.root?.kind ?? 'noop';
}

function masterName(ns: Netns, l: Link): string | undefined {
  return l.master !== null ? ns.links[l.master]?.name : undefined;
}

function linkType(l: Link): string {
  return l.kind === 'loopback' ? 'loopback' : 'ether';
}

function broadcastMac(l: Link): string {
  return l.kind === 'loopback' ? '00:00:00:00:00:00' : 'ff:ff:ff:ff:ff:ff';
}

interface LinkHeaderOpts {
  /** `ip link` (mode DEFAULT) rather than `ip address`. */
  isLink: boolean;
  /** The AF_INET6 link dump (`ip -6 addr` without dev). */
  reduced: boolean;
  /** Print the link/ether line. */
  linkLine: boolean;
}

/** The header of a device (text, without the final newline) and its JSON fields. */
function linkHeader(
  ip: IpRun,
  ns: Netns,
  l: Link,
  o: LinkHeaderOpts,
  table: NsidTable,
): { text: string; json: Record<string, JsonValue> } {
  const k = ip.ctx.kernel();
  const ref = linkRef(ip, ns, l, o.reduced, table);
  const flags = linkFlags(k, ns, l);
  const oper = displayedOperstate(l);
  const j: Record<string, JsonValue> = { ifindex: l.ifindex, ...ref.json, ifname: l.name };
  j['flags'] = flags;
  j['mtu'] = l.mtu;
  let t = `${l.ifindex}: ${l.name}${ref.at}: <${flags.join(',')}> mtu ${l.mtu} `;
  if (!o.reduced) {
    j['qdisc'] = qdiscName(l);
    t += `qdisc ${qdiscName(l)} `;
    const m = masterName(ns, l);
    if (m !== undefined) {
      j['master'] = m;
      t += `master ${m} `;
    }
  }
  j['operstate'] = oper;
  t += `state ${oper} `;
  if (!o.reduced) {
    if (o.isLink) {
      j['linkmode'] = 'DEFAULT';
      t += 'mode DEFAULT ';
    }
    j['group'] = 'default';
    t += 'group default ';
  }
  if (l.txqlen) {
    j['txqlen'] = l.txqlen;
    t += `qlen ${l.txqlen}`;
  }
  if (o.linkLine) {
    j['link_type'] = linkType(l);
    j['address'] = l.mac;
    j['broadcast'] = broadcastMac(l);
    t += `\n    link/${linkType(l)} ${l.mac} brd ${broadcastMac(l)}`;
  }
  if (ref.netnsid !== undefined) {
    j['link_netnsid'] = ref.netnsid;
    t +=
      ref.netnsName !== undefined ? ` link-netns ${ref.netnsName}` : ` link-netnsid ${ref.netnsid}`;
  }
  return { text: t, json: j };
}

/** The addresses in dump order: IPv4 (RTM_GETADDR AF_INET), then IPv6. */
function addrsOf(l: Link, family: 0 | 4 | 6): Addr[] {
  const v4 = l.addrs.filter((a) => a.family === 4);
  const v6 = l.addrs.filter((a) => a.family === 6);
  if (family === 4) return v4;
  if (family === 6) return v6;
  return [...v4, ...v6];
}

function addrJson(l: Link, a: Addr, now: number): Record<string, JsonValue> {
  const j: Record<string, JsonValue> = {
    family: a.family === 4 ? 'inet' : 'inet6',
    local: a.local,
    prefixlen: a.prefix,
  };
  if (a.broadcast) j['broadcast'] = a.broadcast;
  j['scope'] = a.scope;
  if (a.secondary) j['secondary'] = true;
  if (a.nodad) j['nodad'] = true;
  if (isTentative(a, now)) j['tentative'] = true;
  if (a.family === 4) j['label'] = l.name;
  j['valid_life_time'] = 4294967295;
  j['preferred_life_time'] = 4294967295;
  return j;
}

/** One address in text: its line, then its lifetimes line (joined by `sl`). */
function addrText(l: Link, a: Addr, sl: string, now: number): string {
  let t = `    ${a.family === 4 ? 'inet' : 'inet6'} ${a.local}/${a.prefix} `;
  if (a.broadcast) t += `brd ${a.broadcast} `;
  t += `scope ${a.scope} `;
  if (a.secondary) t += 'secondary ';
  // iproute2's flag order: nodad before tentative (ifa_flag_names).
  if (a.nodad) t += 'nodad ';
  if (isTentative(a, now)) t += 'tentative ';
  if (a.family === 4) t += l.name;
  return `${t}${sl}       valid_lft forever preferred_lft forever`;
}

interface LinkFilter {
  dev: string | null;
  up: boolean;
  master: number | null;
  type: string | null;
}

/** ip link show / ip address show selectors: [dev] NAME, up, master DEV, type TYPE. */
function parseLinkFilter(ip: IpRun, argv: readonly string[], isLink: boolean): LinkFilter {
  const f: LinkFilter = { dev: null, up: false, master: null, type: null };
  const a = new Args(argv);
  const ns = nsOf(ip);
  for (; a.more; a.advance()) {
    const arg = a.cur;
    if (arg === 'up') f.up = true;
    else if (arg === 'master') {
      const m = a.next();
      const l = linkByName(ns, m);
      if (!l) throw new IpExit(`Device "${m}" does not exist.\n`, 1);
      f.master = l.ifindex;
    } else if (arg === 'type') f.type = a.next();
    else if (arg === 'vrf' || arg === 'nomaster' || arg === 'group')
      notSimulated(`${isLink ? 'link' : 'address'} show ${arg}`);
    else if (
      !isLink &&
      ['scope', 'to', 'label', 'permanent', 'dynamic', 'secondary', 'primary'].includes(arg)
    )
      notSimulated(`address show ${arg}`);
    else {
      let name = arg;
      if (arg === 'dev') name = a.next();
      else if (matches(arg, 'help')) notSimulated(`${isLink ? 'link' : 'address'} show help`);
      if (f.dev !== null) duparg2('dev', name);
      f.dev = name;
    }
  }
  if (f.dev !== null && !linkByName(ns, f.dev))
    throw new IpExit(`Device "${f.dev}" does not exist.\n`, 1);
  return f;
}

function linkKindName(l: Link): string | null {
  return l.kind === 'loopback' ? null : l.kind;
}

function selectedLinks(ip: IpRun, f: LinkFilter): Link[] {
  const ns = nsOf(ip);
  return linksOf(ns).filter((l) => {
    if (f.dev !== null && l.name !== f.dev) return false;
    if (f.up && !l.adminUp) return false;
    if (f.master !== null && l.master !== f.master) return false;
    if (f.type !== null && linkKindName(l) !== f.type) return false;
    return true;
  });
}

/** `ip link show` (isLink) or `ip address show`. */
/**
 * `-s`: the device's counters (rtnl_link_stats64) as iproute2 6.1 prints them. Only the packets
 * the dataplane walked count (ARP and IPv6 neighbour discovery are not walked).
 */
function statsText(l: Link): string {
  const s = l.stats ?? {
    rxPackets: 0,
    rxBytes: 0,
    rxDropped: 0,
    txPackets: 0,
    txBytes: 0,
    txDropped: 0,
  };
  const row = (a: number, b: number, c: number, d: number) =>
    `    ${String(a).padStart(10)} ${String(b).padStart(7)} ${String(0).padStart(6)} ${String(c).padStart(7)} ${String(0).padStart(7)} ${String(d).padStart(7)} `;
  return (
    `    RX:  bytes packets errors dropped  missed   mcast           \n${row(s.rxBytes, s.rxPackets, s.rxDropped, 0)}\n` +
    `    TX:  bytes packets errors dropped carrier collsns           \n${row(s.txBytes, s.txPackets, s.txDropped, 0)}`
  );
}

function statsJson(l: Link): JsonValue {
  const s = l.stats ?? {
    rxPackets: 0,
    rxBytes: 0,
    rxDropped: 0,
    txPackets: 0,
    txBytes: 0,
    txDropped: 0,
  };
  return {
    rx: {
      bytes: s.rxBytes,
      packets: s.rxPackets,
      errors: 0,
      dropped: s.rxDropped,
      over_errors: 0,
      multicast: 0,
    },
    tx: {
      bytes: s.txBytes,
      packets: s.txPackets,
      errors: 0,
      dropped: s.txDropped,
      carrier_errors: 0,
      collisions: 0,
    },
  };
}

/**
 * `ip -d link show` of a VXLAN device after its link line (iproute2 6.1 on Linux 6.x, as the
 * recording testdata/traffic/vxlan.json shows flannel.1): the generic details, then vxlan's.
 */
function vxlanDetails(ns: Netns, l: Link): string {
  const v = l.vxlan!;
  const dev = v.dev !== null ? ns.links[v.dev]?.name : undefined;
  return (
    ` promiscuity ${l.promisc}  allmulti ${l.allmulti ? 1 : 0} minmtu 68 maxmtu 65535 \n` +
    `    vxlan id ${v.id}${v.local ? ` local ${v.local}` : ''}${dev ? ` dev ${dev}` : ''} srcport 0 0 dstport ${v.port} ${v.learning ? '' : 'nolearning '}ttl auto ageing 300 udpcsum noudp6zerocsumtx noudp6zerocsumrx addrgenmode eui64 numtxqueues 1 numrxqueues 1 gso_max_size 65536 gso_max_segs 65535 tso_max_size 524280 tso_max_segs 65535 gro_max_size 65536 `
  );
}

/**
 * `ip -d link show` of a macvlan (iproute2 6.1 on Linux 6.18, checked in namespaces: a macvlan on
 * a veth, in its own namespace and in another). Its maxmtu is the lower device's (65535 here).
 */
function macvlanDetails(l: Link): string {
  return (
    ` promiscuity ${l.promisc}  allmulti ${l.allmulti ? 1 : 0} minmtu 68 maxmtu 65535 \n` +
    `    macvlan mode ${l.macvlan!.mode} bcqueuelen 1000 usedbcqueuelen 1000 addrgenmode eui64 numtxqueues 1 numrxqueues 1 gso_max_size 65536 gso_max_segs 65535 tso_max_size 524280 tso_max_segs 65535 gro_max_size 65536 `
  );
}

export function linkShow(ip: IpRun, argv: readonly string[], isLink: boolean): number {
  const fl = flagsOf(ip);
  const details = fl.details && isLink && !fl.json && !fl.brief && !fl.oneline;
  refuseUnmodelled(details ? { ...ip, show: { ...fl, details: false } } : ip, true);
  const f = parseLinkFilter(ip, argv, isLink);
  if (details) {
    // -d is modelled for VXLAN devices (flannel.1) and macvlans, as iproute2 6.1 prints them.
    const other = selectedLinks(ip, f).find((l) => l.kind !== 'vxlan' && l.kind !== 'macvlan');
    if (other) notSimulated(`-d (details) of a ${other.kind} device`);
  }
  const ns = nsOf(ip);
  const table = nsids(ip);
  const family = isLink ? 0 : ip.family;
  const reduced = !isLink && family === 6 && f.dev === null;
  const out: string[] = [];
  const json: JsonValue[] = [];
  // Whether an IPv6 address is still tentative depends on the time (duplicate address detection).
  const now = ip.ctx.sim.state.clock;
  for (const l of selectedLinks(ip, f)) {
    const addrs = isLink ? [] : addrsOf(l, family);
    // With a family, devices without an address of it are left out.
    if (!isLink && family !== 0 && addrs.length === 0) continue;
    if (fl.brief) {
      const ref = linkRef(ip, ns, l, reduced, table);
      const oper = displayedOperstate(l);
      const j: Record<string, JsonValue> = { ...ref.json, ifname: l.name, operstate: oper };
      let t = `${(l.name + ref.at).padEnd(16)} ${oper.padEnd(14)} `;
      if (isLink) {
        const flags = linkFlags(ip.ctx.kernel(), ns, l);
        j['address'] = l.mac;
        j['flags'] = flags;
        t += `${l.mac} <${flags.join(',')}> `;
      } else {
        j['addr_info'] = addrs.map((a) => ({ local: a.local, prefixlen: a.prefix }));
        for (const a of addrs) t += `${a.local}/${a.prefix} `;
      }
      out.push(t);
      json.push(j);
      continue;
    }
    const h = linkHeader(ip, ns, l, { isLink, reduced, linkLine: isLink || family === 0 }, table);
    if (!isLink) h.json['addr_info'] = addrs.map((a) => addrJson(l, a, now));
    if (fl.stats) h.json['stats64'] = statsJson(l);
    json.push(h.json);
    if (fl.oneline) {
      if (isLink) out.push(h.text.replace(/\n/g, '\\'));
      else for (const a of addrs) out.push(`${l.ifindex}: ${l.name}${addrText(l, a, '\\', now)}`);
      continue;
    }
    out.push(details ? h.text + (l.macvlan ? macvlanDetails(l) : vxlanDetails(ns, l)) : h.text);
    for (const a of addrs) out.push(addrText(l, a, '\n', now));
    if (fl.stats) out.push(statsText(l));
  }
  if (fl.json) ip.ctx.out(jsonOutput(json, fl.pretty));
  else ip.ctx.out(out.map((x) => x + '\n').join(''));
  return 0;
}

// -----------------------------------------------------------------------------------------------
// Routes

interface RouteFilter {
  dev: number | null;
  /** exact PREFIX (a bare prefix is exact, as iproute2 reads it). */
  exact: { dst: string; prefix: number } | null;
  root: { ip: IP | null; prefix: number } | null;
}

function parseRouteFilter(ip: IpRun, argv: readonly string[], family: 4 | 6): RouteFilter {
  const f: RouteFilter = { dev: null, exact: null, root: null };
  const a = new Args(argv);
  const ns = nsOf(ip);
  for (; a.more; a.advance()) {
    const arg = a.cur;
    if (arg === 'table') {
      const t = a.next();
      if (t !== 'main' && t !== '254') notSimulated(`route show table ${t}`);
    } else if (arg === 'dev' || arg === 'oif') {
      const d = a.next();
      const l = linkByName(ns, d);
      if (!l) throw new IpExit(`Cannot find device "${d}"\n`, 1);
      f.dev = l.ifindex;
    } else if (arg === 'root') {
      const p = getPrefix(a.next(), family);
      f.root = { ip: p.ip, prefix: p.prefix };
    } else if (
      [
        'match',
        'proto',
        'scope',
        'type',
        'via',
        'src',
        'iif',
        'tos',
        'dsfield',
        'realm',
        'realms',
        'cache',
        'cloned',
        'vrf',
        'from',
      ].includes(arg)
    )
      notSimulated(`route show ${arg}`);
    else {
      let v = arg;
      if (arg === 'exact' || arg === 'to') v = a.next();
      if (v === 'help') notSimulated('route show help');
      const p = getPrefix(v, family);
      const dst = p.ip ? networkOf({ ip: p.ip, prefix: p.prefix }) : null;
      f.exact = {
        dst: dst ? ipString(dst) : family === 4 ? '0.0.0.0' : '::',
        prefix: p.prefix,
      };
    }
  }
  return f;
}

function routeSelected(r: Route, f: RouteFilter): boolean {
  if (f.dev !== null && r.dev !== f.dev) return false;
  if (f.exact && (r.dst !== f.exact.dst || r.prefix !== f.exact.prefix)) return false;
  if (f.root && f.root.ip) {
    if (r.prefix < f.root.prefix) return false;
    if (!netContains({ ip: f.root.ip, prefix: f.root.prefix }, parseIP(r.dst)!)) return false;
  }
  return true;
}

/** A route in text, from its `ip -j` fields. */
export function routeText(o: Record<string, unknown>): string {
  let t = `${String(o['dst'])} `;
  if (o['gateway'] !== undefined) t += `via ${String(o['gateway'])} `;
  if (o['dev'] !== undefined) t += `dev ${String(o['dev'])} `;
  if (o['protocol'] !== undefined) t += `proto ${String(o['protocol'])} `;
  if (o['scope'] !== undefined) t += `scope ${String(o['scope'])} `;
  if (o['prefsrc'] !== undefined) t += `src ${String(o['prefsrc'])} `;
  if (o['metric'] !== undefined) t += `metric ${String(o['metric'])} `;
  for (const fl of (o['flags'] as string[] | undefined) ?? []) t += `${fl} `;
  if (o['pref'] !== undefined) t += `pref ${String(o['pref'])}`;
  return t;
}

/** `ip route show` (main table). */
export function routeShow(ip: IpRun, argv: readonly string[]): number {
  refuseUnmodelled(ip);
  const fl = flagsOf(ip);
  const family: 4 | 6 = ip.family === 6 ? 6 : 4;
  const f = parseRouteFilter(ip, argv, family);
  const ns = nsOf(ip);
  const json: JsonValue[] = [];
  const out: string[] = [];
  for (const r of routesInDumpOrder(ns, family)) {
    if (!routeSelected(r, f)) continue;
    const o = routeJson(ns, r) as Record<string, JsonValue>;
    if (f.dev !== null) delete o['dev'];
    json.push(o);
    out.push(routeText(o));
  }
  if (fl.json) ip.ctx.out(jsonOutput(json, fl.pretty));
  else ip.ctx.out(out.map((x) => x + '\n').join(''));
  return 0;
}

/** Whether `argv` (after the object) asks for a listing: nothing, show, list, lst. */
export function isShow(argv: readonly string[]): boolean {
  if (argv.length === 0) return true;
  const c = argv[0]!;
  return matches(c, 'show') || matches(c, 'list') || matches(c, 'lst');
}
