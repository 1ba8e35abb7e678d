/**
 * The netlink calls the reference plugins make (vishvananda/netlink as they use it), each one a
 * kernel step with an iproute2-style summary. Errors are the kernel's errno texts, or
 * "Link not found" for a lookup by name, as the Go library returns them.
 */
import type { NetnsId } from '../../brand';
import * as K from '../../kernel/kernel';
import type { Link, Route } from '../../kernel/types';
import { type IP, type IPNet, ipString, lastOf, bits, parseIP } from '../../net/ip';
import type { Gen, Sys } from '../../os/sys';

/** A network namespace's id in the kernel (not its mount path). */
export type NsId = NetnsId;

export function nsPrefix(sys: Sys, ns: NsId): string {
  return ns === sys.hostNs ? '' : `ip -n ${sys.nsLabel(ns)} `;
}

function cmd(sys: Sys, ns: NsId, rest: string): string {
  return `${nsPrefix(sys, ns) || 'ip '}${rest}`;
}

/** LinkByName: a read, no step. */
export function linkByName(sys: Sys, ns: NsId, name: string): Link {
  const n = sys.ns(ns);
  const l = n && K.linkByName(n, name);
  if (!l) throw new K.LinkNotFoundError();
  return l;
}

export function linkByIndex(sys: Sys, ns: NsId, ifindex: number): Link {
  const n = sys.ns(ns);
  const l = n && K.linkByIndex(n, ifindex);
  if (!l) throw new K.LinkNotFoundError();
  return l;
}

export function linkList(sys: Sys, ns: NsId): Link[] {
  const n = sys.ns(ns);
  return n ? K.linksOf(n) : [];
}

/** Re-reads a link after a change (links are immutable snapshots). */
export function refresh(sys: Sys, ns: NsId, l: Link): Link {
  return linkByIndex(sys, ns, l.ifindex);
}

export function* linkAddBridge(
  sys: Sys,
  ns: NsId,
  name: string,
  mtu: number,
  vlanFiltering: boolean,
): Gen<number> {
  return yield* sys.kernelOp(
    'link.add',
    cmd(
      sys,
      ns,
      `link add ${name}${mtu ? ` mtu ${mtu}` : ''} type bridge${vlanFiltering ? ' vlan_filtering 1' : ''}`,
    ),
    { ns: sys.nsLabel(ns), name, kind: 'bridge', mtu },
    // vishvananda/netlink sends IFLA_BR_VLAN_FILTERING only when Bridge.VlanFiltering is set,
    // which bridge 1.1.1 does only for a vlan.
    (k, rnd) =>
      K.linkAdd(
        k,
        ns,
        { kind: 'bridge', name, mtu, ...(vlanFiltering ? { vlanFiltering } : {}) },
        rnd,
      ),
  );
}

export function* linkAddVeth(
  sys: Sys,
  ns: NsId,
  name: string,
  peerName: string,
  peerNs: NsId,
  mtu: number,
  mac: string,
): Gen<number> {
  const peerLabel = peerNs === sys.hostNs ? 'host' : sys.nsLabel(peerNs);
  return yield* sys.kernelOp(
    'link.add',
    cmd(
      sys,
      ns,
      `link add ${name}${mtu ? ` mtu ${mtu}` : ''}${mac ? ` address ${mac}` : ''} type veth peer name ${peerName} netns ${peerLabel}`,
    ),
    { ns: sys.nsLabel(ns), name, kind: 'veth', peerName, peerNs: sys.nsLabel(peerNs), mtu, mac },
    (k, rnd) =>
      K.linkAdd(k, ns, { kind: 'veth', name, peerName, peerNs, mtu, ...(mac ? { mac } : {}) }, rnd),
  );
}

/**
 * LinkAdd of a netlink.Macvlan with ParentIndex (a device of `lowerNs`, where the call runs) and
 * Namespace (NsFd): the device is made in `ns` directly. MTU 0 and an empty MAC send no attribute;
 * `mac` is the bytes net.ParseMAC gave (6, 8 or 20, colon-separated). A LinkAttrs literal has
 * TxQLen 0, which netlink sends: the device gets txqueuelen 0 (fixed in plugins v1.6.0).
 */
