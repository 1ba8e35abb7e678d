/**
 * The first page's demo: one node, containerd's default bridge network, one pod. Runs what the
 * runtime would run for the pod's sandbox (the loopback network, then the pod network, through
 * libcni) and returns the trace.
 */
import { confListFromBytes } from './libcni/conf';
import { CNIConfig, type LibcniOutcome } from './libcni/api';
import { addNode, netnsAdd } from './node/setup';
import { runToEnd } from './os/sys';
import { PROGRAMS } from './plugins/registry';
import './plugins/late';
import './runtime/crio-late';
import { Simulation, newWorld } from './sim/world';
import { Rng, rngSeed } from './rng';
import type { TraceEvent } from './trace/trace';
import { ipString } from './net/ip';

export const DEMO_CONFLIST = `{
  "cniVersion": "1.0.0",
  "name": "cni-sandbox",
  "plugins": [
    {
      "type": "bridge",
      "bridge": "cni0",
      "isGateway": true,
      "ipMasq": true,
      "hairpinMode": true,
      "ipam": {
        "type": "host-local",
        "ranges": [[{ "subnet": "10.88.0.0/16" }]],
        "routes": [{ "dst": "0.0.0.0/0" }]
      }
    }
  ]
}
`;

export const LOOPBACK_CONFLIST =
  '{"cniVersion":"0.3.1","name":"cni-loopback","plugins":[{"type":"loopback"}]}';

/** A containerd-style netns name: cni-<random uuid>. */
export function sandboxNetnsPath(rng: Rng): string {
  const h = rng.hex(16);
  return `/var/run/netns/cni-${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

export interface DemoResult {
  sim: Simulation;
  outcomes: LibcniOutcome[];
  podIp: string | null;
}

export function runDemo(seed = 1): DemoResult {
  const world = addNode(newWorld(seed), {
    name: 'node-1',
    plugins: ['bridge', 'host-local', 'loopback', 'portmap'],
    files: { '/etc/cni/net.d/10-containerd-net.conflist': DEMO_CONFLIST },
  });
  const sim = new Simulation(world);
  const rng = new Rng(rngSeed(seed + 7));
  const sandboxId = rng.hex(32);
  const netns = sandboxNetnsPath(rng);
  netnsAdd(sim, 'node-1', netns, 'containerd');
  const libcni = new CNIConfig({
    sim,
    node: 'node-1',
    programs: PROGRAMS,
    path: ['/opt/cni/bin'],
    caller: 'containerd',
  });
  const args: Array<[string, string]> = [
    ['IgnoreUnknown', '1'],
    ['K8S_POD_NAMESPACE', 'default'],
    ['K8S_POD_NAME', 'web-0'],
    ['K8S_POD_INFRA_CONTAINER_ID', sandboxId],
    ['K8S_POD_UID', 'c0ffee00-0000-4000-8000-000000000001'],
  ];
  const outcomes: LibcniOutcome[] = [];
  outcomes.push(
    runToEnd(
      libcni.addNetworkList(confListFromBytes(LOOPBACK_CONFLIST), {
        containerId: sandboxId,
        netns,
        ifName: 'lo',
        args,
        capabilityArgs: {},
      }),
    ),
  );
  const main = runToEnd(
    libcni.addNetworkList(confListFromBytes(DEMO_CONFLIST), {
      containerId: sandboxId,
      netns,
      ifName: 'eth0',
      args,
      capabilityArgs: {},
    }),
  );
  outcomes.push(main);
  let podIp: string | null = null;
  if (main.ok && main.result && main.result.kind === '100') {
    const ip = main.result.ips?.find((c) => c.address.ip.v === 4);
    podIp = ip ? ipString(ip.address.ip) : null;
  }
  return { sim, outcomes, podIp };
}

export function describeEvent(e: TraceEvent): string {
  return e.error ? `${e.summary} (failed: ${e.error})` : e.summary;
}

/** One line of the first page's step list. */
export interface DemoStep {
  index: number;
  source: string;
  target: string;
  summary: string;
}

export interface DemoRun {
  steps: DemoStep[];
  podIp: string | null;
  error: string | null;
}

/**
 * Runs ADD for one pod (network "cni-sandbox": bridge cni0 + host-local 10.88.0.0/16) on a fresh
 * simulated node and returns the trace's steps and the pod's IP.
 */
export function runSinglePodAdd(options: { seed?: number } = {}): DemoRun {
  const { sim, outcomes, podIp } = runDemo(options.seed ?? 1);
  const failed = outcomes.find((o) => !o.ok);
  return {
    steps: sim.events.map((e) => ({
      index: e.seq + 1,
      source: e.source,
      target: e.target,
      summary: describeEvent(e),
    })),
    podIp,
    error: failed?.error?.message ?? null,
  };
}
