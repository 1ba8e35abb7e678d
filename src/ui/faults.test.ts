/**
 * The Actions view's faults: the catalogue's entries, each injectable at a step when its
 * precondition holds there, otherwise with the reason.
 */
import { describe, expect, it } from 'vitest';
import { FAULTS as CATALOGUE } from '../engine/faults';
import { newSandbox } from '../engine/session';
import { loadFaults } from '../engine';
import { tget } from '../engine/state/table';
import { faultFailsNewPods, faultNodeOf, lastFaultNode, uiFaults } from './faults';

await loadFaults();
const FAULTS = uiFaults();

const ONE_NODE = { nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }] };

function byTitle(title: string) {
  const f = FAULTS.find((x) => x.title === title);
  if (!f) throw new Error(`no fault titled ${title}`);
  return f;
}

describe('the Actions view faults', () => {
  it('are the catalogue, each with its explanation', () => {
    expect(FAULTS.map((f) => f.id)).toEqual(CATALOGUE.map((f) => f.id));
    for (const f of FAULTS)
      expect(f.explanation).toContain(CATALOGUE.find((c) => c.id === f.id)!.explanation);
    expect(byTitle('Corrupted result cache').explanation).toMatch(
      /libcni before v1\.2 \(containerd 1\.6 and 1\.7 vendor v1\.0\.1 – v1\.1\.2\) cannot parse it/,
    );
  });

  it('say why a pod fault cannot be injected before a pod runs, and pick the running pod after', () => {
    const s = newSandbox({ cluster: ONE_NODE });
    const corrupted = byTitle('Corrupted result cache');
    expect(corrupted.action(s, s.cursor)).toBe('No pod is Running at this step: run a pod first.');
    expect(byTitle('Missing conflist').action(s, s.cursor)).toEqual({
      do: 'injectFault',
      fault: 'conflist-missing',
      params: { node: 'node-1' },
    });
    const running = s.runUntil({ kind: 'pod-running' })!;
    expect(running).not.toBeNull();
    const action = corrupted.action(s, running);
    expect(action).toEqual({
      do: 'injectFault',
      fault: 'cache-corrupted',
      params: { pod: 'default/web-0', then: 'nothing' },
    });
    // Injected and then deleted by the person: the pod stays Terminating with FailedKillPod.
    s.perform(action as Exclude<typeof action, string>);
    s.perform({ do: 'deletePod', pod: 'default/web-0' });
    const failed = s.runUntil({ kind: 'error' });
    expect(failed).not.toBeNull();
    expect(s.events[failed!]!.summary).toMatch(
      /failed to get network "containerd-net" cached result/,
    );
    expect(tget(s.stateAt(failed!).api!.pods, 'default/web-0')!.deletionTimestamp).not.toBeNull();
  });

  it('give the precondition that fails at the step', () => {
    const s = newSandbox({ cluster: ONE_NODE });
    const missing = byTitle('Missing conflist').action(s, s.cursor);
    s.perform(missing as Exclude<typeof missing, string>);
    const gone = s.runUntil({
      kind: 'predicate',
      test: (_e, _i, state) =>
        !state.nodes['node-1']!.containerd!.cni.networks.some((n) => n.ifName === 'eth0'),
    });
    expect(gone).not.toBeNull();
    expect(byTitle('Malformed conflist').action(s, s.cursor)).toBe(
      'node node-1: containerd has no pod network loaded (CNI is not initialized there)',
    );
    // Earlier steps are checked as they were.
    expect(typeof byTitle('Malformed conflist').action(s, s.start)).toBe('object');
  });

  it('say which node a fault is on, and make that node the one new pods are offered (issue 16, item 6)', () => {
    const s = newSandbox();
    s.runUntil({ kind: 'pod-running' });
    const newer = byTitle('Conflist cniVersion newer than a plugin supports');
    expect(newer.nodeScoped).toBe(true);
    expect(byTitle('Corrupted result cache').nodeScoped).toBe(false);
    const on2 = newer.action(s, s.cursor, 'node-2');
    expect(on2).toMatchObject({ params: { node: 'node-2' } });
    expect(faultNodeOf(s, s.cursor, on2 as Exclude<typeof on2, string>)).toBe('node-2');
    expect(lastFaultNode(s, s.cursor)).toBeNull();
    const r = s.perform(on2 as Exclude<typeof on2, string>);
    expect(r.output?.faultNode).toBe('node-2');
    expect(lastFaultNode(s, s.cursor)).toBe('node-2');
    expect(lastFaultNode(s, r.first! - 1)).toBeNull();
    expect(s.markers.find((m) => m.kind === 'fault')!.label).toBe(
      'fault cni-version-unsupported on node-2',
    );
    // A pod's fault is on the pod's node, and does not move where new pods go.
    const cache = byTitle('Corrupted result cache').action(s, s.cursor);
    expect(faultNodeOf(s, s.cursor, cache as Exclude<typeof cache, string>)).toBe('node-1');
    s.perform(cache as Exclude<typeof cache, string>);
    expect(lastFaultNode(s, s.cursor)).toBe('node-2');
  });

  it('know which faults make a new pod on their node fail, and which let it run', () => {
    const failing = FAULTS.filter((f) => f.nodeScoped && f.failsNewPods).map((f) => f.id);
    expect(failing).toEqual([
      'cni-version-unsupported',
      'old-plugin-in-chain',
      'plugin-missing',
      'ipam-exhausted',
      'silent-ip-leak',
      'add-fails-midway',
      'plugin-hangs',
      'bad-output',
      'conflist-malformed',
      'conflist-missing',
    ]);
    // A new pod runs on a node after these: their symptoms are elsewhere.
    for (const id of [
      'stale-attachment',
      'stale-reservation',
      'containerd-restart',
      'kubelet-restart',
      'node-reboot',
      'ip-forward-off',
      'br-netfilter-unloaded',
      'forward-policy-drop',
    ])
      expect(FAULTS.find((f) => f.id === id)?.failsNewPods, id).toBe(false);
    expect(faultFailsNewPods('plugin-missing')).toBe(true);
    expect(faultFailsNewPods('node-reboot')).toBe(false);
  });
});
