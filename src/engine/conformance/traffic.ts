/**
 * Replays a traffic recording (testdata/traffic/*.json, tools/record/traffic/record.py) in the
 * simulator: every recorded node becomes a simulated node (node/setup), every pod namespace a
 * namespace on its node, every CNI ADD runs the same conflist through the simulated libcni, and
 * every command line runs in that node's shell, as the recorder ran it with bash in the node's
 * namespace. Two nodes are one cluster (`underlay` with the mode the steps build, host-gw or
 * vxlan), whose wire is the recorder's veth pair between the node namespaces (`underlay` steps).
 * Returns the simulator's own record in the recording's shape, normalised the same way.
 */
import { produce } from '../sim/world';
import * as vfs from '../fs/vfs';
import { CNIConfig, RUNTIME_PATH_ENV } from '../libcni/api';
import { confListFromBytes } from '../libcni/conf';
import { ipNetString } from '../net/ip';
import * as K from '../kernel/kernel';
import type { KernelState } from '../kernel/types';
import { addNode, netnsAdd, settle, UNDERLAY } from '../node/setup';
import { runToEnd } from '../os/sys';
import { PROGRAMS, REFERENCE_PACKAGE } from '../plugins/registry';
import { Shell } from '../shell';
import { Simulation, newWorld } from '../sim/world';

type Obj = Record<string, unknown>;

export interface TrafficStep {
  node: string;
  cmd?: string;
  role?: string;
  note?: string;
  cni?: 'ADD';
  pod?: string;
  containerId?: string;
  conflist?: string;
  portMappings?: Obj[];
  exitCode?: number;
  stdout?: string;
  stderr?: string;
  result?: { ok: boolean; ips?: string[]; error?: string };
}

export interface TrafficAfter {
  iptablesSave: string[];
  conntrack: { exitCode: number; entries: string[]; stderr: string };
  sysctls: string[];
}

export interface TrafficRecording {
  name: string;
  description: string;
  notes: string[];
  nodes: string[];
  /** namespace -> the node it belongs to */
  namespaces: Record<string, string>;
  pods: string[];
  extraNamespaces: string[];
  conflists: Record<string, string>;
  steps: TrafficStep[];
  after: Record<string, TrafficAfter>;
}

/** Where the simulated nodes keep what the recorder kept in its temp dir (`<tmp>`). */
export const TRAFFIC_TMP = '/tmp/cnisim-traffic';
const CNI_BIN = '/opt/cni/bin';

const MAC_RE = /(?<![0-9A-Fa-f:])[0-9a-f]{2}(?::[0-9a-f]{2}){5}(?![0-9A-Fa-f:])/g;
const VETH_RE = /\bveth[0-9a-f]{8}\b/g;

/** The recorder's normalisation (record.py Normaliser + norm_ping), in the same order. */
export class TrafficNormaliser {
  private readonly macs = new Map<string, string>();
  private readonly veths = new Map<string, string>();

  text(s: string): string {
    return s
      .split(TRAFFIC_TMP)
      .join('<tmp>')
      .replace(MAC_RE, (m) => {
        if (m === '00:00:00:00:00:00' || m === 'ff:ff:ff:ff:ff:ff') return m;
        if (!this.macs.has(m)) this.macs.set(m, `<mac:${this.macs.size + 1}>`);
        return this.macs.get(m)!;
      })
      .replace(VETH_RE, (m) => {
        if (!this.veths.has(m)) this.veths.set(m, `<veth:${this.veths.size + 1}>`);
        return this.veths.get(m)!;
      });
  }
}

/** ping's timings; in tcpdump lines the ICMP id and the VXLAN source port (record.py norm_ping). */
export function normPing(s: string): string {
  return s
    .replace(/\bid [0-9]+,/g, 'id <id>,')
    .replace(/\.[0-9]+ > ([0-9.]+)\.8472:/g, '.<sport> > $1.8472:')
    .replace(/time=[0-9.]+ ms/g, 'time=<t> ms')
    .replace(/, time [0-9]+ms/g, ', time <t>ms')
    .replace(/rtt min\/avg\/max\/mdev = [0-9./]+ ms/g, 'rtt min/avg/max/mdev = <rtt> ms');
}

