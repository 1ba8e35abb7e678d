/**
 * containernetworking/plugins pkg/ip and pkg/ipam helpers: veth setup, link deletion, forwarding,
 * IP masquerading, interface configuration and the CHECK validations, with their error texts.
 */
import { CniError, GoError } from '../../cni/errors';
import type { Result100, IPConfig, Route } from '../../cni/result';
import { q } from '../../gofmt';
import { isTentative, KernelError, LinkNotFoundError } from '../../kernel/kernel';
import type { Link } from '../../kernel/types';
import {
  type IP,
  type IPNet,
  goIPNetValue,
  goIPNetValuePlus,
  ipString,
  networkOf,
  isGlobalUnicast,
  netContains,
  parseIP,
} from '../../net/ip';
import type { Proc } from '../../os/process';
import type { Gen } from '../../os/sys';
import * as nl from './netlink';

export type NsId = nl.NsId;

/** ip.RandomVethName: "veth" + 8 random hex digits. */
export function randomVethName(p: Proc): string {
  return `veth${p.sys.sim.random((r) => r.hex(4))}`;
}

export interface VethResult {
  host: { name: string; mac: string; ifindex: number };
  cont: { name: string; mac: string; ifindex: number };
}

/**
 * ip.SetupVeth, run with the container namespace current: the container end is created in the
 * pod's namespace, its peer directly in the host namespace, then the host end is set up.
 */
export function* setupVeth(
  p: Proc,
  contNs: NsId,
  hostNs: NsId,
  contIfName: string,
  mtu: number,
  contMac: string,
): Gen<VethResult> {
  const sys = p.sys;
  let peerName = '';
  let cont: Link | null = null;
  for (let i = 0; i < 10; i++) {
    peerName = randomVethName(p);
    try {
      if (contMac) {
        // net.ParseMAC in makeVethPair; makeVeth wraps every error but EEXIST.
        if (!/^[0-9a-fA-F]{2}([:-][0-9a-fA-F]{2}){5}$/.test(contMac))
          throw new GoError(`failed to make veth pair: address ${contMac}: invalid MAC address`);
      }
      yield* nl.linkAddVeth(
        sys,
        contNs,
        contIfName,
        peerName,
        hostNs,
        mtu,
        contMac.toLowerCase().replace(/-/g, ':'),
      );
      cont = nl.linkByName(sys, contNs, contIfName);
      break;
    } catch (e) {
      if (e instanceof KernelError && e.errno === 'EEXIST') {
        // peerExists() looks the peer up in the current (container) namespace.
        const exists =
          !!sys.ns(contNs) && nl.linkList(sys, contNs).some((l) => l.name === peerName);
        if (exists) continue;
        throw new GoError(`container veth name provided (${contIfName}) already exists`);
      }
      if (e instanceof GoError) throw e;
      throw new GoError(`failed to make veth pair: ${(e as Error).message}`);
    }
  }
  if (!cont) throw new GoError('failed to find a unique veth name');
  let host: Link;
  try {
    host = nl.linkByName(sys, hostNs, peerName);
  } catch (e) {
    throw new GoError(
      `failed to lookup ${q(peerName)} in ${q('/proc/self/ns/net')}: ${(e as Error).message}`,
    );
  }
  const hostInfo = { name: host.name, mac: host.mac, ifindex: host.ifindex };
  try {
    yield* nl.linkSetUp(sys, hostNs, host);
  } catch (e) {
    throw new GoError(`failed to set ${q(peerName)} up: ${(e as Error).message}`);
  }
  try {
    yield* nl.sysctlWrite(sys, hostNs, `net.ipv6.conf.${peerName}.accept_ra`, '0');
  } catch {
    // ignored, as the real helper ignores it
  }
  return { host: hostInfo, cont: { name: cont.name, mac: cont.mac, ifindex: cont.ifindex } };
}

export const ErrLinkNotFound = new GoError('link not found');

/** ip.DelLinkByNameAddr: deletes the link, returns its global unicast addresses. */
export function* delLinkByNameAddr(
  p: Proc,
  ns: NsId,
  ifName: string,
): Gen<IPNet[] | typeof ErrLinkNotFound> {
  const sys = p.sys;
  let l: Link;
  try {
    l = nl.linkByName(sys, ns, ifName);
  } catch (e) {
    if (e instanceof LinkNotFoundError) return ErrLinkNotFound;
    throw new GoError(`failed to lookup ${q(ifName)}: ${(e as Error).message}`);
  }
  const addrs = nl.addrList(sys, ns, l);
  try {
    yield* nl.linkDel(sys, ns, l);
  } catch (e) {
    throw new GoError(`failed to delete ${q(ifName)}: ${(e as Error).message}`);
  }
  return addrs.filter((a) => isGlobalUnicast(a.ip));
}

