/**
 * Parsing results from JSON (cni/pkg/types/create, version.ParsePrevResult) with the Go
 * library's rules and error texts.
 */
import type { GoStructType, GoType } from '../gojson/types';
import { decode } from '../gojson/decode';
import type { IP, IPNet } from '../net/ip';
import { goList, q } from '../gofmt';
import {
  type DNS,
  type Interface,
  type IPConfig,
  type IPConfig020,
  type Result,
  type ResultLib,
  type Route,
  V040,
} from './result';
import {
  type GoDNS,
  type GoRoute,
  custom,
  field,
  goInt,
  goString,
  netIP,
  ptr,
  slice,
  struct,
  typesDNS,
  typesIPNet,
  typesRoute,
  typesRoute11,
} from './gotypes';
import { goMarshal } from './json';

/** An IPNet Go would hold as its zero value (no address at all). */
export const ZERO_IPNET: IPNet = { ip: { v: 4, n: 0n }, prefix: 0 };

/*
 * Go types are built once, at load: the decoder caches each struct type's fields by the type
 * object, so a type built per call would have its fields worked out again on every decode.
 */
const VERSION_ONLY = struct(undefined, [
  field('CNIVersion', goString, 'cniVersion', { prop: 'cniVersion' }),
]);

/** create.DecodeVersion. */
export function decodeVersion(
  text: string,
): { ok: true; version: string } | { ok: false; error: string } {
  const r = decode<{ cniVersion: string }>(text, VERSION_ONLY);
  if (r.error !== null)
    return { ok: false, error: `decoding version from network config: ${r.error}` };
  return { ok: true, version: r.value.cniVersion === '' ? '0.1.0' : r.value.cniVersion };
}

interface RawIPConfig {
  version?: string;
  interface: number | null;
  address: IPNet | null;
  gateway: IP | null;
}

function ipConfigType(withVersion: boolean, name: string): GoType {
  const inner: GoStructType = struct(`${name.split('.')[0]}.ipConfig`, [
    ...(withVersion ? [field('Version', goString, 'version', { prop: 'version' })] : []),
    field('Interface', ptr(goInt), 'interface,omitempty', { prop: 'interface' }),
    field('Address', typesIPNet, 'address', { prop: 'address' }),
    field('Gateway', netIP, 'gateway,omitempty', { prop: 'gateway' }),
  ]);
  return custom<RawIPConfig>({
    kind: 'custom',
    name,
    zero: () => ({ interface: null, address: null, gateway: null }),
    unmarshalJSON: (raw) => {
      const r = decode<RawIPConfig>(raw, inner);
      if (r.error !== null) return { error: r.typeError ?? r.error };
      return { value: r.value };
    },
  });
}

interface RawIface {
  name: string;
  mac: string;
  sandbox: string;
  mtu?: number;
  socketPath?: string;
  pciID?: string;
}

function ifaceType(name: string, v11: boolean): GoStructType {
  return struct(name, [
    field('Name', goString, 'name', { prop: 'name' }),
    field('Mac', goString, 'mac,omitempty', { prop: 'mac' }),
    ...(v11 ? [field('Mtu', goInt, 'mtu,omitempty', { prop: 'mtu' })] : []),
    field('Sandbox', goString, 'sandbox,omitempty', { prop: 'sandbox' }),
    ...(v11
      ? [
          field('SocketPath', goString, 'socketPath,omitempty', { prop: 'socketPath' }),
          field('PciID', goString, 'pciID,omitempty', { prop: 'pciID' }),
        ]
      : []),
  ]);
}

interface RawResult {
  cniVersion: string;
  interfaces: (RawIface | null)[] | null;
  ips: (RawIPConfig | null)[] | null;
  routes: (GoRoute | null)[] | null;
  dns: GoDNS;
  ip4?: RawIP020 | null;
  ip6?: RawIP020 | null;
}

interface RawIP020 {
  ip: IPNet | null;
  gateway: IP | null;
  routes: GoRoute[] | null;
}

const ip020Inner = struct('types020.ipConfig', [
  field('IP', typesIPNet, 'ip', { prop: 'ip' }),
  field('Gateway', netIP, 'gateway,omitempty', { prop: 'gateway' }),
  field('Routes', slice(typesRoute), 'routes,omitempty', { prop: 'routes' }),
]);

const ip020Type = custom<RawIP020>({
  kind: 'custom',
  name: 'types020.IPConfig',
  zero: () => ({ ip: null, gateway: null, routes: null }),
  unmarshalJSON: (raw) => {
    const r = decode<RawIP020>(raw, ip020Inner);
    if (r.error !== null) return { error: r.typeError ?? r.error };
    return { value: r.value };
  },
});

const resultTypes = new Map<string, GoStructType>();

/** The Result struct of a types package (built once per package and library version). */
function resultType(kind: '100' | '040' | '020', v11: boolean): GoStructType {
  const key = `${kind}/${v11}`;
  let t = resultTypes.get(key);
  if (!t) {
    t = buildResultType(kind, v11);
    resultTypes.set(key, t);
  }
  return t;
}