export function normConntrack(out: string): string[] {
  return out
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => {
      const t = l
        .replace(/\bid=[0-9]+/g, 'id=<id>')
        .replace(/\b(sport|dport)=([0-9]+)/g, (m, k: string, v: string) =>
          Number(v) < 32768 ? m : `${k}=<eport>`,
        );
      const parts = t.split(/\s+/).filter(Boolean);
      if (parts.length > 3 && /^\d+$/.test(parts[1]!) && /^\d+$/.test(parts[2]!))
        parts[2] = '<timeout>';
      return parts.join(' ');
    })
    .sort();
}

export function normIptablesSave(out: string): string[] {
  return out.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
}

/** A recorded value placeholder given back to the simulator: `<mac:N>` a fixed local MAC. */
function concretize(s: string): string {
  return s
    .split('<tmp>')
    .join(TRAFFIC_TMP)
    .replace(
      /<mac:(\d+)>/g,
      (_m, n: string) => `02:00:00:00:00:${Number(n).toString(16).padStart(2, '0')}`,
    );
}

/** `ip link add A type veth peer name B netns <node> && REST`: the recorder's underlay wire. */
const UNDERLAY_VETH = /^ip link add (\S+) type veth peer name (\S+) netns (\S+) && (.*)$/;

/** A two-node recording is one cluster: host-gw routes or flanneld's VXLAN (the steps' roles). */
function clusterMode(rec: TrafficRecording): 'host-gw' | 'vxlan' | 'none' | null {
  if (rec.nodes.length < 2) return null;
  if (rec.steps.some((s) => s.role === 'flanneld')) return 'vxlan';
  if (rec.steps.some((s) => s.role === 'host-gw')) return 'host-gw';
  return 'none';
}

/** The underlay's subnet, from the address the first `underlay` step gives eth0. */
function underlayCidr(rec: TrafficRecording): string {
  for (const s of rec.steps) {
    const m = s.role === 'underlay' ? /ip addr add ([0-9.]+)\/(\d+) dev/.exec(s.cmd ?? '') : null;
    if (m) {
      const a = m[1]!.split('.').map(Number);
      const bits = Number(m[2]);
      const n = ((a[0]! << 24) | (a[1]! << 16) | (a[2]! << 8) | a[3]!) >>> 0;
      const net = bits === 0 ? 0 : (n & (~0 << (32 - bits))) >>> 0;
      return `${[24, 16, 8, 0].map((sh) => (net >>> sh) & 255).join('.')}/${bits}`;
    }
  }
  return '';
}

export interface TrafficReplay {
  steps: TrafficStep[];
  after: Record<string, TrafficAfter>;
}

/**
 * Every step runs, those the simulator cannot do yet included (they fail as the simulator
 * fails, and the test lists them as expected failures). A step's `role` says what it builds
 * (`node-defaults`, `underlay`, `outside`, `host-gw`, `flanneld`, `reset`).
 */
