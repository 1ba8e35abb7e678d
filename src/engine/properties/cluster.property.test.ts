/**
 * Property: random sequences of pod creations and deletions, kubelet and containerd restarts
 * (and, separately, faults that leak nothing) on clusters of one to three nodes keep the
 * invariants operators check:
 * - no IP is given to two live pods (API server), nor to two ready sandboxes (containerd);
 * - once every pod is deleted and the back-offs have run out, nothing remains: no host-local
 *   reservation, host veth, result cache file or sandbox netns. The one exception the model
 *   documents (runtime/containerd.ts): containerd dying in the middle of a sandbox's network
 *   setup loses the sandbox, and what its plugins had done stays; whatever remains must belong
 *   to such a lost sandbox;
 * - the same seed and the same actions give the same trace.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Cluster, type ClusterSpec } from '../cluster/cluster';
import type { WorldState } from '../sim/world';
import { FC_SEED, fcParams } from './config';
import { tget, tkeys, tvalues } from '../state/table';
import { entryIn } from '../fs/vfs';

type Op =
  | { op: 'create'; pod: number; node: number | null; run: number }
  | { op: 'delete'; pod: number; run: number }
  | { op: 'restartKubelet'; node: number; run: number }
  | { op: 'restartContainerd'; node: number; run: number }
  | { op: 'fault'; fault: Fault; node: number; pod: number; run: number };

type Fault = 'hang-add' | 'unhang' | 'remove-conflist' | 'restore-conflist' | 'delete-netns';

/** Virtual time run after an action: none (the next action lands mid-flight), a little, a lot. */
const runArb = fc.constantFrom(0, 2_000, 15_000, 200_000, 1_000_000, 5_000_000, 20_000_000);

const baseOps = (nodes: number) => [
  fc.record({
    op: fc.constant('create' as const),
    pod: fc.integer({ min: 0, max: 5 }),
    node: fc.option(fc.integer({ min: 0, max: nodes - 1 }), { nil: null }),
    run: runArb,
  }),
  fc.record({
    op: fc.constant('delete' as const),
    pod: fc.integer({ min: 0, max: 5 }),
    run: runArb,
  }),
];

const restartOps = (nodes: number) => [
  fc.record({
    op: fc.constant('restartKubelet' as const),
    node: fc.integer({ min: 0, max: nodes - 1 }),
    run: runArb,
  }),
  fc.record({
    op: fc.constant('restartContainerd' as const),
    node: fc.integer({ min: 0, max: nodes - 1 }),
    run: runArb,
  }),
];

const faultOps = (nodes: number) => [
  fc.record({
    op: fc.constant('fault' as const),
    fault: fc.constantFrom<Fault>(
      'hang-add',
      'unhang',
      'remove-conflist',
      'restore-conflist',
      'delete-netns',
    ),
    node: fc.integer({ min: 0, max: nodes - 1 }),
    pod: fc.integer({ min: 0, max: 5 }),
    run: runArb,
  }),
];

const scenarioArb = (kinds: 'restarts' | 'faults') =>
  fc.integer({ min: 1, max: 3 }).chain((nodes) =>
    fc.record({
      nodes: fc.constant(nodes),
      seed: fc.integer({ min: 1, max: 100_000 }),
      ops: fc.array(
        fc.oneof(
          ...baseOps(nodes),
          ...baseOps(nodes),
          ...(kinds === 'restarts' ? restartOps(nodes) : faultOps(nodes)),
        ),
        { minLength: 1, maxLength: 14 },
      ),
    }),
  );

const CONFLIST = '/etc/cni/net.d/10-containerd-net.conflist';

function spec(nodes: number): ClusterSpec {
  return {
    nodes: Array.from({ length: nodes }, (_, i) => ({
      name: `node-${i + 1}`,
      podCIDR: `10.244.${i + 1}.0/24`,
      // A shorter --runtime-request-timeout keeps runs with a hung plugin short.
      kubelet: { runtimeRequestTimeoutUs: 20_000_000 },
    })),
  };
}

