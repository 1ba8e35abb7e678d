/**
 * The kubelet's runtime status poll as a real node shows it (kubelet.go updateRuntimeUp, every
 * 5 s; runtime_state.go runtimeErrors with baseRuntimeSyncThreshold 30 s): reference
 * runtime-versions.md, "Runtime status".
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { journalLines } from '../node/journal';

const S = 1_000_000;
const ONE = { nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }] };

const kubelet = (c: Cluster, re: RegExp) =>
  journalLines(c.events, 'node-1', undefined, ['kubelet']).filter((l) => re.test(l));
const ready = (c: Cluster) => c.sim.state.api!.nodes['node-1']!.ready;

describe('a node whose network is not ready', () => {
  it('logs "Container runtime network not ready" on every 5-s poll, not once', () => {
    const c = new Cluster(ONE, { seed: 2 });
    c.runFor(3 * S);
    c.removeFile('node-1', '/etc/cni/net.d/10-containerd-net.conflist');
    c.runFor(60 * S);
    expect(ready(c).status).toBe('False');
    const lines = kubelet(c, /"Container runtime network not ready"/);
    // About one a poll over the minute (the first when the change was seen).
    expect(lines.length).toBeGreaterThanOrEqual(11);
    expect(lines.length).toBeLessThanOrEqual(13);
    expect(lines[0]).toMatch(
      /kubelet\.go:3002\] "Container runtime network not ready" networkReady="NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized"/,
    );
  });

  it('goes on logging across a containerd restart while there is still no config', () => {
    const c = new Cluster(ONE, { seed: 2 });
    c.runFor(3 * S);
    c.removeFile('node-1', '/etc/cni/net.d/10-containerd-net.conflist');
    c.runFor(20 * S);
    const n = kubelet(c, /network not ready/).length;
    c.restartContainerd('node-1');
    c.runFor(60 * S);
    // Without a config containerd still reports not ready: the lines go on.
    expect(kubelet(c, /network not ready/).length).toBeGreaterThan(n + 8);
  });
});

describe('a node whose containerd is down', () => {
  it('stays Ready for 30 s without a good status, then goes NotReady "container runtime is down"', () => {
    const c = new Cluster(ONE, { seed: 2 });
    c.runFor(3 * S);
    c.stopUnit('node-1', 'containerd');
    const stoppedAt = c.now;
    c.runFor(20 * S);
    expect(ready(c).status).toBe('True');
    expect(kubelet(c, /"Container runtime sanity check failed"/).length).toBeGreaterThanOrEqual(3);
    expect(kubelet(c, /"Container runtime sanity check failed"/)[0]).toMatch(
      /err="rpc error: code = Unavailable desc = connection error: desc = \\"transport: Error while dialing: dial unix \/run\/containerd\/containerd\.sock: connect: connection refused\\""/,
    );
    c.runFor(20 * S);
    expect(ready(c)).toMatchObject({ status: 'False', message: 'container runtime is down' });
    expect(
      kubelet(c, /"Skipping pod synchronization" err="container runtime is down"/).length,
    ).toBeGreaterThan(0);
    // Not before 30 s after the last poll that got an answer.
    const downEvent = c.events.find(
      (e) => e.kind === 'api' && /Ready=False: container runtime is down/.test(e.summary),
    )!;
    expect(downEvent.time - stoppedAt).toBeGreaterThanOrEqual(25 * S);
    c.startUnit('node-1', 'containerd');
    c.runFor(10 * S);
    expect(ready(c).status).toBe('True');
  });

  it('a containerd restart of a second never makes the node NotReady', () => {
    const c = new Cluster(ONE, { seed: 2 });
    c.runFor(3 * S);
    c.restartContainerd('node-1');
    c.runFor(40 * S);
    expect(c.events.some((e) => e.kind === 'api' && /Ready=False/.test(e.summary))).toBe(false);
  });

  it('a kubelet started while containerd is down reports it at once (no good status yet)', () => {
    const c = new Cluster(ONE, { seed: 2 });
    c.runFor(3 * S);
    c.stopUnit('node-1', 'containerd');
    c.restartKubelet('node-1');
    c.runFor(8 * S);
    expect(ready(c)).toMatchObject({ status: 'False', message: 'container runtime is down' });
  });
});
