/**
 * static IPAM (plugins/ipam/static): addresses, routes and DNS straight from the config, or from
 * CNI_ARGS (IP=a/p,b/p;GATEWAY=g), args.cni.ips or runtimeConfig.ips (each replaces the list).
 * It keeps no state: DEL does nothing, CHECK compares the prevResult's addresses.
 */
import { COMMON_ARGS, IGNORE_UNKNOWN, loadArgs } from '../cni/args';
import { parsePrevResult } from '../cni/create';
import { GoError } from '../cni/errors';
import {
  type GoDNS,
  type GoNetConf,
  type GoRoute,
  field,
  goDecode,
  goString,
  netIP,
  ptr,
  slice,
  struct,
  typesDNS,
  typesNetConf,
  typesRoute,
} from '../cni/gotypes';
import { type IPConfig, type Result100, toCurrent } from '../cni/result';
import type { CmdArgs, SkelPlugin } from '../cni/skel';
import { pluginMain } from '../cni/skel';
import { versionGte } from '../cni/version';
import { type IP, type IPNet, ipEqual, ipString, netContains, parseCIDR, parseIP } from '../net/ip';
import type { Proc, Program } from '../os/process';
import type { Gen } from '../os/sys';
import { type PluginBuild, aboutText } from './lib/build';
import { printResult } from './loopback';

interface GoAddress {
  address: string;
  gateway: IP | null;
}

const AddressT = struct('main.Address', [
  field('AddressStr', goString, 'address', { prop: 'address' }),
  field('Gateway', netIP, 'gateway,omitempty', { prop: 'gateway' }),
  field('Version', goString, undefined, { prop: 'version' }),
]);

const NetT = struct('main.Net', [
  field('Name', goString, 'name', { prop: 'name' }),
  field('CNIVersion', goString, 'cniVersion', { prop: 'cniVersion' }),
  field(
    'IPAM',
    ptr(
      struct('main.IPAMConfig', [
        field('Name', goString, undefined, { prop: 'name' }),
        field('Type', goString, 'type', { prop: 'type' }),
        field('Routes', slice(ptr(typesRoute)), 'routes', { prop: 'routes' }),
        field('Addresses', slice(AddressT), 'addresses,omitempty', { prop: 'addresses' }),
        field('DNS', typesDNS, 'dns', { prop: 'dns' }),
      ]),
    ),
    'ipam',
    { prop: 'ipam' },
  ),
  field(
    'RuntimeConfig',
    struct(undefined, [field('IPs', slice(goString), 'ips,omitempty', { prop: 'ips' })]),
    'runtimeConfig,omitempty',
    {
      prop: 'runtimeConfig',
    },
  ),
  field(
    'Args',
    ptr(
      struct(undefined, [
        field(
          'A',
          ptr(struct('main.IPAMArgs', [field('IPs', slice(goString), 'ips', { prop: 'ips' })])),
          'cni',
          { prop: 'cni' },
        ),
      ]),
    ),
    'args',
    {
      prop: 'args',
    },
  ),
]);

interface GoNet {
  name: string;
  cniVersion: string;
  ipam: {
    name: string;
    type: string;
    routes: (GoRoute | null)[] | null;
    addresses: GoAddress[] | null;
    dns: GoDNS;
  } | null;
  runtimeConfig: { ips: string[] | null };
  args: { cni: { ips: string[] | null } | null } | null;
}

interface Address {
  net: IPNet;
  gateway: IP | null;
}

export interface StaticConfig {
  addresses: Address[];
  routes: GoRoute[] | null;
  dns: GoDNS;
}

const ENV_ARGS = [
  IGNORE_UNKNOWN,
  COMMON_ARGS,
  { name: 'IP', parse: (t: string) => t },
  { name: 'GATEWAY', parse: (t: string) => t },
];

function cidr(s: string): IPNet | null {
  const r = parseCIDR(s);
  return r.ok ? r.net : null;
}