function apply(c: Cluster, o: Op, conflists: Map<string, string>): void {
  const node = (i: number) => `node-${i + 1}`;
  const key = (p: number) => `default/web-${p}`;
  const pods = c.sim.state.api!.pods;
  switch (o.op) {
    case 'create':
      if (!tget(pods, key(o.pod)))
        c.createPod({ name: `web-${o.pod}`, ...(o.node !== null ? { node: node(o.node) } : {}) });
      break;
    case 'delete':
      if (tget(pods, key(o.pod))) c.deletePod(key(o.pod));
      break;
    case 'restartKubelet':
      c.restartKubelet(node(o.node));
      break;
    case 'restartContainerd':
      c.restartContainerd(node(o.node));
      break;
    case 'fault': {
      const n = node(o.node);
      switch (o.fault) {
        case 'hang-add':
          c.hangPlugin(n, 'bridge', ['ADD']);
          break;
        case 'unhang':
          c.hangPlugin(n, 'bridge', []);
          break;
        case 'remove-conflist': {
          const f = c.sim.node(n).fs;
          if (!conflists.has(n) && entryIn(f, '/etc/cni/net.d', '10-containerd-net.conflist')) {
            conflists.set(n, c.shell(n, `cat ${CONFLIST}`).stdout);
            c.removeFile(n, CONFLIST);
          }
          break;
        }
        case 'restore-conflist': {
          const data = conflists.get(n);
          if (data !== undefined) {
            conflists.delete(n);
            c.writeFile(n, CONFLIST, data);
          }
          break;
        }
        case 'delete-netns': {
          // `ip netns del` of a running pod's namespace: the pause process keeps it alive.
          const p = tget(pods, key(o.pod));
          const sb = p
            ? tvalues(c.sim.node(p.spec.nodeName).containerd!.sandboxes).find(
                (s) =>
                  s.pod.uid === p.spec.uid &&
                  tget(c.sim.node(p.spec.nodeName).kernel.mounts, s.netns),
              )
            : undefined;
          if (p && sb) c.deleteNetnsMount(p.spec.nodeName, sb.netns);
          break;
        }
      }
      break;
    }
  }
  c.runFor(o.run);
}

/** IPs of running pods (API server) and of ready sandboxes (per node) are each unique. */
function checkNoSharedIp(state: WorldState, where: string): void {
  const byIp = new Map<string, string>();
  for (const p of tvalues(state.api!.pods)) {
    if (!p.podIP || !p.containerRunning) continue;
    const other = byIp.get(p.podIP);
    expect(other, `${where}: ${p.podIP} given to ${other} and ${p.spec.name}`).toBeUndefined();
    byIp.set(p.podIP, p.spec.name);
  }
  for (const n of Object.values(state.nodes)) {
    const ips = tvalues(n.containerd!.sandboxes)
      .filter((s) => s.state === 'SANDBOX_READY')
      .map((s) => s.ip);
    expect(new Set(ips).size, `${where}: ready sandboxes of ${n.name} share an IP`).toBe(
      ips.length,
    );
  }
}

/** Sandboxes containerd lost by dying during their network setup: id and netns path. */
function lostSandboxes(c: Cluster): Array<{ id: string; netns: string }> {
  const out: Array<{ id: string; netns: string }> = [];
  c.events.forEach((e, i) => {
    if (e.kind !== 'state' || !('actor' in e.payload)) return;
    const p = e.payload;
    if (p.machine !== 'sandbox' || p.to !== 'lost') return;
    const before = i > 0 ? c.sim.states[i - 1]! : c.sim.initial;
    const ctx = tget(before.actors, p.actor)?.context as { id: string; netns: string } | undefined;
    if (ctx) out.push({ id: ctx.id, netns: ctx.netns });
  });
  return out;
}

