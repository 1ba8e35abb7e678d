/**
 * host-local IPAM (plugins/ipam/host-local): allocates addresses from range sets and records
 * each reservation as a file named by the IP under <dataDir>/<network>/, containing
 * "<containerID>\r\n<ifname>", plus last_reserved_ip.<set index> and a lock file.
 */
import { COMMON_ARGS, IGNORE_UNKNOWN, loadArgs } from '../cni/args';
import { GoError } from '../cni/errors';
import {
  type GoRoute,
  field,
  goString,
  netIP,
  pluginIP,
  ptr,
  slice,
  struct,
  embed,
  typesIPNet,
  typesRoute,
  goDecode,
} from '../cni/gotypes';
import { type IPConfig, type Result100, type Route, emptyDNS } from '../cni/result';
import { versionGte } from '../cni/version';
import * as vfs from '../fs/vfs';
import { goList } from '../gofmt';
import * as disk from './host-local-disk';
import {
  type IP,
  type IPNet,
  ipCmp,
  ipEqual,
  ipString,
  lastOf,
  maskBits,
  netContains,
  nextIP,
  parseIP,
  bits,
} from '../net/ip';
import type { Proc, Program } from '../os/process';
import type { Gen } from '../os/sys';
import type { CmdArgs, SkelPlugin } from '../cni/skel';
import { pluginMain } from '../cni/skel';
import { type PluginBuild, aboutText } from './lib/build';
import { printResult } from './loopback';

// ---------------------------------------------------------------------------------------------
// Config

interface GoRange {
  rangeStart: IP | null;
  rangeEnd: IP | null;
  subnet: IPNet | null;
  gateway: IP | null;
}

const RangeT = struct('allocator.Range', [
  field('RangeStart', netIP, 'rangeStart,omitempty', { prop: 'rangeStart' }),
  field('RangeEnd', netIP, 'rangeEnd,omitempty', { prop: 'rangeEnd' }),
  field('Subnet', typesIPNet, 'subnet', { prop: 'subnet' }),
  field('Gateway', netIP, 'gateway,omitempty', { prop: 'gateway' }),
]);
const RangeSetT = slice(RangeT, 'allocator.RangeSet');

const IPAMConfigT = struct('allocator.IPAMConfig', [
  embed(ptr(RangeT), { prop: 'range' }),
  field('Name', goString, undefined, { prop: 'name' }),
  field('Type', goString, 'type', { prop: 'type' }),
  field('Routes', slice(ptr(typesRoute)), 'routes', { prop: 'routes' }),
  field('DataDir', goString, 'dataDir', { prop: 'dataDir' }),
  field('ResolvConf', goString, 'resolvConf', { prop: 'resolvConf' }),
  field('Ranges', slice(RangeSetT), 'ranges', { prop: 'ranges' }),
  field('IPArgs', slice(netIP), '-', { prop: 'ipArgs' }),
]);

const NetT = struct('allocator.Net', [
  field('Name', goString, 'name', { prop: 'name' }),
  field('CNIVersion', goString, 'cniVersion', { prop: 'cniVersion' }),
  field('IPAM', ptr(IPAMConfigT), 'ipam', { prop: 'ipam' }),
  field(
    'RuntimeConfig',
    struct(undefined, [
      field('IPRanges', slice(RangeSetT), 'ipRanges,omitempty', { prop: 'ipRanges' }),
      field('IPs', slice(ptr(pluginIP)), 'ips,omitempty', { prop: 'ips' }),
    ]),
    'runtimeConfig,omitempty',
    { prop: 'runtimeConfig' },
  ),
  field(
    'Args',
    ptr(
      struct(undefined, [
        field(
          'A',
          ptr(
            struct('allocator.IPAMArgs', [
              field('IPs', slice(ptr(pluginIP)), 'ips', { prop: 'ips' }),
            ]),
          ),
          'cni',
          { prop: 'cni' },
        ),
      ]),
    ),
    'args',
    { prop: 'args' },
  ),
]);

/** A *ip.IP as gojson decodes it. */
type IPBox = { elem: IP | null } | null;

