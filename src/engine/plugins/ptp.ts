/**
 * ptp (plugins/main/ptp): a veth pair per pod with no bridge. IPAM runs first; in the pod the
 * connected route is replaced by a host route to the gateway and a route to the subnet via it;
 * on the host the gateway address (/32 or /128) sits on the host veth with a host route to the
 * pod. Optional masquerading as in bridge.
 */
import { parsePrevResult } from '../cni/create';
import { GoError } from '../cni/errors';
import { type GoNetConf, field, goBool, goDecode, goInt, pluginConf } from '../cni/gotypes';
import { type Interface, type Result100, toCurrent } from '../cni/result';
import type { CmdArgs, SkelPlugin } from '../cni/skel';
import { pluginMain } from '../cni/skel';
import { q } from '../gofmt';
import { KERRNO_TEXT, KernelError } from '../kernel/kernel';
import type { Link } from '../kernel/types';
import { type IP, type IPNet, bits, ipString, networkOf } from '../net/ip';
import type { Proc, Program } from '../os/process';
import type { Gen } from '../os/sys';
import { type PluginBuild, aboutText } from './lib/build';
import * as ipl from './lib/ip';
import { ipamExecAdd, ipamExecCheck, ipamExecCmd, ipamExecDel } from './lib/ipam';
import { formatChainName, formatComment, setupIPMasq, teardownIPMasq } from './lib/ipmasq';
import * as nl from './lib/netlink';
import { NSPathNotExistErr, getNS } from './lib/ns';
import { printResult } from './loopback';

interface PtpConf {
  netConf: GoNetConf;
  ipMasq: boolean;
  mtu: number;
}

const PtpConfT = pluginConf('main.NetConf', [
  field('IPMasq', goBool, 'ipMasq', { prop: 'ipMasq' }),
  field('MTU', goInt, 'mtu', { prop: 'mtu' }),
]);

function loadConf(stdin: string): PtpConf {
  const r = goDecode<PtpConf>(stdin, PtpConfT);
  if (r.error !== null) throw new GoError(`failed to load netconf: ${r.error}`);
  return r.value;
}

/**
 * vishvananda/netlink Route.String() for the routes ptp adds or deletes (a destination with a
 * nil IP, the host route to a missing gateway, prints "<nil>").
 */
function nlRouteString(ifindex: number, dst: IPNet | null, src: IP | null, gw: IP | null): string {
  return `{Ifindex: ${ifindex} Dst: ${dst ? `${ipString(dst.ip)}/${dst.prefix}` : '<nil>'} Src: ${src ? ipString(src) : '<nil>'} Gw: ${gw ? ipString(gw) : '<nil>'} Flags: [] Table: 0 Realm: 0}`;
}

function* setupContainerVeth(
  p: Proc,
  podNs: nl.NsId,
  netnsPath: string,
  ifName: string,
  mtu: number,
  pr: Result100,
): Gen<Interface> {
  const sys = p.sys;
  const v = yield* ipl.setupVeth(p, podNs, sys.hostNs, ifName, mtu, '');
  const host: Interface = { name: v.host.name, mac: v.host.mac, sandbox: '' };
  const cont: Interface = { name: v.cont.name, mac: v.cont.mac, sandbox: netnsPath };
  for (const ipc of pr.ips ?? []) ipc.interface = 1;
  pr.interfaces = [host, cont];
  let contVeth: Link;
  try {
    contVeth = nl.linkByName(sys, podNs, ifName);
  } catch {
    throw new GoError(`failed to look up ${q(ifName)}: route ip+net: no such network interface`);
  }
  yield* ipl.configureIface(p, podNs, ifName, pr);
  for (const ipc of pr.ips ?? []) {
    const subnet: IPNet = { ip: networkOf(ipc.address), prefix: ipc.address.prefix };
    try {
      yield* nl.routeDel(
        sys,
        podNs,
        { family: subnet.ip.v, dst: subnet.ip, prefix: subnet.prefix, dev: contVeth.ifindex },
        `${ipString(subnet.ip)}/${subnet.prefix} dev ${ifName}`,
      );
    } catch (e) {
      throw new GoError(
        `failed to delete route ${nlRouteString(contVeth.ifindex, subnet, null, null)}: ${(e as Error).message}`,
      );
    }
    const addrBits = bits(ipc.address.ip.v);
    const gw = ipc.gateway;
    // Dst {IP: ipc.Gateway, Mask: /32}: without a gateway the IP is nil and netlink sends no
    // destination, so the "host route" becomes a default route with scope link.
    const hostRoute: IPNet | null = gw ? { ip: gw, prefix: addrBits } : null;
    const routes: Array<{ dst: IPNet | null; gw: IP | null; scope: 'link' | 'universe' }> = [
      { dst: hostRoute, gw: null, scope: 'link' },
      { dst: subnet, gw, scope: 'universe' },
    ];
    for (const r of routes) {
      try {
        yield* nl.routeAdd(sys, podNs, {
          dst: r.dst,
          gw: r.gw,
          dev: contVeth.ifindex,
          scope: r.scope,
          src: ipc.address.ip,
        });
      } catch (e) {
        throw new GoError(
          `failed to add route ${nlRouteString(contVeth.ifindex, r.dst, ipc.address.ip, r.gw)}: ${(e as Error).message}`,
        );
      }
    }
  }
  return host;
}

