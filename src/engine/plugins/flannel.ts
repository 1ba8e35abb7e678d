/**
 * flannel (flannel-io/cni-plugin v1.1.2, flannel.go + flannel_linux.go): a meta plugin. It reads
 * the subnet file flanneld writes (default /run/flannel/subnet.env: FLANNEL_NETWORK,
 * FLANNEL_SUBNET, FLANNEL_MTU, FLANNEL_IPMASQ and the IPv6 pair), builds the delegate's config
 * (default type bridge with isGateway true, ipMasq = !FLANNEL_IPMASQ, mtu = FLANNEL_MTU,
 * host-local IPAM with the node subnet as its range and a route to each FLANNEL_NETWORK), saves
 * it as <dataDir>/<containerID> (default /var/lib/cni/flannel) and delegates ADD to it. DEL
 * delegates the saved config (no subnet file needed) and removes it; CHECK does nothing.
 *
 * The plugin left containernetworking/plugins in v1.0.0; v1.1.2 of its own repository is built
 * against cni v1.1.2 and plugins v1.1.1, the versions cnisim models, so it runs the v1.1.1
 * skeleton whatever build the node's other plugins are. Recorded: conformance/local/flannel-*.json
 * (the real binary, tools/record/traffic/build-flannel.sh). Not modelled: a subnet.env line with a
 * known key and no `=` (the real plugin panics on it).
 */
import { GoError, errorText } from '../cni/errors';
import {
  type GoNetConf,
  type GoRoute,
  field,
  goAny,
  goDecode,
  goString,
  map,
  pluginConf,
  slice,
  typesNetConf,
  typesRoute,
} from '../cni/gotypes';
import { goMarshalMap } from '../cni/json';
import type { Result } from '../cni/result';
import type { CmdArgs, SkelPlugin } from '../cni/skel';
import { pluginMain } from '../cni/skel';
import * as vfs from '../fs/vfs';
import { q } from '../gofmt';
import { goFormatFloatV } from '../gojson/strconv';
import { type IP, type IPNet, ipString, ipToBytes, networkOf, parseCIDR } from '../net/ip';
import type { Proc, Program } from '../os/process';
import type { Gen } from '../os/sys';
import { BUILD_V1_1_1, type PluginBuild } from './lib/build';
import { ipamExecAdd, ipamExecDel } from './lib/ipam';
import { printResult } from './loopback';

export const FLANNEL_SUBNET_FILE = '/run/flannel/subnet.env';
export const FLANNEL_DATA_DIR = '/var/lib/cni/flannel';
/**
 * The version line a release binary prints without CNI_COMMAND (scripts/build_flannel.sh stamps
 * Program, Version, the commit's first 8 digits and the build time). The build time of the
 * published binary is not known here: this is the tag's commit time, in UTC.
 */
export const FLANNEL_ABOUT =
  'CNI Plugin flannel version v1.1.2 (linux/amd64) commit 18a3027e built on 2022-12-05T16:14:29Z';
/** %#v of the *uint FLANNEL_MTU: a Go heap address, different in every run. */
const MTU_PTR = '0xc000018928';

type Obj = Record<string, unknown>;

interface FlannelConf {
  netConf: { cniVersion: string; name: string };
  ipam: Obj | null;
  subnetFile: string;
  dataDir: string;
  delegate: Obj | null;
  runtimeConfig: Obj | null;
}

// NetConf's own `ipam` (a map) shadows the embedded types.NetConf's (encoding/json: the
// shallower field wins).
const FlannelConfT = pluginConf('main.NetConf', [
  field('IPAM', map(goAny), 'ipam,omitempty', { prop: 'ipam' }),
  field('SubnetFile', goString, 'subnetFile', { prop: 'subnetFile' }),
  field('DataDir', goString, 'dataDir', { prop: 'dataDir' }),
  field('Delegate', map(goAny), 'delegate', { prop: 'delegate' }),
  field('RuntimeConfig', map(goAny), 'runtimeConfig,omitempty', { prop: 'runtimeConfig' }),
]);

function loadFlannelNetConf(stdin: string): FlannelConf {
  const init = goDecode<FlannelConf>('{}', FlannelConfT).value;
  init.subnetFile = FLANNEL_SUBNET_FILE;
  init.dataDir = FLANNEL_DATA_DIR;
  const r = goDecode<FlannelConf>(stdin, FlannelConfT, init);
  if (r.error !== null) throw new GoError(`failed to load netconf: ${r.error}`);
  return r.value;
}

