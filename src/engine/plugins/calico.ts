/**
 * A Calico-style routed plugin ("calico" + "calico-ipam").
 *
 * MODELLED, NOT RECORDED: no recording of the real Calico binaries exists in this repository.
 * The CNI side follows Calico's source (cni-plugin/pkg/plugin/plugin.go, pkg/k8s/k8s.go,
 * pkg/dataplane/linux/dataplane_linux.go) where it was read; texts not taken from there are
 * cnisim's. What it reproduces: network `k8s-pod-network`; a veth per pod whose host end is
 * `cali` + the first 11 hex digits of sha1("<namespace>.<pod>") (outside Kubernetes: `cali` + the
 * first 11 characters of the container id) with MAC ee:ee:ee:ee:ee:ee, route_localnet, proxy ARP
 * (no delay) and forwarding on; a /32 pod address with a link route to 169.254.1.1 and a default
 * route via it; a /32 link-scope host route to the pod (one already on another interface fails
 * ADD); a result with one interface, the host veth with the container's MAC; CHECK is Calico's
 * dummy ("OK").
 *
 * calico-ipam is a simplification: /26 blocks with node affinity carved, as a modelling choice,
 * from the node's pod CIDR (real Calico carves them from its IP pools), handed out in Calico's
 * block order (never-used ordinals first, released ones after, in release order). JSON files on
 * the node (/var/lib/cnisim/calico/) stand in for Calico's datastore.
 */
import { sha1 } from '@noble/hashes/legacy.js';
import { IGNORE_UNKNOWN, loadArgs } from '../cni/args';
import { GoError } from '../cni/errors';
import {
  type GoNetConf,
  field,
  goDecode,
  goInt,
  goString,
  pluginConf,
  slice,
  struct,
} from '../cni/gotypes';
import { goMarshal } from '../cni/json';
import { type Result100, emptyDNS, toCurrent } from '../cni/result';
import type { CmdArgs, SkelPlugin } from '../cni/skel';
import { pluginMain } from '../cni/skel';
import { utf8Bytes } from '../base64';
import * as vfs from '../fs/vfs';
import { q } from '../gofmt';
import { KernelError } from '../kernel/kernel';
import type { Link } from '../kernel/types';
import { type IP, type IPNet, ipString, parseCIDR, parseIP } from '../net/ip';
import type { Proc, Program } from '../os/process';
import type { Gen } from '../os/sys';
import { type PluginBuild, aboutText } from './lib/build';
import { ipamExecAdd, ipamExecDel } from './lib/ipam';
import * as nl from './lib/netlink';
import { NSPathNotExistErr, getNS } from './lib/ns';
import { printResult } from './loopback';

export const CALICO_HOST_MAC = 'ee:ee:ee:ee:ee:ee';
export const CALICO_GATEWAY = '169.254.1.1';
export const CALICO_IPAM_STORE = '/var/lib/cnisim/calico/ipam.json';
/**
 * Each block's free list (Calico's `unallocated` ordinals, in the order they are handed out),
 * by block CIDR. A block missing here has its free ordinals in ascending order.
 */
export const CALICO_IPAM_FREE = '/var/lib/cnisim/calico/unallocated.json';
/** The node's pod CIDR as the cluster assigned it (the Node object's spec.podCIDR). */
export const NODE_INFO_FILE = '/etc/cnisim/node.json';
const BLOCK_PREFIX = 26;

function hex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/** libcalico-go VethNameForWorkload: "cali" + first 11 hex digits of sha1("<ns>.<pod>"). */
export function vethNameForWorkload(namespace: string, pod: string, prefix = 'cali'): string {
  return prefix + hex(sha1(new Uint8Array(utf8Bytes(`${namespace}.${pod}`)))).slice(0, 11);
}

const K8S_ARGS = [
  IGNORE_UNKNOWN,
  { name: 'K8S_POD_NAMESPACE', parse: (t: string) => t },
  { name: 'K8S_POD_NAME', parse: (t: string) => t },
  { name: 'K8S_POD_INFRA_CONTAINER_ID', parse: (t: string) => t },
  { name: 'K8S_POD_UID', parse: (t: string) => t },
];

