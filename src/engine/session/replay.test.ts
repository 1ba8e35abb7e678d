/**
 * A saved session replays to the trace the user saw (issue 16, item 2): every input of an action
 * is in the log, including whether the cluster had been found idle before it.
 */
import { describe, expect, it } from 'vitest';
import { defaultConflist } from '../cluster/cluster';
import { newSandbox } from './index';
import { loadJob, parseSavedSession, serializeSession, traceDigest } from './serialize';
import { drain, type Session } from './session';

function reloaded(s: Session): { copy: Session; warnings: string[] } {
  const parsed = parseSavedSession(serializeSession(s));
  if (!parsed.ok) throw new Error(parsed.errors.join('; '));
  const copy = newSandbox();
  const { warnings } = drain(loadJob(copy, parsed.saved));
  return { copy, warnings };
}

function expectSameReplay(s: Session): void {
  const { copy, warnings } = reloaded(s);
  expect(warnings).toEqual([]);
  expect(copy.cursor).toBe(s.cursor);
  expect(copy.stateAt(copy.cursor).clock).toBe(s.stateAt(s.cursor).clock);
  expect(traceDigest(copy.events, s.cursor)).toBe(traceDigest(s.events, s.cursor));
}

describe('reloading a saved sandbox', () => {
  it('replays the steps of issue 16 to the same trace and clock', () => {
    const s = newSandbox();
    s.runUntil({ kind: 'pod-running' });
    s.perform({ do: 'injectFault', fault: 'cni-version-unsupported', params: { node: 'node-1' } });
    s.perform({ do: 'createPod', name: 'web-1' });
    // web-1 lands on node-2 and runs: the run goes on until nothing is left to happen, which
    // fires the kubelet's last status timer (no event, the clock moves to 5 s).
    s.runUntil({ kind: 'error' });
    s.perform({ do: 'createPod', name: 'web-2', node: 'node-1' });
    expect(s.loggedActions().at(-1)).toMatchObject({ idle: true });
    s.runUntil({ kind: 'error' });
    expectSameReplay(s);
    for (let i = 0; i < 26; i++) s.stepForward();
    const half = defaultConflist('10.244.1.0/24').split('\n').slice(0, 31).join('\n');
    s.perform({
      do: 'writeFile',
      node: 'node-1',
      path: '/etc/cni/net.d/10-containerd-net.conflist',
      data: half,
    });
    for (let i = 0; i < 30; i++) s.stepForward();
    expectSameReplay(s);
  });

  it('an action performed when the cluster was idle is replayed after the idle timers', () => {
    const s = newSandbox();
    s.runUntil({ kind: 'pod-running' });
    s.perform({ do: 'injectFault', fault: 'cni-version-unsupported', params: { node: 'node-1' } });
    s.perform({ do: 'createPod', name: 'web-1', node: 'node-2' });
    s.runUntil({ kind: 'idle' });
    const idleAt = s.cluster.now;
    // The precondition: finding the cluster idle ran a timer that recorded nothing.
    expect(idleAt).toBeGreaterThan(s.events.at(-1)!.time);
    s.perform({ do: 'createPod', name: 'late' });
    expect(s.stateAt(s.cursor).clock).toBe(idleAt);
    const { copy } = reloaded(s);
    expect(copy.stateAt(copy.cursor).clock).toBe(idleAt);
  });
});

describe('performing an action after stepping back', () => {
  it('keeps the landing pod when a fault is injected after → then ← (issue 16, item 5)', () => {
    const plain = newSandbox();
    plain.perform({
      do: 'injectFault',
      fault: 'cni-version-unsupported',
      params: { node: 'node-2' },
    });

    const s = newSandbox();
    const start = s.cursor;
    s.stepForward();
    s.stepBack();
    expect(s.cursor).toBe(start);
    s.perform({ do: 'injectFault', fault: 'cni-version-unsupported', params: { node: 'node-2' } });
    expect(s.loggedActions()).toEqual(plain.loggedActions());
    expect(s.loggedActions().map((a) => a.action.do)).toEqual(['createPod', 'injectFault']);
    expect(s.runUntil({ kind: 'pod-running', pod: 'web-0' })).not.toBeNull();
    expect(plain.runUntil({ kind: 'pod-running', pod: 'web-0' })).toBe(s.cursor);
    expect(traceDigest(s.events, s.cursor)).toBe(traceDigest(plain.events, s.cursor));
  });

  it('keeps the landing pod after a reload, → then ← too', () => {
    const s = newSandbox();
    s.stepForward();
    const { copy } = reloaded(s);
    copy.stepBack();
    copy.perform({
      do: 'injectFault',
      fault: 'cni-version-unsupported',
      params: { node: 'node-2' },
    });
    expect(copy.loggedActions().map((a) => a.action.do)).toEqual(['createPod', 'injectFault']);
  });

  it('still drops an action whose step is after the cursor', () => {
    const s = newSandbox();
    s.runUntil({ kind: 'pod-running' });
    const at = s.cursor;
    s.perform({ do: 'createPod', name: 'web-1' });
    s.seek(at - 5);
    s.perform({ do: 'createPod', name: 'web-2' });
    expect(s.loggedActions().map((a) => a.action)).toEqual([
      { do: 'createPod', name: 'web-0' },
      { do: 'createPod', name: 'web-2' },
    ]);
  });
});