/** LoadIPAMConfig of the static plugin. */
export function loadStaticConfig(
  stdin: string,
  envArgs: string,
): { conf: StaticConfig; version: string } {
  const r = goDecode<GoNet>(stdin, NetT);
  if (r.error !== null) throw new GoError(r.error);
  const n = r.value;
  if (!n.ipam) throw new GoError("IPAM config missing 'ipam' key");
  // Entries still to parse from their text, or already parsed.
  let entries: Array<{ str: string; net: IPNet | null; gateway: IP | null }> = (
    n.ipam.addresses ?? []
  ).map((a) => ({
    str: a.address,
    net: null,
    gateway: a.gateway,
  }));
  if (envArgs !== '') {
    const e = loadArgs(envArgs, ENV_ARGS);
    const ips = (e['IP'] as string | undefined) ?? '';
    if (ips !== '') {
      for (const item of ips.split(',')) {
        const s = item.trim();
        const net = cidr(s);
        if (!net)
          throw new GoError(`the 'ip' field is expected to be in CIDR notation, got: '${s}'`);
        entries.push({ str: s, net, gateway: null });
      }
    }
    const gws = (e['GATEWAY'] as string | undefined) ?? '';
    if (gws !== '') {
      for (const item of gws.split(',')) {
        const gw = parseIP(item.trim());
        if (!gw) throw new GoError(`invalid gateway address: ${item}`);
        for (const a of entries) if (a.net && netContains(a.net, gw)) a.gateway = gw;
      }
    }
  }
  const fromList = (list: string[]) =>
    list.map((s) => {
      const net = cidr(s);
      if (!net)
        throw new GoError(`an entry in the 'ips' field is NOT in CIDR notation, got: '${s}'`);
      return { str: s, net, gateway: null as IP | null };
    });
  if (n.args?.cni?.ips && n.args.cni.ips.length) entries = fromList(n.args.cni.ips);
  if (n.runtimeConfig.ips && n.runtimeConfig.ips.length) entries = fromList(n.runtimeConfig.ips);
  let v4 = 0;
  let v6 = 0;
  const addresses: Address[] = entries.map((a) => {
    const net = a.net ?? cidr(a.str);
    if (!net)
      throw new GoError(`the 'address' field is expected to be in CIDR notation, got: '${a.str}'`);
    if (net.ip.v === 4) v4++;
    else v6++;
    return { net, gateway: a.gateway };
  });
  if (v4 > 1 || v6 > 1) {
    const ok = versionGte(n.cniVersion, '0.3.0');
    if (!ok.ok || !ok.value)
      throw new GoError(
        `CNI version ${n.cniVersion} does not support more than 1 address per family`,
      );
  }
  return {
    conf: {
      addresses,
      routes: n.ipam.routes ? n.ipam.routes.map((x) => x ?? { dst: null, gw: null }) : null,
      dns: n.ipam.dns,
    },
    version: n.cniVersion,
  };
}

function makeStatic(b: PluginBuild): SkelPlugin {
  // eslint-disable-next-line require-yield
  function* add(args: CmdArgs, p: Proc): Gen<void> {
    const { conf, version } = loadStaticConfig(args.stdin, args.args);
    const ips: IPConfig[] = conf.addresses.map((a) => ({
      interface: null,
      address: a.net,
      gateway: a.gateway,
    }));
    const result: Result100 = {
      kind: '100',
      cniVersion: b.lib.current,
      interfaces: null,
      ips: ips.length ? ips : null,
      routes: conf.routes ? conf.routes.map((r) => ({ dst: r.dst, gw: r.gw })) : null,
      dns: {
        nameservers: conf.dns.nameservers,
        domain: conf.dns.domain,
        search: conf.dns.search,
        options: conf.dns.options,
      },
    };
    printResult(p, result, version, b);
  }

  function* del(): Gen<void> {}

  // eslint-disable-next-line require-yield
  function* check(args: CmdArgs): Gen<void> {
    const { conf } = loadStaticConfig(args.stdin, args.args);
    const r = goDecode<GoNetConf>(args.stdin, typesNetConf);
    if (r.error !== null) throw new GoError(`failed to load netconf: ${r.error}`);
    if (r.value.prevResult === null) throw new GoError('Required prevResult missing');
    const prev = toCurrent(parsePrevResult(r.value.prevResult, r.value.cniVersion, b.lib), b.lib);
    for (const a of conf.addresses) {
      for (const ip of prev.ips ?? []) {
        if (ipEqual(a.net.ip, ip.address.ip)) {
          if (a.gateway === null) break;
          if (ip.gateway && ipEqual(a.gateway, ip.gateway)) break;
          throw new GoError(
            `static: Failed to match addr ${ipString(ip.address.ip)} on interface ${args.ifName}`,
          );
        }
      }
    }
  }

  return {
    add,
    del,
    check,
    ...(b.spec11 ? { gc: del, status: del } : {}),
    skel: b.skel,
    versions: b.all,
    specVersion: b.specVersion,
    about: aboutText('static', b),
  };
}

export function staticProgram(b: PluginBuild): Program {
  const plugin = makeStatic(b);
  return (p) => pluginMain(p, plugin);
}
