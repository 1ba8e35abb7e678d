/**
 * A small driver used by tests and benchmarks: one node, one network configuration list, pods
 * added and deleted through libcni the way a runtime does it (each pod in its own namespace).
 */
import { type Family, iptablesSaveLines, runIptables } from './kernel/iptables';
import type { KernelState } from './kernel/types';
import { CNIConfig, type LibcniOutcome, type RuntimeConf } from './libcni/api';
import { confListFromBytes, type NetworkConfigList } from './libcni/conf';
import { addNode, netnsAdd, netnsDel, settle } from './node/setup';
import { type ExecResult, execProgram } from './os/process';
import { runToEnd } from './os/sys';
import { PROGRAMS } from './plugins/registry';
import './plugins/late';
import './runtime/crio-late';
import { Simulation, newWorld } from './sim/world';
import { tget } from './state/table';
import { envEvent } from './trace/trace';

export const BRIDGE_CONFLIST = `{
  "cniVersion": "1.0.0",
  "name": "podnet",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "cni0",
      "isGateway": true,
      "ipMasq": true,
      "ipam": { "type": "host-local", "subnet": "10.22.0.0/24", "routes": [{ "dst": "0.0.0.0/0" }] }
    }
  ]
}
`;

export class TestNode {
  readonly sim: Simulation;
  readonly libcni: CNIConfig;
  readonly list: NetworkConfigList;
  readonly node = 'node-1';

  constructor(
    opts: {
      seed?: number;
      conflist?: string;
      libcni?: '1.1' | '1.2';
      /** The plugins installed in /opt/cni/bin (default bridge, host-local, loopback). */
      plugins?: string[];
      /** Their build (default v1.1.1). */
      build?: string;
      /** Files on the node before it starts (path -> content). */
      files?: Record<string, string>;
    } = {},
  ) {
    const world = addNode(newWorld(opts.seed ?? 1), {
      name: this.node,
      plugins: opts.plugins ?? ['bridge', 'host-local', 'loopback'],
      ...(opts.build !== undefined ? { build: opts.build } : {}),
      ...(opts.files !== undefined ? { files: opts.files } : {}),
    });
    this.sim = new Simulation(world);
    this.list = confListFromBytes(opts.conflist ?? BRIDGE_CONFLIST);
    this.libcni = new CNIConfig({
      sim: this.sim,
      node: this.node,
      programs: PROGRAMS,
      path: ['/opt/cni/bin'],
      version: opts.libcni ?? '1.1',
      caller: 'test',
    });
  }

  netnsPath(pod: string): string {
    return `/var/run/netns/${pod}`;
  }

  rt(pod: string): RuntimeConf {
    return {
      containerId: `ctr-${pod}`,
      netns: this.netnsPath(pod),
      ifName: 'eth0',
      args: [],
      capabilityArgs: {},
    };
  }

  createNetns(pod: string): void {
    netnsAdd(this.sim, this.node, this.netnsPath(pod), 'test');
  }

  deleteNetns(pod: string): void {
    netnsDel(this.sim, this.node, this.netnsPath(pod), 'test');
  }

  /** `extra` overrides parts of the runtime config (e.g. capabilityArgs). */
  add(pod: string, extra: Partial<RuntimeConf> = {}): LibcniOutcome {
    if (!tget(this.sim.node(this.node).kernel.mounts, this.netnsPath(pod))) this.createNetns(pod);
    return runToEnd(this.libcni.addNetworkList(this.list, { ...this.rt(pod), ...extra }));
  }

  del(pod: string, extra: Partial<RuntimeConf> = {}): LibcniOutcome {
    return runToEnd(this.libcni.delNetworkList(this.list, { ...this.rt(pod), ...extra }));
  }

  check(pod: string, extra: Partial<RuntimeConf> = {}): LibcniOutcome {
    return runToEnd(this.libcni.checkNetworkList(this.list, { ...this.rt(pod), ...extra }));
  }

  /**
   * Runs /opt/cni/bin/<plugin> directly (no libcni) with the pod's CNI_* variables and `stdin`;
   * `env` overrides or adds variables.
   */
  invoke(
    plugin: string,
    command: string,
    pod: string,
    stdin: string,
    env: Record<string, string> = {},
  ): ExecResult {
    const rt = this.rt(pod);
    return runToEnd(
      execProgram({
        sim: this.sim,
        node: this.node,
        programs: PROGRAMS,
        caller: 'test',
        path: `/opt/cni/bin/${plugin}`,
        env: {
          CNI_COMMAND: command,
          CNI_CONTAINERID: rt.containerId,
          CNI_NETNS: rt.netns,
          CNI_IFNAME: rt.ifName,
          CNI_ARGS: '',
          CNI_PATH: '/opt/cni/bin',
          ...env,
        },
        stdin,
      }),
    );
  }

  /** The node's `iptables-save` (or ip6tables-save) lines, without comments and counters. */
  iptablesSave(family: Family = 'ipv4'): string[] {
    const k = this.sim.node(this.node).kernel;
    return iptablesSaveLines(tget(k.netns, k.root)!.iptables, family);
  }

  /** Runs `iptables <argv>` (or ip6tables) on the node as an operator would (an `env` event). */
  iptables(argv: string[], family: Family = 'ipv4'): { exitCode: number; stderr: string } {
    const prog = family === 'ipv4' ? 'iptables' : 'ip6tables';
    const k0 = this.sim.node(this.node).kernel;
    const r = runIptables(tget(k0.netns, k0.root)!.iptables, family, argv);
    this.sim.apply(
      envEvent({
        node: this.node,
        source: 'test',
        target: 'kernel',
        level: 'kernel',
        summary: `${prog} ${argv.join(' ')}`,
        payload: { argv },
      }),
      (d) => {
        const k = d.nodes[this.node]!.kernel as KernelState;
        tget(k.netns, k.root)!.iptables = r.state;
      },
    );
    return { exitCode: r.exitCode, stderr: r.stderr };
  }

  settle(): void {
    settle(this.sim);
  }
}
