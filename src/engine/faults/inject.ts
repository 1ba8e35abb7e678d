/**
 * Injecting a fault of the catalogue into a cluster, and carrying out its documented recovery,
 * changing the nodes only through the Cluster's public methods: a shell on the node (`rm`, `ip netns del`, `ip
 * link del`, ... so the trace reads like what an operator typed), file writes, plugin installs,
 * systemctl restarts and reboots, and the operator's cnitool actions.
 *
 * Parameters are checked before anything happens; a bad one gives `{ ok: false, error }` naming
 * it (`params.pod: pods "web-9" not found`). Nothing here throws for bad input.
 */
import { base64Encode } from '../base64';
import { podKey } from '../apiserver/apiserver';
import { type Cluster, type ClusterSpec, defaultConflist } from '../cluster/cluster';
import type { PodObj } from '../apiserver/types';
import { goMarshal, sortKeysDeep } from '../cni/json';
import * as vfs from '../fs/vfs';
import { runIptables } from '../kernel/iptables';
import { iptablesSaveLines } from '../kernel/iptables/save';
import * as K from '../kernel/kernel';
import { BUILDS } from '../plugins/lib/build';
import { PLUGIN_FACTORIES } from '../plugins/registry';
import type { CniNetwork, ContainerdState, SandboxRec } from '../runtime/types';
import type { NodeState, WorldState } from '../sim/world';
import type { TraceEvent } from '../trace/trace';
import {
  type FaultDef,
  type InjectSpec,
  type ParamSpec,
  type RecoveryActionSpec,
  FAULTS,
  faultById,
} from './catalogue';

export type FaultParams = Record<string, unknown>;

export type InjectResult =
  | {
      ok: true;
      fault: string;
      /** What was done, one line each (as an operator would tell it). */
      did: string[];
      /** seq of the trace event the fault was injected at (the first change it made). */
      at: number;
    }
  | { ok: false; error: string };

/** How long a during-add fault waits for its moment, in virtual µs. */
export const MOMENT_WAIT_US = 300_000_000;

interface Resolved {
  node: string;
  pod?: PodObj;
  podKey?: string;
  plugin: string;
  build: string;
  cniVersion: string;
  /** Values of `choice` parameters by name (command, what). */
  choices: Record<string, string>;
  free: number;
}

class ParamError extends Error {}

function fail(message: string): never {
  throw new ParamError(message);
}

/**
 * What the checks of a fault read: a cluster's spec and its state at some step. The app checks
 * a fault at the step a person looks at (`faultProblem`) without a live Cluster.
 */
export interface FaultView {
  spec: ClusterSpec;
  state: WorldState;
}

function viewOf(c: Cluster): FaultView {
  return { spec: c.spec, state: c.sim.state };
}

function nodeState(v: FaultView, node: string): NodeState {
  const n = v.state.nodes[node];
  if (!n) fail(`params.node: no node ${JSON.stringify(node)}`);
  return n;
}

function ctrd(v: FaultView, node: string): ContainerdState {
  const s = nodeState(v, node).containerd;
  if (!s) fail(`node ${node}: it has no containerd`);
  return s;
}

// -------------------------------------------------------------------------------------------------
// Parameters

