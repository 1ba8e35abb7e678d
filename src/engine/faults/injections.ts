/**
 * How each kind of injection of the catalogue is made: `check` says whether it can be made on
 * the node as it is (reading the state only: the app asks it at any step) and fails with the
 * reason; `apply` makes it with the Cluster's public methods and tells what it did.
 *
 * Injections that differ only in data are one kind each: `shell` runs the catalogue's line with
 * its placeholders filled (SHELL_PLACEHOLDERS; each checks what it names), `node-command` has the
 * cluster restart a unit or reboot. The others need code of their own.
 */
import { base64Encode } from '../base64';
import type { Cluster } from '../cluster/cluster';
import { goMarshal, sortKeysDeep } from '../cni/json';
import * as vfs from '../fs/vfs';
import { iptablesSaveLines } from '../kernel/iptables/save';
import * as K from '../kernel/kernel';
import type { IptablesState } from '../kernel/iptables';
import { ipString } from '../net/ip';
import * as inspect from '../node/inspect';
import type { CniNetwork } from '../state/containerd';
import { containerdNetnsName } from '../runtime/containerd';
import type { InjectSpec, ShellPlaceholder } from './catalogue';
import {
  binDir,
  cacheFile,
  freeAddresses,
  type HostLocalRange,
  hostLocalRange,
  isPlugin,
  nodeState,
  podNetwork,
  podWiring,
  randomId,
  readySandbox,
  sh,
} from './node';
import { type FaultView, fail, type Resolved, viewOf } from './params';

interface Injection<S extends InjectSpec> {
  check?(v: FaultView, spec: S, r: Resolved): void;
  apply(c: Cluster, spec: S, r: Resolved, did: string[]): void;
}

type Injections = { [K in InjectSpec['kind']]: Injection<Extract<InjectSpec, { kind: K }>> };

// -------------------------------------------------------------------------------------------------
// Injections as data

/** What the placeholders of a `shell` line stand for on the node (failing when it is not there). */
const PLACEHOLDERS: Record<ShellPlaceholder, (v: FaultView, r: Resolved) => string> = {
  cache: (v, r) => {
    const file = cacheFile(podNetwork(v, r.node).name, readySandbox(v, r).id);
    if (vfs.stat(nodeState(v, r.node).fs, file)?.kind !== 'file')
      fail(`params.pod: ${file} does not exist`);
    return file;
  },
  'plugin-path': (v, r) => {
    if (!isPlugin(v, r.node, r.plugin))
      fail(`params.plugin: ${binDir(v, r.node)}/${r.plugin} is not installed`);
    return `${binDir(v, r.node)}/${r.plugin}`;
  },
  conflist: (v, r) => {
    const net = podNetwork(v, r.node);
    if (!net.file) fail(`node ${r.node}: the pod network has no config file`);
    return net.file;
  },
  'pod-netns': (v, r) => vfs.basename(podWiring(v, r).sb.netns),
  'pod-address': (v, r) => {
    const a = podWiring(v, r).eth0.addrs.find((x) => x.family === 4);
    if (!a) fail(`params.pod: eth0 of pod ${r.podKey} has no IPv4 address`);
    return `${a.local}/${a.prefix}`;
  },
  'host-veth': (v, r) => {
    const w = podWiring(v, r);
    if (!w.host) fail(`params.pod: the host end of ${r.podKey}'s veth was not found`);
    return w.host.name;
  },
  'pod-bridge': (v, r) => {
    const w = podWiring(v, r);
    if (!w.host) fail(`params.pod: the host end of ${r.podKey}'s veth was not found`);
    const br = w.host.master === null ? undefined : w.root.links[w.host.master];
    if (!br) fail(`params.pod: the bridge of ${r.podKey}'s veth was not found`);
    return br.name;
  },
  'hairpin-port': (v, r) => {
    const w = podWiring(v, r);
    if (!w.host?.brport) fail(`params.pod: ${r.podKey}'s host veth is not a bridge port`);
    if (!w.host.brport.hairpin)
      fail(
        `params.pod: hairpin mode is already off on ${w.host.name} (${r.podKey}'s port): the pod network's conflist sets no hairpinMode`,
      );
    return w.host.name;
  },
  'pod-masq-rule': (v, r) => {
    const w = podWiring(v, r);
    const a = w.eth0.addrs.find((x) => x.family === 4);
    if (!a) fail(`params.pod: eth0 of pod ${r.podKey} has no IPv4 address`);
    const m = masqChain(w.root.iptables, w.sb.id);
    if (!m)
      fail(
        `params.pod: pod ${r.podKey} has no masquerade chain in nat (bridge's ipMasq is off in its network)`,
      );
    return `-s ${a.local}/32 -m comment --comment ${m.comment} -j ${m.chain}`;
  },
  'peer-route': (v, r) => {
    const peer = peers(v, r.node).find((p) => p.routed);
    if (!peer)
      fail(
        `node ${r.node}: no route to another node's pod CIDR via its node address dev eth0 (the cluster's network.mode is not host-gw)`,
      );
    return peer.cidr;
  },
  'peer-pod-cidr': (v, r) => unroutedPeer(v, r.node).cidr,
  'peer-node-ip': (v, r) => unroutedPeer(v, r.node).ip,
  'mtu-conflist': (v, r) => {
    const file = PLACEHOLDERS.conflist(v, r);
    vxlanLink(v, r.node);
    const e = vfs.stat(nodeState(v, r.node).fs, file);
    if (e?.kind !== 'file' || !/^\s*"mtu": \d+,$/m.test(e.data))
      fail(
        `node ${r.node}: ${file} sets no "mtu" (on a line of its own, not the last of its object)`,
      );
    return file;
  },
  'vxlan-mtu': (v, r) => String(vxlanLink(v, r.node).mtu),
};

