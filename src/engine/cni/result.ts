/**
 * CNI results in every spec version's shape, with the Go library's conversions between them
 * (cni/pkg/types/{020,040,100}, internal/convert) and its JSON layout (field order, omitempty).
 */
import { type IP, type IPNet, ipString, ipNetString, parseIP, parseCIDR } from '../net/ip';

export interface DNS {
  nameservers: string[] | null;
  domain: string;
  search: string[] | null;
  options: string[] | null;
}

export const emptyDNS = (): DNS => ({ nameservers: null, domain: '', search: null, options: null });

export function copyDNS(d: DNS): DNS {
  return {
    nameservers: d.nameservers && d.nameservers.length ? [...d.nameservers] : null,
    domain: d.domain,
    search: d.search && d.search.length ? [...d.search] : null,
    options: d.options && d.options.length ? [...d.options] : null,
  };
}

export interface Route {
  /** null: Go's zero net.IPNet (a route given without "dst"), printed as "<nil>". */
  dst: IPNet | null;
  gw: IP | null;
  /** Spec 1.1 fields (only kept by a 1.1-aware library). */
  mtu?: number;
  advmss?: number;
  priority?: number;
  table?: number | null;
  scope?: number | null;
}

export interface Interface {
  name: string;
  mac: string;
  sandbox: string;
  /** Spec 1.1 fields. */
  mtu?: number;
  socketPath?: string;
  pciID?: string;
}

export interface IPConfig {
  /** Index into interfaces; null when absent (IPAM results). */
  interface: number | null;
  address: IPNet;
  gateway: IP | null;
  /** "4" or "6": only in the 0.3.x / 0.4.0 shape. */
  version?: string;
}

export interface Result100 {
  kind: '100';
  cniVersion: string;
  interfaces: Interface[] | null;
  ips: IPConfig[] | null;
  routes: Route[] | null;
  dns: DNS;
}

export interface Result040 {
  kind: '040';
  cniVersion: string;
  interfaces: Interface[] | null;
  ips: IPConfig[] | null;
  routes: Route[] | null;
  dns: DNS;
}

export interface IPConfig020 {
  ip: IPNet;
  gateway: IP | null;
  routes: Route[] | null;
}

export interface Result020 {
  kind: '020';
  cniVersion: string;
  ip4: IPConfig020 | null;
  ip6: IPConfig020 | null;
  dns: DNS;
}

export type Result = Result100 | Result040 | Result020;

/** Which versions each result type accepts, per library generation. */
export interface ResultLib {
  /** types100 supported versions: ["1.0.0"] in libcni v1.1, ["1.0.0","1.1.0"] from v1.2. */
  v100: readonly string[];
  /** ImplementedSpecVersion of types100. */
  current: string;
}

export const LIB_V1_1: ResultLib = { v100: ['1.0.0'], current: '1.0.0' };
export const LIB_V1_2: ResultLib = { v100: ['1.0.0', '1.1.0'], current: '1.1.0' };

export const V040 = ['0.3.0', '0.3.1', '0.4.0'] as const;
export const V020 = ['', '0.1.0', '0.2.0'] as const;

// ---------------------------------------------------------------------------------------------
// Conversions (internal/convert.Convert)

function copyRoute(r: Route): Route {
  return { ...r };
}

function convert040To100(from: Result040, toVersion: string, lib: ResultLib): Result100 {
  const keep11 = lib.v100.includes('1.1.0');
  return {
    kind: '100',
    cniVersion: toVersion,
    dns: copyDNS(from.dns),
    routes: (from.routes ?? []).map((r) => (keep11 ? copyRoute(r) : { dst: r.dst, gw: r.gw })),
    interfaces: from.interfaces
      ? from.interfaces.map((i) => ({ name: i.name, mac: i.mac, sandbox: i.sandbox }))
      : null,
    ips: from.ips
      ? from.ips.map((c) => ({ interface: c.interface, address: c.address, gateway: c.gateway }))
      : null,
  };
}

function convert100To040(from: Result100, toVersion: string): Result040 {
  return {
    kind: '040',
    cniVersion: toVersion,
    dns: copyDNS(from.dns),
    routes: (from.routes ?? []).map((r) => ({ dst: r.dst, gw: r.gw })),
    interfaces: from.interfaces
      ? from.interfaces.map((i) => ({ name: i.name, mac: i.mac, sandbox: i.sandbox }))
      : null,
    ips: from.ips
      ? from.ips.map((c) => ({
          version: c.address.ip.v === 4 ? '4' : '6',
          interface: c.interface,
          address: c.address,
          gateway: c.gateway,
        }))
      : null,
  };
}