function resolveParams(view: FaultView, f: FaultDef, params: unknown): Resolved {
  if (params === null || typeof params !== 'object' || Array.isArray(params))
    fail(`params: expected an object of parameters, got ${JSON.stringify(params)}`);
  const given = params as FaultParams;
  const known = Object.keys(f.params);
  for (const k of Object.keys(given)) {
    if (!known.includes(k)) {
      fail(
        `params.${k}: fault "${f.id}" has no parameter ${k} (it takes: ${known.join(', ') || 'none'})`,
      );
    }
  }
  const value = (name: string, spec: ParamSpec): unknown => given[name] ?? spec.default;
  const str = (name: string, spec: ParamSpec): string | undefined => {
    const v = value(name, spec);
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v === '')
      fail(`params.${name}: expected a non-empty string, got ${JSON.stringify(v)}`);
    return v;
  };
  const out: Resolved = {
    node: '',
    plugin: '',
    build: '',
    cniVersion: '',
    choices: {},
    free: 0,
  };
  const nodes = view.spec.nodes.map((n) => n.name);
  for (const [name, spec] of Object.entries(f.params)) {
    switch (spec.kind) {
      case 'pod': {
        const v = str(name, spec);
        if (v === undefined) fail(`params.${name}: required (the pod to inject into)`);
        const key = v.includes('/') ? v : podKey('default', v);
        const p = view.state.api?.pods[key];
        if (!p) fail(`params.${name}: pods "${v}" not found`);
        out.pod = p;
        out.podKey = key;
        break;
      }
      case 'plugin': {
        const v = str(name, spec)!;
        if (!PLUGIN_FACTORIES[v])
          fail(
            `params.${name}: unknown plugin "${v}" (known: ${Object.keys(PLUGIN_FACTORIES).sort().join(', ')})`,
          );
        out.plugin = v;
        break;
      }
      case 'build': {
        const v = str(name, spec)!;
        if (!BUILDS[v])
          fail(`params.${name}: unknown build "${v}" (known: ${Object.keys(BUILDS).join(', ')})`);
        out.build = v;
        break;
      }
      case 'cniVersion': {
        const v = str(name, spec)!;
        if (!/^\d+\.\d+\.\d+$/.test(v)) fail(`params.${name}: "${v}" is not a version like 1.0.0`);
        out.cniVersion = v;
        break;
      }
      case 'choice': {
        const v = str(name, spec)!;
        if (!spec.values!.includes(v))
          fail(`params.${name}: "${v}" is not one of ${spec.values!.join(', ')}`);
        out.choices[name] = v;
        break;
      }
      case 'count': {
        const v = value(name, spec);
        if (typeof v !== 'number' || !Number.isInteger(v) || v < 0)
          fail(`params.${name}: expected a whole number >= 0, got ${JSON.stringify(v)}`);
        out.free = v;
        break;
      }
      case 'node':
        break;
    }
  }
  // The node: given, or the pod's, or the only one.
  const nodeSpec = f.params['node'];
  const givenNode = nodeSpec ? given['node'] : undefined;
  if (givenNode !== undefined) {
    if (typeof givenNode !== 'string' || !nodes.includes(givenNode))
      fail(`params.node: no node ${JSON.stringify(givenNode)} (nodes: ${nodes.join(', ')})`);
    if (out.pod && out.pod.spec.nodeName !== givenNode)
      fail(`params.node: pod ${out.podKey} runs on ${out.pod.spec.nodeName}, not ${givenNode}`);
    out.node = givenNode;
  } else if (out.pod) out.node = out.pod.spec.nodeName;
  else if (nodes.length === 1) out.node = nodes[0]!;
  else fail(`params.node: required: the cluster has ${nodes.length} nodes (${nodes.join(', ')})`);

  // The pod's state must fit the moment.
  if (out.pod) {
    const p = out.pod;
    const running = p.containerRunning && p.deletionTimestamp === null;
    if ((f.when === 'pod-running' || f.when === 'before-delete') && !running)
      fail(`params.pod: pod ${out.podKey} is not Running; fault "${f.id}" needs a running pod`);
    if (f.when === 'during-add' && (p.containerRunning || p.deletionTimestamp !== null))
      fail(
        `params.pod: pod ${out.podKey} is ${p.deletionTimestamp !== null ? 'being deleted' : 'already Running'}; fault "${f.id}" needs a pod being created`,
      );
  }
  return out;
}

// -------------------------------------------------------------------------------------------------
// What a node holds

function podNetwork(v: FaultView, node: string): CniNetwork {
  const net = ctrd(v, node).cni.networks.find((n) => n.ifName === 'eth0');
  if (!net)
    fail(`node ${node}: containerd has no pod network loaded (CNI is not initialized there)`);
  return net;
}

function readySandbox(v: FaultView, r: Resolved): SandboxRec {
  const sb = Object.values(ctrd(v, r.node).sandboxes)
    .sort((a, b) => a.createdAt - b.createdAt)
    .filter((s) => s.pod.uid === r.pod!.spec.uid && s.state === 'SANDBOX_READY')
    .pop();
  if (!sb) fail(`params.pod: pod ${r.podKey} has no ready sandbox`);
  return sb;
}

function cacheFile(net: string, id: string): string {
  return `/var/lib/cni/results/${net}-${id}-eth0`;
}

function binDir(v: FaultView, node: string): string {
  return ctrd(v, node).settings.binDirs[0] ?? '/opt/cni/bin';
}

function nodeBuild(v: FaultView, node: string): string {
  return v.spec.nodes.find((n) => n.name === node)?.pluginBuild ?? 'v1.1.1';
}

function originalConfigs(v: FaultView, node: string): Record<string, string> {
  const n = v.spec.nodes.find((x) => x.name === node)!;
  return n.cniConfigs ?? { '10-containerd-net.conflist': defaultConflist(n.podCIDR) };
}

function sh(c: Cluster, node: string, line: string, did: string[]): void {
  const r = c.shell(node, line);
  if (r.exitCode !== 0) fail(`${node}: \`${line}\` failed: ${r.output.trim()}`);
  did.push(`${node}# ${line}`);
}

/** The netns of a sandbox in the kernel (by its mount). */
function sandboxNetns(v: FaultView, node: string, sb: SandboxRec) {
  const k = nodeState(v, node).kernel;
  const id = k.mounts[sb.netns];
  return id ? k.netns[id] : undefined;
}

interface HostLocalRange {
  dir: string;
  first: number;
  last: number;
  gateway: number;
  prefix: number;
}

