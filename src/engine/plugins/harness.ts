/**
 * Test-only harness: one simulated node with the reference plugins installed where Debian
 * installs them (/usr/lib/cni), pod namespaces made like `ip netns add`, and plugins run as
 * processes with an explicit environment and stdin, exactly as the tests ran the real binaries
 * (`ip netns exec <node> env -i PATH=... CNI_...=... /usr/lib/cni/<plugin> < conf.json`).
 */
import { snapshotNode, type SnapshotShape } from '../conformance/snapshot';
import * as vfs from '../fs/vfs';
import * as K from '../kernel/kernel';
import { linkByName } from '../kernel/kernel';
import { ping } from '../dataplane/net';
import type { KernelState, Link, Netns } from '../kernel/types';
import { routeJson, routesInDumpOrder } from '../kernel/view';
import { IPV4_ZERO, IPV6_ZERO, netContains, parseIP } from '../net/ip';
import { eui64LinkLocal } from '../net/mac';
import { addNode, netnsAdd, netnsDel, settle } from '../node/setup';
import { type ExecResult, execProgram } from '../os/process';
import { Sys, runToEnd } from '../os/sys';
import { Simulation, newWorld } from '../sim/world';
import { PROGRAMS } from './registry';
import { tget } from '../state/table';

export const PLUGIN_DIR = '/usr/lib/cni';
export const PATH_ENV = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export interface EnvOpts {
  cid?: string | null;
  netns?: string | null;
  ifname?: string | null;
  args?: string | null;
  path?: string | null;
}

/** The CNI_* variables (null leaves one unset), as the tests set them for the real binaries. */
export function cniEnv(cmd: string | null, o: EnvOpts = {}): Record<string, string> {
  const e: Record<string, string> = {};
  const set = (k: string, v: string | null | undefined, dflt: string) => {
    const x = v === undefined ? dflt : v;
    if (x !== null) e[k] = x;
  };
  set('CNI_COMMAND', cmd, '');
  set('CNI_CONTAINERID', o.cid, 'c1');
  set('CNI_NETNS', o.netns, '');
  set('CNI_IFNAME', o.ifname, 'eth0');
  set('CNI_ARGS', o.args, '');
  set('CNI_PATH', o.path, PLUGIN_DIR);
  if (cmd === null) delete e['CNI_COMMAND'];
  return e;
}

export class Harness {
  readonly sim: Simulation;
  readonly node = 'node';

  constructor(opts: { seed?: number; build?: string; plugins?: string[] } = {}) {
    const world = addNode(newWorld(opts.seed ?? 1), {
      name: this.node,
      pluginDir: PLUGIN_DIR,
      build: opts.build ?? 'v1.1.1',
      plugins: opts.plugins ?? ['bridge', 'host-local', 'loopback'],
    });
    this.sim = new Simulation(world);
  }

  get kernel(): KernelState {
    return this.sim.node(this.node).kernel;
  }

  get fs(): vfs.FsState {
    return this.sim.node(this.node).fs;
  }

  /** `ip netns add <name>`; returns the bind mount path. */
  addNetns(name: string): string {
    const path = `/var/run/netns/${name}`;
    netnsAdd(this.sim, this.node, path, 'test');
    return path;
  }

  delNetns(name: string): void {
    netnsDel(this.sim, this.node, `/var/run/netns/${name}`, 'test');
  }

  mkdir(path: string): void {
    this.sim.state = {
      ...this.sim.state,
      nodes: {
        ...this.sim.state.nodes,
        [this.node]: { ...this.sim.node(this.node), fs: vfs.mkdirAll(this.fs, path) },
      },
    };
  }

  writeFile(path: string, data: string): void {
    const fs = vfs.writeFile(vfs.mkdirAll(this.fs, vfs.dirname(path)), path, data);
    this.sim.state = {
      ...this.sim.state,
      nodes: { ...this.sim.state.nodes, [this.node]: { ...this.sim.node(this.node), fs } },
    };
  }

  /** Runs /usr/lib/cni/<plugin> with `env -i PATH=... <env>` and `stdin`. */
  run(plugin: string, env: Record<string, string>, stdin: string): ExecResult {
    return runToEnd(
      execProgram({
        sim: this.sim,
        node: this.node,
        programs: PROGRAMS,
        caller: 'test',
        path: `${PLUGIN_DIR}/${plugin}`,
        env: { PATH: PATH_ENV, ...env },
        stdin,
      }),
    );
  }

  settle(): void {
    settle(this.sim);
  }

  /** The namespace: "node" for the host, else the pod's name. */
  ns(name: string): Netns {
    const k = this.kernel;
    const id = name === 'node' ? k.root : tget(k.mounts, `/var/run/netns/${name}`);
    const ns = id ? tget(k.netns, id) : undefined;
    if (!ns) throw new Error(`no namespace ${name}`);
    return ns;
  }