export function* linkAddMacvlan(
  sys: Sys,
  lowerNs: NsId,
  lower: Link,
  ns: NsId,
  name: string,
  mode: 'private' | 'vepa' | 'bridge' | 'passthru',
  mtu: number,
  mac: string,
): Gen<number> {
  const target = ns === sys.hostNs ? 'host' : sys.nsLabel(ns);
  return yield* sys.kernelOp(
    'link.add',
    cmd(
      sys,
      lowerNs,
      `link add ${name} link ${lower.name}${mtu ? ` mtu ${mtu}` : ''}${mac ? ` address ${mac}` : ''} txqueuelen 0 netns ${target} type macvlan mode ${mode}`,
    ),
    { ns: sys.nsLabel(ns), name, kind: 'macvlan', lower: lower.name, mode, mtu, mac },
    (k, rnd) =>
      K.linkAdd(
        k,
        ns,
        {
          kind: 'macvlan',
          name,
          mode,
          lowerNs,
          lower: lower.ifindex,
          ...(mtu ? { mtu } : {}),
          ...(mac ? { mac } : {}),
          txqlen: 0,
        },
        rnd,
      ),
  );
}

export function* linkAddSimple(
  sys: Sys,
  ns: NsId,
  name: string,
  kind: 'dummy' | 'ifb',
  mtu = 0,
): Gen<number> {
  return yield* sys.kernelOp(
    'link.add',
    cmd(sys, ns, `link add ${name}${mtu ? ` mtu ${mtu}` : ''} type ${kind}`),
    { ns: sys.nsLabel(ns), name, kind, mtu },
    (k, rnd) => K.linkAdd(k, ns, { kind, name, mtu }, rnd),
  );
}

export function* linkDel(sys: Sys, ns: NsId, l: Link): Gen<void> {
  yield* sys.kernelOp(
    'link.del',
    cmd(sys, ns, `link del ${l.name}`),
    { ns: sys.nsLabel(ns), name: l.name },
    (k) => K.linkDel(k, ns, l.ifindex),
  );
}

export function* linkSetUp(sys: Sys, ns: NsId, l: Link): Gen<void> {
  yield* sys.kernelOp(
    'link.up',
    cmd(sys, ns, `link set ${l.name} up`),
    { ns: sys.nsLabel(ns), name: l.name },
    (k) => K.linkSetUp(k, ns, l.ifindex),
  );
}

export function* linkSetDown(sys: Sys, ns: NsId, l: Link): Gen<void> {
  yield* sys.kernelOp(
    'link.down',
    cmd(sys, ns, `link set ${l.name} down`),
    { ns: sys.nsLabel(ns), name: l.name },
    (k) => K.linkSetDown(k, ns, l.ifindex),
  );
}

export function* linkSetMaster(sys: Sys, ns: NsId, l: Link, master: Link): Gen<void> {
  yield* sys.kernelOp(
    'link.master',
    cmd(sys, ns, `link set ${l.name} master ${master.name}`),
    { ns: sys.nsLabel(ns), name: l.name, master: master.name },
    (k) => K.linkSetMaster(k, ns, l.ifindex, master.ifindex),
  );
}

export function* linkSetHairpin(sys: Sys, ns: NsId, l: Link, on: boolean): Gen<void> {
  yield* sys.kernelOp(
    'link.hairpin',
    `${ns === sys.hostNs ? '' : `[${sys.nsLabel(ns)}] `}bridge link set dev ${l.name} hairpin ${on ? 'on' : 'off'}`,
    { ns: sys.nsLabel(ns), name: l.name, hairpin: on },
    (k) => K.linkSetHairpin(k, ns, l.ifindex, on),
  );
}

/**
 * A link's `Attrs().HardwareAddr` as vishvananda/netlink reports it: an all-zero address (a
 * bridge with no ports and no address set) is left empty, so its String() is "".
 */
export function hardwareAddr(l: Link): string {
  return /^(00:)*00$/.test(l.mac) ? '' : l.mac;
}

/**
 * netlink.LinkSetHardwareAddr. An empty address still goes out as a zero-length IFLA_ADDRESS,
 * which the kernel's validate_linkmsg() refuses with EINVAL.
 */