function v4(s: string): number | null {
  const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(s);
  if (!m) return null;
  const parts = m.slice(1).map(Number);
  if (parts.some((x) => x > 255)) return null;
  return ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0;
}

function v4s(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

/** host-local's first range of the node's pod network, IPv4 (defaults as range.Canonicalize). */
function hostLocalRange(v: FaultView, node: string): HostLocalRange {
  const net = podNetwork(v, node);
  let conf: {
    plugins?: Array<{ ipam?: Record<string, unknown> }>;
    ipam?: Record<string, unknown>;
  };
  try {
    conf = JSON.parse(net.bytes);
  } catch {
    fail(`node ${node}: its conflist is not valid JSON`);
  }
  const ipam = [...(conf.plugins ?? []), conf]
    .map((p) => p.ipam)
    .find((i) => i && i['type'] === 'host-local');
  if (!ipam) fail(`node ${node}: network ${net.name} does not use host-local`);
  const ranges = ipam['ranges'] as Array<Array<Record<string, string>>> | undefined;
  const r = ranges?.[0]?.[0] ?? (ipam as Record<string, string>);
  const m = /^([0-9.]+)\/(\d+)$/.exec(String(r['subnet'] ?? ''));
  const base = m ? v4(m[1]!) : null;
  if (!m || base === null) fail(`node ${node}: host-local's first range is not an IPv4 subnet`);
  const prefix = Number(m[2]);
  const size = 2 ** (32 - prefix);
  const network = base - (base % size);
  const first = (r['rangeStart'] && v4(r['rangeStart'])) || network + 1;
  const last = (r['rangeEnd'] && v4(r['rangeEnd'])) || network + size - 2;
  const gateway = (r['gateway'] && v4(r['gateway'])) || network + 1;
  const dataDir = typeof ipam['dataDir'] === 'string' ? ipam['dataDir'] : '/var/lib/cni/networks';
  return { dir: `${dataDir}/${net.name}`, first, last, gateway, prefix };
}

/** Addresses of the range without a reservation, in the order host-local tries them next. */
function freeAddresses(v: FaultView, node: string, r: HostLocalRange): number[] {
  const fs = nodeState(v, node).fs;
  const taken = (ip: number) => vfs.stat(fs, `${r.dir}/${v4s(ip)}`) !== undefined;
  const lastFile = vfs.stat(fs, `${r.dir}/last_reserved_ip.0`);
  const lastIp = lastFile?.kind === 'file' ? v4(lastFile.data.trim()) : null;
  const start = lastIp !== null && lastIp >= r.first && lastIp < r.last ? lastIp + 1 : r.first;
  const out: number[] = [];
  const n = r.last - r.first + 1;
  for (let i = 0; i < n; i++) {
    const ip = r.first + ((start - r.first + i) % n);
    if (ip !== r.gateway && !taken(ip)) out.push(ip);
  }
  return out;
}

/** The bridges the node's pod network plugs pods into (bridge plugin, default cni0). */
function bridgeNames(v: FaultView, node: string): string[] {
  const net = podNetwork(v, node);
  try {
    const conf = JSON.parse(net.bytes) as { plugins?: Array<Record<string, unknown>> };
    return (conf.plugins ?? [conf as Record<string, unknown>])
      .filter((p) => p['type'] === 'bridge')
      .map((p) => (typeof p['bridge'] === 'string' ? p['bridge'] : 'cni0'));
  } catch {
    return [];
  }
}

function randomId(c: Cluster): string {
  return c.sim.random((r) => r.hex(32));
}

// -------------------------------------------------------------------------------------------------
// Injecting

/** Runs the cluster until `plugin` starts working on the pod's ADD (its first step). */
function runToMoment(c: Cluster, r: Resolved): TraceEvent {
  const p = r.pod!;
  let execSeq = -1;
  const hit = c.run({
    until: c.now + MOMENT_WAIT_US,
    stop: (e) => {
      if (e.node !== r.node) return false;
      if (e.kind === 'exec' && e.target === r.plugin) {
        const env = (e.payload['env'] ?? {}) as Record<string, string>;
        const args = `;${env['CNI_ARGS'] ?? ''};`;
        if (
          env['CNI_COMMAND'] === 'ADD' &&
          args.includes(`;K8S_POD_NAME=${p.spec.name};`) &&
          args.includes(`;K8S_POD_NAMESPACE=${p.spec.namespace};`)
        )
          execSeq = e.seq;
        return false;
      }
      return execSeq >= 0 && e.parent === execSeq && e.source === r.plugin;
    },
  });
  if (!hit)
    fail(
      `params.pod: the moment never came: no ${r.plugin} ADD for ${r.podKey} started within ${MOMENT_WAIT_US / 1e6}s`,
    );
  return hit;
}

/** The host end of a sandbox's eth0 veth, and the netns and eth0 (failing when one is gone). */
function podWiring(v: FaultView, r: Resolved) {
  const sb = readySandbox(v, r);
  const ns = sandboxNetns(v, r.node, sb);
  const eth0 = ns ? K.linkByName(ns, 'eth0') : undefined;
  if (!ns || !eth0) fail(`params.pod: pod ${r.podKey} has no eth0 in ${sb.netns}`);
  const k = nodeState(v, r.node).kernel;
  const root = k.netns[k.root]!;
  const host = K.linksOf(root).find(
    (l) => l.kind === 'veth' && l.peer?.ns === ns.id && l.peer.ifindex === eth0.ifindex,
  );
  return { sb, ns, eth0, root, host };
}

function isPlugin(v: FaultView, node: string, plugin: string): boolean {
  const e = vfs.stat(nodeState(v, node).fs, `${binDir(v, node)}/${plugin}`);
  return e?.kind === 'file' && !!e.exec;
}

/**
 * Whether the fault can be made on the node as it is (what `apply` needs), failing with the
 * reason. Reads the state only: the app asks it at any step.
 */
function check(v: FaultView, spec: InjectSpec, r: Resolved): void {
  const node = r.node;
  switch (spec.kind) {
    case 'truncate-cache':
    case 'remove-cache': {
      const file = cacheFile(podNetwork(v, node).name, readySandbox(v, r).id);
      if (vfs.stat(nodeState(v, node).fs, file)?.kind !== 'file')
        fail(`params.pod: ${file} does not exist`);
      return;
    }
    case 'set-cni-version':
    case 'break-conflist': {
      const net = podNetwork(v, node);
      if (!net.file) fail(`node ${node}: the pod network has no config file`);
      if (spec.kind === 'set-cni-version') {
        const e = vfs.stat(nodeState(v, node).fs, net.file);
        try {
          JSON.parse(e?.kind === 'file' ? e.data : '');
        } catch {
          fail(`node ${node}: ${net.file} is not valid JSON`);
        }
      }
      return;
    }
    case 'remove-plugin':
    case 'hang-plugin':
      if (!isPlugin(v, node, r.plugin))
        fail(`params.plugin: ${binDir(v, node)}/${r.plugin} is not installed`);
      return;
    case 'fill-ipam':
      hostLocalRange(v, node);
      return;
    case 'stale-attachment': {
      const range = hostLocalRange(v, node);
      if (!freeAddresses(v, node, range).length)
        fail(`node ${node}: no free address left for a stale reservation`);
      return;
    }
    case 'delete-netns':
      readySandbox(v, r);
      return;
    case 'drift': {
      const w = podWiring(v, r);
      const what = r.choices['what'];
      if (what === 'address' && !w.eth0.addrs.some((x) => x.family === 4))
        fail(`params.pod: eth0 of pod ${r.podKey} has no IPv4 address`);
      if ((what === 'host-veth' || what === 'bridge') && !w.host)
        fail(`params.pod: the host end of ${r.podKey}'s veth was not found`);
      if (what === 'bridge' && (w.host!.master === null || !w.root.links[w.host!.master]))
        fail(`params.pod: the bridge of ${r.podKey}'s veth was not found`);
      return;
    }
    case 'install-build':
    case 'restart-kubelet':
    case 'restart-containerd':
    case 'reboot':
      return;
  }
}

function apply(c: Cluster, spec: InjectSpec, r: Resolved, did: string[]): void {
  const node = r.node;
  check(viewOf(c), spec, r);
  switch (spec.kind) {
    case 'truncate-cache': {
      const sb = readySandbox(viewOf(c), r);
      const file = cacheFile(podNetwork(viewOf(c), node).name, sb.id);
      const e = vfs.stat(c.sim.node(node).fs, file);
      if (e?.kind !== 'file') fail(`params.pod: ${file} does not exist`);
      c.writeFile(node, file, e.data.slice(0, spec.keepBytes), e.mode);
      did.push(`${node}: ${file} cut short after ${spec.keepBytes} bytes`);
      return;
    }
    case 'remove-cache': {
      const sb = readySandbox(viewOf(c), r);
      sh(c, node, `rm ${cacheFile(podNetwork(viewOf(c), node).name, sb.id)}`, did);
      return;
    }
    case 'set-cni-version': {
      const net = podNetwork(viewOf(c), node);
      const data = vfs.readFile(c.sim.node(node).fs, net.file);
      let obj: Record<string, unknown>;
      try {
        obj = JSON.parse(data);
      } catch {
        fail(`node ${node}: ${net.file} is not valid JSON`);
      }
      obj['cniVersion'] = r.cniVersion;
      c.writeFile(node, net.file, `${JSON.stringify(obj, null, 2)}\n`);
      did.push(`${node}: ${net.file}: "cniVersion": "${r.cniVersion}"`);
      return;
    }
    case 'install-build':
      c.installPlugin(node, r.plugin, r.build, binDir(viewOf(c), node));
      did.push(`${node}: installed ${r.plugin} ${r.build} into ${binDir(viewOf(c), node)}`);
      return;
    case 'remove-plugin': {
      const path = `${binDir(viewOf(c), node)}/${r.plugin}`;
      if (!vfs.stat(c.sim.node(node).fs, path)) fail(`params.plugin: ${path} is not installed`);
      sh(c, node, `rm ${path}`, did);
      return;
    }
    case 'fill-ipam': {
      const range = hostLocalRange(viewOf(c), node);
      const free = freeAddresses(viewOf(c), node, range);
      const fill = free.slice(0, Math.max(0, free.length - r.free));
      const owners = fill.map(() => randomId(c));
      c.env(node, `fill ${range.dir} with ${fill.length} reservations`, ({ fs }) => {
        let out = vfs.mkdirAll(fs, range.dir);
        fill.forEach((ip, i) => {
          out = vfs.writeFile(out, `${range.dir}/${v4s(ip)}`, `${owners[i]}\r\neth0`, {
            mode: 0o644,
          });
        });
        return { fs: out };
      });
      did.push(`${node}: ${fill.length} reservations in ${range.dir} held by unknown containers`);
      return;
    }
    case 'stale-attachment': {
      const range = hostLocalRange(viewOf(c), node);
      const ip = freeAddresses(viewOf(c), node, range)[0];
      if (ip === undefined) fail(`node ${node}: no free address left for a stale reservation`);
      const id = randomId(c);
      const file = `${range.dir}/${v4s(ip)}`;
      c.writeFile(node, file, `${id}\r\neth0`);
      did.push(`${node}: ${file} held by ${id.slice(0, 13)} (no such sandbox)`);
      if (spec.withCache) {
        const net = podNetwork(viewOf(c), node);
        const path = cacheFile(net.name, id);
        c.writeFile(node, path, staleCache(c, node, net, id, v4s(ip), range), 0o600);
        did.push(`${node}: ${path} (the attachment's result cache)`);
      }
      return;
    }
    case 'delete-netns': {
      const sb = readySandbox(viewOf(c), r);
      // What `ip netns del` does: the mount goes; the pause process keeps the namespace.
      c.deleteNetnsMount(node, sb.netns);
      did.push(`${node}# ip netns del ${vfs.basename(sb.netns)}`);
      return;
    }
    case 'hang-plugin': {
      const path = `${binDir(viewOf(c), node)}/${r.plugin}`;
      const e = vfs.stat(c.sim.node(node).fs, path);
      if (e?.kind !== 'file' || !e.exec) fail(`params.plugin: ${path} is not installed`);
      const command = r.choices['command']!;
      c.hangPlugin(node, r.plugin, [command], binDir(viewOf(c), node));
      did.push(`${node}: ${path} now blocks on ${command}`);
      return;
    }
    case 'restart-kubelet':
      c.restartKubelet(node);
      did.push(`${node}# systemctl restart kubelet`);
      return;
    case 'restart-containerd':
      c.restartContainerd(node);
      did.push(`${node}# systemctl restart containerd`);
      return;
    case 'reboot':
      c.reboot(node);
      did.push(`${node}# reboot`);
      return;
    case 'drift': {
      const w = podWiring(viewOf(c), r);
      const name = vfs.basename(w.sb.netns);
      const what = r.choices['what'];
      if (what === 'address') {
        const a = w.eth0.addrs.find((x) => x.family === 4)!;
        sh(c, node, `ip -n ${name} addr del ${a.local}/${a.prefix} dev eth0`, did);
      } else if (what === 'route') {
        sh(c, node, `ip -n ${name} route del default`, did);
      } else if (what === 'host-veth') {
        sh(c, node, `ip link del ${w.host!.name}`, did);
      } else {
        sh(c, node, `ip link del ${w.root.links[w.host!.master!]!.name}`, did);
      }
      return;
    }
    case 'break-conflist': {
      const net = podNetwork(viewOf(c), node);
      if (!net.file) fail(`node ${node}: the pod network has no config file`);
      if (spec.mode === 'missing') {
        sh(c, node, `rm ${net.file}`, did);
      } else {
        const data = vfs.readFile(c.sim.node(node).fs, net.file);
        const half = data.slice(0, Math.floor(data.length / 2));
        c.writeFile(node, net.file, half);
        did.push(`${node}: ${net.file} half-written (${half.length} of ${data.length} bytes)`);
      }
      return;
    }
  }
}

/** The cache file libcni would have written for an attachment of an earlier life. */
function staleCache(
  c: Cluster,
  node: string,
  net: CniNetwork,
  id: string,
  ip: string,
  range: HostLocalRange,
): string {
  const { uid, suffix, nsHex, macs, veth } = c.sim.random((r) => ({
    uid: r.hex(16),
    suffix: Array.from({ length: 5 }, () => 'bcdfghjklmnpqrstvwxz2456789'[r.int(27)]).join(''),
    nsHex: r.hex(16),
    macs: [r.hex(6), r.hex(6), r.hex(6)],
    veth: r.hex(4),
  }));
  const uuid = (h: string) =>
    `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
  const mac = (h: string) => `0a:${h.match(/../g)!.slice(1).join(':')}`;
  const netns = `/var/run/netns/cni-${uuid(nsHex)}`;
  let cniVersion = '1.0.0';
  try {
    cniVersion = String(JSON.parse(net.bytes).cniVersion ?? cniVersion);
  } catch {
    // keep 1.0.0
  }
  const cached: Record<string, unknown> = {
    kind: 'cniCacheV1',
    containerId: id,
    config: base64Encode(net.bytes),
    ifName: 'eth0',
    networkName: net.name,
  };
  if (c.rt(node).containerd.state.settings.libcni === '1.2') cached['netns'] = netns;
  cached['cniArgs'] = [
    ['IgnoreUnknown', '1'],
    ['K8S_POD_NAMESPACE', 'default'],
    ['K8S_POD_NAME', `web-5c9f7d6b8d-${suffix}`],
    ['K8S_POD_INFRA_CONTAINER_ID', id],
    ['K8S_POD_UID', uuid(uid)],
  ];
  cached['result'] = sortKeysDeep({
    cniVersion,
    interfaces: [
      { name: 'cni0', mac: mac(macs[0]!) },
      { name: `veth${veth}`, mac: mac(macs[1]!) },
      { name: 'eth0', mac: mac(macs[2]!), sandbox: netns },
    ],
    ips: [{ interface: 2, address: `${ip}/${range.prefix}`, gateway: v4s(range.gateway) }],
    routes: [{ dst: '0.0.0.0/0' }],
    dns: {},
  });
  return goMarshal(cached);
}

/**
 * Injects fault `id` into the cluster. For a `during-add` fault the cluster runs until the
 * moment comes; for a `before-delete` fault the pod is deleted afterwards.
 */
export function injectFault(c: Cluster, id: string, params: unknown = {}): InjectResult {
  const f = faultById(id);
  if (!f)
    return {
      ok: false,
      error: `fault: no fault "${id}" (known: ${FAULTS.map((x) => x.id).join(', ')})`,
    };
  const did: string[] = [];
  let start: number;
  try {
    const r = resolveParams(viewOf(c), f, params);
    if (f.when === 'during-add') runToMoment(c, r);
    start = c.events.length;
    apply(c, f.inject, r, did);
    if (f.when === 'before-delete' && r.choices['then'] !== 'nothing') {
      c.deletePod(r.podKey!);
      did.push(`kubectl delete pod ${r.pod!.spec.name}`);
    }
  } catch (e) {
    if (e instanceof ParamError) return { ok: false, error: e.message };
    return { ok: false, error: `fault ${id}: ${(e as Error).message}` };
  }
  return { ok: true, fault: id, did, at: Math.min(start, c.events.length - 1) };
}

// -------------------------------------------------------------------------------------------------
// Recovering

function recoverOne(c: Cluster, a: RecoveryActionSpec, r: Resolved, did: string[]): void {
  const node = r.node;
  switch (a.kind) {
    case 'none':
      return;
    case 'reinstall-plugin': {
      const build = nodeBuild(viewOf(c), node);
      c.installPlugin(node, r.plugin, build, binDir(viewOf(c), node));
      did.push(`${node}: installed ${r.plugin} ${build} into ${binDir(viewOf(c), node)}`);
      return;
    }
    case 'unhang-plugin':
      c.hangPlugin(node, r.plugin, [], binDir(viewOf(c), node));
      did.push(`${node}: ${binDir(viewOf(c), node)}/${r.plugin} answers again`);
      return;
    case 'remove-cache': {
      const net = podNetwork(viewOf(c), node);
      const fs = c.sim.node(node).fs;
      const stuck = c
        .rt(node)
        .containerd.listPodSandbox()
        .filter((s) => s.pod.uid === r.pod!.spec.uid && s.state !== 'SANDBOX_READY');
      for (const sb of stuck) {
        const file = cacheFile(net.name, sb.id);
        if (vfs.stat(fs, file)) sh(c, node, `rm ${file}`, did);
      }
      if (!did.length) fail(`params.pod: pod ${r.podKey} has no stopped sandbox with a cache file`);
      return;
    }
    case 'cni-gc': {
      if (c.rt(node).containerd.state.settings.libcni !== '1.2')
        fail(
          `node ${node}: GC needs libcni v1.2 (NodeSpec containerd: { libcni: '1.2' }), this node has v1.1`,
        );
      const t = c.cniGc(node);
      const limit = c.now + 60_000_000;
      while (!t.done && c.sched.runOne(limit));
      did.push(
        `${node}# cnitool gc ${podNetwork(viewOf(c), node).name}${t.done && t.value && !t.value.ok ? ` (failed: ${t.value.error?.message})` : ''}`,
      );
      return;
    }
    case 'set-cni-version': {
      const net = podNetwork(viewOf(c), node);
      const data = vfs.readFile(c.sim.node(node).fs, net.file);
      const obj = JSON.parse(data) as Record<string, unknown>;
      obj['cniVersion'] = a.cniVersion;
      c.writeFile(node, net.file, `${JSON.stringify(obj, null, 2)}\n`);
      did.push(`${node}: ${net.file}: "cniVersion": "${a.cniVersion}"`);
      return;
    }
    case 'restore-conflist': {
      const dir = c.rt(node).containerd.state.settings.confDir;
      for (const [name, data] of Object.entries(originalConfigs(viewOf(c), node))) {
        c.writeFile(node, `${dir}/${name}`, data);
        did.push(`${node}: wrote ${dir}/${name} back`);
      }
      return;
    }
    case 'remove-orphans':
      removeOrphans(c, node, did);
      return;
    case 'reset-portless-bridge': {
      const k = c.sim.node(node).kernel;
      const root = k.netns[k.root]!;
      for (const name of bridgeNames(viewOf(c), node)) {
        const br = K.linkByName(root, name);
        if (!br || br.kind !== 'bridge' || br.mac !== K.ZERO_MAC) continue;
        if (K.linksOf(root).some((l) => l.master === br.ifindex)) continue;
        sh(c, node, `ip link del ${name}`, did);
      }
      return;
    }
    case 'recreate-pod': {
      const p = r.pod!;
      const key = r.podKey!;
      c.deletePod(key);
      did.push(`kubectl delete pod ${p.spec.name}`);
      c.run({ stop: () => !c.sim.state.api!.pods[key], until: c.now + 120_000_000 });
      if (c.sim.state.api!.pods[key]) fail(`params.pod: pod ${key} did not go within 120s`);
      c.createPod({
        name: p.spec.name,
        namespace: p.spec.namespace,
        node: p.spec.nodeName,
        hostPorts: p.spec.hostPorts,
        annotations: p.spec.annotations,
      });
      did.push(`pod ${key} created again (its ReplicaSet)`);
      return;
    }
  }
}

