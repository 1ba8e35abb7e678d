/**
 * Claims of the catalogue that hold for some containerd releases only, and say which: each is
 * what a node of each named release shows.
 */
import { describe, expect, it } from 'vitest';
import { faultById } from './catalogue';
import { podEvents, podStatus } from './observe';
import { inject, NODE, oneNode } from './testing';

describe('cni-version-unsupported (a 1.1.0 list, plugins up to 1.0.0)', () => {
  const f = faultById('cni-version-unsupported')!;

  it('says the node stays Ready up to 2.0.0 only', () => {
    expect(f.explanation).toContain('the node stays Ready while every new pod fails (up to 2.0.0');
    expect(f.explanation).toContain('from 2.0.1 containerd runs STATUS');
    expect(f.symptoms.find((s) => s.where === 'kubectl')!.text).toBe(
      'new pods stay ContainerCreating; the node is Ready (containerd ≤ 2.0.0; from 2.0.1 NotReady: Network plugin returns error: missing containerID)',
    );
  });

  it.each([
    ['1.7.22', 'True', 'FailedCreatePodSandBox'],
    ['2.0.0', 'True', 'FailedCreatePodSandBox'],
    ['2.0.1', 'False', 'NetworkNotReady'],
  ])(
    'on containerd %s the node is Ready=%s and the pod waits with %s',
    (version, ready, reason) => {
      const c = oneNode({ containerd: { version } });
      inject(c, 'cni-version-unsupported', { node: NODE });
      c.createPod({ name: 'web-0' });
      c.runFor(30_000_000);
      const cond = c.sim.state.api!.nodes[NODE]!.ready;
      expect(cond.status).toBe(ready);
      if (ready === 'False')
        expect(cond.message).toBe(
          'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: missing containerID',
        );
      expect(podStatus(c, 'web-0')).toBe('ContainerCreating');
      const reasons = podEvents(c, 'web-0').map((e) => e.reason);
      expect(reasons).toContain(reason);
      expect(reasons.includes('NetworkNotReady')).toBe(ready === 'False');
    },
  );
});