export interface SubnetEnv {
  nws: IPNet[];
  sn: IPNet | null;
  ip6Nws: IPNet[];
  ip6Sn: IPNet | null;
  mtu: number | null;
  ipmasq: boolean | null;
}

/** net.ParseCIDR: the network (host bits cleared), or Go's error. */
function parseNet(s: string): IPNet {
  const r = parseCIDR(s);
  if (!r.ok) throw new GoError(r.error);
  return { ip: networkOf(r.net), prefix: r.net.prefix };
}

function sameNet(a: IPNet, b: IPNet): boolean {
  return a.ip.v === b.ip.v && a.ip.n === b.ip.n && a.prefix === b.prefix;
}

/** strconv.ParseUint(s, 10, 32). */
function parseUint32(s: string): number {
  const bad = (why: string) => new GoError(`strconv.ParseUint: parsing ${q(s)}: ${why}`);
  if (!/^[0-9]+$/.test(s)) throw bad('invalid syntax');
  const n = BigInt(s);
  if (n > 0xffffffffn) throw bad('value out of range');
  return Number(n);
}

/** loadFlannelSubnetEnv: bufio.Scanner lines, `KEY=value`, the last of a key wins. */
export function parseSubnetEnv(fn: string, text: string): SubnetEnv {
  const se: SubnetEnv = { nws: [], sn: null, ip6Nws: [], ip6Sn: null, mtu: null, ipmasq: null };
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  for (const raw of lines) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    const eq = line.indexOf('=');
    const key = eq < 0 ? line : line.slice(0, eq);
    const value = eq < 0 ? '' : line.slice(eq + 1);
    switch (key) {
      case 'FLANNEL_NETWORK':
      case 'FLANNEL_IPV6_NETWORK': {
        const nws: IPNet[] = [];
        for (const c of value.split(',')) {
          const nw = parseNet(c);
          if (!nws.some((x) => sameNet(x, nw))) nws.push(nw);
        }
        if (key === 'FLANNEL_NETWORK') se.nws = nws;
        else se.ip6Nws = nws;
        break;
      }
      case 'FLANNEL_SUBNET':
        se.sn = parseNet(value);
        break;
      case 'FLANNEL_IPV6_SUBNET':
        se.ip6Sn = parseNet(value);
        break;
      case 'FLANNEL_MTU':
        se.mtu = parseUint32(value);
        break;
      case 'FLANNEL_IPMASQ':
        se.ipmasq = value === 'true';
        break;
    }
  }
  const m: string[] = [];
  if (se.nws.length === 0 && se.ip6Nws.length === 0)
    m.push('FLANNEL_NETWORK', 'FLANNEL_IPV6_NETWORK');
  if (se.sn === null && se.ip6Sn === null) m.push('FLANNEL_SUBNET', 'FLANNEL_IPV6_SUBNET');
  if (se.mtu === null) m.push('FLANNEL_MTU');
  if (se.ipmasq === null) m.push('FLANNEL_IPMASQ');
  if (m.length) throw new GoError(`${fn} is missing ${m.join(', ')}`);
  return se;
}

function loadFlannelSubnetEnv(p: Proc, fn: string): SubnetEnv {
  let text: string;
  try {
    text = vfs.readFile(p.sys.fs, fn);
  } catch (e) {
    throw new GoError(errorText(e));
  }
  return parseSubnetEnv(fn, text);
}

// --- Go values the delegate map holds besides decoded JSON, and their %#v ---------------------

/** A `*uint` (FLANNEL_MTU): JSON prints the number, %#v the pointer. */
class UintPtr {
  constructor(readonly value: number) {}
  plain(): unknown {
    return this.value;
  }
}

/** [][]map[string]interface{} (the ranges) and []types.Route (the routes). */
class Ranges {
  constructor(readonly sets: string[]) {}
  plain(): unknown {
    return this.sets.length ? this.sets.map((s) => [{ subnet: s }]) : null;
  }
}

/**
 * `fromJSON`: routes of the config's ipam.routes, whose Dst IP types.IPNet's UnmarshalJSON keeps
 * as net.ParseCIDR's address (16 bytes, host bits kept); the FLANNEL_NETWORK routes carry the
 * ParseCIDR network (4 bytes for IPv4).
 */