interface CalicoConf {
  netConf: GoNetConf;
  mtu: number;
  nodename: string;
}

const CalicoConfT = pluginConf('types.NetConf', [
  field('MTU', goInt, 'mtu', { prop: 'mtu' }),
  field('Nodename', goString, 'nodename', { prop: 'nodename' }),
]);

/** utils.GetIdentifiers: a Kubernetes workload when both K8S_POD_NAMESPACE and K8S_POD_NAME are set. */
function workload(args: CmdArgs): { k8s: boolean; namespace: string; pod: string } {
  const a = loadArgs(args.args, K8S_ARGS);
  const namespace = (a['K8S_POD_NAMESPACE'] as string | undefined) ?? '';
  const pod = (a['K8S_POD_NAME'] as string | undefined) ?? '';
  return { k8s: namespace !== '' && pod !== '', namespace, pod };
}

/**
 * The host veth's name: VethNameForWorkload under Kubernetes; otherwise (plugin.go) "cali" and
 * the first 11 characters of the container id.
 */
function hostVethName(args: CmdArgs): string {
  const wl = workload(args);
  return wl.k8s
    ? vethNameForWorkload(wl.namespace, wl.pod)
    : `cali${args.containerId.slice(0, 11)}`;
}

const SCOPE_TEXT = { universe: 'universe', link: 'link', host: 'host' } as const;

/**
 * dataplane_linux.go SetupRoutes: a /32 (/128) link-scope route to each address via the host
 * veth. "File exists" is fine when that very route is on the host veth (then nothing more is
 * added); otherwise it names the route in the way.
 */
function* setupRoutes(p: Proc, host: Link, ips: readonly IPNet[]): Gen<void> {
  const sys = p.sys;
  for (const a of ips) {
    const dst = `${ipString(a.ip)}/${a.prefix}`;
    try {
      yield* nl.routeAdd(sys, sys.hostNs, { dst: a, gw: null, dev: host.ifindex, scope: 'link' });
    } catch (e) {
      const msg = (e as Error).message;
      if (!(e instanceof KernelError && e.errno === 'EEXIST')) {
        throw new GoError(
          `failed to add route (Ifindex: ${host.ifindex}, Dst: ${dst}, Scope: link, Iface: ${host.name}): ${msg}`,
        );
      }
      const all = [...nl.routeList(sys, sys.hostNs, 4), ...nl.routeList(sys, sys.hostNs, 6)];
      const sameIP = (r: (typeof all)[number]) => r.prefix !== 0 && r.dst === ipString(a.ip);
      if (all.some((r) => r.dev === host.ifindex && sameIP(r) && r.scope === 'link')) return;
      const other = all.find(sameIP);
      let conflict = '';
      if (other) {
        let name = 'unknown';
        try {
          name = nl.linkByIndex(sys, sys.hostNs, other.dev).name;
        } catch {
          // the link is gone: "unknown"
        }
        conflict = `route (Ifindex: ${other.dev}, Dst: ${other.dst}/${other.prefix}, Scope: ${SCOPE_TEXT[other.scope]}, Iface: ${name})`;
      }
      throw new GoError(
        `route (Ifindex: ${host.ifindex}, Dst: ${dst}, Scope: link) already exists for an interface other than '${host.name}': ${conflict}`,
      );
    }
  }
}

/** dataplane_linux.go CleanUpNamespace: no netns, a netns or a link already gone: nothing to do. */
function* cleanUpNamespace(p: Proc, args: CmdArgs): Gen<void> {
  if (args.netns === '') return;
  let podNs: nl.NsId;
  try {
    podNs = getNS(p.sys, args.netns);
  } catch (e) {
    if (e instanceof NSPathNotExistErr) return;
    throw new GoError(`failed to enter netns: ${(e as Error).message}`);
  }
  let l: Link;
  try {
    l = nl.linkByName(p.sys, podNs, args.ifName);
  } catch {
    return;
  }
  try {
    yield* nl.linkDel(p.sys, podNs, l);
  } catch (e) {
    throw new GoError(`failed to clean up workload's veth inside netns: ${(e as Error).message}`);
  }
}