export function* linkSetHardwareAddr(sys: Sys, ns: NsId, l: Link, mac: string): Gen<void> {
  yield* sys.kernelOp(
    'link.address',
    cmd(sys, ns, `link set ${l.name} address ${mac === '' ? '""' : mac}`),
    { ns: sys.nsLabel(ns), name: l.name, mac },
    (k) => {
      if (mac === '') throw new K.KernelError('EINVAL');
      K.linkSetMac(k, ns, l.ifindex, mac);
    },
  );
}

export function* linkSetMTU(sys: Sys, ns: NsId, l: Link, mtu: number): Gen<void> {
  yield* sys.kernelOp(
    'link.mtu',
    cmd(sys, ns, `link set ${l.name} mtu ${mtu}`),
    { ns: sys.nsLabel(ns), name: l.name, mtu },
    (k) => K.linkSetMtu(k, ns, l.ifindex, mtu),
  );
}

export function* linkSetTxQLen(sys: Sys, ns: NsId, l: Link, q: number): Gen<void> {
  yield* sys.kernelOp(
    'link.txqlen',
    cmd(sys, ns, `link set ${l.name} txqueuelen ${q}`),
    { ns: sys.nsLabel(ns), name: l.name, txqlen: q },
    (k) => K.linkSetTxqlen(k, ns, l.ifindex, q),
  );
}

export function* linkSetPromisc(sys: Sys, ns: NsId, l: Link, on: boolean): Gen<void> {
  yield* sys.kernelOp(
    'link.promisc',
    cmd(sys, ns, `link set ${l.name} promisc ${on ? 'on' : 'off'}`),
    { ns: sys.nsLabel(ns), name: l.name, promisc: on },
    (k) => K.linkSetPromisc(k, ns, l.ifindex, on),
  );
}

export function* linkSetAllmulti(sys: Sys, ns: NsId, l: Link, on: boolean): Gen<void> {
  yield* sys.kernelOp(
    'link.allmulti',
    cmd(sys, ns, `link set ${l.name} allmulticast ${on ? 'on' : 'off'}`),
    { ns: sys.nsLabel(ns), name: l.name, allmulti: on },
    (k) => K.linkSetAllmulti(k, ns, l.ifindex, on),
  );
}

export function* linkSetName(sys: Sys, ns: NsId, l: Link, name: string): Gen<void> {
  yield* sys.kernelOp(
    'link.rename',
    cmd(sys, ns, `link set ${l.name} name ${name}`),
    { ns: sys.nsLabel(ns), name: l.name, newName: name },
    (k) => K.linkSetName(k, ns, l.ifindex, name),
  );
}

export function* linkSetNs(sys: Sys, ns: NsId, l: Link, target: NsId): Gen<void> {
  yield* sys.kernelOp(
    'link.netns',
    cmd(
      sys,
      ns,
      `link set ${l.name} netns ${target === sys.hostNs ? 'host' : sys.nsLabel(target)}`,
    ),
    { ns: sys.nsLabel(ns), name: l.name, target: sys.nsLabel(target) },
    (k) => K.linkSetNs(k, ns, l.ifindex, target),
  );
}

/** AddrAdd: an IPv4 address gets a computed broadcast when the prefix is shorter than /31. */
export function* addrAdd(sys: Sys, ns: NsId, l: Link, a: IPNet): Gen<void> {
  const broadcast = a.ip.v === 4 && a.prefix < 31 ? ipString(lastOf(a)) : null;
  const text = `${ipString(a.ip)}/${a.prefix}`;
  yield* sys.kernelOp(
    'addr.add',
    cmd(sys, ns, `addr add ${text}${broadcast ? ` brd ${broadcast}` : ''} dev ${l.name}`),
    { ns: sys.nsLabel(ns), name: l.name, address: text },
    (k) => K.addrAdd(k, ns, l.ifindex, { ip: a.ip, prefix: a.prefix, broadcast }),
  );
}

export function* addrDel(sys: Sys, ns: NsId, l: Link, a: IPNet): Gen<void> {
  const text = `${ipString(a.ip)}/${a.prefix}`;
  yield* sys.kernelOp(
    'addr.del',
    cmd(sys, ns, `addr del ${text} dev ${l.name}`),
    { ns: sys.nsLabel(ns), name: l.name, address: text },
    (k) => K.addrDel(k, ns, l.ifindex, { ip: a.ip, prefix: a.prefix }),
  );
}

