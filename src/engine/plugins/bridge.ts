/**
 * bridge (plugins/main/bridge): a Linux bridge on the node (default cni0), a veth pair per pod
 * with the host end enslaved to the bridge, addresses from the IPAM plugin, optionally the
 * gateway address on the bridge and masquerading. The order of the steps and what is left after
 * a failure follow the real plugin (v1.1.1): the bridge and the veth pair exist before IPAM runs.
 */
import { COMMON_ARGS, IGNORE_UNKNOWN, loadArgs } from '../cni/args';
import { parsePrevResult } from '../cni/create';
import { GoError } from '../cni/errors';
import {
  type GoNetConf,
  field,
  goBool,
  goDecode,
  goInt,
  goString,
  pluginConf,
  struct,
} from '../cni/gotypes';
import { type Interface, type Result100, toCurrent } from '../cni/result';
import type { CmdArgs, SkelPlugin } from '../cni/skel';
import { pluginMain } from '../cni/skel';
import { q } from '../gofmt';
import { KERRNO_TEXT } from '../kernel/kernel';
import type { Link } from '../kernel/types';
import { type IPNet, ipString, netContains, networkOf, nextIP } from '../net/ip';
import type { Proc, Program } from '../os/process';
import type { Gen } from '../os/sys';
import { type PluginBuild, aboutText } from './lib/build';
import * as ipl from './lib/ip';
import { ipamExecAdd, ipamExecCheck, ipamExecCmd, ipamExecDel } from './lib/ipam';
import { setupIPMasq, teardownIPMasq, formatChainName, formatComment } from './lib/ipmasq';
import * as nl from './lib/netlink';
import { NSPathNotExistErr, getNS } from './lib/ns';
import { printResult } from './loopback';

const DEFAULT_BR_NAME = 'cni0';

interface BridgeConf {
  netConf: GoNetConf;
  bridge: string;
  isGateway: boolean;
  isDefaultGateway: boolean;
  forceAddress: boolean;
  ipMasq: boolean;
  mtu: number;
  hairpinMode: boolean;
  promiscMode: boolean;
  vlan: number;
  macspoofchk: boolean;
  enabledad: boolean;
  args: { cni: { mac: string } };
  runtimeConfig: { mac: string };
}

const BridgeConfT = pluginConf('main.NetConf', [
  field('BrName', goString, 'bridge', { prop: 'bridge' }),
  field('IsGW', goBool, 'isGateway', { prop: 'isGateway' }),
  field('IsDefaultGW', goBool, 'isDefaultGateway', { prop: 'isDefaultGateway' }),
  field('ForceAddress', goBool, 'forceAddress', { prop: 'forceAddress' }),
  field('IPMasq', goBool, 'ipMasq', { prop: 'ipMasq' }),
  field('MTU', goInt, 'mtu', { prop: 'mtu' }),
  field('HairpinMode', goBool, 'hairpinMode', { prop: 'hairpinMode' }),
  field('PromiscMode', goBool, 'promiscMode', { prop: 'promiscMode' }),
  field('Vlan', goInt, 'vlan', { prop: 'vlan' }),
  field('MacSpoofChk', goBool, 'macspoofchk,omitempty', { prop: 'macspoofchk' }),
  field('EnableDad', goBool, 'enabledad,omitempty', { prop: 'enabledad' }),
  field(
    'Args',
    struct(undefined, [
      field(
        'Cni',
        struct('main.BridgeArgs', [field('Mac', goString, 'mac,omitempty', { prop: 'mac' })]),
        'cni,omitempty',
        { prop: 'cni' },
      ),
    ]),
    'args,omitempty',
    { prop: 'args' },
  ),
  field(
    'RuntimeConfig',
    struct(undefined, [field('Mac', goString, 'mac,omitempty', { prop: 'mac' })]),
    'runtimeConfig,omitempty',
    { prop: 'runtimeConfig' },
  ),
]);

const MAC_ENV_ARGS = [IGNORE_UNKNOWN, COMMON_ARGS, { name: 'MAC', parse: (t: string) => t }];