/** ip.DelLinkByName: ErrLinkNotFound when there is no such link. */
export function* delLinkByName(p: Proc, ns: NsId, ifName: string): Gen<void> {
  let l: Link;
  try {
    l = nl.linkByName(p.sys, ns, ifName);
  } catch (e) {
    if (e instanceof LinkNotFoundError) throw ErrLinkNotFound;
    throw new GoError(`failed to lookup ${q(ifName)}: ${(e as Error).message}`);
  }
  try {
    yield* nl.linkDel(p.sys, ns, l);
  } catch (e) {
    throw new GoError(`failed to delete ${q(ifName)}: ${(e as Error).message}`);
  }
}

/** ip.EnableIP4Forward / EnableIP6Forward: writes 1 unless the file already says 1. */
export function* enableForward(p: Proc, family: 4 | 6): Gen<void> {
  const key = family === 4 ? 'net.ipv4.ip_forward' : 'net.ipv6.conf.all.forwarding';
  if (nl.sysctlRead(p.sys, p.sys.hostNs, key)?.trim() === '1') return;
  try {
    yield* nl.sysctlWrite(p.sys, p.sys.hostNs, key, '1');
  } catch (e) {
    throw new GoError(`open /proc/sys/${key.replace(/\./g, '/')}: ${(e as Error).message}`);
  }
}

export function* enableForwardFor(p: Proc, ips: readonly IPConfig[]): Gen<void> {
  let v4 = false;
  let v6 = false;
  for (const c of ips) {
    const is4 = c.address.ip.v === 4;
    if (is4 && !v4) {
      yield* enableForward(p, 4);
      v4 = true;
    } else if (!is4 && !v6) {
      yield* enableForward(p, 6);
      v6 = true;
    }
  }
}

/** `%+v` of an IPConfig (current.IPConfig.String()), pointer fields shown as a Go pointer. */
export function goIPConfigString(c: IPConfig): string {
  const iface = c.interface === null ? '<nil>' : '0xc000014128';
  return `{Interface:${iface} Address:${goIPNetValuePlus(c.address)} Gateway:${c.gateway ? ipString(c.gateway) : '<nil>'}}`;
}

/** `%+v` of a types.Route. */
export function goRouteString(r: Route): string {
  return `{Dst:${goIPNetValuePlus(r.dst)} GW:${r.gw ? ipString(r.gw) : '<nil>'}}`;
}

/**
 * ipam.ConfigureIface: addresses of the result that belong to `ifName`, link up, then the
 * routes (gateway defaulting to the first gateway of the same family).
 */
export function* configureIface(p: Proc, ns: NsId, ifName: string, res: Result100): Gen<void> {
  const sys = p.sys;
  const ifaces = res.interfaces ?? [];
  if (ifaces.length === 0) throw new GoError('no interfaces to configure');
  let link: Link;
  try {
    link = nl.linkByName(sys, ns, ifName);
  } catch (e) {
    throw new GoError(`failed to lookup ${q(ifName)}: ${(e as Error).message}`);
  }
  let v4gw: IP | null = null;
  let v6gw: IP | null = null;
  let enabledV6 = false;
  for (const c of res.ips ?? []) {
    if (c.interface === null) continue;
    const idx = c.interface;
    if (idx < 0 || idx >= ifaces.length || ifaces[idx]!.name !== ifName) {
      throw new GoError(
        `failed to add IP addr ${goIPConfigString(c)} to ${q(ifName)}: invalid interface index`,
      );
    }
    if (!enabledV6 && c.address.ip.v === 6) {
      for (const iface of ['lo', ifName]) {
        const key = `net.ipv6.conf.${iface}.disable_ipv6`;
        const value = nl.sysctlRead(sys, ns, key);
        if (value === undefined) {
          p.stderr += `ipam_linux: failed to read sysctl ${q(key.replace(/\./g, '/'))}: open /proc/sys/${key.replace(/\./g, '/')}: no such file or directory\n`;
          continue;
        }
        if (value === '0') continue;
        try {
          yield* nl.sysctlWrite(sys, ns, key, '0');
        } catch (e) {
          throw new GoError(
            `failed to enable IPv6 for interface ${q(iface)} (${key.replace(/\./g, '/')}=${value}): ${(e as Error).message}`,
          );
        }
      }
      enabledV6 = true;
    }
    try {
      yield* nl.addrAdd(sys, ns, link, c.address);
    } catch (e) {
      throw new GoError(
        `failed to add IP addr ${goIPConfigString(c)} to ${q(ifName)}: ${(e as Error).message}`,
      );
    }
    const gwIs4 = c.gateway !== null && c.gateway.v === 4;
    if (gwIs4 && v4gw === null) v4gw = c.gateway;
    else if (!gwIs4 && v6gw === null) v6gw = c.gateway;
  }
  try {
    yield* nl.linkSetUp(sys, ns, link);
  } catch (e) {
    throw new GoError(`failed to set ${q(ifName)} UP: ${(e as Error).message}`);
  }
  // Only with an IPv6 gateway, and its error is ignored: without one, the IPv6 addresses may
  // still be tentative when the plugin goes on (ptp's routes with them as source then fail).
  if (v6gw !== null) yield* settleAddresses(p, ns, ifName, 10);
  for (const r of res.routes ?? []) {
    // r.Dst.IP.To4() != nil: a route without dst takes the IPv6 gateway.
    const is4 = r.dst !== null && r.dst.ip.v === 4;
    let gw = r.gw;
    if (gw === null) gw = is4 ? v4gw : v6gw;
    try {
      yield* nl.routeAdd(sys, ns, { dst: r.dst, gw, dev: link.ifindex }, true);
    } catch (e) {
      throw new GoError(
        `failed to add route '${goIPNetValue(r.dst)} via ${gw ? ipString(gw) : '<nil>'} dev ${ifName}': ${(e as Error).message}`,
      );
    }
  }
}

