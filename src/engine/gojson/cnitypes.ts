/**
 * GoType descriptions of containernetworking types whose JSON behaviour matters for fidelity:
 * cni/pkg/types (IPNet, Route, NetConf, IPAM, DNS), plugins/pkg/ip.IP, and mirrors of the bridge
 * plugin's NetConf and host-local's allocator.Net (plugins v1.1.1). All are checked against real Go
 * in the golden tests; plugin simulations may reuse them.
 */
import { decode, decodeErrorOf } from './decode';
import { goJSONString } from './encode';
import {
  ipNetString,
  ipString,
  netIPType,
  parseCIDR,
  parseIP,
  type GoIP,
  type GoIPNet,
} from './gonet';
import {
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
  type GoCustomType,
  type GoStructType,
} from './types';

/** types.IPNet: UnmarshalJSON = json.Unmarshal into a string, then types.ParseCIDR. */
export const cniIPNetType: GoCustomType<GoIPNet> = {
  kind: 'custom',
  name: 'types.IPNet',
  zero: () => ({ IP: null, Mask: null }),
  unmarshalJSON: (raw, cur) => {
    const r = decode<string>(raw, goString);
    const err = decodeErrorOf(r);
    if (err !== null) return { error: err, value: cur };
    const p = parseCIDR(r.value);
    if (p.error !== null) return { error: p.error, value: cur };
    return { value: { IP: p.ip, Mask: p.net.Mask } }; // types.ParseCIDR keeps the host IP
  },
  marshalJSON: (n) => ({ value: goJSONString(ipNetString(n)) }),
};

/** The unexported types.route used by Route's (Un)MarshalJSON. */
export const cniRouteJSONType: GoStructType = struct('types.route', [
  field('Dst', cniIPNetType, 'dst'),
  field('GW', netIPType, 'gw,omitempty'),
]);

export interface CniRoute {
  Dst: GoIPNet;
  GW: GoIP;
}

/** types.Route {Dst net.IPNet; GW net.IP} with its custom (Un)MarshalJSON. */
export const cniRouteType: GoCustomType<CniRoute> = {
  kind: 'custom',
  name: 'types.Route',
  zero: () => ({ Dst: { IP: null, Mask: null }, GW: null }),
  unmarshalJSON: (raw, cur) => {
    const r = decode<{ dst: GoIPNet; gw: GoIP }>(raw, cniRouteJSONType);
    const err = decodeErrorOf(r);
    if (err !== null) return { error: err, value: cur };
    return { value: { Dst: r.value.dst, GW: r.value.gw } };
  },
  marshalJSON: (r) => {
    const gw = r.GW === null || r.GW.length === 0 ? '' : ',"gw":' + goJSONString(ipString(r.GW));
    return { value: '{"dst":' + goJSONString(ipNetString(r.Dst)) + gw + '}' };
  },
};

export interface PluginsIP {
  IPNet: GoIPNet;
}

/** plugins/pkg/ip.IP (struct{net.IPNet}) with UnmarshalText "invalid IP address <s>". */
export const pluginsIPType: GoCustomType<PluginsIP> = {
  kind: 'custom',
  name: 'ip.IP',
  zero: () => ({ IPNet: { IP: null, Mask: null } }),
  unmarshalText: (text) => {
    if (text.length === 0) return { value: { IPNet: { IP: null, Mask: null } } };
    if (text.includes('/')) {
      const p = parseCIDR(text);
      if (p.error === null) return { value: { IPNet: { IP: p.ip, Mask: p.net.Mask } } };
    } else {
      const ip = parseIP(text);
      if (ip !== null) return { value: { IPNet: { IP: ip, Mask: null } } };
    }
    return { error: 'invalid IP address ' + text };
  },
  marshalText: (i) => {
    if (i.IPNet.IP === null || i.IPNet.IP.length === 0) return { value: '' };
    if (i.IPNet.Mask !== null && i.IPNet.Mask.length > 0) return { value: ipNetString(i.IPNet) };
    return { value: ipString(i.IPNet.IP) };
  },
};

export const cniIPAMType = struct('types.IPAM', [field('Type', goString, 'type,omitempty')]);