interface GoNet {
  name: string;
  cniVersion: string;
  ipam: {
    range: GoRange | null;
    name: string;
    type: string;
    routes: (GoRoute | null)[] | null;
    dataDir: string;
    resolvConf: string;
    ranges: (GoRange[] | null)[] | null;
  } | null;
  /** []*ip.IP: each element a box (gojson's pointer to a nullable custom type), or nil. */
  runtimeConfig: { ipRanges: (GoRange[] | null)[] | null; ips: IPBox[] | null };
  args: { cni: { ips: IPBox[] | null } | null } | null;
}

/** A canonical range: every field set. */
export interface Range {
  rangeStart: IP;
  rangeEnd: IP;
  subnet: IPNet;
  gateway: IP;
}
export type RangeSet = Range[];

export interface IPAMConfig {
  name: string;
  type: string;
  routes: Route[] | null;
  dataDir: string;
  resolvConf: string;
  ranges: RangeSet[];
  ipArgs: IP[];
}

function rangeContains(
  r: Pick<Range, 'subnet'> & { rangeStart: IP | null; rangeEnd: IP | null },
  addr: IP,
): boolean {
  if (addr.v !== r.subnet.ip.v) return false;
  if (!netContains(r.subnet, addr)) return false;
  if (r.rangeStart && ipCmp(addr, r.rangeStart) < 0) return false;
  if (r.rangeEnd && ipCmp(addr, r.rangeEnd) > 0) return false;
  return true;
}

function netString(n: IPNet): string {
  return `${ipString(n.ip)}/${n.prefix}`;
}

/** Range.Canonicalize */
function canonicalizeRange(g: GoRange): Range {
  if (!g.subnet) throw new GoError('IP <nil> not v4 nor v6');
  const subnet = g.subnet;
  const ones = subnet.prefix;
  const masklen = bits(subnet.ip.v);
  if (ones > masklen - 2)
    throw new GoError(`Network ${netString(subnet)} too small to allocate from`);
  // canonicalizeIP made an IPv4-mapped subnet's IP 4 bytes; its mask (from IPv6 text) is 16.
  if (subnet.ip.v === 4 && subnet.goMaskHex?.length === 32)
    throw new GoError('IPNet IP and Mask version mismatch');
  const network: IP = { v: subnet.ip.v, n: subnet.ip.n & maskBits(subnet.ip.v, ones) };
  if (!ipEqual(subnet.ip, network)) {
    throw new GoError(
      `Network has host bits set. For a subnet mask of length ${ones} the network address is ${ipString(network)}`,
    );
  }
  const gateway = g.gateway ?? nextIP(subnet.ip);
  let rangeStart: IP;
  // Range.Contains checks against the (not yet canonical) RangeEnd when it is set.
  const partial = { subnet, rangeStart: null as IP | null, rangeEnd: g.rangeEnd };
  if (g.rangeStart) {
    partial.rangeStart = g.rangeStart;
    if (!rangeContains(partial, g.rangeStart)) {
      throw new GoError(`RangeStart ${ipString(g.rangeStart)} not in network ${netString(subnet)}`);
    }
    rangeStart = g.rangeStart;
  } else {
    rangeStart = nextIP(subnet.ip);
    partial.rangeStart = rangeStart;
  }
  partial.rangeEnd = null;
  let rangeEnd: IP;
  if (g.rangeEnd) {
    if (!rangeContains(partial, g.rangeEnd)) {
      throw new GoError(`RangeEnd ${ipString(g.rangeEnd)} not in network ${netString(subnet)}`);
    }
    rangeEnd = g.rangeEnd;
  } else {
    const last = lastOf(subnet);
    rangeEnd = subnet.ip.v === 4 ? { v: 4, n: last.n - 1n } : last;
  }
  return { rangeStart, rangeEnd, subnet, gateway };
}

function rangeString(r: Range): string {
  return `${ipString(r.rangeStart)}-${ipString(r.rangeEnd)}`;
}

export function rangeSetString(s: RangeSet): string {
  return s.map(rangeString).join(',');
}

function rangesOverlap(a: Range, b: Range): boolean {
  if (a.rangeStart.v !== b.rangeStart.v) return false;
  return (
    rangeContains(a, b.rangeStart) ||
    rangeContains(a, b.rangeEnd) ||
    rangeContains(b, a.rangeStart) ||
    rangeContains(b, a.rangeEnd)
  );
}

