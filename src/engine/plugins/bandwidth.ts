/**
 * bandwidth (plugins/meta/bandwidth, v1.1.1): a chained plugin that limits a pod's traffic with
 * token bucket filters on the host side of its veth pair.
 *
 * Ingress (traffic to the pod) gets a tbf root qdisc on the host veth. Egress (traffic from the
 * pod) is redirected: an ifb device `bwp<sha512(network name + container id)>` is created (up,
 * with the host veth's MTU, and appended to the result's interfaces), the host veth gets an
 * ingress qdisc with a u32 filter redirecting everything to the ifb (two mirred actions, as the
 * netlink library builds them), and the ifb gets the tbf. Rates are bits/s and bursts bits; the
 * tbf gets rate/8 bytes/s, a buffer of burst/rate seconds in psched ticks and a limit of 25 ms of
 * rate plus the burst, with Go's float and uint32 conversions.
 *
 * Limits in the plugin config win over runtimeConfig.bandwidth as soon as any of the four keys is
 * present. DEL only deletes the ifb (the qdiscs go with the veth). CHECK looks at the first qdisc
 * of each device only if it is a tbf. Spec versions 0.3.0 and later. Missing limits with no
 * prevResult (ADD) or none at all (CHECK) make the real binary panic; so does this one.
 */
import { parsePrevResult } from '../cni/create';
import { GoError } from '../cni/errors';
import { type GoNetConf, embed, field, goDecode, pluginConf, ptr, struct } from '../cni/gotypes';
import { type Interface, type Result, type Result100, toCurrent } from '../cni/result';
import type { CmdArgs, SkelPlugin } from '../cni/skel';
import { versionsFrom } from '../cni/version';
import { basic } from '../gojson/types';
import { q } from '../gofmt';
import { TICK_IN_USEC, TIME_UNITS_PER_SEC, type TbfParams } from '../kernel/tc';
import type { Link, Qdisc } from '../kernel/types';
import type { Proc, Program } from '../os/process';
import type { Gen } from '../os/sys';
import { type PluginBuild, aboutText } from './lib/build';
import { delLinkByNameAddr } from './lib/ip';
import { formatHashWithPrefix } from './lib/ipmasq';
import * as nl from './lib/netlink';
import { getNS } from './lib/ns';
import { GoPanic, pluginMainWithPanics } from './lib/panic';
import * as tc from './lib/tc';
import { printResult } from './loopback';

const MAX_IFB_DEVICE_LENGTH = 15;
const IFB_DEVICE_PREFIX = 'bwp';
const LATENCY_IN_MILLIS = 25;
const MAX_UINT32 = 4294967295;

interface BandwidthEntry {
  ingressRate: number;
  ingressBurst: number;
  egressRate: number;
  egressBurst: number;
}

interface PluginConf {
  netConf: GoNetConf;
  runtimeConfig: { bandwidth: BandwidthEntry | null };
  entry: BandwidthEntry | null;
}

const goUint64 = basic('uint64');

const BandwidthEntryT = struct('main.BandwidthEntry', [
  field('IngressRate', goUint64, 'ingressRate', { prop: 'ingressRate' }),
  field('IngressBurst', goUint64, 'ingressBurst', { prop: 'ingressBurst' }),
  field('EgressRate', goUint64, 'egressRate', { prop: 'egressRate' }),
  field('EgressBurst', goUint64, 'egressBurst', { prop: 'egressBurst' }),
]);

const PluginConfT = pluginConf('main.PluginConf', [
  field(
    'RuntimeConfig',
    struct(undefined, [
      field('Bandwidth', ptr(BandwidthEntryT), 'bandwidth,omitempty', { prop: 'bandwidth' }),
    ]),
    'runtimeConfig,omitempty',
    { prop: 'runtimeConfig' },
  ),
  embed(ptr(BandwidthEntryT), { prop: 'entry' }),
]);

function isZero(bw: BandwidthEntry): boolean {
  return (
    bw.ingressBurst === 0 && bw.ingressRate === 0 && bw.egressBurst === 0 && bw.egressRate === 0
  );
}

/** The config's own limits if any key of them is there, else runtimeConfig's. */
function getBandwidth(conf: PluginConf): BandwidthEntry | null {
  if (conf.entry === null && conf.runtimeConfig.bandwidth !== null)
    return conf.runtimeConfig.bandwidth;
  return conf.entry;
}

function validateRateAndBurst(rate: number, burst: number): void {
  if (burst === 0 && rate !== 0) throw new GoError('if rate is set, burst must also be set');
  if (rate === 0 && burst !== 0) throw new GoError('if burst is set, rate must also be set');
  if (Math.floor(burst / 8) >= MAX_UINT32) throw new GoError('burst cannot be more than 4GB');
}