  hasNs(name: string): boolean {
    const k = this.kernel;
    const id = name === 'node' ? k.root : tget(k.mounts, `/var/run/netns/${name}`);
    return !!id && !!tget(k.netns, id);
  }

  link(ns: string, name: string): Link | undefined {
    return linkByName(this.ns(ns), name);
  }

  /** `ip -j -4/-6 route show table main`, reduced to the fields given. */
  routes(ns: string, family: 4 | 6): Array<Record<string, unknown>> {
    const n = this.ns(ns);
    return routesInDumpOrder(n, family).map((r) => routeJson(n, r));
  }

  /** Every file under `dir`, relative path -> content. */
  files(dir: string): Record<string, string> {
    const out: Record<string, string> = {};
    for (const p of vfs.walk(this.fs, dir)) {
      const e = vfs.stat(this.fs, p);
      if (e?.kind === 'file') out[p.slice(dir.length + 1)] = e.data;
    }
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// Replaying recorded scenarios (bridge, loopback)

/** A step of a recorded scenario (testdata/README.md says what each kind did on the real node). */
export type ScenarioStep =
  | {
      t: 'run';
      plugin?: string;
      cmd: string;
      pod: string;
      cid: string;
      conf: string;
      ifname: string;
      netns?: string;
      prev?: number;
    }
  | { t: 'snap'; ns: string[]; files: boolean }
  | { t: 'ping'; pod: string; dst: string }
  | { t: 'ip'; ns: string; args: string }
  | { t: 'netnsDel'; pod: string };

/** A recorded scenario (plugins/testdata/*.json, kernel/testdata/scenarios.json). */
export interface Scenario {
  name: string;
  steps: ScenarioStep[];
  /** What each step printed or showed on the real node, normalised as `normalise` does. */
  want: unknown[];
}

/**
 * The exit code `ping -c 1 -W 1` had: 0 on a reply, 2 when the kernel refused to send
 * ("connect: Network is unreachable"), 1 when nothing came back.
 */
export function pingExit(h: Harness, pod: string, dst: string): number {
  const r = ping(h.kernel, nsId(h, pod), dst);
  if (r.ok) return 0;
  return r.reason?.startsWith('connect:') || r.reason?.startsWith('ping:') ? 2 : 1;
}

const PODS = ['cnisim-ut-pod-a', 'cnisim-ut-pod-b'];
const BUILTIN = new Set(['PREROUTING', 'INPUT', 'OUTPUT', 'POSTROUTING']);

type Json = unknown;
type Obj = Record<string, Json>;

/** JSON with object keys sorted (as Python's json.dumps(sort_keys=True) wrote the recording). */
export function sortedJson(v: Json): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Obj;
    return `{${Object.keys(o)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${sortedJson(o[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

const MAC_RE = /\b[0-9a-fA-F]{2}(?::[0-9a-fA-F]{2}){5}\b/g;
const VETH_RE = /\bveth[0-9a-f]{8}\b/g;

/** MACs and veth names numbered in order of first appearance over the scenario's outputs. */
export function normalise(outs: Json[]): Json[] {
  const macs = new Map<string, number>();
  const veths = new Map<string, number>();
  return outs.map((o) => {
    const text = sortedJson(o)
      .replace(MAC_RE, (m) => {
        const s = m.toLowerCase();
        if (
          s === '00:00:00:00:00:00' ||
          s === 'ff:ff:ff:ff:ff:ff' ||
          s.startsWith('02:00:00:00:00:')
        )
          return s;
        if (!macs.has(s)) macs.set(s, macs.size + 1);
        return `<mac:${macs.get(s)}>`;
      })
      .replace(VETH_RE, (v) => {
        if (!veths.has(v)) veths.set(v, veths.size + 1);
        return `<veth:${veths.get(v)}>`;
      });
    return JSON.parse(text) as Json;
  });
}

/** The engine's namespace state (its fixture-format snapshot) in the recording's shape. */
export function view(h: Harness, names: string[], dataDir = '/tmp/cnisim-ut'): Obj {
  const shape: SnapshotShape = {
    namespaces: Object.fromEntries(
      names.map((n) => [n, n === 'node' ? null : `/var/run/netns/${n}`]),
    ),
    sysctls: {},
    tc: {},
    dataDir,
    cacheDir: '/var/lib/cni',
    tuningDir: null,
  };
  const snap = snapshotNode(shape, h.sim.node(h.node)) as { namespaces: Record<string, Obj> };
  const out: Obj = {};
  for (const n of names) {
    const s = snap.namespaces[n]!;
    const links = (s['links'] as Obj[]).map((l) => {
      const port = l['bridgePort'] as Obj | undefined;
      const mac = l['mac'] as string;
      return {
        ifindex: l['ifindex'],
        name: l['name'],
        kind: l['kind'],
        flags: [...(l['flags'] as string[])].sort(),
        operstate: l['operstate'],
        mtu: l['mtu'],
        mac,
        promiscuity: l['promiscuity'],
        master: l['master'] ?? null,
        hairpin: port ? port['hairpin'] : null,
        portState: port ? port['state'] : null,
        addrs: (l['addresses'] as Obj[]).map((a) => {
          let local = a['address'] as string;
          if (a['family'] === 'inet6' && local.startsWith('fe80:')) {
            local = local === eui64LinkLocal(mac) ? 'fe80::eui64(own)' : '<ll6>';
          }
          return {
            family: a['family'],
            local,
            prefixlen: a['prefixlen'],
            scope: a['scope'],
            broadcast: a['broadcast'] ?? null,
          };
        }),
      };
    });
    const routes = s['routes'] as { ipv4: Json[]; ipv6: Json[] };
    const v: Obj = { links, routes4: routes.ipv4, routes6: routes.ipv6 };
    if (n === 'node') {
      const ipt = s['iptables'] as { ipv4: string[]; ipv6: string[] };
      const keep = (lines: string[]) =>
        lines.filter(
          (x) =>
            x.startsWith('-A') || (x.startsWith(':') && !BUILTIN.has(x.slice(1).split(' ')[0]!)),
        );
      v['nat4'] = keep(ipt.ipv4);
      v['nat6'] = keep(ipt.ipv6);
      const sys = s['sysctls'] as Record<string, string>;
      v['forwarding'] = {
        ipv4: sys['net.ipv4.ip_forward'],
        ipv6: sys['net.ipv6.conf.all.forwarding'],
      };
    }
    out[n] = v;
  }
  return out;
}

export function kernelOp(h: Harness, f: (k: KernelState, rnd: K.RandomSource) => void): void {
  const sys = new Sys({ sim: h.sim, node: h.node, actor: 'ip', pid: 1 });
  runToEnd(sys.kernelOp('test', 'ip', {}, f));
}

export function nsId(h: Harness, name: string): string {
  const k = h.kernel;
  return name === 'node' ? k.root : tget(k.mounts, `/var/run/netns/${name}`)!;
}

/** The `ip -n <ns> ...` commands the scenarios use. */
export function ipCommand(h: Harness, ns: string, args: string): number {
  const id = nsId(h, ns);
  const dev = (k: KernelState, name: string) => {
    const l = K.linkByName(tget(k.netns, id)!, name);
    if (!l) throw new Error(`Cannot find device "${name}"`);
    return l.ifindex;
  };
  try {
    let m: RegExpExecArray | null;
    if ((m = /^link add (\S+) type veth peer name (\S+)(?: netns (\S+))?$/.exec(args))) {
      const [, name, peer, peerNs] = m as unknown as [string, string, string, string | undefined];
      const peerId = peerNs ? nsId(h, peerNs) : undefined;
      kernelOp(
        h,
        (k, rnd) =>
          void K.linkAdd(
            k,
            id,
            { kind: 'veth', name, peerName: peer, ...(peerId ? { peerNs: peerId } : {}) },
            rnd,
          ),
      );
    } else if ((m = /^link add (\S+)(?: mtu (\d+))? type bridge$/.exec(args))) {
      const [, name, mtu] = m as unknown as [string, string, string | undefined];
      kernelOp(
        h,
        (k, rnd) =>
          void K.linkAdd(
            k,
            id,
            { kind: 'bridge', name, ...(mtu ? { mtu: Number(mtu) } : {}) },
            rnd,
          ),
      );
    } else if ((m = /^link del (\S+)$/.exec(args))) {
      const name = m[1]!;
      kernelOp(h, (k) => K.linkDel(k, id, dev(k, name)));
    } else if ((m = /^link set (\S+) (up|down)$/.exec(args))) {
      const [, name, how] = m as unknown as [string, string, string];
      kernelOp(h, (k) =>
        how === 'up' ? K.linkSetUp(k, id, dev(k, name)) : K.linkSetDown(k, id, dev(k, name)),
      );
    } else if ((m = /^link set (\S+) master (\S+)$/.exec(args))) {
      const [, name, master] = m as unknown as [string, string, string];
      kernelOp(h, (k) => K.linkSetMaster(k, id, dev(k, name), dev(k, master)));
    } else if ((m = /^link set (\S+) nomaster$/.exec(args))) {
      const name = m[1]!;
      kernelOp(h, (k) => K.linkSetMaster(k, id, dev(k, name), null));
    } else if ((m = /^link set (\S+) mtu (\d+)$/.exec(args))) {
      const [, name, mtu] = m as unknown as [string, string, string];
      kernelOp(h, (k) => K.linkSetMtu(k, id, dev(k, name), Number(mtu)));
    } else if ((m = /^link set (\S+) address (\S+)$/.exec(args))) {
      const [, name, mac] = m as unknown as [string, string, string];
      kernelOp(h, (k) => K.linkSetMac(k, id, dev(k, name), mac));
    } else if ((m = /^addr (add|del) (\S+)\/(\d+) dev (\S+)$/.exec(args))) {
      const [, op, ip, len, name] = m as unknown as [string, string, string, string, string];
      const a = { ip: parseIP(ip)!, prefix: Number(len) };
      kernelOp(h, (k) =>
        op === 'add' ? K.addrAdd(k, id, dev(k, name), a) : K.addrDel(k, id, dev(k, name), a),
      );
    } else if ((m = /^route add default via (\S+)$/.exec(args))) {
      const gw = parseIP(m[1]!)!;
      kernelOp(h, (k) => {
        // Without "dev", ip lets the kernel find the device that reaches the gateway.
        const ns = tget(k.netns, id)!;
        const l = K.linksOf(ns).find((x) =>
          x.addrs.some(
            (a) =>
              a.family === gw.v && netContains({ ip: parseIP(a.local)!, prefix: a.prefix }, gw),
          ),
        );
        if (!l) throw new Error('Nexthop has invalid gateway');
        K.routeAdd(k, id, {
          family: gw.v,
          dst: gw.v === 4 ? IPV4_ZERO : IPV6_ZERO,
          prefix: 0,
          dev: l.ifindex,
          gateway: gw,
        });
      });
    } else if (args === 'route del default') {
      kernelOp(h, (k) => K.routeDel(k, id, { family: 4, dst: null }));
    } else if ((m = /^sysctl (\S+)=(\S+)$/.exec(args))) {
      const [, key, value] = m as unknown as [string, string, string];
      kernelOp(h, (k) => K.sysctlSet(k, id, key, value));
    } else {
      throw new Error(`unsupported: ip ${args}`);
    }
  } catch {
    return 1;
  }
  return 0;
}

/** Replays a recorded scenario on a fresh node; returns the normalised outputs, one per step. */
export function replayScenario(
  sc: { steps: ScenarioStep[] },
  plugin: string,
  dataDir: string,
): Json[] {
  const h = new Harness();
  for (const p of PODS) h.addNetns(p);
  const outs: Json[] = [];
  const raw: Array<{ stdout?: string }> = [];
  for (const step of sc.steps) {
    h.settle();
    let out: Obj;
    switch (step.t) {
      case 'run': {
        let conf = step.conf;
        if (step.prev !== undefined) {
          const c = JSON.parse(conf) as Obj;
          c['prevResult'] = JSON.parse(raw[step.prev]!.stdout!) as Json;
          conf = JSON.stringify(c);
        }
        const env = cniEnv(step.cmd, {
          cid: step.cid,
          netns: step.netns ?? `/var/run/netns/${step.pod}`,
          ifname: step.ifname,
        });
        const r = h.run(step.plugin ?? plugin, env, conf);
        out = { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
        break;
      }
      case 'snap':
        out = { ns: view(h, step.ns, dataDir) };
        if (step.files) out['files'] = h.files(dataDir);
        break;
      case 'ping':
        out = { exitCode: pingExit(h, step.pod, step.dst) };
        break;
      case 'ip':
        out = { exitCode: ipCommand(h, step.ns, step.args) };
        break;
      case 'netnsDel':
        h.delNetns(step.pod);
        out = { exitCode: 0 };
        break;
    }
    raw.push(out as { stdout?: string });
    outs.push(out);
  }
  return normalise(outs);
}

/** A readable test name for a step. */
export function stepLabel(s: ScenarioStep, i: number): string {
  switch (s.t) {
    case 'run':
      return `${i}. ${s.cmd} ${s.cid} in ${s.netns ?? s.pod}${s.ifname !== 'eth0' ? ` (${s.ifname})` : ''}${s.prev !== undefined ? ' with prevResult' : ''}`;
    case 'snap':
      return `${i}. state of ${s.ns.join(', ')}`;
    case 'ping':
      return `${i}. ping ${s.dst} from ${s.pod}`;
    case 'ip':
      return `${i}. ip -n ${s.ns} ${s.args}`;
    case 'netnsDel':
      return `${i}. ip netns del ${s.pod}`;
  }
}
