import { describe, expect, it } from 'vitest';
import { journalLines } from '../node/journal';
import { eventList, kubectlGetPods } from '../apiserver/apiserver';
import { Cluster } from './cluster';
import { namesIn } from '../fs/vfs';
import { tget, tkeys, tvalues } from '../state/table';
import { isKind } from '../trace/trace';

const ONE_NODE = { nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }] };

describe('a cluster of simulated nodes', () => {
  it('runs pods on both nodes of the default cluster, each from its node pod CIDR', () => {
    const c = new Cluster(undefined, { seed: 3 });
    for (let i = 0; i < 4; i++) c.createPod({ name: `web-${i}` });
    c.runFor(5_000_000);
    const pods = tvalues(c.sim.state.api!.pods);
    expect(pods.map((p) => [p.spec.name, p.spec.nodeName, p.containerRunning])).toEqual([
      ['web-0', 'node-1', true],
      ['web-1', 'node-2', true],
      ['web-2', 'node-1', true],
      ['web-3', 'node-2', true],
    ]);
    for (const p of pods) {
      const cidr = p.spec.nodeName === 'node-1' ? '10.244.1.' : '10.244.2.';
      expect(p.podIP?.startsWith(cidr)).toBe(true);
    }
    expect(new Set(pods.map((p) => p.podIP)).size).toBe(4);
    expect(kubectlGetPods(c.sim.state.api!, c.now).split('\n')[1]).toMatch(
      /^web-0\s+1\/1\s+Running\s+0\s+5s\s+10\.244\.1\.2\s+node-1$/,
    );
  });

  it('writes the containerd lines a real node shows for a sandbox', () => {
    const c = new Cluster(ONE_NODE, { seed: 3 });
    c.createPod({ name: 'web-0' });
    c.runFor(2_000_000);
    const lines = journalLines(c.events, 'node-1', undefined, ['containerd']);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^Mar 03 10:15:00 node-1 containerd\[\d+\]: time="2025-03-03T10:15:00\.\d{9}Z" level=info msg="RunPodSandbox for &PodSandboxMetadata\{Name:web-0,Uid:[0-9a-f-]{36},Namespace:default,Attempt:0,\}"$/,
    );
    expect(lines[1]).toMatch(/returns sandbox id \\"[0-9a-f]{64}\\""$/);
  });

  it('CNI_ARGS, netns path and cache file are what containerd gives libcni', () => {
    const c = new Cluster(ONE_NODE, { seed: 3 });
    c.createPod({ name: 'web-0' });
    c.runFor(2_000_000);
    const exec = c.events.filter(isKind('exec')).find((e) => e.target === 'bridge')!;
    const env = exec.payload.env;
    const sb = tvalues(c.sim.node('node-1').containerd!.sandboxes)[0]!;
    const uid = tget(c.sim.state.api!.pods, 'default/web-0')!.spec.uid;
    expect(env['CNI_ARGS']).toBe(
      `IgnoreUnknown=1;K8S_POD_NAMESPACE=default;K8S_POD_NAME=web-0;K8S_POD_INFRA_CONTAINER_ID=${sb.id};K8S_POD_UID=${uid}`,
    );
    // containerd pkg/netns/netns_linux.go newNS: `cni-%x-%x-%x-%x-%x` of 16 random bytes (no
    // UUID version or variant bits).
    expect(env['CNI_NETNS']).toMatch(
      /^\/var\/run\/netns\/cni-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    expect(env['CNI_NETNS']).toBe(sb.netns);
    const files = namesIn(c.sim.node('node-1').fs, '/var/lib/cni/results').sort();
    expect(files).toEqual([`cni-loopback-${sb.id}-lo`, `containerd-net-${sb.id}-eth0`].sort());
  });

  it('deleting a pod runs StopPodSandbox then RemovePodSandbox and leaves nothing behind', () => {
    const c = new Cluster(ONE_NODE, { seed: 3 });
    c.createPod({ name: 'web-0' });
    c.runFor(2_000_000);
    c.deletePod('web-0');
    c.runFor(2_000_000);
    expect(c.sim.state.api!.pods.size).toBe(0);
    const [a] = c.audit();
    expect(a).toMatchObject({
      pods: 0,
      reservations: 0,
      hostVeths: 0,
      cacheFiles: 0,
      findings: [],
    });
    expect(tkeys(c.sim.node('node-1').kernel.mounts)).toEqual([]);
  });

  it('is a pure function of seed and actions', () => {
    const run = () => {
      const c = new Cluster(undefined, { seed: 11 });
      c.scale('web', 3);
      c.runFor(3_000_000);
      c.restartKubelet('node-1');
      c.scale('web', 1);
      c.runFor(20_000_000);
      return JSON.stringify(c.events);
    };
    expect(run()).toBe(run());
  });
});

describe('restarts around a deletion', () => {
  it('a pod deleted while the kubelet is down, before it had a worker, is never started', () => {
    const c = new Cluster(ONE_NODE, { seed: 3 });
    c.restartKubelet('node-1');
    c.createPod({ name: 'web-0' });
    c.runFor(100_000);
    c.deletePod('web-0');
    c.runFor(5_000_000);
    expect(c.sim.state.api!.pods.size).toBe(0);
    expect(c.events.some((e) => e.kind === 'exec')).toBe(false);
  });

  it('a pod deleted while containerd is down stays Terminating until its sandbox is stopped', () => {
    const c = new Cluster(ONE_NODE, { seed: 3 });
    c.createPod({ name: 'web-0' });
    c.runFor(2_000_000);
    c.restartContainerd('node-1', 20_000_000);
    c.deletePod('web-0');
    c.runFor(5_000_000);
    const p = tget(c.sim.state.api!.pods, 'default/web-0')!;
    expect(p.deletionTimestamp).not.toBe(null);
    const ev = eventList(c.sim.state.api!).find((e) => e.reason === 'FailedKillPod')!;
    expect(ev.message).toMatch(
      /^error killing pod: rpc error: code = Unavailable desc = connection error: .*connection refused"$/,
    );
    expect(journalLines(c.events, 'node-1', undefined, ['kubelet']).join('\n')).toContain(
      '"ListPodSandbox with filter from runtime service failed"',
    );
    c.runFor(60_000_000);
    expect(c.sim.state.api!.pods.size).toBe(0);
    expect(c.audit()[0]).toMatchObject({
      reservations: 0,
      hostVeths: 0,
      cacheFiles: 0,
      findings: [],
    });
  });
});