interface Parsed {
  conf: PluginConf;
  prev: Result | null;
}

function parseConfig(stdin: string, b: PluginBuild): Parsed {
  const r = goDecode<PluginConf>(stdin, PluginConfT);
  if (r.error !== null) throw new GoError(`failed to parse network configuration: ${r.error}`);
  const conf = r.value;
  const bw = getBandwidth(conf);
  if (bw) {
    validateRateAndBurst(bw.ingressRate, bw.ingressBurst);
    validateRateAndBurst(bw.egressRate, bw.egressBurst);
  }
  let prev: Result | null = null;
  if (conf.netConf.prevResult !== null) {
    try {
      prev = parsePrevResult(conf.netConf.prevResult, conf.netConf.cniVersion, b.lib);
    } catch (e) {
      throw new GoError(`could not parse prevResult: ${(e as Error).message}`);
    }
    try {
      toCurrent(prev, b.lib);
    } catch (e) {
      throw new GoError(`could not convert result to current version: ${(e as Error).message}`);
    }
  }
  return { conf, prev };
}

/** Go's uint32(float64) on amd64: truncation to int64, then the low 32 bits. */
function goU32(x: number): number {
  if (!Number.isFinite(x) || x >= 2 ** 63 || x < -(2 ** 63)) return 0;
  return Number(BigInt.asUintN(32, BigInt(Math.trunc(x))));
}

function time2Tick(time: number): number {
  return goU32(time * TICK_IN_USEC);
}

function buffer(rate: number, burst: number): number {
  return time2Tick(goU32((burst * TIME_UNITS_PER_SEC) / rate));
}

function limit(rate: number, latency: number, buf: number): number {
  return (goU32((rate * latency) / TIME_UNITS_PER_SEC) + buf) >>> 0;
}

function latencyInUsec(latencyInMillis: number): number {
  return TIME_UNITS_PER_SEC * (latencyInMillis / 1000.0);
}

/** The netlink.Tbf createTBF builds for limits in bits (and what CHECK compares with). */
export function tbfParams(rateInBits: number, burstInBits: number): TbfParams {
  const rateInBytes = Math.floor(rateInBits / 8);
  const burstInBytes = Math.floor(burstInBits / 8);
  const bufferInBytes = buffer(rateInBytes, goU32(burstInBytes));
  const latency = latencyInUsec(LATENCY_IN_MILLIS);
  const limitInBytes = limit(rateInBytes, latency, goU32(burstInBytes));
  return { rate: rateInBytes, limit: limitInBytes, buffer: bufferInBytes };
}

/** getIfbDeviceName: "bwp" + sha512(network name + container id), 15 characters. */
export function ifbDeviceName(networkName: string, containerId: string): string {
  return formatHashWithPrefix(MAX_IFB_DEVICE_LENGTH, IFB_DEVICE_PREFIX, networkName + containerId);
}

/** getHostInterface: the prevResult's host interface that is the peer of the container's veth. */
function getHostInterface(
  p: Proc,
  interfaces: Interface[] | null,
  ifName: string,
  podNs: nl.NsId,
): Interface {
  if (!interfaces || interfaces.length === 0) throw new GoError('no interfaces provided');
  const sys = p.sys;
  let peerIndex = -1;
  let err = '';
  try {
    const l = nl.linkByName(sys, podNs, ifName);
    if (l.kind !== 'veth') err = `interface ${q(ifName)} was not a veth interface`;
    else peerIndex = l.peer?.ifindex ?? 0;
  } catch (e) {
    err = `could not look up ${q(ifName)}: ${(e as Error).message}`;
  }
  if (peerIndex <= 0)
    throw new GoError(`container interface ${ifName} has no veth peer: ${err || '<nil>'}`);
  let link: Link;
  try {
    link = nl.linkByIndex(sys, sys.hostNs, peerIndex);
  } catch {
    throw new GoError(`veth peer with index ${peerIndex} is not in host ns`);
  }
  for (const iface of interfaces) {
    if (iface.sandbox === '' && iface.name === link.name) return iface;
  }
  throw new GoError('no veth peer of container interface found in host ns');
}

function openNetns(p: Proc, path: string): nl.NsId {
  try {
    return getNS(p.sys, path);
  } catch (e) {
    // Go formats the nil NetNS the failed GetNS returned.
    throw new GoError(`failed to open netns %!q(<nil>): ${(e as Error).message}`);
  }
}

function* createTBF(p: Proc, rateInBits: number, burstInBits: number, link: Link): Gen<void> {
  if (rateInBits <= 0) throw new GoError(`invalid rate: ${rateInBits}`);
  if (burstInBits <= 0) throw new GoError(`invalid burst: ${burstInBits}`);
  try {
    yield* tc.qdiscAddTbf(p.sys, p.sys.hostNs, link, 1, tbfParams(rateInBits, burstInBits));
  } catch (e) {
    throw new GoError(`create qdisc: ${(e as Error).message}`);
  }
}

