/**
 * CRI Status and CNI STATUS by release. containerd 2.0.1 vendors go-cni v1.1.11, whose
 * `cni.go` Status() runs libcni GetStatusNetworkList for every loaded network after ready();
 * `internal/cri/server/status.go` Status turns its error into NetworkReady=false, reason
 * NetworkPluginNotReady, message "Network plugin returns error: <err>". 2.0.0 (go-cni v1.1.10)
 * only checks that the networks are loaded. libcni runs STATUS only for lists of cniVersion
 * 1.1.0 or newer; plugins built before STATUS existed (v1.1.1) refuse it in their skel, which
 * checks CNI_CONTAINERID first: `{"code":3,"msg":"missing containerID"}`.
 */
import { describe, expect, it } from 'vitest';
import { Cluster, defaultConflist } from '../cluster/cluster';
import { journal } from '../faults/observe';
import { NODE, oneNode } from '../faults/testing';
import { cniCommand, isKind } from '../trace/trace';

const v110 = defaultConflist('10.244.1.0/24').replace(
  '"cniVersion": "1.0.0"',
  '"cniVersion": "1.1.0"',
);

function on(version: string, build = 'v1.1.1', conflist = v110): Cluster {
  return oneNode({
    containerd: { version },
    pluginBuild: build,
    cniConfigs: { '10-containerd-net.conflist': conflist },
  });
}

function statusExecs(c: Cluster, from = 0) {
  return c.events
    .slice(from)
    .filter(isKind('exec'))
    .filter((e) => cniCommand(e) === 'STATUS');
}

const nodeReady = (c: Cluster) => c.sim.state.api!.nodes[NODE]!.ready;

describe('CNI STATUS on CRI Status (go-cni v1.1.11 cni.go Status, status.go Status)', () => {
  it('2.0.1 with a 1.1.0 list and v1.1.1 plugins: bridge answers "missing containerID", the node goes NotReady', () => {
    const c = on('2.0.1');
    c.runFor(6_000_000);
    const execs = statusExecs(c);
    expect(execs.map((e) => e.payload.path)).toEqual(['/opt/cni/bin/bridge']);
    expect(execs[0]!.payload.env['CNI_CONTAINERID']).toBe('');
    const k = c.sim.node(NODE).kubelet!;
    expect(k.networkReady).toBe(false);
    expect(k.networkMessage).toBe('Network plugin returns error: missing containerID');
    expect(nodeReady(c)).toMatchObject({
      status: 'False',
      reason: 'KubeletNotReady',
      message:
        'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: missing containerID',
    });
    expect(journal(c, NODE, ['kubelet']).join('\n')).toContain(
      'message:Network plugin returns error: missing containerID',
    );
    // No pod gets a sandbox while the network is not ready.
    c.createPod({ name: 'web-0' });
    c.runFor(5_000_000);
    expect(c.events.filter(isKind('exec')).filter((e) => cniCommand(e) === 'ADD')).toEqual([]);
  });

  it('2.0.0 (go-cni v1.1.10) runs no STATUS: the same node is Ready', () => {
    const c = on('2.0.0');
    c.runFor(6_000_000);
    expect(statusExecs(c)).toEqual([]);
    expect(c.sim.node(NODE).kubelet!.networkReady).toBe(true);
    expect(nodeReady(c).status).toBe('True');
  });

  it('2.0.1 with a 1.0.0 list: libcni skips STATUS, the node is Ready', () => {
    const c = on('2.0.1', 'v1.1.1', defaultConflist('10.244.1.0/24'));
    c.runFor(6_000_000);
    expect(statusExecs(c)).toEqual([]);
    expect(nodeReady(c).status).toBe('True');
  });

  it('2.0.1 with plugins that know STATUS (v1.6.2): STATUS runs and the node is Ready', () => {
    const c = on('2.0.1', 'v1.6.2');
    c.runFor(6_000_000);
    // bridge, which asks its IPAM plugin (host-local), then portmap.
    expect(statusExecs(c).map((e) => e.payload.path)).toEqual([
      '/opt/cni/bin/bridge',
      '/opt/cni/bin/host-local',
      '/opt/cni/bin/portmap',
    ]);
    expect(nodeReady(c).status).toBe('True');
  });

  it('an idle node records nothing between checks; a plugin binary replaced is checked again', () => {
    const c = on('2.0.1', 'v1.6.2');
    c.runFor(6_000_000);
    const n = c.events.length;
    c.runFor(60_000_000);
    expect(c.events.length).toBe(n);
    // An old bridge installed over the new one: the next status check fails.
    c.installPlugin(NODE, 'bridge', 'v1.1.1');
    c.runFor(6_000_000);
    expect(statusExecs(c, n).length).toBeGreaterThan(0);
    expect(nodeReady(c).status).toBe('False');
    expect(c.sim.node(NODE).kubelet!.networkMessage).toBe(
      'Network plugin returns error: missing containerID',
    );
    // And back: a new bridge makes the node Ready again.
    c.installPlugin(NODE, 'bridge', 'v1.6.2');
    c.runFor(6_000_000);
    expect(nodeReady(c).status).toBe('True');
    const m = c.events.length;
    c.runFor(60_000_000);
    expect(c.events.length).toBe(m);
  });
});
