import { describe, expect, it } from 'vitest';
import { DEFAULT_CLUSTER, defaultConflist } from '../cluster/cluster';
import { newSandbox } from './index';
import { MIN_SPAN_US, REPEATS, repetitionText, runEndText } from './repeats';

/** The sandbox with web-0 Running, a fault on node-1 and a new pod there. */
function broken(
  fault: string,
  params: Record<string, unknown> = { node: 'node-1' },
  containerd?: string,
) {
  // A release pinned on every node (the sandbox's default is 1.7.22).
  const s = containerd
    ? newSandbox({
        cluster: {
          ...DEFAULT_CLUSTER,
          nodes: DEFAULT_CLUSTER.nodes.map((n) => ({ ...n, containerd: { version: containerd } })),
        },
      })
    : newSandbox();
  s.runUntil({ kind: 'pod-running' });
  s.perform({ do: 'injectFault', fault, params });
  s.perform({ do: 'createPod', name: 'web-1', node: 'node-1' });
  return s;
}

describe('a run that only repeats the same failure', () => {
  it('stops "run until a pod is Running" after a few identical retries, and says so', () => {
    const s = broken('cni-version-unsupported');
    const from = s.cursor;
    expect(s.runUntil({ kind: 'pod-running' })).toBeNull();
    const end = s.lastRun!;
    expect(end.kind).toBe('repeating');
    if (end.kind !== 'repeating') return;
    // A few identical retries over a minute: a few hundred steps, not 200,000.
    expect(s.cursor - from).toBeLessThan(400);
    expect(s.stateAt(s.cursor).clock - s.stateAt(from).clock).toBeGreaterThanOrEqual(MIN_SPAN_US);
    expect(end.repetition).toMatchObject({ node: 'node-1', pods: ['web-1'] });
    expect(end.repetition.times).toBeGreaterThan(REPEATS);
    expect(end.repetition.failure).toContain('incompatible CNI versions');
    const text = repetitionText(end.repetition);
    expect(text).toMatch(
      /^Stopped: on node-1 the kubelet has retried web-1 \d+ times with the same error, and nothing else changes \(\d+ steps each time\): /,
    );
    expect(runEndText(end, 'a pod is Running')).toBe(text);
    // Running again stops again (the cluster has not changed).
    const at = s.cursor;
    expect(s.runUntil({ kind: 'idle' })).toBeNull();
    expect(s.lastRun!.kind).toBe('repeating');
    expect(s.cursor).toBeGreaterThan(at);
  });

  it('stops when two pods retry the same failure, their retries interleaved differently each time', () => {
    const s = broken('plugin-missing', { node: 'node-1', plugin: 'bridge' });
    s.perform({ do: 'createPod', name: 'web-2', node: 'node-1' });
    const from = s.cursor;
    expect(s.runUntil({ kind: 'pod-running' })).toBeNull();
    const end = s.lastRun!;
    expect(end.kind).toBe('repeating');
    if (end.kind !== 'repeating') return;
    expect(s.cursor - from).toBeLessThan(1_000);
    expect(end.repetition).toMatchObject({ node: 'node-1', pods: ['web-1', 'web-2'] });
    expect(end.repetition.failure).toContain('failed to find plugin "bridge"');
  });

  it("stops when the node's network is not ready (a broken conflist): the kubelet retries forever", () => {
    const s = newSandbox();
    s.runUntil({ kind: 'pod-running' });
    s.perform({
      do: 'writeFile',
      node: 'node-1',
      path: '/etc/cni/net.d/10-containerd-net.conflist',
      data: '{ "cniVersion": "1.0.0", "name": "containerd-net", "plugins": [ { "type": "bridge",',
    });
    s.perform({ do: 'createPod', name: 'web-1', node: 'node-1' });
    const from = s.cursor;
    expect(s.runUntil({ kind: 'pod-running' })).toBeNull();
    expect(s.lastRun!.kind).toBe('repeating');
    expect(s.cursor - from).toBeLessThan(400);
    expect(runEndText(s.lastRun!, 'a pod is Running')).toMatch(
      /^Stopped: on node-1 the kubelet has retried web-1 \d+ times with the same error, and nothing else changes \(\d+ steps each time\): Warning NetworkNotReady pod\/web-1: network is not ready/,
    );
  });

  it('does not mistake the wait for the next network status poll for nothing changing', () => {
    const s = newSandbox();
    s.runUntil({ kind: 'pod-running' });
    const path = '/etc/cni/net.d/10-containerd-net.conflist';
    s.perform({ do: 'writeFile', node: 'node-1', path, data: '{ "cniVersion": "1.0.0",' });
    s.perform({ do: 'createPod', name: 'web-1', node: 'node-1' });
    expect(s.runUntil({ kind: 'pod-running' })).toBeNull();
    // Fixed: containerd reloads at once, the kubelet sees it at its next poll (5 s) and the
    // NetworkNotReady rounds before that poll are all alike.
    s.perform({ do: 'writeFile', node: 'node-1', path, data: defaultConflist('10.244.1.0/24') });
    expect(s.runUntil({ kind: 'pod-running', pod: 'web-1' })).not.toBeNull();
  });

  it('does not stop a run that changes something on every retry (a leaked address each time)', () => {
    // portmap v0.8.7 refuses the version after bridge succeeded; on containerd 2.0.0 the failed
    // clean-up is forgotten, so every retry leaks an address.
    const s = broken('old-plugin-in-chain', { node: 'node-1' }, '2.0.0');
    expect(s.runUntil({ kind: 'pod-running' }, { maxEvents: 1_500 })).toBeNull();
    expect(s.lastRun).toMatchObject({ kind: 'limit' });
  });

  it('stops a retry loop that changes nothing: on 1.7.22 the same stuck sandbox fails its stop', () => {
    // containerd 1.7 keeps the sandbox whose clean-up failed (SANDBOX_UNKNOWN); the kubelet's
    // StopPodSandbox then fails at portmap every time, and nothing else changes.
    const s = broken('old-plugin-in-chain');
    expect(s.runUntil({ kind: 'pod-running' }, { maxEvents: 1_500 })).toBeNull();
    expect(s.lastRun).toMatchObject({ kind: 'repeating' });
  });

  it('can be turned off, and a run to the end says nothing is left', () => {
    const s = broken('cni-version-unsupported');
    expect(
      s.runUntil({ kind: 'pod-running' }, { maxEvents: 1_000, stopOnRepeat: false }),
    ).toBeNull();
    expect(s.lastRun).toMatchObject({ kind: 'limit', events: 1_000 });
    const ok = newSandbox();
    expect(ok.runUntil({ kind: 'error' })).toBeNull();
    expect(ok.lastRun!.kind).toBe('idle');
    expect(runEndText(ok.lastRun!, 'next error', 'node-1')).toMatch(
      /the cluster is idle\. The fault on node-1 shows only in pods created on node-1: create one there\.$/,
    );
    expect(runEndText(ok.lastRun!, 'next error')).toMatch(
      /^Nothing is left to happen after step \d+, and "next error" did not come/,
    );
  });
});