function hostLink(p: Proc, name: string, what: string): Link {
  try {
    return nl.linkByName(p.sys, p.sys.hostNs, name);
  } catch (e) {
    throw new GoError(`get ${what} device: ${(e as Error).message}`);
  }
}

function* createEgressQdisc(
  p: Proc,
  rateInBits: number,
  burstInBits: number,
  hostDeviceName: string,
  ifbName: string,
): Gen<void> {
  const sys = p.sys;
  const ifb = hostLink(p, ifbName, 'ifb');
  const host = hostLink(p, hostDeviceName, 'host');
  try {
    yield* tc.qdiscAddIngress(sys, sys.hostNs, host);
  } catch (e) {
    throw new GoError(`create ingress qdisc: ${(e as Error).message}`);
  }
  try {
    yield* tc.filterAddU32Redirect(sys, sys.hostNs, host, ifb, [1, 1]);
  } catch (e) {
    throw new GoError(`add filter: ${(e as Error).message}`);
  }
  try {
    yield* createTBF(p, rateInBits, burstInBits, ifb);
  } catch (e) {
    throw new GoError(`create ifb qdisc: ${(e as Error).message}`);
  }
}

/** SafeQdiscList + the comparison loop of cmdCheck: only a leading tbf is looked at. */
function checkTbf(qdiscs: Qdisc[], rateInBits: number, burstInBits: number): void {
  const want = tbfParams(rateInBits, burstInBits);
  const list = qdiscs.filter((x) => x.kind !== 'pfifo_fast');
  if (list.length === 0) throw new GoError('Failed to find qdisc');
  for (const qd of list) {
    if (qd.kind !== 'tbf' || !qd.tbf) break;
    if (qd.tbf.rate !== want.rate) throw new GoError("Rate doesn't match");
    if (qd.tbf.limit !== want.limit) throw new GoError("Limit doesn't match");
    if (qd.tbf.buffer !== want.buffer) throw new GoError("Buffer doesn't match");
  }
}

const SKEL_TRACE = [
  'github.com/containernetworking/cni/pkg/skel.PluginMainWithError(...)',
  '\tgithub.com/containernetworking/cni/pkg/skel/skel.go:273',
  'github.com/containernetworking/cni/pkg/skel.PluginMain(0x578a20?, 0x10?, 0xc0000c3f50?, {0x5ad700?, 0xc000092f30?}, {0xc0000d2030?, 0x4079d9?})',
  '\tgithub.com/containernetworking/cni/pkg/skel/skel.go:288 +0xd1',
  'main.main()',
  '\tgithub.com/containernetworking/plugins/plugins/meta/bandwidth/main.go:249 +0xcf',
  '',
];

/** types.PrintResult(nil, ...): what ADD without limits and without prevResult does. */
const PRINT_NIL_PANIC = new GoPanic(
  [
    'panic: runtime error: invalid memory address or nil pointer dereference',
    '[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x508d23]',
    '',
    'goroutine 1 [running]:',
    'github.com/containernetworking/cni/pkg/types.PrintResult({0x0?, 0x0?}, {0xc00001cb18?, 0x0?})',
    '\tgithub.com/containernetworking/cni/pkg/types/types.go:104 +0x23',
    'main.cmdAdd(0xc000018850)',
    '\tgithub.com/containernetworking/plugins/plugins/meta/bandwidth/main.go:172 +0x5ea',
    'github.com/containernetworking/cni/pkg/skel.(*dispatcher).checkVersionAndCall(0xc000091eb8, 0xc000018850, {0x5ad700, 0xc000074f30}, 0x582250)',
    '\tgithub.com/containernetworking/cni/pkg/skel/skel.go:166 +0x20a',
    'github.com/containernetworking/cni/pkg/skel.(*dispatcher).pluginMain(0xc000091eb8, 0x667400?, 0xc000091ea0?, 0x44eca9?, {0x5ad700, 0xc000074f30}, {0xc00001a090, 0x24})',
    '\tgithub.com/containernetworking/cni/pkg/skel/skel.go:219 +0x2ca',
    ...SKEL_TRACE,
  ].join('\n'),
);

