/**
 * A small driver used by tests and benchmarks: one node, one network configuration list, pods
 * added and deleted through libcni the way a runtime does it (each pod in its own namespace).
 */
import { CNIConfig, type LibcniOutcome, type RuntimeConf } from './libcni/api';
import { confListFromBytes, type NetworkConfigList } from './libcni/conf';
import { addNode, netnsAdd, netnsDel, settle } from './node/setup';
import { runToEnd } from './os/sys';
import { PROGRAMS } from './plugins/registry';
import { Simulation, newWorld } from './sim/world';

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

  constructor(opts: { seed?: number; conflist?: string; libcni?: '1.1' | '1.2' } = {}) {
    const world = addNode(newWorld(opts.seed ?? 1), {
      name: this.node,
      plugins: ['bridge', 'host-local', 'loopback'],
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

  add(pod: string): LibcniOutcome {
    if (!this.sim.node(this.node).kernel.mounts[this.netnsPath(pod)]) this.createNetns(pod);
    return runToEnd(this.libcni.addNetworkList(this.list, this.rt(pod)));
  }

  del(pod: string): LibcniOutcome {
    return runToEnd(this.libcni.delNetworkList(this.list, this.rt(pod)));
  }

  check(pod: string): LibcniOutcome {
    return runToEnd(this.libcni.checkNetworkList(this.list, this.rt(pod)));
  }

  settle(): void {
    settle(this.sim);
  }
}