function canonicalizeSet(s: GoRange[] | null): RangeSet {
  if (!s || s.length === 0) throw new GoError('empty range set');
  const out: RangeSet = [];
  let fam = 0;
  for (let i = 0; i < s.length; i++) {
    const r = canonicalizeRange(s[i]!);
    if (i === 0) fam = r.rangeStart.v;
    else if (fam !== r.rangeStart.v) throw new GoError('mixed address families');
    out.push(r);
  }
  for (let i = 0; i < out.length - 1; i++) {
    for (let j = i + 1; j < out.length; j++) {
      if (rangesOverlap(out[i]!, out[j]!))
        throw new GoError(`subnets ${rangeString(out[i]!)} and ${rangeString(out[j]!)} overlap`);
    }
  }
  return out;
}

function setContains(s: RangeSet, ip: IP): boolean {
  return s.some((r) => rangeContains(r, ip));
}

function rangeFor(s: RangeSet, ip: IP): Range {
  const r = s.find((x) => rangeContains(x, ip));
  if (!r) throw new GoError(`${ipString(ip)} not in range set ${rangeSetString(s)}`);
  return r;
}

const IPAM_ENV_ARGS = [
  IGNORE_UNKNOWN,
  COMMON_ARGS,
  {
    name: 'IP',
    parse: (text: string): IP | null => {
      if (text === '') return null;
      const c = text.includes('/') ? parseCidrIP(text) : parseIP(text);
      if (!c) throw new Error(`invalid IP address ${text}`);
      return c;
    },
  },
];

function parseCidrIP(text: string): IP | null {
  const slash = text.indexOf('/');
  const ip = parseIP(text.slice(0, slash));
  const len = text.slice(slash + 1);
  if (!ip || !/^[0-9]+$/.test(len) || Number(len) > bits(ip.v)) return null;
  return ip;
}

/** allocator.LoadIPAMConfig: returns the config and the config's cniVersion. */
export function loadIPAMConfig(
  stdin: string,
  envArgs: string,
): { conf: IPAMConfig; version: string } {
  const r = goDecode<GoNet>(stdin, NetT);
  if (r.error !== null) throw new GoError(r.error);
  const n = r.value;
  if (!n.ipam) throw new GoError("IPAM config missing 'ipam' key");
  const ipArgs: IP[] = [];
  if (envArgs !== '') {
    const e = loadArgs(envArgs, IPAM_ENV_ARGS);
    const ip = e['IP'] as IP | null | undefined;
    if (ip) ipArgs.splice(0, ipArgs.length, ip);
  }
  for (const b of n.args?.cni?.ips ?? []) if (b?.elem) ipArgs.push(b.elem);
  for (const b of n.runtimeConfig.ips ?? []) if (b?.elem) ipArgs.push(b.elem);
  let sets: (GoRange[] | null)[] = [...(n.ipam.ranges ?? [])];
  if (n.ipam.range && n.ipam.range.subnet) sets = [[n.ipam.range], ...sets];
  if (n.runtimeConfig.ipRanges && n.runtimeConfig.ipRanges.length > 0)
    sets = [...n.runtimeConfig.ipRanges, ...sets];
  if (sets.length === 0) throw new GoError('no IP ranges specified');
  const ranges: RangeSet[] = [];
  let numV4 = 0;
  let numV6 = 0;
  for (let i = 0; i < sets.length; i++) {
    try {
      ranges.push(canonicalizeSet(sets[i]!));
    } catch (e) {
      throw new GoError(`invalid range set ${i}: ${(e as Error).message}`);
    }
    if (ranges[i]![0]!.rangeStart.v === 4) numV4++;
    else numV6++;
  }
  if (numV4 > 1 || numV6 > 1) {
    const ok = versionGte(n.cniVersion, '0.3.0');
    if (!ok.ok || !ok.value)
      throw new GoError(
        `CNI version ${n.cniVersion} does not support more than 1 address per family`,
      );
  }
  for (let i = 0; i < ranges.length - 1; i++) {
    for (let j = i + 1; j < ranges.length; j++) {
      if (ranges[i]!.some((a) => ranges[j]!.some((b) => rangesOverlap(a, b)))) {
        throw new GoError(`range set ${i} overlaps with ${j}`);
      }
    }
  }
  const routes = n.ipam.routes
    ? n.ipam.routes.map((x) => ({
        dst: x?.dst ?? null,
        gw: x?.gw ?? null,
      }))
    : null;
  return {
    conf: {
      name: n.name,
      type: n.ipam.type,
      routes,
      dataDir: n.ipam.dataDir,
      resolvConf: n.ipam.resolvConf,
      ranges,
      ipArgs,
    },
    version: n.cniVersion,
  };
}