/**
 * `%#v` of a *net.IPNet, as ptp prints it when adding the gateway address fails; `ip` null is
 * a nil net.IP (no gateway), the mask being that of family `v`.
 */
function goSharpIPNet(ip: IP | null, v: 4 | 6, prefix: number): string {
  const hex = (bs: number[]) => bs.map((b) => `0x${b.toString(16)}`).join(', ');
  const ipText = ip
    ? `net.IP{${hex((ip.v === 4 ? [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] : []).concat(ipToBytes16(ip)))}}`
    : 'net.IP(nil)';
  return `&net.IPNet{IP:${ipText}, Mask:net.IPMask{${hex(maskBytes(v, prefix))}}}`;
}

function ipToBytes16(ip: IP): number[] {
  const len = ip.v === 4 ? 4 : 16;
  const out: number[] = [];
  for (let i = len - 1; i >= 0; i--) out.push(Number((ip.n >> BigInt(8 * i)) & 0xffn));
  return out;
}

function maskBytes(v: 4 | 6, prefix: number): number[] {
  const len = v === 4 ? 4 : 16;
  const out: number[] = [];
  for (let i = 0; i < len; i++) {
    const b = Math.max(0, Math.min(8, prefix - 8 * i));
    out.push((0xff << (8 - b)) & 0xff);
  }
  return out;
}

function* setupHostVeth(p: Proc, vethName: string, result: Result100): Gen<void> {
  const sys = p.sys;
  let veth: Link;
  try {
    veth = nl.linkByName(sys, sys.hostNs, vethName);
  } catch (e) {
    throw new GoError(`failed to lookup ${q(vethName)}: ${(e as Error).message}`);
  }
  for (const ipc of result.ips ?? []) {
    const v = ipc.address.ip.v;
    const maskLen = bits(v);
    const failed = (msg: string) =>
      new GoError(
        `failed to add IP addr (${goSharpIPNet(ipc.gateway, v, maskLen)}) to veth: ${msg}`,
      );
    // Without a gateway netlink sends an empty IFA_LOCAL, which the kernel's attribute policy
    // refuses (a u32 shorter than 4 bytes) before anything is added.
    if (ipc.gateway === null) throw failed(KERRNO_TEXT.ERANGE);
    try {
      yield* nl.addrAdd(sys, sys.hostNs, veth, { ip: ipc.gateway, prefix: maskLen });
    } catch (e) {
      throw failed((e as Error).message);
    }
    try {
      yield* nl.routeAdd(sys, sys.hostNs, {
        dst: { ip: ipc.address.ip, prefix: maskLen },
        gw: null,
        dev: veth.ifindex,
        scope: 'host',
      });
    } catch (e) {
      if (!(e instanceof KernelError && e.errno === 'EEXIST'))
        throw new GoError(`failed to add route on host: ${(e as Error).message}`);
    }
  }
}

function dnsSet(d: GoNetConf['dns']): boolean {
  return d.nameservers !== null || d.search !== null || d.options !== null || d.domain !== '';
}