function buildResultType(kind: '100' | '040' | '020', v11: boolean): GoStructType {
  const pkg = kind === '100' ? 'types100' : kind === '040' ? 'types040' : 'types020';
  if (kind === '020') {
    return struct(`${pkg}.Result`, [
      field('CNIVersion', goString, 'cniVersion,omitempty', { prop: 'cniVersion' }),
      field('IP4', ptr(ip020Type), 'ip4,omitempty', { prop: 'ip4' }),
      field('IP6', ptr(ip020Type), 'ip6,omitempty', { prop: 'ip6' }),
      field('DNS', typesDNS, 'dns,omitempty', { prop: 'dns' }),
    ]);
  }
  return struct(`${pkg}.Result`, [
    field('CNIVersion', goString, 'cniVersion,omitempty', { prop: 'cniVersion' }),
    field('Interfaces', slice(ptr(ifaceType(`${pkg}.Interface`, v11))), 'interfaces,omitempty', {
      prop: 'interfaces',
    }),
    field('IPs', slice(ptr(ipConfigType(kind === '040', `${pkg}.IPConfig`))), 'ips,omitempty', {
      prop: 'ips',
    }),
    field('Routes', slice(ptr(v11 ? typesRoute11 : typesRoute)), 'routes,omitempty', {
      prop: 'routes',
    }),
    field('DNS', typesDNS, 'dns,omitempty', { prop: 'dns' }),
  ]);
}

function toDNS(d: GoDNS): DNS {
  return { nameservers: d.nameservers, domain: d.domain, search: d.search, options: d.options };
}

function toRoute(r: GoRoute | null): Route {
  // A route without "dst" keeps Go's zero IPNet (printed "<nil>"); the 1.1 fields are there
  // only when the library's types have them.
  const o: Route = { dst: r?.dst ?? null, gw: r?.gw ?? null };
  if (r?.mtu !== undefined) o.mtu = r.mtu;
  if (r?.advmss !== undefined) o.advmss = r.advmss;
  if (r?.priority !== undefined) o.priority = r.priority;
  if (r?.table !== undefined) o.table = r.table;
  if (r?.scope !== undefined) o.scope = r.scope;
  return o;
}

function toIface(i: RawIface | null): Interface {
  const o: Interface = { name: i?.name ?? '', mac: i?.mac ?? '', sandbox: i?.sandbox ?? '' };
  if (i?.mtu) o.mtu = i.mtu;
  if (i?.socketPath) o.socketPath = i.socketPath;
  if (i?.pciID) o.pciID = i.pciID;
  return o;
}

function toIPConfig(c: RawIPConfig | null, withVersion: boolean): IPConfig {
  const o: IPConfig = {
    interface: c?.interface ?? null,
    address: c?.address ?? ZERO_IPNET,
    gateway: c?.gateway ?? null,
  };
  if (withVersion) o.version = c?.version ?? '';
  return o;
}

function toIP020(c: RawIP020 | null | undefined): IPConfig020 | null {
  if (!c) return null;
  return {
    ip: c.ip ?? ZERO_IPNET,
    gateway: c.gateway,
    routes: c.routes ? c.routes.map(toRoute) : null,
  };
}

/** create.Create(version, bytes): throws Error with Go's text. */
export function createResult(version: string, text: string, lib: ResultLib): Result {
  let kind: '100' | '040' | '020';
  let supported: readonly string[];
  if (lib.v100.includes(version)) {
    kind = '100';
    supported = lib.v100;
  } else if ((V040 as readonly string[]).includes(version)) {
    kind = '040';
    supported = V040;
  } else if (version === '' || version === '0.1.0' || version === '0.2.0') {
    kind = '020';
    supported = ['', '0.1.0', '0.2.0'];
  } else {
    throw new Error(`unsupported CNI result version ${q(version)}`);
  }
  const r = decode<RawResult>(text, resultType(kind, lib.v100.includes('1.1.0')));
  if (r.error !== null) throw new Error(r.error);
  const raw = r.value;
  if (!supported.includes(raw.cniVersion)) {
    throw new Error(
      `result type supports ${goList(supported)} but unmarshalled CNIVersion is ${q(raw.cniVersion)}`,
    );
  }
  if (kind === '020') {
    return {
      kind,
      cniVersion: raw.cniVersion === '' ? '0.1.0' : raw.cniVersion,
      ip4: toIP020(raw.ip4),
      ip6: toIP020(raw.ip6),
      dns: toDNS(raw.dns),
    };
  }
  return {
    kind,
    cniVersion: raw.cniVersion,
    interfaces: raw.interfaces ? raw.interfaces.map(toIface) : null,
    ips: raw.ips ? raw.ips.map((c) => toIPConfig(c, kind === '040')) : null,
    routes: raw.routes ? raw.routes.map(toRoute) : null,
    dns: toDNS(raw.dns),
  };
}

/** create.CreateFromBytes: version from the text itself. */
export function createFromBytes(text: string, lib: ResultLib): Result {
  const v = decodeVersion(text);
  if (!v.ok) throw new Error(v.error);
  return createResult(v.version, text, lib);
}

/**
 * version.ParsePrevResult: fills a missing cniVersion from the config's, re-marshals the map and
 * creates a result at the config's version. Throws with `could not parse prevResult: ...`.
 */
export function parsePrevResult(
  raw: Record<string, unknown>,
  confVersion: string,
  lib: ResultLib,
): Result {
  const m = { ...raw };
  // Go looks up the key "CNIVersion" (not "cniVersion"): it is normally absent, so it is set.
  if (!('CNIVersion' in m) || m['CNIVersion'] === '') m['CNIVersion'] = confVersion;
  const text = goMarshal(sortKeys(m));
  try {
    return createResult(confVersion, text, lib);
  } catch (e) {
    throw new Error(`could not parse prevResult: ${(e as Error).message}`);
  }
}

function sortKeys(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k];
  return out;
}