function loadNetConf(stdin: string, envArgs: string): { n: BridgeConf; mac: string } {
  // Go decodes into a struct whose BrName is already "cni0"; a missing "bridge" keeps it.
  const init = goDecode<BridgeConf>('{}', BridgeConfT).value;
  init.bridge = DEFAULT_BR_NAME;
  const r = goDecode<BridgeConf>(stdin, BridgeConfT, init);
  if (r.error !== null) throw new GoError(`failed to load netconf: ${r.error}`);
  const n = r.value;
  if (n.vlan < 0 || n.vlan > 4094)
    throw new GoError(`invalid VLAN ID ${n.vlan} (must be between 0 and 4094)`);
  let mac = '';
  if (envArgs !== '') {
    const e = loadArgs(envArgs, MAC_ENV_ARGS);
    if (e['MAC']) mac = e['MAC'] as string;
  }
  if (n.args.cni.mac) mac = n.args.cni.mac;
  if (n.runtimeConfig.mac) mac = n.runtimeConfig.mac;
  return { n, mac };
}

interface GwInfo {
  gws: IPNet[];
  family: 4 | 6;
  defaultRouteFound: boolean;
}

function calcGateways(result: Result100, n: BridgeConf): { v4: GwInfo; v6: GwInfo } {
  const v4: GwInfo = { gws: [], family: 4, defaultRouteFound: false };
  const v6: GwInfo = { gws: [], family: 6, defaultRouteFound: false };
  for (const ipc of result.ips ?? []) {
    const gws = ipc.address.ip.v === 4 ? v4 : v6;
    // defaultNet.IP = net.IPv4zero / net.IPv6zero (16 bytes both), Mask = net.IPMask(defaultNet.IP):
    // for IPv4 the mask bytes are ::ffff:0.0.0.0, which `%v` prints in a failed route add.
    const defaultNet: IPNet = {
      ip: { v: gws.family, n: 0n },
      prefix: 0,
      ...(gws.family === 4 ? { goMaskHex: '00000000000000000000ffff00000000' } : {}),
    };
    ipc.interface = 2;
    if (ipc.gateway === null && n.isGateway) ipc.gateway = nextIP(networkOf(ipc.address));
    if (n.isDefaultGateway && !gws.defaultRouteFound) {
      for (const r of result.routes ?? []) {
        // defaultNet.String() == route.Dst.String(): a route without dst prints "<nil>".
        const d = r.dst;
        if (r.gw !== null && d && d.prefix === 0 && d.ip.n === 0n && d.ip.v === gws.family) {
          gws.defaultRouteFound = true;
          break;
        }
      }
      if (!gws.defaultRouteFound) {
        (result.routes ??= []).push({ dst: defaultNet, gw: ipc.gateway });
        gws.defaultRouteFound = true;
      }
    }
    if (n.isGateway) {
      // Go builds an IPNet{IP: gateway, Mask: address mask}; a nil gateway never happens here.
      gws.gws.push({ ip: ipc.gateway ?? { v: gws.family, n: 0n }, prefix: ipc.address.prefix });
    }
  }
  return { v4, v6 };
}

function netStr(n: IPNet): string {
  return `${ipString(n.ip)}/${n.prefix}`;
}

/** ensureAddr: the gateway address on the bridge, then pin the bridge's MAC. */
function* ensureAddr(
  p: Proc,
  br: Link,
  family: 4 | 6,
  ipn: IPNet,
  forceAddress: boolean,
): Gen<void> {
  const sys = p.sys;
  const host = sys.hostNs;
  const addrs = nl.addrList(sys, host, br, family);
  const ipnStr = netStr(ipn);
  for (const a of addrs) {
    if (netStr(a) === ipnStr) return;
    if (family === 4 || netContains(a, ipn.ip) || netContains(ipn, a.ip)) {
      if (forceAddress) {
        try {
          yield* nl.addrDel(sys, host, br, a);
        } catch (e) {
          throw new GoError(
            `could not remove IP address from ${q(br.name)}: ${(e as Error).message}`,
          );
        }
      } else {
        throw new GoError(`${q(br.name)} already has an IP address different from ${ipnStr}`);
      }
    }
  }
  try {
    yield* nl.addrAdd(sys, host, br, ipn);
  } catch (e) {
    if (!(e instanceof Error && e.message === 'file exists')) {
      throw new GoError(`could not add IP address to ${q(br.name)}: ${(e as Error).message}`);
    }
  }
  try {
    yield* nl.linkSetHardwareAddr(sys, host, br, nl.hardwareAddr(br));
  } catch (e) {
    throw new GoError(`could not set bridge's mac: ${(e as Error).message}`);
  }
}

