/**
 * The kubelet's killPodWithSyncResult (kubernetes pkg/kubelet/kuberuntime/kuberuntime_manager.go):
 * StopPodSandbox for every sandbox of the pod; a failure is logged by the CRI client
 * ("StopPodSandbox from runtime service failed", cri-client remote_runtime.go) and then by the
 * kubelet itself, `klog.ErrorS(nil, "Failed to stop sandbox", "podSandboxID", podSandbox.ID)`,
 * with the kubecontainer.ContainerID serialized as JSON; the loop goes on to the next sandbox, and
 * a NotFound answer (`crierror.IsNotFound`) is no failure.
 */
import { describe, expect, it } from 'vitest';
import { journal, podStatus } from '../faults/observe';
import { NODE, inject, oneNode, runningPod } from '../faults/testing';

describe('killPodWithSyncResult', () => {
  it('a failed StopPodSandbox: the CRI client’s line, then "Failed to stop sandbox" with the id as JSON', () => {
    const c = oneNode();
    const id = runningPod(c);
    inject(c, 'del-fails-with-result', { pod: 'web-0' });
    c.runFor(5_000_000);
    expect(podStatus(c, 'web-0')).toBe('Terminating');
    const lines = journal(c, NODE, ['kubelet']);
    const cri = lines.findIndex((l) => l.includes('"StopPodSandbox from runtime service failed"'));
    const own = lines.findIndex((l) => l.includes('"Failed to stop sandbox"'));
    const sync = lines.findIndex((l) => l.includes('"Error syncing pod, skipping"'));
    expect(cri).toBeGreaterThanOrEqual(0);
    expect(own).toBe(cri + 1);
    expect(sync).toBeGreaterThan(own);
    expect(lines[own]).toMatch(
      new RegExp(
        `kuberuntime_manager\\.go:\\d+\\] "Failed to stop sandbox" podSandboxID=\\{"Type":"containerd","ID":"${id}"\\}$`,
      ),
    );
  });
});
