/**
 * A Calico-style routed plugin ("calico" + "calico-ipam").
 *
 * MODELLED ON CALICO'S DOCUMENTED BEHAVIOUR — no recording of the real Calico binaries exists in
 * this repository, so message texts and details are cnisim's, not Calico's. What it reproduces:
 * network `k8s-pod-network`; a veth per pod whose host end is `cali` + the first 11 hex digits of
 * sha1("<namespace>.<pod>") with MAC ee:ee:ee:ee:ee:ee and proxy ARP on; a /32 (or /128) pod
 * address with a default route via 169.254.1.1 (itself a link-scope route); a /32 host route to
 * the pod; addresses from /26 blocks carved from the node's pod CIDR with the node's affinity.
 * A JSON file on the node (/var/lib/cnisim/calico/ipam.json) stands in for Calico's datastore.
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
import * as ipl from './lib/ip';
import { ipamExecAdd, ipamExecDel } from './lib/ipam';
import * as nl from './lib/netlink';
import { NSPathNotExistErr, getNS } from './lib/ns';
import { printResult } from './loopback';

export const CALICO_HOST_MAC = 'ee:ee:ee:ee:ee:ee';
export const CALICO_GATEWAY = '169.254.1.1';
export const CALICO_IPAM_STORE = '/var/lib/cnisim/calico/ipam.json';
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

function workload(args: CmdArgs): { namespace: string; pod: string } {
  const a = loadArgs(args.args, K8S_ARGS);
  const namespace = (a['K8S_POD_NAMESPACE'] as string | undefined) ?? '';
  const pod = (a['K8S_POD_NAME'] as string | undefined) ?? '';
  if (!namespace || !pod) {
    // Without Kubernetes arguments Calico names the workload by container id.
    return { namespace: 'cni', pod: args.containerId };
  }
  return { namespace, pod };
}

function makeCalico(b: PluginBuild): SkelPlugin {
  function* add(args: CmdArgs, p: Proc): Gen<void> {
    const sys = p.sys;
    const r0 = goDecode<CalicoConf>(args.stdin, CalicoConfT);
    if (r0.error !== null) throw new GoError(`failed to load netconf: ${r0.error}`);
    const conf = r0.value;
    const wl = workload(args);
    const hostName = vethNameForWorkload(wl.namespace, wl.pod);
    const ipamType = conf.netConf.ipam.type || 'calico-ipam';
    const r = yield* ipamExecAdd(p, ipamType, args.stdin, b.lib);
    let ok = false;
    try {
      const result = toCurrent(r, b.lib);
      if (!result.ips || result.ips.length === 0)
        throw new GoError('calico: IPAM returned no IP addresses');
      let podNs: string;
      try {
        podNs = getNS(sys, args.netns);
      } catch (e) {
        throw new GoError(`calico: failed to open netns ${q(args.netns)}: ${(e as Error).message}`);
      }
      // A leftover host veth of an earlier life of this workload is removed first.
      const stale = nl.linkList(sys, sys.hostNs).find((l) => l.name === hostName);
      if (stale) yield* nl.linkDel(sys, sys.hostNs, stale);
      const mtu = conf.mtu > 0 ? conf.mtu : 1500;
      try {
        yield* nl.linkAddVeth(sys, podNs, args.ifName, hostName, sys.hostNs, mtu, '');
      } catch (e) {
        throw new GoError(
          `calico: failed to create veth pair ${args.ifName} / ${hostName}: ${(e as Error).message}`,
        );
      }
      const host = nl.linkByName(sys, sys.hostNs, hostName);
      yield* nl.linkSetHardwareAddr(sys, sys.hostNs, host, CALICO_HOST_MAC);
      for (const [key, value] of [
        [`net.ipv4.conf.${hostName}.proxy_arp`, '1'],
        [`net.ipv4.neigh.${hostName}.proxy_delay`, '0'],
        [`net.ipv4.conf.${hostName}.forwarding`, '1'],
      ] as const) {
        yield* nl.sysctlWrite(sys, sys.hostNs, key, value);
      }
      yield* nl.linkSetUp(sys, sys.hostNs, nl.refresh(sys, sys.hostNs, host));
      // In the pod: eth0 up, its /32, the link route to 169.254.1.1 and the default route via it.
      const cont = nl.linkByName(sys, podNs, args.ifName);
      yield* nl.linkSetUp(sys, podNs, cont);
      const gw = parseIP(CALICO_GATEWAY)!;
      yield* nl.routeAdd(sys, podNs, {
        dst: { ip: gw, prefix: 32 },
        gw: null,
        dev: cont.ifindex,
        scope: 'link',
      });
      for (const ipc of result.ips) {
        const full: IPNet = { ip: ipc.address.ip, prefix: ipc.address.ip.v === 4 ? 32 : 128 };
        yield* nl.addrAdd(sys, podNs, cont, full);
        if (ipc.address.ip.v === 4) {
          yield* nl.routeAdd(sys, podNs, { dst: null, gw, dev: cont.ifindex });
        }
        try {
          yield* nl.routeAdd(sys, sys.hostNs, {
            dst: full,
            gw: null,
            dev: host.ifindex,
            scope: 'link',
          });
        } catch (e) {
          if (!(e instanceof KernelError && e.errno === 'EEXIST')) throw e;
        }
      }
      const contNow = nl.linkByName(sys, podNs, args.ifName);
      result.interfaces = [
        { name: hostName, mac: CALICO_HOST_MAC, sandbox: '' },
        { name: args.ifName, mac: contNow.mac, sandbox: args.netns },
      ];
      for (const ipc of result.ips) {
        ipc.interface = 1;
        ipc.address = { ip: ipc.address.ip, prefix: ipc.address.ip.v === 4 ? 32 : 128 };
      }
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
    const sys = p.sys;
    const r0 = goDecode<CalicoConf>(args.stdin, CalicoConfT);
    if (r0.error !== null) throw new GoError(`failed to load netconf: ${r0.error}`);
    const ipamType = r0.value.netConf.ipam.type || 'calico-ipam';
    if (args.netns !== '') {
      let podNs: string | null = null;
      try {
        podNs = getNS(sys, args.netns);
      } catch (e) {
        if (!(e instanceof NSPathNotExistErr)) throw e;
      }
      if (podNs) yield* ipl.delLinkByNameAddr(p, podNs, args.ifName);
    }
    yield* ipamExecDel(p, ipamType, args.stdin);
  }

  // eslint-disable-next-line require-yield
  function* check(args: CmdArgs, p: Proc): Gen<void> {
    const podNs = getNS(p.sys, args.netns);
    let l: Link;
    try {
      l = nl.linkByName(p.sys, podNs, args.ifName);
    } catch {
      throw new GoError(`calico: interface ${args.ifName} not found in ${args.netns}`);
    }
    const wl = workload(args);
    const hostName = vethNameForWorkload(wl.namespace, wl.pod);
    if (!nl.linkList(p.sys, p.sys.hostNs).some((x) => x.name === hostName)) {
      throw new GoError(`calico: host interface ${hostName} not found`);
    }
    if (!l.addrs.some((a) => a.family === 4 || a.scope === 'global')) {
      throw new GoError(`calico: interface ${args.ifName} has no address`);
    }
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

function blockAddresses(b: IPNet): IP[] {
  const size = 1n << BigInt(32 - b.prefix);
  const out: IP[] = [];
  for (let i = 0n; i < size; i++) out.push({ v: 4, n: b.ip.n + i });
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
    let chosen: IP | null = null;
    let chosenBlock: Block | null = null;
    for (const bl of store.blocks) {
      if (bl.affinity !== `host:${host}`) continue;
      const c = parseCIDR(bl.cidr);
      if (!c.ok) continue;
      const free = blockAddresses(c.net).find((ip) => !(ipString(ip) in bl.allocations));
      if (free) {
        chosen = free;
        chosenBlock = bl;
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
    let changed = false;
    for (const bl of store.blocks) {
      for (const [ip, h] of Object.entries(bl.allocations)) {
        if (h === handle) {
          delete bl.allocations[ip];
          changed = true;
        }
      }
    }
    if (changed) yield* writeStore(p, store);
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