function convert040Internal(from: Result040, toVersion: string): Result040 {
  return {
    kind: '040',
    cniVersion: toVersion,
    dns: copyDNS(from.dns),
    routes: (from.routes ?? []).map(copyRoute),
    interfaces: from.interfaces ? from.interfaces.map((i) => ({ ...i })) : null,
    ips: from.ips ? from.ips.map((c) => ({ ...c })) : null,
  };
}

function convert020To040(from: Result020, toVersion: string): Result040 {
  const out: Result040 = {
    kind: '040',
    cniVersion: toVersion,
    dns: copyDNS(from.dns),
    routes: [],
    interfaces: null,
    ips: null,
  };
  const push = (c: IPConfig020 | null, version: string) => {
    if (!c) return;
    (out.ips ??= []).push({ version, interface: null, address: c.ip, gateway: c.gateway });
    for (const r of c.routes ?? []) out.routes!.push(copyRoute(r));
  };
  push(from.ip4, '4');
  push(from.ip6, '6');
  return out;
}

function convert040To020(from: Result040, toVersion: string): Result020 {
  const out: Result020 = {
    kind: '020',
    cniVersion: toVersion,
    ip4: null,
    ip6: null,
    dns: copyDNS(from.dns),
  };
  for (const ip of from.ips ?? []) {
    if (ip.version === '4' && !out.ip4)
      out.ip4 = { ip: ip.address, gateway: ip.gateway, routes: null };
    else if (ip.version === '6' && !out.ip6)
      out.ip6 = { ip: ip.address, gateway: ip.gateway, routes: null };
    if (out.ip4 && out.ip6) break;
  }
  for (const r of from.routes ?? []) {
    // fromRoute.Dst.IP.To4() != nil: a route without dst counts as IPv6.
    const is4 = r.dst !== null && r.dst.ip.v === 4;
    const target = is4 ? out.ip4 : out.ip6;
    if (target) (target.routes ??= []).push({ dst: r.dst, gw: r.gw });
  }
  if (!out.ip4 && !out.ip6) throw new Error('cannot convert: no valid IP addresses');
  return out;
}

function familyOf(version: string, lib: ResultLib): '100' | '040' | '020' | null {
  if (lib.v100.includes(version)) return '100';
  if ((V040 as readonly string[]).includes(version)) return '040';
  if (version === '0.1.0' || version === '0.2.0') return '020';
  return null;
}

/**
 * convert.Convert: throws Error with Go's text (`no converter for CNI result version X to Y`,
 * `cannot convert: no valid IP addresses`).
 */
export function convertResult(from: Result, toVersion: string, lib: ResultLib): Result {
  if (toVersion === '') toVersion = '0.1.0';
  const fromVersion = from.cniVersion;
  if (fromVersion === toVersion) return from;
  const src = familyOf(fromVersion, lib);
  const dst = familyOf(toVersion, lib);
  const noConv = () =>
    new Error(`no converter for CNI result version ${fromVersion} to ${toVersion}`);
  if (!src || !dst) throw noConv();
  if (src === '020' && dst === '020') {
    return {
      ...(from as Result020),
      cniVersion: toVersion === '0.1.0' ? '0.1.0' : '0.2.0',
      dns: copyDNS(from.dns),
    };
  }
  if (src === '020' && dst === '040') return convert020To040(from as Result020, toVersion);
  if (src === '020' && dst === '100')
    return convert040To100(convert020To040(from as Result020, '0.4.0'), toVersion, lib);
  if (src === '040' && dst === '040') {
    // 0.4.0 converts down to 0.3.x; 0.3.x converts among themselves and up to 0.4.0.
    return convert040Internal(from as Result040, toVersion);
  }
  if (src === '040' && dst === '020') return convert040To020(from as Result040, toVersion);
  if (src === '040' && dst === '100') return convert040To100(from as Result040, toVersion, lib);
  if (src === '100' && dst === '040') return convert100To040(from as Result100, toVersion);
  if (src === '100' && dst === '020') {
    return convertResult(convert100To040(from as Result100, '0.4.0'), toVersion, lib);
  }
  if (src === '100' && dst === '100') {
    // 1.0.0 <-> 1.1.0 (libcni v1.2+)
    const r = from as Result100;
    return { ...r, cniVersion: toVersion, dns: copyDNS(r.dns) };
  }
  throw noConv();
}