function makeCalico(b: PluginBuild): SkelPlugin {
  function* add(args: CmdArgs, p: Proc): Gen<void> {
    const sys = p.sys;
    const r0 = goDecode<CalicoConf>(args.stdin, CalicoConfT);
    if (r0.error !== null) throw new GoError(`failed to load netconf: ${r0.error}`);
    const conf = r0.value;
    const hostName = hostVethName(args);
    const ipamType = conf.netConf.ipam.type || 'calico-ipam';
    const r = yield* ipamExecAdd(p, ipamType, args.stdin, b.lib);
    let ok = false;
    try {
      const result = toCurrent(r, b.lib);
      if (!result.ips || result.ips.length === 0)
        throw new GoError('calico: IPAM returned no IP addresses');
      let podNs: nl.NsId;
      try {
        podNs = getNS(sys, args.netns);
      } catch (e) {
        throw new GoError(`calico: failed to open netns ${q(args.netns)}: ${(e as Error).message}`);
      }
      // DoNetworking. A leftover host veth of an earlier life of this workload goes first.
      const stale = nl.linkList(sys, sys.hostNs).find((l) => l.name === hostName);
      if (stale) {
        try {
          yield* nl.linkDel(sys, sys.hostNs, stale);
        } catch (e) {
          throw new GoError(`failed to delete old hostVeth ${hostName}: ${(e as Error).message}`);
        }
      }
      const mtu = conf.mtu > 0 ? conf.mtu : 1500;
      // (Calico creates both ends in the pod and moves the host end out; the engine creates
      // the host end in place.)
      yield* nl.linkAddVeth(sys, podNs, args.ifName, hostName, sys.hostNs, mtu, '');
      let host = nl.linkByName(sys, sys.hostNs, hostName);
      try {
        yield* nl.linkSetHardwareAddr(sys, sys.hostNs, host, CALICO_HOST_MAC);
      } catch {
        // only a warning: the kernel's MAC stays
      }
      const cont = nl.linkByName(sys, podNs, args.ifName);
      try {
        yield* nl.linkSetUp(sys, podNs, cont);
      } catch (e) {
        throw new GoError(`failed to set ${q(args.ifName)} up: ${(e as Error).message}`);
      }
      const contMac = nl.refresh(sys, podNs, cont).mac;
      // /32 (/128) addresses, as Calico sets every mask.
      const addrs: IPNet[] = result.ips.map((ipc) => ({
        ip: ipc.address.ip,
        prefix: ipc.address.ip.v === 4 ? 32 : 128,
      }));
      const hasV4 = addrs.some((a) => a.ip.v === 4);
      if (hasV4) {
        // A link route to the dummy next hop 169.254.1.1, then the default route via it.
        const gw = parseIP(CALICO_GATEWAY)!;
        try {
          yield* nl.routeAdd(sys, podNs, {
            dst: { ip: gw, prefix: 32 },
            gw: null,
            dev: cont.ifindex,
            scope: 'link',
          });
        } catch (e) {
          throw new GoError(`failed to add route inside the container: ${(e as Error).message}`);
        }
        try {
          yield* nl.routeAdd(sys, podNs, { dst: null, gw, dev: cont.ifindex });
        } catch (e) {
          throw new GoError(
            `failed to add IPv4 route for 0.0.0.0/0 via ${CALICO_GATEWAY}: ${(e as Error).message}`,
          );
        }
      }
      for (const a of addrs) yield* nl.addrAdd(sys, podNs, cont, a);
      // configureContainerSysctls: IPv4 forwarding off in the pod (allowIPForwarding unset).
      if (hasV4) yield* nl.sysctlWrite(sys, podNs, 'net.ipv4.ip_forward', '0');
      // configureSysctls on the host veth, in the source's order.
      if (hasV4) {
        for (const [key, value] of [
          [`net.ipv4.conf.${hostName}.route_localnet`, '1'],
          [`net.ipv4.neigh.${hostName}.proxy_delay`, '0'],
          [`net.ipv4.conf.${hostName}.proxy_arp`, '1'],
          [`net.ipv4.conf.${hostName}.forwarding`, '1'],
        ] as const) {
          try {
            yield* nl.sysctlWrite(sys, sys.hostNs, key, value);
          } catch (e) {
            throw new GoError(
              `error configuring sysctls for interface: ${hostName}, error: failed to set ${key}=${value}: ${(e as Error).message}`,
            );
          }
        }
      }
      try {
        yield* nl.sysctlWrite(sys, sys.hostNs, `net.ipv6.conf.${hostName}.accept_ra`, '0');
      } catch {
        // only a warning
      }
      host = nl.refresh(sys, sys.hostNs, host);
      try {
        yield* nl.linkSetUp(sys, sys.hostNs, host);
      } catch (e) {
        throw new GoError(`failed to set ${q(hostName)} up: ${(e as Error).message}`);
      }
      try {
        yield* setupRoutes(p, host, addrs);
      } catch (e) {
        throw new GoError(
          `error adding host side routes for interface: ${hostName}, error: ${(e as Error).message}`,
        );
      }
      // CmdAddK8s / cmdAdd: ONE interface, the host veth with the container's MAC; the IPs keep
      // no interface index and lose their gateway.
      result.interfaces = [
        {
          name: hostName,
          mac: contMac,
          sandbox: args.netns,
          ...(conf.mtu ? { mtu: conf.mtu } : {}),
        },
      ];
      result.ips.forEach((ipc, i) => {
        ipc.interface = null;
        ipc.address = addrs[i]!;
        ipc.gateway = null;
      });
      ok = true;
      printResult(p, result, conf.netConf.cniVersion, b);
    } finally {
      if (!ok) {
        try {
          yield* ipamExecDel(p, ipamType, args.stdin);
        } catch {
          // the clean-up error is dropped
        }
      }
    }
  }

  function* del(args: CmdArgs, p: Proc): Gen<void> {
    const r0 = goDecode<CalicoConf>(args.stdin, CalicoConfT);
    if (r0.error !== null) throw new GoError(`failed to load netconf: ${r0.error}`);
    const ipamType = r0.value.netConf.ipam.type || 'calico-ipam';
    if (workload(args).k8s) {
      // CmdDelK8s: the netns is cleaned up before the address is released.
      yield* cleanUpNamespace(p, args);
      yield* ipamExecDel(p, ipamType, args.stdin);
      return;
    }
    // Outside Kubernetes the address goes first; its error is returned after the clean-up.
    let ipamErr: unknown = null;
    try {
      yield* ipamExecDel(p, ipamType, args.stdin);
    } catch (e) {
      ipamErr = e;
    }
    yield* cleanUpNamespace(p, args);
    if (ipamErr) throw ipamErr;
  }

  /** cmdDummyCheck: prints "OK" and checks nothing. */
  // eslint-disable-next-line require-yield
  function* check(_args: CmdArgs, p: Proc): Gen<void> {
    p.stdout += 'OK\n';
  }

  return {
    add,
    del,
    check,
    skel: b.skel,
    versions: b.all,
    specVersion: b.specVersion,
    about: aboutText('calico', b),
  };
}