/** bridge's ipMasq chain of a sandbox in nat and its comment (iptables-save's quoting). */
function masqChain(ipt: IptablesState, id: string): { chain: string; comment: string } | null {
  for (const line of iptablesSaveLines(ipt, 'ipv4')) {
    const m = /^-A (CNI-[0-9a-f]{24}) .*--comment ("(?:[^"\\]|\\.)*")/.exec(line);
    if (m && m[2]!.includes(`id: \\"${id}\\"`)) return { chain: m[1]!, comment: m[2]! };
  }
  return null;
}

/** The other nodes (spec order): pod CIDR, underlay address, and whether this node routes it so. */
function peers(v: FaultView, node: string): { cidr: string; ip: string; routed: boolean }[] {
  const root = inspect.hostNetns(nodeState(v, node).kernel);
  const eth0 = K.linkByName(root, 'eth0');
  return v.spec.nodes
    .filter((n) => n.name !== node && v.state.nodes[n.name])
    .flatMap((n) => {
      const other = inspect.hostNetns(nodeState(v, n.name).kernel);
      const ip = K.linkByName(other, 'eth0')?.addrs.find((a) => a.family === 4)?.local;
      if (!ip) return [];
      const [dst, prefix] = n.podCIDR.split('/');
      const routed = root.routes.some(
        (x) =>
          x.dst === dst &&
          x.prefix === Number(prefix) &&
          x.gateway === ip &&
          x.dev === eth0?.ifindex,
      );
      return [{ cidr: n.podCIDR, ip, routed }];
    });
}

/** The first other node whose pod CIDR this node does not route (what a host-gw route fix adds). */
function unroutedPeer(v: FaultView, node: string): { cidr: string; ip: string } {
  const peer = peers(v, node).find((p) => !p.routed);
  if (!peer) fail(`node ${node}: it routes every other node's pod CIDR already`);
  return peer;
}

function vxlanLink(v: FaultView, node: string) {
  const root = inspect.hostNetns(nodeState(v, node).kernel);
  const l = K.linksOf(root).find((x) => x.kind === 'vxlan');
  if (!l) fail(`node ${node}: it has no VXLAN device (the cluster's network.mode is not vxlan)`);
  return l;
}

/** The line of a `shell` injection with its placeholders filled in, left to right. */
function shellLine(v: FaultView, spec: Extract<InjectSpec, { kind: 'shell' }>, r: Resolved) {
  const line = typeof spec.line === 'string' ? spec.line : spec.line[r.choices[spec.by ?? '']!]!;
  return fillPlaceholders(v, line, r);
}

