/**
 * A node that reports Ready=False (reference runtime-versions.md, "kubelet": "A node that reports
 * Ready=False ..."): its running pods stay Ready; the node lifecycle controller taints it
 * node.kubernetes.io/not-ready (NoSchedule, NoExecute); the taint eviction controller deletes its
 * pods after the default 300-s toleration (kubernetes pkg/controller/nodelifecycle
 * node_lifecycle_controller.go, pkg/controller/tainteviction/taint_eviction.go,
 * plugin/pkg/admission/defaulttolerationseconds). On containerd the evicted pods then stay
 * Terminating while DEL has no loadable config; CRI-O keeps the node Ready, so nothing happens.
 */
import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { journal, podEvents, podStatus } from '../faults/observe';
import { tget } from '../state/table';

const S = 1_000_000;
const NODE = 'node-1';
const CONF = '/etc/cni/net.d/10-containerd-net.conflist';

function node(runtime?: Record<string, unknown>): Cluster {
  const n = { name: NODE, podCIDR: '10.244.1.0/24', ...(runtime ?? {}) };
  const c = new Cluster({ nodes: [n] }, { seed: 3 });
  c.runFor(2 * S);
  c.createPod({ name: 'web-0' });
  c.runFor(5 * S);
  expect(podStatus(c, 'web-0')).toBe('Running');
  return c;
}

const nodeObj = (c: Cluster) => c.sim.state.api!.nodes[NODE]!;
const pod = (c: Cluster, name: string) => tget(c.sim.state.api!.pods, `default/${name}`);
const readyOf = (c: Cluster, name: string) =>
  pod(c, name)?.conditions.find((x) => x.type === 'Ready')?.status;

describe('a node whose CNI config is gone (containerd 1.7.22: Ready=False)', () => {
  it('keeps its pod Ready, is tainted not-ready, evicts the pod at 300 s; the pod stays Terminating', () => {
    const c = node();
    c.removeFile(NODE, CONF);
    c.runFor(10 * S);
    expect(nodeObj(c).ready.status).toBe('False');
    expect(nodeObj(c).taints?.map((t) => `${t.key}:${t.effect}`)).toEqual([
      'node.kubernetes.io/not-ready:NoSchedule',
      'node.kubernetes.io/not-ready:NoExecute',
    ]);
    const added = nodeObj(c).taints![1]!.timeAdded;
    // 299 s after the taint: still Running and Ready (the pod's toleration lasts 300 s).
    c.runFor(added + 299 * S - c.sim.state.clock);
    expect(podStatus(c, 'web-0')).toBe('Running');
    expect(readyOf(c, 'web-0')).toBe('True');
    expect(podEvents(c, 'web-0').map((e) => e.reason)).not.toContain('TaintManagerEviction');
    c.runFor(2 * S);
    const ev = podEvents(c, 'web-0').find((e) => e.reason === 'TaintManagerEviction')!;
    expect(ev).toMatchObject({
      type: 'Normal',
      message: 'Marking for deletion Pod default/web-0',
      source: 'taint-eviction-controller',
    });
    expect(ev.firstTime - added).toBeGreaterThanOrEqual(300 * S);
    expect(ev.firstTime - added).toBeLessThan(301 * S);
    expect(pod(c, 'web-0')!.conditions).toContainEqual(
      expect.objectContaining({ type: 'DisruptionTarget', reason: 'DeletionByTaintManager' }),
    );
    // StopPodSandbox's DEL cannot load a config: FailedKillPod, Terminating, retried.
    c.runFor(60 * S);
    expect(podStatus(c, 'web-0')).toBe('Terminating');
    const kill = podEvents(c, 'web-0').find((e) => e.reason === 'FailedKillPod');
    expect(kill?.message).toContain('cni plugin not initialized');
    expect(
      journal(c, NODE, ['containerd']).some(
        (l) => l.includes('StopPodSandbox for') && l.includes('failed'),
      ),
    ).toBe(true);
  });

  it('a pod created on the tainted node is evicted 300 s after it came', () => {
    const c = node();
    c.removeFile(NODE, CONF);
    c.runFor(100 * S);
    c.createPod({ name: 'web-1' });
    const born = pod(c, 'web-1')!.createdAt;
    c.runFor(born + 299 * S - c.sim.state.clock);
    expect(podStatus(c, 'web-0')).toBe('Terminating');
    expect(pod(c, 'web-1')!.deletionTimestamp).toBeNull();
    c.runFor(2 * S);
    // Evicted; with no sandbox ever made (the network is not ready) there is nothing to stop.
    expect(podEvents(c, 'web-1').map((e) => e.reason)).toContain('TaintManagerEviction');
    expect(podStatus(c, 'web-1')).toBe('<gone>');
  });

  it('the config back before 300 s: the taints go, nothing is evicted', () => {
    const c = node();
    const conf = c.shell(NODE, `cat ${CONF}`).stdout;
    c.removeFile(NODE, CONF);
    c.runFor(200 * S);
    expect(nodeObj(c).taints).toHaveLength(2);
    c.writeFile(NODE, CONF, conf);
    c.runFor(10 * S);
    expect(nodeObj(c).ready.status).toBe('True');
    expect(nodeObj(c).taints).toBeUndefined();
    c.runFor(200 * S);
    expect(podStatus(c, 'web-0')).toBe('Running');
    expect(podEvents(c, 'web-0').map((e) => e.reason)).not.toContain('TaintManagerEviction');
  });
});

describe('the same on CRI-O 1.31 (NetworkReady polled only until first ready)', () => {
  it('the node stays Ready and untainted; nothing is evicted', () => {
    const c = node({ runtime: { name: 'cri-o', version: '1.31.13' } });
    c.removeFile(NODE, CONF);
    c.runFor(400 * S);
    expect(nodeObj(c).ready.status).toBe('True');
    expect(nodeObj(c).taints).toBeUndefined();
    expect(podStatus(c, 'web-0')).toBe('Running');
  });
});