// ---------------------------------------------------------------------------------------------
// calico-ipam: blocks with node affinity, in a file standing in for the datastore.

interface Block {
  cidr: string;
  affinity: string;
  /** IP -> handle ("k8s-pod-network.<container id>"). */
  allocations: Record<string, string>;
}

interface IpamStore {
  blocks: Block[];
}

const CalicoIpamConfT = struct('main.NetConf', [
  field('Name', goString, 'name', { prop: 'name' }),
  field('CNIVersion', goString, 'cniVersion', { prop: 'cniVersion' }),
  field('Nodename', goString, 'nodename', { prop: 'nodename' }),
  field(
    'IPAM',
    struct(undefined, [
      field('Type', goString, 'type', { prop: 'type' }),
      field('IPv4Pools', slice(goString), 'ipv4_pools', { prop: 'ipv4_pools' }),
    ]),
    'ipam',
    { prop: 'ipam' },
  ),
]);

interface CalicoIpamConf {
  name: string;
  cniVersion: string;
  nodename: string;
  ipam: { type: string; ipv4_pools: string[] | null };
}

function readStore(p: Proc): IpamStore {
  const e = vfs.stat(p.sys.fs, CALICO_IPAM_STORE);
  if (!e || e.kind !== 'file') return { blocks: [] };
  try {
    const s = JSON.parse(e.data) as IpamStore;
    return Array.isArray(s.blocks) ? s : { blocks: [] };
  } catch {
    throw new GoError(`calico-ipam: datastore ${CALICO_IPAM_STORE} is corrupted`);
  }
}

