/**
 * The pod IP containerd takes from the merged CNI results (kubelet-containerd.md §2.6): go-cni
 * `result.go` createResult (`default network not found for: eth0: not found`) and containerd
 * `sandbox_run.go` selectPodIPs / setupPodNetwork (`failed to find network info for sandbox`).
 * Both fail RunPodSandbox after a successful ADD, so the deferred clean-up DELs the network.
 */
import { describe, expect, it } from 'vitest';
import { podEvents, podStatus, reservations } from '../faults/observe';
import { NODE, oneNode } from '../faults/testing';
import { cniCommand, isKind } from '../trace/trace';

const list = (plugins: unknown[]) =>
  JSON.stringify({ cniVersion: '1.0.0', name: 'containerd-net', plugins });

function run(plugins: unknown[]) {
  const c = oneNode({ cniConfigs: { '10-containerd-net.conflist': list(plugins) } });
  c.createPod({ name: 'web-0' });
  c.runFor(5_000_000);
  return c;
}

describe('a pod network whose result has no usable eth0', () => {
  it('no eth0 in the result (a loopback-only list): "default network not found for: eth0: not found"', () => {
    const c = run([{ type: 'loopback' }]);
    const ev = podEvents(c, 'web-0').find((e) => e.reason === 'FailedCreatePodSandBox')!;
    expect(ev.message).toMatch(
      /^Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "[0-9a-f]{64}": default network not found for: eth0: not found$/,
    );
    expect(podStatus(c, 'web-0')).toBe('ContainerCreating');
  });

  it('eth0 without an address (bridge with no IPAM): "failed to find network info for sandbox", then a DEL', () => {
    const c = run([{ type: 'bridge', bridge: 'cni0' }]);
    const ev = podEvents(c, 'web-0').find((e) => e.reason === 'FailedCreatePodSandBox')!;
    const id = /sandbox "([0-9a-f]{64})"/.exec(ev.message)![1]!;
    expect(ev.message).toBe(
      `Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "${id}": failed to find network info for sandbox "${id}"`,
    );
    const del = c.events
      .filter(isKind('exec'))
      .filter((e) => cniCommand(e) === 'DEL' && e.payload.env['CNI_CONTAINERID'] === id);
    expect(del.map((e) => e.target)).toContain('bridge');
    expect(reservations(c, NODE)).toEqual([]);
  });
});