class Routes {
  constructor(
    readonly routes: GoRoute[],
    readonly fromJSON: number,
  ) {}
  plain(): unknown {
    return this.routes.map((r) => {
      const o: Obj = { dst: r.dst ? `${ipString(r.dst.ip)}/${r.dst.prefix}` : '<nil>' };
      if (r.gw) o['gw'] = ipString(r.gw);
      return o;
    });
  }
}

const hex = (b: number) => `0x${b.toString(16)}`;

/** %#v of a net.IP: 4 bytes for an IPv4 network address, 16 for a parsed gateway (ParseIP). */
function goIPBytes(ip: IP | null, sixteen: boolean): string {
  if (ip === null) return 'net.IP(nil)';
  let bytes = ipToBytes(ip);
  if (ip.v === 4 && sixteen) bytes = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, ...bytes];
  return `net.IP{${bytes.map(hex).join(', ')}}`;
}

function goMaskBytes(n: IPNet): string {
  const len = n.ip.v === 4 ? 4 : 16;
  const out: number[] = [];
  for (let i = 0; i < len; i++) {
    const bitsLeft = Math.max(0, Math.min(8, n.prefix - i * 8));
    out.push((0xff << (8 - bitsLeft)) & 0xff);
  }
  return `net.IPMask{${out.map(hex).join(', ')}}`;
}

