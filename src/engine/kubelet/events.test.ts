/**
 * What a pod that keeps failing shows in its events on a real node: the kubelet's event client
 * folds similar FailedCreatePodSandBox events and its spam filter holds the rest back
 * (client-go tools/record/events_cache.go; the kubelet uses the default EventCorrelator).
 */
import { describe, expect, it } from 'vitest';
import { COMBINED_PREFIX, describeEvents, eventList } from '../apiserver/apiserver';
import { Cluster } from '../cluster/cluster';
import { isKind } from '../trace/trace';

const MIN = 60_000_000;

/** A /30 pod CIDR has one address for pods: web-0 takes it, web-1's every ADD fails (its DEL works). */
function failing(): Cluster {
  const c = new Cluster({ nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/30' }] }, { seed: 5 });
  c.createPod({ name: 'web-9' });
  c.runFor(3_000_000);
  c.createPod({ name: 'web-0' });
  return c;
}

const kubeletEvents = (c: Cluster) =>
  eventList(c.sim.state.api!).filter(
    (e) => e.object === 'pod/web-0' && e.source.startsWith('kubelet'),
  );

describe('a pod whose sandbox keeps failing', () => {
  it('gets 9 separate FailedCreatePodSandBox events, then one combined event that counts up', () => {
    const c = failing();
    c.runFor(4 * MIN);
    const failed = kubeletEvents(c).filter((e) => e.reason === 'FailedCreatePodSandBox');
    expect(failed.filter((e) => !e.message.startsWith(COMBINED_PREFIX))).toHaveLength(9);
    const combined = failed.filter((e) => e.message.startsWith(COMBINED_PREFIX));
    expect(combined).toHaveLength(1);
    expect(combined[0]!.count).toBeGreaterThan(1);
    expect(combined[0]!.message).toMatch(
      /^\(combined from similar events\): Failed to create pod sandbox: .*no IP addresses available in range set/,
    );
    const text = describeEvents(c.sim.state.api!, 'pod/web-0', 'default', c.now).join('\n');
    expect(text).toMatch(/\(combined from similar events\): Failed to create pod sandbox/);
  });

  it('sends 25 events about the pod, then one every 5 minutes', () => {
    const c = failing();
    c.runFor(11 * MIN);
    const sent = c.events.filter(
      (e) =>
        isKind('api')(e) &&
        'event' in e.payload &&
        e.payload.event.object === 'pod/web-0' &&
        e.payload.event.source.startsWith('kubelet'),
    );
    const dropped = c.events.filter((e) => isKind('api')(e) && 'dropped' in e.payload);
    expect(dropped.length).toBeGreaterThan(10);
    // 25 at once (about 5 minutes of retries), then the tokens that came back: one per 5
    // minutes of the 11, counted from the first event.
    expect(sent.length).toBeGreaterThanOrEqual(25 + 1);
    expect(sent.length).toBeLessThanOrEqual(25 + 2);
  });

  it('a kubelet restart forgets the filter, so events flow again', () => {
    const c = failing();
    c.runFor(10 * MIN);
    const before = kubeletEvents(c).length;
    const sentBefore = c.events.filter((e) => isKind('api')(e) && 'event' in e.payload).length;
    c.restartKubelet('node-1');
    c.runFor(2 * MIN);
    const sentAfter = c.events.filter((e) => isKind('api')(e) && 'event' in e.payload).length;
    expect(sentAfter - sentBefore).toBeGreaterThan(5);
    expect(kubeletEvents(c).length).toBeGreaterThan(before);
  });
});