function bridgeByName(p: Proc, name: string): Link {
  let l: Link;
  try {
    l = nl.linkByName(p.sys, p.sys.hostNs, name);
  } catch (e) {
    throw new GoError(`could not lookup ${q(name)}: ${(e as Error).message}`);
  }
  if (l.kind !== 'bridge') throw new GoError(`${q(name)} already exists but is not a bridge`);
  return l;
}

function* ensureBridge(
  p: Proc,
  name: string,
  mtu: number,
  promisc: boolean,
  vlanFiltering: boolean,
): Gen<Link> {
  const sys = p.sys;
  try {
    yield* nl.linkAddBridge(sys, sys.hostNs, name, mtu, vlanFiltering);
  } catch (e) {
    if (!(e instanceof Error && e.message === 'file exists'))
      throw new GoError(`could not add ${q(name)}: ${(e as Error).message}`);
  }
  if (promisc) {
    try {
      const l = nl.linkByName(sys, sys.hostNs, name);
      if (l.sysctl['__promisc_user'] !== '1') yield* nl.linkSetPromisc(sys, sys.hostNs, l, true);
    } catch (e) {
      throw new GoError(`could not set promiscuous mode on ${q(name)}: ${(e as Error).message}`);
    }
  }
  const br = bridgeByName(p, name);
  try {
    yield* nl.sysctlWrite(sys, sys.hostNs, `net.ipv6.conf.${name}.accept_ra`, '0');
  } catch {
    // ignored by the plugin
  }
  yield* nl.linkSetUp(sys, sys.hostNs, br);
  return br;
}

function* setupBridge(p: Proc, n: BridgeConf): Gen<{ br: Link; iface: Interface }> {
  let br: Link;
  try {
    br = yield* ensureBridge(p, n.bridge, n.mtu, n.promiscMode, n.vlan !== 0);
  } catch (e) {
    throw new GoError(`failed to create bridge ${q(n.bridge)}: ${(e as Error).message}`);
  }
  return { br, iface: { name: br.name, mac: nl.hardwareAddr(br), sandbox: '' } };
}

function* setupVethOnBridge(
  p: Proc,
  podNs: nl.NsId,
  netnsPath: string,
  br: Link,
  ifName: string,
  mtu: number,
  hairpin: boolean,
  vlan: number,
  mac: string,
): Gen<{ host: Interface; cont: Interface }> {
  const sys = p.sys;
  const v = yield* ipl.setupVeth(p, podNs, sys.hostNs, ifName, mtu, mac);
  const cont: Interface = { name: v.cont.name, mac: v.cont.mac, sandbox: netnsPath };
  let hostVeth: Link;
  try {
    hostVeth = nl.linkByName(sys, sys.hostNs, v.host.name);
  } catch (e) {
    throw new GoError(`failed to lookup ${q(v.host.name)}: ${(e as Error).message}`);
  }
  const host: Interface = { name: v.host.name, mac: hostVeth.mac, sandbox: '' };
  try {
    yield* nl.linkSetMaster(sys, sys.hostNs, hostVeth, br);
  } catch (e) {
    throw new GoError(
      `failed to connect ${q(hostVeth.name)} to bridge ${br.name}: ${(e as Error).message}`,
    );
  }
  try {
    yield* nl.linkSetHairpin(sys, sys.hostNs, nl.refresh(sys, sys.hostNs, hostVeth), hairpin);
  } catch (e) {
    throw new GoError(`failed to setup hairpin mode for ${hostVeth.name}: ${(e as Error).message}`);
  }
  if (vlan !== 0) {
    // netlink.BridgeVlanAdd: the modelled kernel has no bridge VLAN filtering (see kernel
    // linkAdd), so the port's VLAN is refused, as recorded (conformance/local/bridge-vlan-kernel).
    throw new GoError(
      `failed to setup vlan tag on interface ${q(host.name)}: ${KERRNO_TEXT.EOPNOTSUPP}`,
    );
  }
  return { host, cont };
}