function runScenario(nodes: number, seed: number, ops: Op[]): Cluster {
  const c = new Cluster(spec(nodes), { seed });
  const conflists = new Map<string, string>();
  for (const o of ops) apply(c, o, conflists);
  // Undo what would keep pods from going: a hung plugin, a missing conflist.
  for (let i = 0; i < nodes; i++) {
    const n = `node-${i + 1}`;
    c.hangPlugin(n, 'bridge', []);
    const data = conflists.get(n);
    if (data !== undefined) c.writeFile(n, CONFLIST, data);
  }
  for (const key of tkeys(c.sim.state.api!.pods)) c.deletePod(key);
  // Long enough for every back-off (10-15 s per retry) and restart to run out.
  c.run({ until: c.now + 600_000_000, maxEvents: 200_000 });
  return c;
}

function checkRun(nodes: number, seed: number, ops: Op[]): void {
  const c = runScenario(nodes, seed, ops);
  const where = `seed ${seed}, ops ${JSON.stringify(ops)}`;
  // Every pod status change, in every state of the trace.
  c.events.forEach((e, i) => {
    if (e.kind === 'api' || (e.kind === 'state' && e.source === 'containerd'))
      checkNoSharedIp(c.sim.states[i]!, `${where}, event ${i}`);
  });
  expect(c.sim.state.api!.pods.size, where).toBe(0);
  const lost = lostSandboxes(c);
  const lostIds = lost.map((l) => l.id);
  const lostNetns = new Set(lost.map((l) => l.netns));
  for (const a of c.audit()) {
    for (const f of a.findings) {
      const ok =
        (f.kind === 'orphan-reservation' &&
          lostIds.some((id) => f.detail.includes(`held by ${id.slice(0, 13)}`))) ||
        (f.kind === 'orphan-cache' && lostIds.some((id) => f.detail.includes(id))) ||
        (f.kind === 'orphan-iptables' &&
          lostIds.some((id) => f.detail.includes(`sandbox ${id.slice(0, 13)}`))) ||
        (f.kind === 'orphan-netns' && lostNetns.has(f.detail.split(' ')[0]!)) ||
        (f.kind === 'orphan-veth' && lost.length > 0);
      expect(ok, `${where}: ${a.node} ${f.kind} ${f.detail} (lost: ${lostIds.join(', ')})`).toBe(
        true,
      );
    }
    if (lost.length === 0) {
      expect(a, where).toMatchObject({ reservations: 0, hostVeths: 0, cacheFiles: 0 });
    }
  }
}

describe('a cluster under random operations', () => {
  it(
    `keeps IPs unique and leaves nothing behind with kubelet and containerd restarts (seed ${FC_SEED})`,
    { timeout: 600_000 },
    () => {
      fc.assert(
        fc.property(scenarioArb('restarts'), ({ nodes, seed, ops }) =>
          checkRun(nodes, seed, ops as Op[]),
        ),
        fcParams(20),
      );
    },
  );

  it(
    `keeps IPs unique and leaves nothing behind with faults that leak nothing (seed ${FC_SEED})`,
    { timeout: 600_000 },
    () => {
      fc.assert(
        fc.property(scenarioArb('faults'), ({ nodes, seed, ops }) =>
          checkRun(nodes, seed, ops as Op[]),
        ),
        fcParams(15),
      );
    },
  );

  it(
    `gives the same trace for the same seed and actions (seed ${FC_SEED})`,
    { timeout: 600_000 },
    () => {
      fc.assert(
        fc.property(scenarioArb('restarts'), ({ nodes, seed, ops }) => {
          const a = JSON.stringify(runScenario(nodes, seed, ops as Op[]).events);
          const b = JSON.stringify(runScenario(nodes, seed, ops as Op[]).events);
          expect(a === b, `seed ${seed}, ops ${JSON.stringify(ops)}`).toBe(true);
        }),
        fcParams(6),
      );
    },
  );
});