export function replayTraffic(rec: TrafficRecording): TrafficReplay {
  let world = newWorld(1);
  for (const node of rec.nodes) {
    world = addNode(world, {
      name: node,
      plugins: [...REFERENCE_PACKAGE, 'flannel'],
      pluginDir: CNI_BIN,
    });
  }
  const mode = clusterMode(rec);
  if (mode) {
    // One cluster: the nodes' eth0 on one underlay segment (built by the `underlay` steps). The
    // recorder's segment has no router, and the routes or flannel.1 of the mode are the
    // recording's own steps (`host-gw`, `flanneld`), so nothing is added for the mode here.
    world = produce(world, (d) => {
      d.underlay = { segment: UNDERLAY.segment, cidr: underlayCidr(rec), gateway: '', mode };
    });
  }
  const sim = new Simulation(world);
  sim.state = produce(sim.state, (d) => {
    for (const node of rec.nodes) {
      d.nodes[node]!.fs = vfs.mkdirAll(d.nodes[node]!.fs as vfs.FsState, TRAFFIC_TMP) as never;
    }
  });
  for (const [ns, node] of Object.entries(rec.namespaces))
    netnsAdd(sim, node, `/var/run/netns/${ns}`, 'recorder');
  const shells = new Map<string, Shell>();
  const shell = (node: string): Shell => {
    let s = shells.get(node);
    if (!s) {
      s = new Shell(sim, node, { actor: 'recorder', hostNetnsAliases: [node] });
      shells.set(node, s);
    }
    return s;
  };
  const libcni = (node: string) =>
    new CNIConfig({
      sim,
      node,
      programs: PROGRAMS,
      path: [CNI_BIN],
      cacheDir: `${TRAFFIC_TMP}/${node}/cache`,
      version: '1.1',
      env: { PATH: RUNTIME_PATH_ENV },
      caller: 'recorder',
    });

  const norm = new TrafficNormaliser();
  const steps: TrafficStep[] = [];
  for (const st of rec.steps) {
    settle(sim);
    if (st.cni) {
      const list = confListFromBytes(concretize(rec.conflists[st.conflist!]!));
      const out = runToEnd(
        libcni(st.node).addNetworkList(list, {
          containerId: st.containerId!,
          netns: `/var/run/netns/${st.pod}`,
          ifName: 'eth0',
          args: [],
          capabilityArgs: st.portMappings ? { portMappings: st.portMappings } : {},
        }),
      );
      const ips =
        out.ok && out.result && 'ips' in out.result
          ? (out.result.ips ?? []).map((i) => ipNetString(i.address))
          : [];
      steps.push({
        ...st,
        result: out.ok ? { ok: true, ips } : { ok: false, error: out.error?.message ?? '' },
      });
      continue;
    }
    const cmd = st.cmd!;
    let line = concretize(cmd);
    const wire = st.role === 'underlay' ? UNDERLAY_VETH.exec(line) : null;
    if (wire && rec.nodes.includes(wire[3]!)) {
      // The recorder's underlay is a veth pair between two node namespaces; in the simulated
      // cluster it is the wire between the nodes: eth0 on each node, plugged into the segment.
      sim.state = produce(sim.state, (d) => {
        for (const [node, name] of [
          [st.node, wire[1]!],
          [wire[3]!, wire[2]!],
        ] as const) {
          const k = d.nodes[node]!.kernel as KernelState;
          const mac = `02:42:c0:a8:00:${(rec.nodes.indexOf(node) + 1).toString(16).padStart(2, '0')}`;
          K.linkAdd(
            k,
            k.root,
            { kind: 'ether', name, segment: UNDERLAY.segment, mac },
            { mac: () => mac },
          );
        }
      });
      line = wire[4]!;
    }
    const r = shell(st.node).run(line);
    steps.push({
      node: st.node,
      cmd: norm.text(cmd),
      ...(st.role ? { role: st.role } : {}),
      ...(st.note ? { note: st.note } : {}),
      exitCode: r.exitCode,
      stdout: norm.text(normPing(r.stdout)),
      stderr: norm.text(normPing(r.stderr)),
    });
  }
  settle(sim);
  const after: Record<string, TrafficAfter> = {};
  for (const node of rec.nodes) {
    const sh = shell(node);
    const ipt = sh.run('iptables-save -c');
    const ct = sh.run('conntrack -L');
    const sys = sh.run(
      'sysctl net.ipv4.ip_forward net.bridge.bridge-nf-call-iptables net.ipv4.conf.all.rp_filter net.ipv4.conf.default.rp_filter',
    );
    after[node] = {
      iptablesSave: normIptablesSave(norm.text(ipt.stdout)),
      conntrack: {
        exitCode: ct.exitCode,
        entries: normConntrack(norm.text(ct.stdout)),
        stderr: norm.text(ct.stderr),
      },
      sysctls: sys.stdout.split('\n').filter((l) => l !== ''),
    };
  }
  return { steps, after };
}