function makeBridge(b: PluginBuild): SkelPlugin {
  function* add(args: CmdArgs, p: Proc): Gen<void> {
    const sys = p.sys;
    const { n, mac } = loadNetConf(args.stdin, args.args);
    const isLayer3 = n.netConf.ipam.type !== '';
    if (n.isDefaultGateway) n.isGateway = true;
    if (n.hairpinMode && n.promiscMode)
      throw new GoError('cannot set hairpin mode and promiscuous mode at the same time.');
    const { br, iface: brInterface } = yield* setupBridge(p, n);
    let podNs: nl.NsId;
    try {
      podNs = getNS(sys, args.netns);
    } catch (e) {
      throw new GoError(`failed to open netns ${q(args.netns)}: ${(e as Error).message}`);
    }
    const { host, cont } = yield* setupVethOnBridge(
      p,
      podNs,
      args.netns,
      br,
      args.ifName,
      n.mtu,
      n.hairpinMode,
      n.vlan,
      mac,
    );
    const result: Result100 = {
      kind: '100',
      cniVersion: b.lib.current,
      interfaces: [brInterface, host, cont],
      ips: null,
      routes: null,
      dns: { nameservers: null, domain: '', search: null, options: null },
    };
    if (n.macspoofchk) {
      throw new GoError('cnisim does not model macspoofchk (nftables MAC spoof checking)');
    }
    let success = false;
    if (isLayer3) {
      const r = yield* ipamExecAdd(p, n.netConf.ipam.type, args.stdin, b.lib);
      try {
        const ipamResult = toCurrent(r, b.lib);
        result.ips = ipamResult.ips;
        result.routes = ipamResult.routes;
        if (!result.ips || result.ips.length === 0)
          throw new GoError('IPAM plugin returned missing IP config');
        const { v4, v6 } = calcGateways(result, n);
        // In the container's namespace.
        try {
          yield* nl.sysctlWrite(
            sys,
            podNs,
            `net.ipv6.conf.${args.ifName}.accept_dad`,
            n.enabledad ? '1' : '0',
          );
        } catch {
          // ignored
        }
        try {
          yield* nl.sysctlWrite(sys, podNs, `net.ipv4.conf.${args.ifName}.arp_notify`, '1');
        } catch {
          // ignored
        }
        yield* ipl.configureIface(p, podNs, args.ifName, result);
        // Wait for the host end to be operationally up (retries 0, 50, 500, 1000, 1000 ms).
        const hostNow = nl.linkByName(sys, sys.hostNs, host.name);
        if (hostNow.operstate !== 'UP') {
          throw new GoError(`bridge port in error state: ${hostNow.operstate.toLowerCase()}`);
        }
        if (n.isGateway) {
          for (const gws of [v4, v6]) {
            for (const gw of gws.gws) {
              try {
                yield* ensureAddr(p, br, gws.family, gw, n.forceAddress);
              } catch (e) {
                throw new GoError(`failed to set bridge addr: ${(e as Error).message}`);
              }
            }
            if (gws.gws.length > 0) {
              try {
                yield* ipl.enableForward(p, gws.family);
              } catch (e) {
                throw new GoError(`failed to enable forwarding: ${(e as Error).message}`);
              }
            }
          }
        }
        if (n.ipMasq) {
          const chain = formatChainName(n.netConf.name, args.containerId);
          const comment = formatComment(n.netConf.name, args.containerId);
          for (const ipc of result.ips) yield* setupIPMasq(p, ipc.address, chain, comment);
        }
        success = true;
      } finally {
        if (!success) {
          try {
            yield* ipamExecDel(p, n.netConf.ipam.type, args.stdin);
          } catch {
            // the deferred DEL's error is dropped
          }
        }
      }
    } else {
      let l: Link;
      try {
        l = nl.linkByName(sys, podNs, args.ifName);
      } catch (e) {
        throw new GoError(`failed to retrieve link: ${(e as Error).message}`);
      }
      try {
        yield* nl.linkSetUp(sys, podNs, l);
      } catch (e) {
        throw new GoError(`failed to set ${q(args.ifName)} up: ${(e as Error).message}`);
      }
    }
    const brNow = bridgeByName(p, n.bridge);
    brInterface.mac = nl.hardwareAddr(brNow);
    result.dns = {
      nameservers: n.netConf.dns.nameservers,
      domain: n.netConf.dns.domain,
      search: n.netConf.dns.search,
      options: n.netConf.dns.options,
    };
    printResult(p, result, n.netConf.cniVersion, b);
  }

  function* del(args: CmdArgs, p: Proc): Gen<void> {
    const sys = p.sys;
    const { n } = loadNetConf(args.stdin, args.args);
    const isLayer3 = n.netConf.ipam.type !== '';
    const ipamDel = function* (): Gen<void> {
      if (isLayer3) yield* ipamExecDel(p, n.netConf.ipam.type, args.stdin);
    };
    if (args.netns === '') {
      yield* ipamDel();
      return;
    }
    let ipnets: IPNet[] = [];
    let podNs: nl.NsId;
    try {
      podNs = getNS(sys, args.netns);
    } catch (e) {
      if (e instanceof NSPathNotExistErr) {
        yield* ipamDel();
        return;
      }
      throw e;
    }
    const r = yield* ipl.delLinkByNameAddr(p, podNs, args.ifName);
    if (r !== ipl.ErrLinkNotFound) ipnets = r as IPNet[];
    yield* ipamDel();
    if (isLayer3 && n.ipMasq) {
      const chain = formatChainName(n.netConf.name, args.containerId);
      const comment = formatComment(n.netConf.name, args.containerId);
      for (const ipn of ipnets) yield* teardownIPMasq(p, ipn, chain, comment);
    }
  }

  function* check(args: CmdArgs, p: Proc): Gen<void> {
    const sys = p.sys;
    const { n } = loadNetConf(args.stdin, args.args);
    let podNs: nl.NsId;
    try {
      podNs = getNS(sys, args.netns);
    } catch (e) {
      throw new GoError(`failed to open netns ${q(args.netns)}: ${(e as Error).message}`);
    }
    yield* ipamExecCheck(p, n.netConf.ipam.type, args.stdin);
    if (n.netConf.prevResult === null) throw new GoError('Required prevResult missing');
    const prev = parsePrevResult(n.netConf.prevResult, n.netConf.cniVersion, b.lib);
    const result = toCurrent(prev, b.lib);
    let brMap: Interface = { name: '', mac: '', sandbox: '' };
    let contMap: Interface = { name: '', mac: '', sandbox: '' };
    for (const intf of result.interfaces ?? []) {
      if (n.bridge === intf.name) {
        brMap = intf;
        continue;
      } else if (args.ifName === intf.name && args.netns === intf.sandbox) {
        contMap = intf;
        continue;
      }
    }
    const brCNI = validateBrInterface(p, brMap, n);
    if (args.netns !== contMap.sandbox) {
      throw new GoError(
        `Sandbox in prevResult ${contMap.sandbox} doesn't match configured netns: ${args.netns}`,
      );
    }
    const contCNI = validateContainerInterface(p, podNs, contMap);
    let vethFound = false;
    for (const intf of result.interfaces ?? []) {
      if (brMap.name === intf.name || contMap.name === intf.name) continue;
      const v = validateVethInterface(p, intf, brCNI, contCNI);
      if (v) {
        vethFound = true;
        break;
      }
    }
    if (!vethFound) throw new GoError(`CNI veth created for bridge ${n.bridge} was not found`);
    ipl.validateExpectedInterfaceIPs(p, podNs, args.ifName, result.ips ?? []);
    ipl.validateExpectedRoute(p, podNs, result.routes ?? []);
  }

  return {
    add,
    del,
    check,
    ...(b.spec11 ? { status } : {}),
    skel: b.skel,
    versions: b.all,
    specVersion: b.specVersion,
    about: aboutText('bridge', b),
  };
}