/** What an operator's clean-up script removes: everything no sandbox containerd knows owns. */
function removeOrphans(c: Cluster, node: string, did: string[]): void {
  const cd = c.rt(node).containerd.state;
  const ids = new Set(Object.keys(cd.sandboxes));
  const netnsPaths = new Set(Object.values(cd.sandboxes).map((s) => s.netns));
  // Sandboxes being set up or cleaned up right now own their files too (as in the audit).
  for (const a of Object.values(c.sim.state.actors)) {
    const ctx = a.context as { node?: string; id?: string; netns?: string };
    if (a.machine !== 'sandbox' || ctx.node !== node) continue;
    if (!['settingUpNetwork', 'cleaningUp', 'startingPause'].includes(String(a.value))) continue;
    if (ctx.id) ids.add(ctx.id);
    if (ctx.netns) netnsPaths.add(ctx.netns);
  }
  const n = c.sim.node(node);
  for (const path of Object.keys(n.kernel.mounts).sort()) {
    if (path.startsWith('/var/run/netns/cni-') && !netnsPaths.has(path)) {
      c.deleteNetnsMount(node, path);
      did.push(`${node}# ip netns del ${vfs.basename(path)}`);
    }
  }
  removeOrphanRules(c, node, ids, did);
  const results = '/var/lib/cni/results';
  const fs = () => c.sim.node(node).fs;
  if (vfs.stat(fs(), results)?.kind === 'dir') {
    for (const f of vfs.readDir(fs(), results)) {
      const m = /-([0-9a-f]{64})-[^-]+$/.exec(f);
      if (!m || !ids.has(m[1]!)) sh(c, node, `rm ${results}/${f}`, did);
    }
  }
  const nets = '/var/lib/cni/networks';
  if (vfs.stat(fs(), nets)?.kind === 'dir') {
    for (const net of vfs.readDir(fs(), nets)) {
      const dir = `${nets}/${net}`;
      if (vfs.stat(fs(), dir)?.kind !== 'dir') continue;
      const stale: string[] = [];
      for (const f of vfs.readDir(fs(), dir)) {
        if (f === 'lock' || f.startsWith('last_reserved_ip')) continue;
        const e = vfs.stat(fs(), `${dir}/${f}`);
        if (e?.kind === 'file' && !ids.has(e.data.split(/\r?\n/)[0]!.trim())) stale.push(f);
      }
      // One rm per 32 files keeps the trace short on an exhausted range.
      for (let i = 0; i < stale.length; i += 32)
        sh(
          c,
          node,
          `rm ${stale
            .slice(i, i + 32)
            .map((f) => `${dir}/${f}`)
            .join(' ')}`,
          did,
        );
    }
  }
}