// ---------------------------------------------------------------------------------------------
// A network's host-local config, read from outside the plugin (faults, the audit, views)

type ConfObj = Record<string, unknown>;

/** The plugin configs of a network (a conflist's plugins, or a single conf itself). */
function pluginConfs(netConf: string): { list: ConfObj; plugins: ConfObj[] } {
  const list = JSON.parse(netConf) as ConfObj;
  const plugins = Array.isArray(list['plugins']) ? (list['plugins'] as ConfObj[]) : [list];
  return { list, plugins };
}

const isObj = (v: unknown): v is ConfObj => typeof v === 'object' && v !== null;
const runsHostLocal = (p: unknown): boolean =>
  isObj(p) &&
  (p['type'] === 'host-local' || (isObj(p['ipam']) && p['ipam']['type'] === 'host-local'));

/** Whether a network (a conflist or a conf, as JSON text) runs host-local, itself or as a plugin's IPAM. */
export function usesHostLocal(netConf: string): boolean {
  try {
    return pluginConfs(netConf).plugins.some(runsHostLocal);
  } catch {
    return false;
  }
}

/**
 * The IPAM config host-local loads for a network (a conflist or a conf, as JSON text), from the
 * first plugin that delegates to it, with the list's name and cniVersion as libcni passes them.
 * Null when no plugin uses host-local as its IPAM. Throws a SyntaxError when the text is not JSON
 * and a GoError when host-local would refuse the config.
 */
export function hostLocalConfOf(netConf: string): IPAMConfig | null {
  const { list, plugins } = pluginConfs(netConf);
  const p = plugins.find((x) => isObj(x) && isObj(x['ipam']) && x['ipam']['type'] === 'host-local');
  if (!p) return null;
  const stdin = JSON.stringify({ ...p, name: list['name'], cniVersion: list['cniVersion'] });
  return loadIPAMConfig(stdin, '').conf;
}

/**
 * How many addresses host-local can hand out from a network's first IPv4 range set (its
 * gateways excepted); null when the network does not use host-local or host-local refuses its config.
 */
export function ipamCapacity(netConf: string): number | null {
  let conf: IPAMConfig | null;
  try {
    conf = hostLocalConfOf(netConf);
  } catch {
    return null;
  }
  const set = conf?.ranges.find((s) => s[0]!.rangeStart.v === 4);
  if (!set) return null;
  let n = 0n;
  for (const r of set) {
    n += r.rangeEnd.n - r.rangeStart.n + 1n;
    if (rangeContains(r, r.gateway)) n -= 1n;
  }
  return Number(n);
}