/** Newer builds answer STATUS by asking their IPAM plugin. */
function* status(args: CmdArgs, p: Proc): Gen<void> {
  const { n } = loadNetConf(args.stdin, args.args);
  if (n.netConf.ipam.type !== '') yield* ipamExecCmd(p, n.netConf.ipam.type, args.stdin, 'STATUS');
}

interface FoundIf {
  ifindex: number;
  peerIndex: number;
  masterIndex: number;
}

function validateInterface(p: Proc, ns: nl.NsId, intf: Interface, expectInSb: boolean): Link {
  if (intf.name === '') throw new GoError('Interface name missing ');
  let l: Link;
  try {
    l = nl.linkByName(p.sys, ns, intf.name);
  } catch {
    throw new GoError(`Interface name ${intf.name} not found`);
  }
  if (expectInSb) {
    if (intf.sandbox === '')
      throw new GoError(`Interface ${intf.name} is expected to be in a sandbox`);
  } else if (intf.sandbox !== '') {
    throw new GoError(`Interface ${intf.name} should not be in sandbox`);
  }
  return l;
}

function validateBrInterface(p: Proc, intf: Interface, n: BridgeConf): FoundIf {
  const l = validateInterface(p, p.sys.hostNs, intf, false);
  if (l.kind !== 'bridge')
    throw new GoError(`Interface ${intf.name} does not have link type of bridge`);
  if (intf.mac !== '' && intf.mac !== nl.hardwareAddr(l))
    throw new GoError(`Bridge interface ${intf.name} Mac doesn't match: ${intf.mac}`);
  const promisc = l.promisc !== 0;
  if (promisc !== n.promiscMode) {
    throw new GoError(
      `Bridge interface ${intf.name} configured Promisc Mode ${n.promiscMode} doesn't match current state: ${promisc} `,
    );
  }
  return { ifindex: l.ifindex, peerIndex: 0, masterIndex: l.master ?? 0 };
}