/** Result.GetAsVersion: an empty cniVersion counts as the type's own version. */
export function getAsVersion(r: Result, version: string, lib: ResultLib): Result {
  let from = r;
  if (r.cniVersion === '') {
    const own = r.kind === '100' ? lib.current : r.kind === '040' ? '0.4.0' : '0.2.0';
    from = { ...r, cniVersion: own };
  }
  return convertResult(from, version, lib);
}

/** types100.NewResultFromResult: any result as the library's current 1.x shape. */
export function toCurrent(r: Result, lib: ResultLib): Result100 {
  return convertResult(r, lib.current, lib) as Result100;
}

// ---------------------------------------------------------------------------------------------
// JSON layout (as encoding/json writes these structs)

function dnsJSON(d: DNS): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (d.nameservers && d.nameservers.length) o['nameservers'] = d.nameservers;
  if (d.domain) o['domain'] = d.domain;
  if (d.search && d.search.length) o['search'] = d.search;
  if (d.options && d.options.length) o['options'] = d.options;
  return o;
}

function routeJSON(r: Route, full11: boolean): Record<string, unknown> {
  // types.IPNet.MarshalJSON: (*net.IPNet).String() of the zero IPNet is "<nil>".
  const o: Record<string, unknown> = { dst: r.dst ? ipNetString(r.dst) : '<nil>' };
  if (r.gw) o['gw'] = ipString(r.gw);
  if (full11) {
    if (r.mtu) o['mtu'] = r.mtu;
    if (r.advmss) o['advmss'] = r.advmss;
    if (r.priority) o['priority'] = r.priority;
    if (r.table !== undefined && r.table !== null) o['table'] = r.table;
    if (r.scope !== undefined && r.scope !== null) o['scope'] = r.scope;
  }
  return o;
}

function ifaceJSON(i: Interface, full11: boolean): Record<string, unknown> {
  const o: Record<string, unknown> = { name: i.name };
  if (i.mac) o['mac'] = i.mac;
  if (full11 && i.mtu) o['mtu'] = i.mtu;
  if (i.sandbox) o['sandbox'] = i.sandbox;
  if (full11 && i.socketPath) o['socketPath'] = i.socketPath;
  if (full11 && i.pciID) o['pciID'] = i.pciID;
  return o;
}

/** The result as the JS value encoding/json would write (field order kept). */
export function resultJSON(r: Result, lib: ResultLib = LIB_V1_1): Record<string, unknown> {
  const o: Record<string, unknown> = {};
  if (r.cniVersion) o['cniVersion'] = r.cniVersion;
  if (r.kind === '020') {
    const c = (x: IPConfig020) => {
      const v: Record<string, unknown> = { ip: ipNetString(x.ip) };
      if (x.gateway) v['gateway'] = ipString(x.gateway);
      if (x.routes && x.routes.length) v['routes'] = x.routes.map((rt) => routeJSON(rt, false));
      return v;
    };
    if (r.ip4) o['ip4'] = c(r.ip4);
    if (r.ip6) o['ip6'] = c(r.ip6);
    o['dns'] = dnsJSON(r.dns);
    return o;
  }
  const full11 = r.kind === '100' && lib.v100.includes('1.1.0');
  if (r.interfaces && r.interfaces.length)
    o['interfaces'] = r.interfaces.map((i) => ifaceJSON(i, full11));
  if (r.ips && r.ips.length) {
    o['ips'] = r.ips.map((c) => {
      const v: Record<string, unknown> = {};
      if (r.kind === '040') v['version'] = c.version ?? '';
      if (c.interface !== null) v['interface'] = c.interface;
      v['address'] = ipNetString(c.address);
      if (c.gateway) v['gateway'] = ipString(c.gateway);
      return v;
    });
  }
  if (r.routes && r.routes.length) o['routes'] = r.routes.map((rt) => routeJSON(rt, full11));
  o['dns'] = dnsJSON(r.dns);
  return o;
}

// Parsing helpers used by the typed decoders.
export function mustIP(s: string): IP {
  const ip = parseIP(s);
  if (!ip) throw new Error(`invalid IP address: ${s}`);
  return ip;
}

export function mustCIDR(s: string): IPNet {
  const r = parseCIDR(s);
  if (!r.ok) throw new Error(r.error);
  return r.net;
}