/** The directory of the network's reservations (<dataDir>/<name>), if it uses host-local. */
export function hostLocalDirOf(netConf: string): string | null {
  try {
    const conf = hostLocalConfOf(netConf);
    return conf ? disk.networkDir(conf.name, conf.dataDir) : null;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// The disk store (backend/disk); its layout and read-only readers are in host-local-disk.ts.

class Store {
  constructor(
    readonly p: Proc,
    readonly dir: string,
  ) {}

  /** disk.New: MkdirAll(dir, 0755) and the lock file. */
  static *open(p: Proc, network: string, dataDir: string): Gen<Store> {
    const dir = disk.networkDir(network, dataDir);
    try {
      yield* p.sys.mkdirAll(dir, 0o755);
    } catch (e) {
      throw new GoError(
        `mkdir ${dir}: ${(e as vfs.FsError).errno ? vfs.ERRNO_TEXT[(e as vfs.FsError).errno] : (e as Error).message}`,
      );
    }
    const lock = vfs.joinPath(dir, disk.LOCK_FILE);
    if (!vfs.stat(p.sys.fs, lock)) yield* p.sys.writeFile(lock, '', { mode: 0o750 }); // go-filemutex's mode
    return new Store(p, dir);
  }

  private files(): string[] {
    const fs = this.p.sys.fs;
    return vfs.walk(fs, this.dir).filter((x) => vfs.stat(fs, x)?.kind === 'file');
  }

  *reserve(id: string, ifname: string, ip: IP, rangeID: string): Gen<boolean> {
    const fname = vfs.joinPath(this.dir, ipString(ip));
    if (vfs.stat(this.p.sys.fs, fname)) return false;
    yield* this.p.sys.writeFile(fname, id.trim() + disk.LINE_BREAK + ifname, {
      mode: 0o644,
      exclusive: true,
    });
    yield* this.p.sys.writeFile(disk.lastReservedIPPath(this.dir, rangeID), ipString(ip), {
      mode: 0o644,
    });
    return true;
  }

  lastReservedIP(rangeID: string): IP | null {
    return disk.lastReservedIP(this.p.sys.fs, this.dir, rangeID);
  }

  private matches(id: string, ifname: string): [string, string] {
    return disk.reservationKeys(id, ifname);
  }

  getByID(id: string, ifname: string): IP[] {
    const [m, old] = this.matches(id, ifname);
    const out: IP[] = [];
    for (const f of this.files()) {
      const data = vfs.readFile(this.p.sys.fs, f).trim();
      if (data === m || data === old) {
        const ip = parseIP(vfs.basename(f));
        if (ip) out.push(ip);
      }
    }
    return out;
  }

  findByID(id: string, ifname: string): boolean {
    const [m, old] = this.matches(id, ifname);
    const contents = this.files().map((f) => vfs.readFile(this.p.sys.fs, f).trim());
    return contents.includes(m) || contents.includes(old);
  }

  *releaseByID(id: string, ifname: string): Gen<void> {
    const [m, old] = this.matches(id, ifname);
    const found = yield* this.releaseByKey(m);
    if (!found) yield* this.releaseByKey(old);
  }

  private *releaseByKey(match: string): Gen<boolean> {
    let found = false;
    for (const f of this.files()) {
      const e = vfs.stat(this.p.sys.fs, f);
      if (!e || e.kind !== 'file') continue;
      if (e.data.trim() === match) {
        yield* this.p.sys.remove(f);
        found = true;
      }
    }
    return found;
  }
}

// ---------------------------------------------------------------------------------------------
// The allocator

class RangeIter {
  rangeIdx = 0;
  cur: IP | null = null;
  startIP: IP | null = null;
  constructor(readonly set: RangeSet) {}

  next(): { ip: IPNet; gw: IP } | null {
    for (;;) {
      let r = this.set[this.rangeIdx]!;
      if (this.cur === null) {
        this.cur = r.rangeStart;
        this.startIP = this.cur;
        if (ipEqual(this.cur, r.gateway)) continue;
        return { ip: { ip: this.cur, prefix: r.subnet.prefix }, gw: r.gateway };
      }
      if (ipEqual(this.cur, r.rangeEnd)) {
        this.rangeIdx = (this.rangeIdx + 1) % this.set.length;
        r = this.set[this.rangeIdx]!;
        this.cur = r.rangeStart;
      } else {
        this.cur = nextIP(this.cur);
      }
      if (this.startIP === null) this.startIP = this.cur;
      else if (ipEqual(this.cur, this.startIP)) return null;
      if (ipEqual(this.cur, r.gateway)) continue;
      return { ip: { ip: this.cur, prefix: r.subnet.prefix }, gw: r.gateway };
    }
  }
}

function* allocate(
  store: Store,
  set: RangeSet,
  rangeID: number,
  id: string,
  ifname: string,
  requested: IP | null,
): Gen<IPConfig> {
  let reserved: IPNet | null = null;
  let gw: IP | null = null;
  if (requested) {
    const r = rangeFor(set, requested);
    if (ipEqual(requested, r.gateway))
      throw new GoError(`requested ip ${ipString(requested)} is subnet's gateway`);
    const ok = yield* store.reserve(id, ifname, requested, String(rangeID));
    if (!ok) {
      throw new GoError(
        `requested IP address ${ipString(requested)} is not available in range set ${rangeSetString(set)}`,
      );
    }
    reserved = { ip: requested, prefix: r.subnet.prefix };
    gw = r.gateway;
  } else {
    for (const ip of store.getByID(id, ifname)) {
      if (setContains(set, ip)) {
        throw new GoError(
          `${ipString(ip)} has been allocated to ${id}, duplicate allocation is not allowed`,
        );
      }
    }
    const iter = new RangeIter(set);
    const last = store.lastReservedIP(String(rangeID));
    if (last && setContains(set, last)) {
      iter.rangeIdx = set.findIndex((r) => rangeContains(r, last));
      iter.cur = last;
    }
    for (let n = iter.next(); n; n = iter.next()) {
      if (yield* store.reserve(id, ifname, n.ip.ip, String(rangeID))) {
        reserved = n.ip;
        gw = n.gw;
        break;
      }
    }
  }
  if (!reserved)
    throw new GoError(`no IP addresses available in range set: ${rangeSetString(set)}`);
  return { interface: null, address: reserved, gateway: gw };
}

function parseResolvConf(p: Proc, filename: string): Result100['dns'] {
  let text: string;
  try {
    text = vfs.readFile(p.sys.fs, filename);
  } catch (e) {
    throw new GoError((e as Error).message);
  }
  const dns = emptyDNS();
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line[0] === '#' || line[0] === ';') continue;
    const f = line.split(/\s+/);
    if (f.length < 2) continue;
    switch (f[0]) {
      case 'nameserver':
        (dns.nameservers ??= []).push(f[1]!);
        break;
      case 'domain':
        dns.domain = f[1]!;
        break;
      case 'search':
        (dns.search ??= []).push(...f.slice(1));
        break;
      case 'options':
        (dns.options ??= []).push(...f.slice(1));
        break;
    }
  }
  return dns;
}