/**
 * iptables rules the plugins tagged with a sandbox id no sandbox has (bridge's ipMasq chain,
 * portmap's DNAT rules): deleted by rule number, then the per-sandbox chains they jumped to once
 * empty and unreferenced, as an operator's `iptables -t nat -D/-X` would.
 */
function removeOrphanRules(c: Cluster, node: string, ids: Set<string>, did: string[]): void {
  for (const family of ['ipv4', 'ipv6'] as const) {
    const tool = family === 'ipv4' ? 'iptables' : 'ip6tables';
    const rootIpt = () => {
      const k = c.sim.node(node).kernel;
      return k.netns[k.root]!.iptables;
    };
    const run = (argv: string[]) => {
      const line = `${tool} ${argv.join(' ')}`;
      const pre = runIptables(rootIpt(), family, argv);
      if (pre.exitCode !== 0) fail(`${node}: \`${line}\` failed: ${pre.stderr.trim()}`);
      c.env(node, line, ({ kernel }) => {
        const root = kernel.netns[kernel.root]!;
        root.iptables = runIptables(root.iptables, family, argv).state as never;
      });
      did.push(`${node}# ${line}`);
    };
    type Rule = { table: string; chain: string; index: number; target: string };
    const scan = () => {
      const rules: Array<Rule & { orphan: boolean }> = [];
      const count = new Map<string, number>();
      let table = '';
      for (const line of iptablesSaveLines(rootIpt(), family)) {
        if (line.startsWith('*')) table = line.slice(1);
        const m = /^-A (\S+) /.exec(line);
        if (!m) continue;
        const key = `${table} ${m[1]!}`;
        const index = (count.get(key) ?? 0) + 1;
        count.set(key, index);
        const id = /id: \\"([0-9a-f]{64})\\"/.exec(line)?.[1];
        const target = /-j (\S+)/.exec(line)?.[1] ?? '';
        rules.push({ table, chain: m[1]!, index, target, orphan: !!id && !ids.has(id) });
      }
      return rules;
    };
    const orphans = scan().filter((x) => x.orphan);
    const targets = new Set(orphans.map((x) => `${x.table} ${x.target}`));
    // Highest rule number first, so the numbers of the others do not move.
    for (const x of [...orphans].sort((a, b) =>
      a.table !== b.table
        ? a.table.localeCompare(b.table)
        : a.chain !== b.chain
          ? a.chain.localeCompare(b.chain)
          : b.index - a.index,
    ))
      run(['-t', x.table, '-D', x.chain, String(x.index)]);
    const left = scan();
    for (const key of [...targets].sort()) {
      const [table, chain] = key.split(' ') as [string, string];
      if (!chain.startsWith('CNI-')) continue;
      const used = left.some((x) => x.table === table && (x.chain === chain || x.target === chain));
      const exists = iptablesSaveLines(rootIpt(), family).some((l) => l.startsWith(`:${chain} `));
      if (!used && exists) run(['-t', table, '-X', chain]);
    }
  }
}

