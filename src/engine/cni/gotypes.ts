/**
 * Go types of the CNI libraries (net.IP, types.IPNet, types.Route, types.NetConf, ...) described
 * for the gojson decoder, so that bad input fails with exactly the messages the real binaries
 * print ("json: cannot unmarshal string into Go struct field NetConf.mtu of type int",
 * "invalid CIDR address: 10.1", ...).
 */
import { decode } from '../gojson/decode';
import {
  type GoCustomType,
  type GoStructType,
  type GoType,
  embed,
  field,
  goAny,
  goBool,
  goInt,
  goString,
  map,
  ptr,
  slice,
  struct,
} from '../gojson/types';
import { type IP, type IPNet, parseIP, parseCIDR } from '../net/ip';

/** Declares a custom (Unmarshaler) Go type; the value type is only checked inside. */
export function custom<T>(def: GoCustomType<T>): GoType {
  return def as unknown as GoType;
}

/** net.IP: a TextUnmarshaler; "" is nil, anything unparsable is `invalid IP address: <s>`. */
export const netIP = custom<IP | null>({
  kind: 'custom',
  name: 'net.IP',
  zero: () => null,
  nullable: true,
  unmarshalText: (text) => {
    if (text === '') return { value: null };
    const ip = parseIP(text);
    return ip ? { value: ip } : { error: `invalid IP address: ${text}` };
  },
});

/** types.IPNet: UnmarshalJSON decodes a string, then net.ParseCIDR (keeping the address). */
export const typesIPNet = custom<IPNet | null>({
  kind: 'custom',
  name: 'types.IPNet',
  zero: () => null,
  unmarshalJSON: (raw) => {
    const s = decode<string>(raw, goString);
    if (s.error !== null) return { error: s.typeError ?? s.error };
    const r = parseCIDR(s.value);
    return r.ok ? { value: r.net } : { error: r.error };
  },
});

/** pkg/ip.IP (host-local's requested IPs): "a.b.c.d" or "a.b.c.d/len"; error `invalid IP address <s>`. */
export const pluginIP = custom<IP | null>({
  kind: 'custom',
  name: 'ip.IP',
  zero: () => null,
  unmarshalText: (text) => {
    if (text === '') return { value: null };
    const slash = text.includes('/');
    const ip = slash
      ? (() => {
          const c = parseCIDR(text);
          return c.ok ? c.net.ip : null;
        })()
      : parseIP(text);
    return ip ? { value: ip } : { error: `invalid IP address ${text}` };
  },
});

export interface GoRoute {
  dst: IPNet | null;
  gw: IP | null;
  /** Spec 1.1 fields: only types of cni v1.2+ have them (typesRoute11). */
  mtu?: number;
  advmss?: number;
  priority?: number;
  table?: number | null;
  scope?: number | null;
}

const routeInner: GoStructType = struct('types.route', [
  field('Dst', typesIPNet, 'dst', { prop: 'dst' }),
  field('GW', netIP, 'gw,omitempty', { prop: 'gw' }),
]);

/** types.Route: UnmarshalJSON through the private `route` struct. */
export const typesRoute = custom<GoRoute>({
  kind: 'custom',
  name: 'types.Route',
  zero: () => ({ dst: null, gw: null }),
  unmarshalJSON: (raw) => {
    const r = decode<GoRoute>(raw, routeInner);
    if (r.error !== null) return { error: r.typeError ?? r.error };
    return { value: r.value };
  },
});

const routeInner11: GoStructType = struct('types.route', [
  field('Dst', typesIPNet, 'dst', { prop: 'dst' }),
  field('GW', netIP, 'gw,omitempty', { prop: 'gw' }),
  field('MTU', goInt, 'mtu,omitempty', { prop: 'mtu' }),
  field('AdvMSS', goInt, 'advmss,omitempty', { prop: 'advmss' }),
  field('Priority', goInt, 'priority,omitempty', { prop: 'priority' }),
  field('Table', ptr(goInt), 'table,omitempty', { prop: 'table' }),
  field('Scope', ptr(goInt), 'scope,omitempty', { prop: 'scope' }),
]);

/** types.Route of cni v1.2+ (spec 1.1): also mtu, advmss, priority, table and scope. */
export const typesRoute11 = custom<GoRoute>({
  kind: 'custom',
  name: 'types.Route',
  zero: () => ({ dst: null, gw: null }),
  unmarshalJSON: (raw) => {
    const r = decode<GoRoute>(raw, routeInner11);
    if (r.error !== null) return { error: r.typeError ?? r.error };
    return { value: r.value };
  },
});

export interface GoDNS {
  nameservers: string[] | null;
  domain: string;
  search: string[] | null;
  options: string[] | null;
}

export const typesDNS: GoStructType = struct('types.DNS', [
  field('Nameservers', slice(goString), 'nameservers,omitempty', { prop: 'nameservers' }),
  field('Domain', goString, 'domain,omitempty', { prop: 'domain' }),
  field('Search', slice(goString), 'search,omitempty', { prop: 'search' }),
  field('Options', slice(goString), 'options,omitempty', { prop: 'options' }),
]);

export interface GoNetConf {
  cniVersion: string;
  name: string;
  type: string;
  capabilities: Record<string, boolean> | null;
  ipam: { type: string };
  dns: GoDNS;
  prevResult: Record<string, unknown> | null;
}

export const typesIPAM: GoStructType = struct('types.IPAM', [
  field('Type', goString, 'type,omitempty', { prop: 'type' }),
]);

/** types.NetConf, the part of a plugin's config every plugin embeds. */
export const typesNetConf: GoStructType = struct('types.NetConf', [
  field('CNIVersion', goString, 'cniVersion,omitempty', { prop: 'cniVersion' }),
  field('Name', goString, 'name,omitempty', { prop: 'name' }),
  field('Type', goString, 'type,omitempty', { prop: 'type' }),
  field('Capabilities', map(goBool), 'capabilities,omitempty', { prop: 'capabilities' }),
  field('IPAM', typesIPAM, 'ipam,omitempty', { prop: 'ipam' }),
  field('DNS', typesDNS, 'dns', { prop: 'dns' }),
  field('RawPrevResult', map(goAny), 'prevResult,omitempty', { prop: 'prevResult' }),
  field('PrevResult', goAny, '-', { prop: 'prevResultParsed' }),
]);

/** A plugin config struct: `type X struct { types.NetConf; ...fields }` (Go type name X). */
export function pluginConf(name: string, fields: ReturnType<typeof field>[]): GoStructType {
  return struct(name, [embed(typesNetConf, { prop: 'netConf' }), ...fields]);
}

export { field, struct, embed, goString, goBool, goInt, goAny, map, ptr, slice };
export type { GoType };

/** Decodes `text` into the Go type; returns the value and Go's error text (null on success). */
export function goDecode<T>(text: string, t: GoType, init?: T): { value: T; error: string | null } {
  const r = decode<T>(text, t, init);
  return { value: r.value, error: r.error };
}