function* writeStore(p: Proc, s: IpamStore): Gen<void> {
  yield* p.sys.mkdirAll(vfs.dirname(CALICO_IPAM_STORE));
  yield* p.sys.writeFile(CALICO_IPAM_STORE, goMarshal(s, '  ') + '\n');
}

type FreeLists = Record<string, number[]>;

function readFree(p: Proc): FreeLists {
  const e = vfs.stat(p.sys.fs, CALICO_IPAM_FREE);
  if (!e || e.kind !== 'file') return {};
  try {
    const v = JSON.parse(e.data) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as FreeLists) : {};
  } catch {
    throw new GoError(`calico-ipam: datastore ${CALICO_IPAM_FREE} is corrupted`);
  }
}

function* writeFree(p: Proc, f: FreeLists): Gen<void> {
  yield* p.sys.mkdirAll(vfs.dirname(CALICO_IPAM_FREE));
  yield* p.sys.writeFile(CALICO_IPAM_FREE, goMarshal(f) + '\n');
}

/**
 * ipam_block.go's Unallocated list of a block: ordinals are taken from its front and released
 * ones appended, so a released address comes back only after the never-used ones. Ordinals
 * that are allocated are left out whatever the list says.
 */
function freeOrdinals(bl: Block, net: IPNet, free: FreeLists): number[] {
  const taken = (o: number) => ipString({ v: 4, n: net.ip.n + BigInt(o) }) in bl.allocations;
  const size = 2 ** (32 - net.prefix);
  const list = free[bl.cidr] ?? Array.from({ length: size }, (_, i) => i);
  return list.filter((o) => o >= 0 && o < size && !taken(o));
}

function nodeInfo(p: Proc): { name: string; podCIDR: string } {
  const e = vfs.stat(p.sys.fs, NODE_INFO_FILE);
  if (e && e.kind === 'file') {
    try {
      const v = JSON.parse(e.data) as { name?: string; podCIDR?: string };
      return { name: v.name ?? 'node', podCIDR: v.podCIDR ?? '192.168.0.0/16' };
    } catch {
      // fall through to the default pool
    }
  }
  return { name: 'node', podCIDR: '192.168.0.0/16' };
}

function blocksOf(pool: IPNet): IPNet[] {
  const out: IPNet[] = [];
  if (pool.prefix > BLOCK_PREFIX) return [pool];
  const size = 1n << BigInt(32 - BLOCK_PREFIX);
  const count = 1n << BigInt(BLOCK_PREFIX - pool.prefix);
  const base = pool.ip.n & ~((1n << BigInt(32 - pool.prefix)) - 1n);
  for (let i = 0n; i < count && i < 4096n; i++)
    out.push({ ip: { v: 4, n: base + i * size }, prefix: BLOCK_PREFIX });
  return out;
}

