/**
 * The kubelet's PLEG relist after a runtime restart (pleg/generic.go relist): it asks the runtime
 * for its sandboxes, and a relist that cannot reach the runtime fails and changes nothing.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { tget } from '../state/table';
import { isKind } from '../trace/trace';

const S = 1_000_000;
const ONE = { nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }] };

const sandboxChanged = (c: Cluster) =>
  c.events
    .filter(isKind('api'))
    .filter((e) => JSON.stringify(e.payload).includes('SandboxChanged'));

describe('the relist after containerd starts again', () => {
  it('takes no pod for dead while containerd is down again, and none once it is back', () => {
    const c = new Cluster(ONE, { seed: 3 });
    c.runFor(2 * S);
    c.createPod({ name: 'web-0' });
    c.runFor(20 * S);
    expect(tget(c.sim.state.api!.pods, 'default/web-0')?.phase).toBe('Running');
    c.stopUnit('node-1', 'containerd');
    c.runFor(5 * S);
    // Started, and restarted half a second later: the start's relist, a second after it, finds
    // containerd down for the restart.
    c.startUnit('node-1', 'containerd');
    c.runFor(S / 2);
    c.restartContainerd('node-1', 2 * S);
    c.runFor(S);
    expect(sandboxChanged(c)).toHaveLength(0);
    c.runFor(30 * S);
    expect(sandboxChanged(c)).toHaveLength(0);
    expect(tget(c.sim.state.api!.pods, 'default/web-0')?.phase).toBe('Running');
  });
});