/** cmdCheck reading the limits of a nil *BandwidthEntry. */
const CHECK_NIL_PANIC = new GoPanic(
  [
    'panic: runtime error: invalid memory address or nil pointer dereference',
    '[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x536ff6]',
    '',
    'goroutine 1 [running]:',
    'main.cmdCheck(0xc00009e7e0)',
    '\tgithub.com/containernetworking/plugins/plugins/meta/bandwidth/main.go:301 +0x2d6',
    'github.com/containernetworking/cni/pkg/skel.(*dispatcher).checkVersionAndCall(0xc0000c3eb8, 0xc00009e7e0, {0x5ad700, 0xc000092f30}, 0x582258)',
    '\tgithub.com/containernetworking/cni/pkg/skel/skel.go:166 +0x20a',
    'github.com/containernetworking/cni/pkg/skel.(*dispatcher).pluginMain(0xc0000c3eb8, 0x667400?, 0xc0000c3ea0?, 0x44eca9?, {0x5ad700, 0xc000092f30}, {0xc0000d2030, 0x24})',
    '\tgithub.com/containernetworking/cni/pkg/skel/skel.go:235 +0x71a',
    ...SKEL_TRACE,
  ].join('\n'),
);

function makeBandwidth(b: PluginBuild): SkelPlugin {
  function* add(args: CmdArgs, p: Proc): Gen<void> {
    const { conf, prev } = parseConfig(args.stdin, b);
    const bw = getBandwidth(conf);
    if (bw === null || isZero(bw)) {
      if (prev === null) throw PRINT_NIL_PANIC;
      printResult(p, prev, conf.netConf.cniVersion, b);
      return;
    }
    if (prev === null) throw new GoError('must be called as chained plugin');
    let result: Result100;
    try {
      result = toCurrent(prev, b.lib);
    } catch (e) {
      throw new GoError(`could not convert result to current version: ${(e as Error).message}`);
    }
    const podNs = openNetns(p, args.netns);
    const hostInterface = getHostInterface(p, result.interfaces, args.ifName, podNs);
    if (bw.ingressRate > 0 && bw.ingressBurst > 0) {
      const host = hostLink(p, hostInterface.name, 'host');
      yield* createTBF(p, bw.ingressRate, bw.ingressBurst, host);
    }
    if (bw.egressRate > 0 && bw.egressBurst > 0) {
      const sys = p.sys;
      const mtu = nl.linkByName(sys, sys.hostNs, hostInterface.name).mtu;
      const ifbName = ifbDeviceName(conf.netConf.name, args.containerId);
      try {
        yield* tc.linkAddIfbUp(sys, sys.hostNs, ifbName, mtu);
      } catch (e) {
        throw new GoError(`adding link: ${(e as Error).message}`);
      }
      const ifb = nl.linkByName(sys, sys.hostNs, ifbName);
      (result.interfaces ??= []).push({ name: ifbName, mac: ifb.mac, sandbox: '' });
      yield* createEgressQdisc(p, bw.egressRate, bw.egressBurst, hostInterface.name, ifbName);
    }
    printResult(p, result, conf.netConf.cniVersion, b);
  }

  function* del(args: CmdArgs, p: Proc): Gen<void> {
    const { conf } = parseConfig(args.stdin, b);
    const ifbName = ifbDeviceName(conf.netConf.name, args.containerId);
    // TeardownIfb: a missing ifb (ErrLinkNotFound) is fine; other errors are returned.
    yield* delLinkByNameAddr(p, p.sys.hostNs, ifbName);
  }

  // eslint-disable-next-line require-yield
  function* check(args: CmdArgs, p: Proc): Gen<void> {
    const { conf, prev } = parseConfig(args.stdin, b);
    if (prev === null) throw new GoError('must be called as a chained plugin');
    let result: Result100;
    try {
      result = toCurrent(prev, b.lib);
    } catch (e) {
      throw new GoError(`could not convert result to current version: ${(e as Error).message}`);
    }
    const sys = p.sys;
    const podNs = openNetns(p, args.netns);
    const hostInterface = getHostInterface(p, result.interfaces, args.ifName, podNs);
    const link = nl.linkByName(sys, sys.hostNs, hostInterface.name);
    const bw = getBandwidth(conf);
    if (bw === null) throw CHECK_NIL_PANIC;
    if (bw.ingressRate > 0 && bw.ingressBurst > 0) {
      checkTbf(tc.qdiscList(link), bw.ingressRate, bw.ingressBurst);
    }
    if (bw.egressRate > 0 && bw.egressBurst > 0) {
      const ifbName = ifbDeviceName(conf.netConf.name, args.containerId);
      const ifb = hostLink(p, ifbName, 'ifb');
      checkTbf(tc.qdiscList(ifb), bw.egressRate, bw.egressBurst);
    }
  }

  return {
    add,
    del,
    check,
    skel: b.skel,
    versions: versionsFrom(b.all, '0.3.0'),
    specVersion: b.specVersion,
    about: aboutText('bandwidth', b),
  };
}

export function bandwidthProgram(b: PluginBuild): Program {
  return pluginMainWithPanics(makeBandwidth(b));
}