function makeCalicoIpam(b: PluginBuild): SkelPlugin {
  function load(stdin: string): CalicoIpamConf {
    const r = goDecode<CalicoIpamConf>(stdin, CalicoIpamConfT);
    if (r.error !== null) throw new GoError(r.error);
    return r.value;
  }

  function* add(args: CmdArgs, p: Proc): Gen<void> {
    const conf = load(args.stdin);
    const node = nodeInfo(p);
    const host = conf.nodename || node.name;
    const pools =
      conf.ipam.ipv4_pools && conf.ipam.ipv4_pools.length ? conf.ipam.ipv4_pools : [node.podCIDR];
    const handle = `${conf.name}.${args.containerId}`;
    const store = readStore(p);
    const existing = store.blocks.flatMap((bl) =>
      Object.entries(bl.allocations).filter(([, h]) => h === handle),
    );
    if (existing.length)
      throw new GoError(
        `calico-ipam: handle ${handle} already holds ${existing.map(([ip]) => ip).join(', ')}`,
      );
    const freeLists = readFree(p);
    let chosen: IP | null = null;
    let chosenBlock: Block | null = null;
    for (const bl of store.blocks) {
      if (bl.affinity !== `host:${host}`) continue;
      const c = parseCIDR(bl.cidr);
      if (!c.ok) continue;
      const free = freeOrdinals(bl, c.net, freeLists);
      if (free.length) {
        chosen = { v: 4, n: c.net.ip.n + BigInt(free[0]!) };
        chosenBlock = bl;
        freeLists[bl.cidr] = free.slice(1);
        break;
      }
    }
    if (!chosen) {
      for (const poolText of pools) {
        const pool = parseCIDR(poolText);
        if (!pool.ok || pool.net.ip.v !== 4)
          throw new GoError(`calico-ipam: invalid pool ${q(poolText)}`);
        const claimed = new Set(store.blocks.map((bl) => bl.cidr));
        const free = blocksOf(pool.net).find(
          (bn) => !claimed.has(`${ipString(bn.ip)}/${bn.prefix}`),
        );
        if (free) {
          chosenBlock = {
            cidr: `${ipString(free.ip)}/${free.prefix}`,
            affinity: `host:${host}`,
            allocations: {},
          };
          store.blocks.push(chosenBlock);
          chosen = free.ip;
          freeLists[chosenBlock.cidr] = freeOrdinals(chosenBlock, free, {}).slice(1);
          break;
        }
      }
    }
    if (!chosen || !chosenBlock) {
      throw new GoError(
        `calico-ipam: failed to request IPv4 addresses: no more free affine blocks and no free addresses in pools ${pools.join(',')}`,
      );
    }
    chosenBlock.allocations[ipString(chosen)] = handle;
    yield* writeStore(p, store);
    yield* writeFree(p, freeLists);
    const result: Result100 = {
      kind: '100',
      cniVersion: b.lib.current,
      interfaces: null,
      ips: [{ interface: null, address: { ip: chosen, prefix: 32 }, gateway: null }],
      routes: [{ dst: { ip: { v: 4, n: 0n }, prefix: 0 }, gw: null }],
      dns: emptyDNS(),
    };
    printResult(p, result, conf.cniVersion, b);
  }

  function* del(args: CmdArgs, p: Proc): Gen<void> {
    const conf = load(args.stdin);
    const handle = `${conf.name}.${args.containerId}`;
    const store = readStore(p);
    const freeLists = readFree(p);
    let changed = false;
    for (const bl of store.blocks) {
      const c = parseCIDR(bl.cidr);
      for (const [ip, h] of Object.entries(bl.allocations)) {
        if (h === handle) {
          if (c.ok) {
            // The ordinal goes to the end of the block's free list.
            const list = freeOrdinals(bl, c.net, freeLists);
            const o = Number(parseIP(ip)!.n - c.net.ip.n);
            freeLists[bl.cidr] = [...list.filter((x) => x !== o), o];
          }
          delete bl.allocations[ip];
          changed = true;
        }
      }
    }
    if (changed) {
      yield* writeStore(p, store);
      yield* writeFree(p, freeLists);
    }
  }

  // eslint-disable-next-line require-yield
  function* check(args: CmdArgs, p: Proc): Gen<void> {
    const conf = load(args.stdin);
    const handle = `${conf.name}.${args.containerId}`;
    if (!readStore(p).blocks.some((bl) => Object.values(bl.allocations).includes(handle))) {
      throw new GoError(`calico-ipam: no address allocated to handle ${handle}`);
    }
  }

  return {
    add,
    del,
    check,
    skel: b.skel,
    versions: b.all,
    specVersion: b.specVersion,
    about: aboutText('calico-ipam', b),
  };
}

export function calicoProgram(b: PluginBuild): Program {
  const plugin = makeCalico(b);
  return (p) => pluginMain(p, plugin);
}

export function calicoIpamProgram(b: PluginBuild): Program {
  const plugin = makeCalicoIpam(b);
  return (p) => pluginMain(p, plugin);
}