function goSharpV(v: unknown, inInterface: boolean): string {
  if (v instanceof UintPtr) return `(*uint)(${MTU_PTR})`;
  if (v instanceof Ranges) {
    if (v.sets.length === 0) return '[][]map[string]interface {}(nil)';
    const inner = v.sets.map(
      (s) => `[]map[string]interface {}{map[string]interface {}{"subnet":${q(s)}}}`,
    );
    return `[][]map[string]interface {}{${inner.join(', ')}}`;
  }
  if (v instanceof Routes) {
    const rs = v.routes.map((r, i) => {
      const dst = r.dst
        ? `net.IPNet{IP:${goIPBytes(r.dst.ip, i < v.fromJSON)}, Mask:${goMaskBytes(r.dst)}}`
        : 'net.IPNet{IP:net.IP(nil), Mask:net.IPMask(nil)}';
      return `types.Route{Dst:${dst}, GW:${goIPBytes(r.gw, true)}}`;
    });
    return `[]types.Route{${rs.join(', ')}}`;
  }
  if (v === null || v === undefined) return inInterface ? 'interface {}(nil)' : '<nil>';
  if (typeof v === 'string') return q(v);
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return goFormatFloatV(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map((x) => goSharpV(x, true)).join(', ')}}`;
  const o = v as Obj;
  const keys = Object.keys(o).sort(compareBytes);
  return `map[string]interface {}{${keys.map((k) => `${q(k)}:${goSharpV(o[k], true)}`).join(', ')}}`;
}

/** The delegate map as encoding/json sees it (the typed values as their JSON). */
function plain(v: unknown): unknown {
  if (v instanceof UintPtr || v instanceof Ranges || v instanceof Routes) return v.plain();
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v as Obj).map(([k, x]) => [k, plain(x)]));
  return v;
}

function compareBytes(a: string, b: string): number {
  return vfs.byteCompare(a, b);
}

// --- the plugin --------------------------------------------------------------------------------

const RoutesT = slice(typesRoute);

/** getDelegateIPAM: the config's ipam, type host-local by default, ranges and routes replaced. */
function delegateIPAM(n: FlannelConf, fenv: SubnetEnv): Obj {
  const ipam: Obj = n.ipam ?? {};
  if (!('type' in ipam)) ipam['type'] = 'host-local';
  const sets: string[] = [];
  if (fenv.sn) sets.push(`${ipString(fenv.sn.ip)}/${fenv.sn.prefix}`);
  if (fenv.ip6Sn) sets.push(`${ipString(fenv.ip6Sn.ip)}/${fenv.ip6Sn.prefix}`);
  ipam['ranges'] = new Ranges(sets);
  let routes: GoRoute[] = [];
  if (n.ipam !== null && 'routes' in n.ipam) {
    const r = goDecode<GoRoute[] | null>(goMarshalMap(n.ipam['routes']), RoutesT);
    if (r.error !== null) {
      throw new GoError(
        `failed to assemble Delegate IPAM: failed to read IPAM routes: failed to parse ipam.routes: ${r.error}`,
      );
    }
    routes = r.value ?? [];
  }
  const fromJSON = routes.length;
  for (const nw of [...fenv.nws, ...fenv.ip6Nws]) routes.push({ dst: nw, gw: null });
  ipam['routes'] = new Routes(routes, fromJSON);
  return ipam;
}

function makeFlannel(b: PluginBuild): SkelPlugin {
  function* add(args: CmdArgs, p: Proc): Gen<void> {
    let n: FlannelConf;
    try {
      n = loadFlannelNetConf(args.stdin);
    } catch (e) {
      throw new GoError(`loadFlannelNetConf failed: ${errorText(e)}`);
    }
    let fenv: SubnetEnv;
    try {
      fenv = loadFlannelSubnetEnv(p, n.subnetFile);
    } catch (e) {
      throw new GoError(`loadFlannelSubnetEnv failed: ${errorText(e)}`);
    }
    const d: Obj = n.delegate ?? {};
    if (n.delegate !== null) {
      if ('type' in d && typeof d['type'] !== 'string')
        throw new GoError(`'delegate' dictionary, if present, must have (string) 'type' field`);
      if ('name' in d)
        throw new GoError(
          `'delegate' dictionary must not have 'name' field, it'll be set by flannel`,
        );
      if ('ipam' in d)
        throw new GoError(
          `'delegate' dictionary must not have 'ipam' field, it'll be set by flannel`,
        );
    }
    if (n.runtimeConfig !== null) d['runtimeConfig'] = n.runtimeConfig;

    // doCmdAdd
    d['name'] = n.netConf.name;
    if (!('type' in d)) d['type'] = 'bridge';
    if (!('ipMasq' in d)) d['ipMasq'] = !fenv.ipmasq;
    if (!('mtu' in d)) d['mtu'] = new UintPtr(fenv.mtu ?? 0);
    if (d['type'] === 'bridge' && !('isGateway' in d)) d['isGateway'] = true;
    if (n.netConf.cniVersion !== '') d['cniVersion'] = n.netConf.cniVersion;
    d['ipam'] = delegateIPAM(n, fenv);
    p.stderr += `\n${goSharpV(d, false)}\n`;

    // delegateAdd
    const bytes = goMarshalMap(plain(d));
    p.stderr += `delegateAdd: netconf sent to delegate plugin:\n${bytes}`;
    try {
      yield* p.sys.mkdirAll(n.dataDir, 0o700);
      yield* p.sys.writeFile(vfs.joinPath(n.dataDir, args.containerId), bytes, { mode: 0o600 });
    } catch (e) {
      throw new GoError(errorText(e));
    }
    let result: Result;
    try {
      result = yield* ipamExecAdd(p, d['type'] as string, bytes, b.lib);
    } catch (e) {
      throw new GoError(`failed to delegate add: ${errorText(e)}`);
    }
    printResult(p, result, result.cniVersion, b);
  }

  function* del(args: CmdArgs, p: Proc): Gen<void> {
    const n = loadFlannelNetConf(args.stdin);
    // consumeScratchNetConf
    const path = vfs.joinPath(n.dataDir, args.containerId);
    let bytes: string;
    try {
      bytes = vfs.readFile(p.sys.fs, path);
    } catch (e) {
      if (e instanceof vfs.FsError && e.errno === 'ENOENT') return;
      throw new GoError(errorText(e));
    }
    const r = goDecode<GoNetConf>(bytes, typesNetConf);
    if (r.error === null) {
      yield* ipamExecDel(p, r.value.type, bytes);
    } else {
      // the interface stays in the bridge until the node reboots
      p.stderr += `failed to parse netconf: ${r.error}`;
    }
    // cleanup(nil): errors removing are ignored
    try {
      yield* p.sys.remove(path);
    } catch {
      // per spec it is safe to continue during DEL
    }
  }

  function* check(): Gen<void> {
    // cmdCheck: "TODO: implement"
  }

  return {
    add,
    del,
    check,
    skel: b.skel,
    versions: b.all,
    specVersion: b.specVersion,
    about: FLANNEL_ABOUT,
  };
}

/** One build whatever the node's plugin build: flannel ships on its own (see the header). */
export function flannelProgram(): Program {
  const plugin = makeFlannel(BUILD_V1_1_1);
  return (p) => pluginMain(p, plugin);
}