export const cniDNSType = struct('types.DNS', [
  field('Nameservers', slice(goString), 'nameservers,omitempty'),
  field('Domain', goString, 'domain,omitempty'),
  field('Search', slice(goString), 'search,omitempty'),
  field('Options', slice(goString), 'options,omitempty'),
]);

/** types.NetConf (cni v1.1.x). */
export const cniNetConfType = struct('types.NetConf', [
  field('CNIVersion', goString, 'cniVersion,omitempty'),
  field('Name', goString, 'name,omitempty'),
  field('Type', goString, 'type,omitempty'),
  field('Capabilities', map(goBool), 'capabilities,omitempty'),
  field('IPAM', cniIPAMType, 'ipam,omitempty'),
  field('DNS', cniDNSType, 'dns'),
  field('RawPrevResult', map(goAny), 'prevResult,omitempty'),
  field('PrevResult', { kind: 'interface', name: 'types.Result' }, '-'),
]);

/** The bridge plugin's NetConf (package main, plugins v1.1.1). */
export const bridgeArgsType = struct('main.BridgeArgs', [field('Mac', goString, 'mac,omitempty')]);

export const bridgeNetConfType = struct('main.NetConf', [
  embed(cniNetConfType),
  field('BrName', goString, 'bridge'),
  field('IsGW', goBool, 'isGateway'),
  field('IsDefaultGW', goBool, 'isDefaultGateway'),
  field('ForceAddress', goBool, 'forceAddress'),
  field('IPMasq', goBool, 'ipMasq'),
  field('MTU', goInt, 'mtu'),
  field('HairpinMode', goBool, 'hairpinMode'),
  field('PromiscMode', goBool, 'promiscMode'),
  field('Vlan', goInt, 'vlan'),
  field('MacSpoofChk', goBool, 'macspoofchk,omitempty'),
  field('EnableDad', goBool, 'enabledad,omitempty'),
  field(
    'Args',
    struct(undefined, [field('Cni', bridgeArgsType, 'cni,omitempty')]),
    'args,omitempty',
  ),
  field(
    'RuntimeConfig',
    struct(undefined, [field('Mac', goString, 'mac,omitempty')]),
    'runtimeConfig,omitempty',
  ),
  field('mac', goString, undefined, { unexported: true }),
]);

/** host-local's allocator types. */
export const allocatorRangeType = struct('allocator.Range', [
  field('RangeStart', netIPType, 'rangeStart,omitempty'),
  field('RangeEnd', netIPType, 'rangeEnd,omitempty'),
  field('Subnet', cniIPNetType, 'subnet'),
  field('Gateway', netIPType, 'gateway,omitempty'),
]);

export const allocatorRangeSetType = slice(allocatorRangeType, 'allocator.RangeSet');

export const allocatorIPAMConfigType = struct('allocator.IPAMConfig', [
  embed(ptr(allocatorRangeType)),
  field('Name', goString),
  field('Type', goString, 'type'),
  field('Routes', slice(ptr(cniRouteType)), 'routes'),
  field('DataDir', goString, 'dataDir'),
  field('ResolvConf', goString, 'resolvConf'),
  field('Ranges', slice(allocatorRangeSetType), 'ranges'),
  field('IPArgs', slice(netIPType), '-'),
]);

export const allocatorIPAMArgsType = struct('allocator.IPAMArgs', [
  field('IPs', slice(ptr(pluginsIPType)), 'ips'),
]);

export const allocatorNetType = struct('allocator.Net', [
  field('Name', goString, 'name'),
  field('CNIVersion', goString, 'cniVersion'),
  field('IPAM', ptr(allocatorIPAMConfigType), 'ipam'),
  field(
    'RuntimeConfig',
    struct(undefined, [
      field('IPRanges', slice(allocatorRangeSetType), 'ipRanges,omitempty'),
      field('IPs', slice(ptr(pluginsIPType)), 'ips,omitempty'),
    ]),
    'runtimeConfig,omitempty',
  ),
  field('Args', ptr(struct(undefined, [field('A', ptr(allocatorIPAMArgsType), 'cni')])), 'args'),
]);
