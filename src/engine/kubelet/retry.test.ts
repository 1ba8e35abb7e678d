/**
 * How soon the kubelet tries again (kubelet-containerd.md §3 "Retry"): the pod worker re-queues a
 * failed sync after backOffPeriod 10 s with jitter 0.5 (10 – 15 s; pod_workers.go
 * completeWork/requeue, kubelet.go backOffPeriod), and a pod waiting on NetworkNotReady after
 * 1 – 1.5 s. Each retry is a new sandbox: a new id, a new netns and a new ADD.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { podEvents } from '../faults/observe';
import { NODE, oneNode } from '../faults/testing';
import { cniCommand, isKind } from '../trace/trace';

const S = 1_000_000;

function gaps(c: Cluster): number[] {
  const cri = c.events.filter(isKind('cri'));
  const out: number[] = [];
  for (const req of cri.filter(
    (e) => e.source === 'kubelet' && e.payload.method === 'RunPodSandbox',
  )) {
    const prev = cri
      .filter(
        (e) => e.source !== 'kubelet' && e.payload.method === 'RunPodSandbox' && e.time < req.time,
      )
      .at(-1);
    if (prev) out.push(req.time - prev.time);
  }
  return out;
}

describe('the pod worker’s retries', () => {
  it('a failed RunPodSandbox is tried again after 10 – 15 s, each time with a new sandbox and ADD', () => {
    // 2.0.0: the failed clean-up DEL is dropped (on 1.7 it would keep the sandbox UNKNOWN and the
    // kubelet would stop it instead of retrying).
    const c = oneNode({
      containerd: { version: '2.0.0' },
      cniConfigs: {
        '10-containerd-net.conflist': JSON.stringify({
          cniVersion: '1.0.0',
          name: 'containerd-net',
          plugins: [{ type: 'nosuch' }],
        }),
      },
    });
    c.createPod({ name: 'web-0' });
    c.runFor(120 * S);
    const g = gaps(c);
    expect(g.length).toBeGreaterThanOrEqual(7);
    for (const us of g) {
      expect(us).toBeGreaterThanOrEqual(10 * S);
      expect(us).toBeLessThanOrEqual(15 * S + 50_000);
    }
    // Not all the same: jittered.
    expect(new Set(g.map((us) => Math.round(us / 100_000))).size).toBeGreaterThan(1);
    const ids = new Set(
      c.events
        .filter(isKind('exec'))
        .filter((e) => cniCommand(e) === 'ADD')
        .map((e) => e.payload.env['CNI_CONTAINERID']),
    );
    expect(ids.size).toBe(g.length + 1);
    expect(
      podEvents(c, 'web-0').find((e) => e.reason === 'FailedCreatePodSandBox')!.message,
    ).toContain('failed to find plugin "nosuch" in path [/opt/cni/bin]');
  });

  it('a pod waiting on NetworkNotReady is looked at again every 1 – 1.5 s', () => {
    const c = new Cluster({ nodes: [{ name: NODE, podCIDR: '10.244.1.0/24' }] }, { seed: 5 });
    c.runFor(2 * S);
    c.removeFile(NODE, '/etc/cni/net.d/10-containerd-net.conflist');
    c.runFor(10 * S);
    c.createPod({ name: 'web-0' });
    c.runFor(20 * S);
    const nn = podEvents(c, 'web-0').find((e) => e.reason === 'NetworkNotReady')!;
    expect(nn.type).toBe('Warning');
    expect(nn.message).toBe(
      'network is not ready: container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
    );
    // 20 s of 1 – 1.5-s retries: 13 to 20 of them, counted up on one event.
    expect(nn.count).toBeGreaterThanOrEqual(13);
    expect(nn.count).toBeLessThanOrEqual(21);
  });
});