/** A shell line (an injection's or a recovery's) with its {placeholders} filled in. */
export function fillPlaceholders(v: FaultView, line: string, r: Resolved): string {
  return line.replace(/\{([^}]*)\}/g, (_, name: string) =>
    PLACEHOLDERS[name as ShellPlaceholder](v, r),
  );
}

const NODE_COMMANDS: Record<
  Extract<InjectSpec, { kind: 'node-command' }>['command'],
  (c: Cluster, node: string) => void
> = {
  'systemctl restart kubelet': (c, node) => c.restartKubelet(node),
  'systemctl restart containerd': (c, node) => c.restartContainerd(node),
  reboot: (c, node) => c.reboot(node),
};

// -------------------------------------------------------------------------------------------------
// Injections as code

export const INJECTIONS: Injections = {
  shell: {
    check: (v, spec, r) => void shellLine(v, spec, r),
    apply: (c, spec, r, did) => sh(c, r.node, shellLine(viewOf(c), spec, r), did),
  },
  'node-command': {
    apply(c, spec, r, did) {
      NODE_COMMANDS[spec.command](c, r.node);
      did.push(`${r.node}# ${spec.command}`);
    },
  },
  'truncate-cache': {
    check: (v, _spec, r) => void PLACEHOLDERS.cache(v, r),
    apply(c, spec, r, did) {
      const node = r.node;
      const sb = readySandbox(viewOf(c), r);
      const file = cacheFile(podNetwork(viewOf(c), node).name, sb.id);
      const e = vfs.stat(c.sim.node(node).fs, file);
      if (e?.kind !== 'file') fail(`params.pod: ${file} does not exist`);
      c.writeFile(node, file, e.data.slice(0, spec.keepBytes), e.mode);
      did.push(`${node}: ${file} cut short after ${spec.keepBytes} bytes`);
    },
  },
  'set-cni-version': {
    check(v, _spec, r) {
      const net = podNetwork(v, r.node);
      if (!net.file) fail(`node ${r.node}: the pod network has no config file`);
      const e = vfs.stat(nodeState(v, r.node).fs, net.file);
      try {
        JSON.parse(e?.kind === 'file' ? e.data : '');
      } catch {
        fail(`node ${r.node}: ${net.file} is not valid JSON`);
      }
    },
    apply(c, _spec, r, did) {
      const node = r.node;
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
    },
  },
  'install-build': {
    apply(c, _spec, r, did) {
      const node = r.node;
      c.installPlugin(node, r.plugin, r.build, binDir(viewOf(c), node));
      did.push(`${node}: installed ${r.plugin} ${r.build} into ${binDir(viewOf(c), node)}`);
    },
  },
  'fill-ipam': {
    check: (v, _spec, r) => void hostLocalRange(v, r.node),
    apply(c, _spec, r, did) {
      const node = r.node;
      const range = hostLocalRange(viewOf(c), node);
      const free = freeAddresses(viewOf(c), node, range);
      const fill = free.slice(0, Math.max(0, free.length - r.free));
      const owners = fill.map(() => randomId(c));
      c.env(node, `fill ${range.dir} with ${fill.length} reservations`, ({ fs }) => {
        let out = vfs.mkdirAll(fs, range.dir);
        fill.forEach((ip, i) => {
          out = vfs.writeFile(out, vfs.joinPath(range.dir, ipString(ip)), `${owners[i]}\r\neth0`, {
            mode: 0o644,
          });
        });
        return { fs: out };
      });
      did.push(`${node}: ${fill.length} reservations in ${range.dir} held by unknown containers`);
    },
  },
  'stale-attachment': {
    check(v, _spec, r) {
      const range = hostLocalRange(v, r.node);
      if (!freeAddresses(v, r.node, range).length)
        fail(`node ${r.node}: no free address left for a stale reservation`);
    },
    apply(c, spec, r, did) {
      const node = r.node;
      const range = hostLocalRange(viewOf(c), node);
      const ip = freeAddresses(viewOf(c), node, range)[0];
      if (ip === undefined) fail(`node ${node}: no free address left for a stale reservation`);
      const id = randomId(c);
      const file = vfs.joinPath(range.dir, ipString(ip));
      c.writeFile(node, file, `${id}\r\neth0`);
      did.push(`${node}: ${file} held by ${id.slice(0, 13)} (no such sandbox)`);
      if (spec.withCache) {
        const net = podNetwork(viewOf(c), node);
        const path = cacheFile(net.name, id);
        c.writeFile(node, path, staleCache(c, node, net, id, ipString(ip), range), 0o600);
        did.push(`${node}: ${path} (the attachment's result cache)`);
      }
    },
  },
  'delete-netns': {
    check: (v, _spec, r) => void readySandbox(v, r),
    apply(c, _spec, r, did) {
      const sb = readySandbox(viewOf(c), r);
      // What `ip netns del` does: the mount goes; the pause process keeps the namespace.
      c.deleteNetnsMount(r.node, sb.netns);
      did.push(`${r.node}# ip netns del ${vfs.basename(sb.netns)}`);
    },
  },
  'hang-plugin': {
    check: (v, _spec, r) => void PLACEHOLDERS['plugin-path'](v, r),
    apply(c, _spec, r, did) {
      const node = r.node;
      const path = `${binDir(viewOf(c), node)}/${r.plugin}`;
      const e = vfs.stat(c.sim.node(node).fs, path);
      if (e?.kind !== 'file' || !e.exec) fail(`params.plugin: ${path} is not installed`);
      const command = r.choices['command']!;
      c.hangPlugin(node, r.plugin, [command], binDir(viewOf(c), node));
      did.push(`${node}: ${path} now blocks on ${command}`);
    },
  },
  'noisy-plugin': {
    check(v, _spec, r) {
      void PLACEHOLDERS['plugin-path'](v, r);
      // libcni v1.0.1 / v1.1.0 (containerd 1.6.0 – 1.6.4) parse a result with
      // create.CreateFromBytes, whose error reads otherwise: cnisim models v1.1.1+ there.
      const version = nodeState(v, r.node).containerd?.settings.version ?? '';
      const m = /^1\.6\.(\d+)$/.exec(version);
      if (m && Number(m[1]) <= 4)
        fail(
          `node ${r.node}: containerd ${version} vendors libcni ${Number(m[1]) <= 3 ? 'v1.0.1' : 'v1.1.0'}, which reports a plugin's bad output as "decoding version from network config: …"; cnisim models this fault from 1.6.5 (libcni v1.1.1+: "failed to unmarshal raw result: …")`,
        );
    },
    apply(c, _spec, r, did) {
      const node = r.node;
      const dir = binDir(viewOf(c), node);
      c.noisyPlugin(node, r.plugin, true, dir);
      did.push(`${node}: ${dir}/${r.plugin} now writes "debug: CNI_COMMAND=…" to stdout first`);
    },
  },
  'half-write-conflist': {
    check: (v, _spec, r) => void PLACEHOLDERS.conflist(v, r),
    apply(c, _spec, r, did) {
      const node = r.node;
      const file = PLACEHOLDERS.conflist(viewOf(c), r);
      const data = vfs.readFile(c.sim.node(node).fs, file);
      const half = data.slice(0, Math.floor(data.length / 2));
      c.writeFile(node, file, half);
      did.push(`${node}: ${file} half-written (${half.length} of ${data.length} bytes)`);
    },
  },
};

/** Whether the injection can be made on the node as it is, failing with the reason. */
export function checkInjection(v: FaultView, spec: InjectSpec, r: Resolved): void {
  const inj = INJECTIONS[spec.kind] as Injection<InjectSpec>;
  inj.check?.(v, spec, r);
}

/** Makes the injection (after checking it), telling what it did in `did`. */
export function applyInjection(c: Cluster, spec: InjectSpec, r: Resolved, did: string[]): void {
  const inj = INJECTIONS[spec.kind] as Injection<InjectSpec>;
  inj.check?.(viewOf(c), spec, r);
  inj.apply(c, spec, r, did);
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
  const netns = `/var/run/netns/${containerdNetnsName(nsHex)}`;
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
    ips: [{ interface: 2, address: `${ip}/${range.prefix}`, gateway: ipString(range.gateway) }],
    routes: [{ dst: '0.0.0.0/0' }],
    dns: {},
  });
  return goMarshal(cached);
}