function makeHostLocal(b: PluginBuild): SkelPlugin {
  function* add(args: CmdArgs, p: Proc): Gen<void> {
    const { conf, version } = loadIPAMConfig(args.stdin, args.args);
    const result: Result100 = {
      kind: '100',
      cniVersion: b.lib.current,
      interfaces: null,
      ips: null,
      routes: null,
      dns: emptyDNS(),
    };
    if (conf.resolvConf !== '') result.dns = parseResolvConf(p, conf.resolvConf);
    const store = yield* Store.open(p, conf.name, conf.dataDir);
    const requested = new Map<string, IP>();
    for (const ip of conf.ipArgs) requested.set(ipString(ip), ip);
    let allocated = 0;
    for (let idx = 0; idx < conf.ranges.length; idx++) {
      const set = conf.ranges[idx]!;
      let req: IP | null = null;
      for (const [k, ip] of requested) {
        if (setContains(set, ip)) {
          req = ip;
          requested.delete(k);
          break;
        }
      }
      let c: IPConfig;
      try {
        c = yield* allocate(store, set, idx, args.containerId, args.ifName, req);
      } catch (e) {
        for (let i = 0; i < allocated; i++) yield* store.releaseByID(args.containerId, args.ifName);
        throw new GoError(`failed to allocate for range ${idx}: ${(e as Error).message}`);
      }
      allocated++;
      (result.ips ??= []).push(c);
    }
    if (requested.size !== 0) {
      for (let i = 0; i < allocated; i++) yield* store.releaseByID(args.containerId, args.ifName);
      let msg = 'failed to allocate all requested IPs:';
      for (const ip of requested.values()) msg += ' ' + ipString(ip);
      throw new GoError(msg);
    }
    result.routes = conf.routes;
    printResult(p, result, version, b);
  }

  function* del(args: CmdArgs, p: Proc): Gen<void> {
    const { conf } = loadIPAMConfig(args.stdin, args.args);
    const store = yield* Store.open(p, conf.name, conf.dataDir);
    for (let i = 0; i < conf.ranges.length; i++)
      yield* store.releaseByID(args.containerId, args.ifName);
  }

  function* check(args: CmdArgs, p: Proc): Gen<void> {
    const { conf } = loadIPAMConfig(args.stdin, args.args);
    const store = yield* Store.open(p, conf.name, conf.dataDir);
    if (!store.findByID(args.containerId, args.ifName)) {
      throw new GoError(
        `host-local: Failed to find address added by container ${args.containerId}`,
      );
    }
  }

  function* noop(): Gen<void> {}

  return {
    add,
    del,
    check,
    ...(b.spec11 ? { gc: noop, status: noop } : {}),
    skel: b.skel,
    versions: b.all,
    specVersion: b.specVersion,
    about: aboutText('host-local', b),
  };
}

export function hostLocalProgram(b: PluginBuild): Program {
  const plugin = makeHostLocal(b);
  return (p) => pluginMain(p, plugin);
}

export { goList };