/**
 * ip.SettleAddresses: waits until no IPv6 address of the link is tentative (duplicate address
 * detection), listing them every 50 ms, for at most `timeout` seconds; returns the error
 * SettleAddresses would (callers ignore it).
 */
export function* settleAddresses(
  p: Proc,
  ns: NsId,
  ifName: string,
  timeout: number,
): Gen<string | null> {
  const sys = p.sys;
  const deadline = sys.now + timeout * 1_000_000;
  for (;;) {
    let link: Link;
    try {
      link = nl.linkByName(sys, ns, ifName);
    } catch (e) {
      return `failed to retrieve link: ${(e as Error).message}`;
    }
    const v6 = link.addrs.filter((a) => a.family === 6);
    if (!v6.some((a) => isTentative(a, sys.now))) return null;
    if (sys.now > deadline)
      return `link ${ifName} still has tentative addresses after ${timeout} seconds`;
    yield* sys.sleep(50_000);
  }
}

/** ip.ValidateExpectedInterfaceIPs (CHECK). */
export function validateExpectedInterfaceIPs(
  p: Proc,
  ns: NsId,
  ifName: string,
  ips: readonly IPConfig[],
): void {
  const sys = p.sys;
  for (const c of ips) {
    let link: Link;
    try {
      link = nl.linkByName(sys, ns, ifName);
    } catch {
      throw new GoError(`Cannot find container link ${ifName}`);
    }
    const ours = `${ipString(c.address.ip)}/${c.address.prefix}`;
    const match = link.addrs.some((a) => {
      const ip = parseIP(a.local)!;
      return ip.v === c.address.ip.v && ip.n === c.address.ip.n && a.prefix === c.address.prefix;
    });
    if (!match) throw new GoError(`Failed to match addr ${ours} on interface ${ifName}`);
    // RouteListFiltered(family, {Dst: <the address's prefix>}, RT_FILTER_DST) over the main
    // table: nil (no error) when the prefix route is gone, e.g. after the link went down.
    const net = ipString(networkOf(c.address));
    const gwy = nl
      .routeList(sys, ns, c.address.ip.v)
      .some((r) => r.dst === net && r.prefix === c.address.prefix);
    if (!gwy) {
      const gw = c.gateway ? ipString(c.gateway) : '<nil>';
      throw new GoError(`Failed to find Gateway ${gw} for interface ${ifName}`);
    }
  }
}

/** ip.ValidateExpectedRoute (CHECK). */
export function validateExpectedRoute(p: Proc, ns: NsId, routes: readonly Route[]): void {
  for (const r of routes) {
    const dst = r.dst;
    if (!dst) throw new GoError(`Invalid static route found ${goRouteString(r)}`);
    const fam = dst.ip.v;
    const isDefault = dst.prefix === 0 && dst.ip.n === 0n;
    const list = nl.routeList(p.sys, ns, fam);
    const found = list.some((k) => {
      if (isDefault) return k.prefix === 0;
      const sameDstExact = k.prefix === dst.prefix && k.dst === ipString(dst.ip);
      const gwOk = r.gw === null ? k.gateway === null : k.gateway === ipString(r.gw);
      return sameDstExact && gwOk;
    });
    if (!found) throw new GoError(`Expected Route ${goRouteString(r)} not found in routing table`);
  }
}

export function containsIP(n: IPNet, ip: IP): boolean {
  return netContains(n, ip);
}

export { CniError };