function makePtp(b: PluginBuild): SkelPlugin {
  function* add(args: CmdArgs, p: Proc): Gen<void> {
    const conf = loadConf(args.stdin);
    const r = yield* ipamExecAdd(p, conf.netConf.ipam.type, args.stdin, b.lib);
    // Go's deferred IPAM DEL looks at cmdAdd's local `err`: two early returns (no IPs, and
    // forwarding, whose err is shadowed) leave it nil, so the address stays reserved.
    let ok = false;
    let delOnFail = true;
    try {
      const result = toCurrent(r, b.lib);
      if (!result.ips || result.ips.length === 0) {
        delOnFail = false;
        throw new GoError('IPAM plugin returned missing IP config');
      }
      try {
        yield* ipl.enableForwardFor(p, result.ips);
      } catch (e) {
        delOnFail = false;
        throw new GoError(`Could not enable IP forwarding: ${(e as Error).message}`);
      }
      let podNs: nl.NsId;
      try {
        podNs = getNS(p.sys, args.netns);
      } catch (e) {
        throw new GoError(`failed to open netns ${q(args.netns)}: ${(e as Error).message}`);
      }
      const host = yield* setupContainerVeth(p, podNs, args.netns, args.ifName, conf.mtu, result);
      yield* setupHostVeth(p, host.name, result);
      if (conf.ipMasq) {
        const chain = formatChainName(conf.netConf.name, args.containerId);
        const comment = formatComment(conf.netConf.name, args.containerId);
        for (const ipc of result.ips) yield* setupIPMasq(p, ipc.address, chain, comment);
      }
      if (dnsSet(conf.netConf.dns)) result.dns = { ...conf.netConf.dns };
      ok = true;
      printResult(p, result, conf.netConf.cniVersion, b);
    } finally {
      if (!ok && delOnFail) {
        try {
          yield* ipamExecDel(p, conf.netConf.ipam.type, args.stdin);
        } catch {
          // the deferred DEL's error is dropped
        }
      }
    }
  }

  function* del(args: CmdArgs, p: Proc): Gen<void> {
    const conf = loadConf(args.stdin);
    yield* ipamExecDel(p, conf.netConf.ipam.type, args.stdin);
    if (args.netns === '') return;
    let podNs: nl.NsId;
    try {
      podNs = getNS(p.sys, args.netns);
    } catch (e) {
      if (e instanceof NSPathNotExistErr) return;
      throw e;
    }
    const r = yield* ipl.delLinkByNameAddr(p, podNs, args.ifName);
    const ipnets = r === ipl.ErrLinkNotFound ? [] : (r as IPNet[]);
    if (ipnets.length !== 0 && conf.ipMasq) {
      const chain = formatChainName(conf.netConf.name, args.containerId);
      const comment = formatComment(conf.netConf.name, args.containerId);
      let last: unknown = null;
      for (const ipn of ipnets) {
        try {
          yield* teardownIPMasq(p, ipn, chain, comment);
          last = null;
        } catch (e) {
          last = e;
        }
      }
      if (last) throw last;
    }
  }

  function* check(args: CmdArgs, p: Proc): Gen<void> {
    const conf = loadConf(args.stdin);
    let podNs: nl.NsId;
    try {
      podNs = getNS(p.sys, args.netns);
    } catch (e) {
      throw new GoError(`failed to open netns ${q(args.netns)}: ${(e as Error).message}`);
    }
    yield* ipamExecCheck(p, conf.netConf.ipam.type, args.stdin);
    if (conf.netConf.prevResult === null) throw new GoError('ptp: Required prevResult missing');
    const result = toCurrent(
      parsePrevResult(conf.netConf.prevResult, conf.netConf.cniVersion, b.lib),
      b.lib,
    );
    let contMap: Interface = { name: '', mac: '', sandbox: '' };
    for (const intf of result.interfaces ?? []) {
      if (args.ifName === intf.name && args.netns === intf.sandbox) contMap = intf;
    }
    if (args.netns !== contMap.sandbox) {
      throw new GoError(
        `Sandbox in prevResult ${contMap.sandbox} doesn't match configured netns: ${args.netns}`,
      );
    }
    if (contMap.name === '')
      throw new GoError(`Container interface name missing in prevResult: ${contMap.name}`);
    let link: Link;
    try {
      link = nl.linkByName(p.sys, podNs, contMap.name);
    } catch {
      throw new GoError(`ptp: Container Interface name in prevResult: ${contMap.name} not found`);
    }
    if (contMap.sandbox === '')
      throw new GoError(
        `ptp: Error: Container interface ${link.name} should not be in host namespace`,
      );
    if (link.kind !== 'veth')
      throw new GoError(`Error: Container interface ${link.name} not of type veth/p2p`);
    if (contMap.mac !== '' && contMap.mac !== link.mac) {
      throw new GoError(
        `ptp: Interface ${contMap.name} Mac ${contMap.mac} doesn't match container Mac: ${link.mac}`,
      );
    }
    ipl.validateExpectedInterfaceIPs(p, podNs, args.ifName, result.ips ?? []);
    ipl.validateExpectedRoute(p, podNs, result.routes ?? []);
  }

  function* status(args: CmdArgs, p: Proc): Gen<void> {
    const conf = loadConf(args.stdin);
    yield* ipamExecCmd(p, conf.netConf.ipam.type, args.stdin, 'STATUS');
  }

  return {
    add,
    del,
    check,
    ...(b.spec11 ? { status } : {}),
    skel: b.skel,
    versions: b.all,
    specVersion: b.specVersion,
    about: aboutText('ptp', b),
  };
}

export function ptpProgram(b: PluginBuild): Program {
  const plugin = makePtp(b);
  return (p) => pluginMain(p, plugin);
}