function validateContainerInterface(p: Proc, ns: nl.NsId, intf: Interface): FoundIf {
  const l = validateInterface(p, ns, intf, true);
  if (l.kind !== 'veth') throw new GoError(`Error: Container interface ${l.name} not of type veth`);
  const peerIndex = l.peer?.ifindex ?? 0;
  if (peerIndex <= 0) throw new GoError(`Unable to obtain veth peer index for veth ${l.name}`);
  if (intf.mac !== '' && intf.mac !== l.mac) {
    throw new GoError(
      `Interface ${intf.name} Mac ${intf.mac} doesn't match container Mac: ${l.mac}`,
    );
  }
  return { ifindex: l.ifindex, peerIndex, masterIndex: 0 };
}

/** validateCniVethInterface: true when this is the pod's host-side veth on the bridge. */
function validateVethInterface(p: Proc, intf: Interface, br: FoundIf, cont: FoundIf): boolean {
  const l = validateInterface(p, p.sys.hostNs, intf, false);
  if (l.kind !== 'veth') return false;
  const peerIndex = l.peer?.ifindex ?? 0;
  if (peerIndex <= 0) throw new GoError(`Unable to obtain veth peer index for veth ${l.name}`);
  if (l.ifindex !== cont.peerIndex) return false;
  if (cont.ifindex !== peerIndex) return false;
  if ((l.master ?? 0) !== br.ifindex) return false;
  if (intf.mac !== '' && intf.mac !== l.mac)
    throw new GoError(`Interface ${intf.name} Mac doesn't match: ${intf.mac} not found`);
  return true;
}

export function bridgeProgram(b: PluginBuild): Program {
  const plugin = makeBridge(b);
  return (p) => pluginMain(p, plugin);
}