export function addrList(sys: Sys, ns: NsId, l: Link, family?: 4 | 6): IPNet[] {
  const cur = refresh(sys, ns, l);
  return cur.addrs
    .filter((a) => family === undefined || a.family === family)
    .map((a) => ({ ip: parseIPStrict(a.local), prefix: a.prefix }));
}

/** Addresses in kernel state are always valid. */
function parseIPStrict(s: string): IP {
  return parseIP(s)!;
}

export interface NlRoute {
  dst: IPNet | null;
  gw: IP | null;
  dev: number;
  scope?: Route['scope'];
  src?: IP | null;
}

function routeText(sys: Sys, ns: NsId, r: NlRoute, fam: 4 | 6): string {
  const l = sys.ns(ns) && K.linkByIndex(sys.ns(ns)!, r.dev);
  const dst =
    !r.dst || r.dst.prefix === 0
      ? 'default'
      : r.dst.prefix === bits(fam)
        ? ipString(r.dst.ip)
        : `${ipString(r.dst.ip)}/${r.dst.prefix}`;
  return `${dst}${r.gw ? ` via ${ipString(r.gw)}` : ''} dev ${l?.name ?? r.dev}${r.scope && r.scope !== 'universe' ? ` scope ${r.scope}` : ''}${r.src ? ` src ${ipString(r.src)}` : ''}`;
}

/**
 * RouteAdd (NLM_F_EXCL) or RouteAddEcmp (create only: an identical route is "file exists",
 * a different next hop for the same destination is added).
 */
export function* routeAdd(sys: Sys, ns: NsId, r: NlRoute, ecmp = false): Gen<void> {
  // routeHandle refuses, before any syscall, a route with nothing to tell its family by.
  if (!r.dst && !r.gw && !r.src) throw new Error('one of Dst.IP, Src, or Gw must not be nil');
  // Without a destination the family comes from the source or the gateway, as netlink sets it.
  const fam: 4 | 6 = r.dst ? r.dst.ip.v : (r.gw?.v ?? r.src?.v ?? 4);
  const dst = r.dst ?? { ip: fam === 4 ? { v: 4, n: 0n } : { v: 6, n: 0n }, prefix: 0 };
  const text = routeText(sys, ns, r, fam);
  yield* sys.kernelOp(
    'route.add',
    cmd(sys, ns, `${fam === 6 ? '-6 ' : ''}route add ${text}`),
    { ns: sys.nsLabel(ns), route: text },
    (k) =>
      K.routeAdd(
        k,
        ns,
        {
          family: fam,
          dst: dst.ip,
          prefix: dst.prefix,
          dev: r.dev,
          gateway: r.gw,
          // netlink sends Route.Scope as it is, and its zero value is RT_SCOPE_UNIVERSE: only
          // iproute2 picks scope link for a route without a gateway (the kernel's default here).
          scope: r.scope ?? 'universe',
          ...(r.src ? { prefsrc: r.src } : {}),
        },
        { append: ecmp },
      ),
  );
}

export function* routeDel(sys: Sys, ns: NsId, m: K.RouteMatch, label: string): Gen<void> {
  yield* sys.kernelOp(
    'route.del',
    cmd(sys, ns, `route del ${label}`),
    { ns: sys.nsLabel(ns), route: label },
    (k) => K.routeDel(k, ns, m),
  );
}

/** RouteListFiltered by destination (and gateway): a read. */
export function routeList(sys: Sys, ns: NsId, family: 4 | 6): Route[] {
  return (sys.ns(ns)?.routes ?? []).filter((r) => r.family === family);
}

export function* sysctlWrite(sys: Sys, ns: NsId, key: string, value: string): Gen<void> {
  yield* sys.kernelOp(
    'sysctl',
    `${ns === sys.hostNs ? '' : `[${sys.nsLabel(ns)}] `}sysctl -w ${key}=${value}`,
    { ns: sys.nsLabel(ns), key, value },
    (k) => K.sysctlSet(k, ns, key, value),
  );
}

export function sysctlRead(sys: Sys, ns: NsId, key: string): string | undefined {
  return K.sysctlGet(sys.kernel, ns, key);
}