/**
 * Why fault `id` cannot be injected with these parameters into a cluster in state `v` (the
 * message `injectFault` would give), or null when it can. Changes nothing. A `during-add`
 * fault's moment is not checked: it comes (or not) as the cluster runs.
 */
export function faultProblem(v: FaultView, id: string, params: unknown = {}): string | null {
  const f = faultById(id);
  if (!f) return `fault: no fault "${id}" (known: ${FAULTS.map((x) => x.id).join(', ')})`;
  try {
    const r = resolveParams(v, f, params);
    if (f.when !== 'during-add') check(v, f.inject, r);
    return null;
  } catch (e) {
    if (e instanceof ParamError) return e.message;
    return `fault ${id}: ${(e as Error).message}`;
  }
}

/** Carries out the documented recovery of fault `id` (same parameters as the injection). */
export function recoverFault(c: Cluster, id: string, params: unknown = {}): InjectResult {
  const f = faultById(id);
  if (!f) return { ok: false, error: `fault: no fault "${id}"` };
  const did: string[] = [];
  const start = c.events.length;
  if (f.recovery.actions.every((a) => a.kind === 'none'))
    return { ok: true, fault: id, did, at: c.events.length - 1 };
  try {
    // The pod may have moved on (Terminating, recreated): only its identity matters here.
    const r = resolveParams(viewOf(c), { ...f, when: 'any' }, params);
    for (const a of f.recovery.actions) recoverOne(c, a, r, did);
  } catch (e) {
    if (e instanceof ParamError) return { ok: false, error: e.message };
    return { ok: false, error: `recovery of ${id}: ${(e as Error).message}` };
  }
  return { ok: true, fault: id, did, at: c.events[start]?.seq ?? c.events.length - 1 };
}
