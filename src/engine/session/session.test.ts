import { describe, expect, it } from 'vitest';
import type { ClusterSpec } from '../cluster/cluster';
import type { TraceEvent } from '../trace/trace';
import { newSandbox, SANDBOX_POD, type FaultInjector } from './index';
import { Session, SessionError, drain, type LoggedAction } from './session';
import { LEVELS, levelShows } from './view';
import { tget, tkeys, tvalues } from '../state/table';
import * as vfs from '../fs/vfs';

const ONE_NODE: ClusterSpec = { nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }] };

const trace = (events: readonly TraceEvent[], upTo = events.length - 1) =>
  JSON.stringify(events.slice(0, upTo + 1));

function podIp(s: Session, pod = 'default/web-0'): string | null {
  return tget(s.stateAt(s.cursor).api?.pods, pod)?.podIP ?? null;
}

describe('the sandbox', () => {
  it('opens booted, with one pod about to be created by the first step', () => {
    const s = newSandbox();
    expect(s.nodeNames).toEqual(['node-1', 'node-2']);
    expect(s.cursor).toBe(s.start);
    expect(s.events).toHaveLength(s.start + 1);
    expect(tkeys(s.stateAt(s.cursor).api!.pods)).toEqual([]);
    expect(s.actions).toMatchObject([
      { action: { do: 'createPod', name: SANDBOX_POD }, applied: false },
    ]);

    expect(s.stepForward()).toBe(true);
    expect(s.events[s.cursor]!.summary).toBe('create pod default/web-0 (node node-1)');
    expect(s.actions[0]).toMatchObject({ applied: true, first: s.cursor, error: null });
    expect(tget(s.stateAt(s.cursor).api!.pods, 'default/web-0')!.podIP).toBeNull();
  });

  it('steps through ADD to the pod IP, and back past its assignment', () => {
    const s = newSandbox();
    const running = s.runUntil({ kind: 'pod-running', pod: 'web-0' });
    expect(running).not.toBeNull();
    expect(podIp(s)).toBe('10.244.1.2');
    // The IP was written by host-local before the pod's status had it.
    const reserve = s.events.findIndex(
      (e) =>
        e.kind === 'fs' && e.summary.includes('/var/lib/cni/networks/containerd-net/10.244.1.2'),
    );
    expect(reserve).toBeGreaterThan(0);
    while (s.cursor >= reserve) expect(s.stepBack()).toBe(true);
    expect(podIp(s)).toBeNull();
    const fs = s.stateAt(s.cursor).nodes['node-1']!.fs;
    expect(vfs.namesIn(fs, '/var/lib/cni/networks/containerd-net')).not.toContain('10.244.1.2');
    // Stepping forward again reads the same states: nothing is recomputed.
    const length = s.events.length;
    s.seek(running!);
    expect(s.events.length).toBe(length);
    expect(podIp(s)).toBe('10.244.1.2');
  });

  it('steps between the events of the detail level only', () => {
    for (const level of LEVELS) {
      const s = newSandbox({ cluster: ONE_NODE });
      s.setLevel(level);
      const seen: string[] = [];
      for (let k = 0; k < 25 && s.stepForward(); k++) seen.push(s.events[s.cursor]!.level);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((l) => levelShows(level, l as never))).toBe(true);
      if (level !== 'kernel') expect(seen).not.toContain('kernel');
      // Back again over the same events.
      const back: number[] = [];
      const end = s.cursor;
      while (s.cursor > s.start && s.stepBack()) back.push(s.cursor);
      expect(back.every((i) => s.isVisible(s.events[i]!))).toBe(true);
      expect(back[0]).toBeLessThan(end);
    }
  });

  it('seek, reset and stepping before the first event', () => {
    const s = newSandbox({ cluster: ONE_NODE });
    expect(s.seek(40)).toBe(40);
    expect(s.events.length).toBeGreaterThanOrEqual(41);
    s.reset();
    expect(s.cursor).toBe(s.start);
    s.seek(0);
    expect(s.stepBack()).toBe(true);
    expect(s.cursor).toBe(-1);
    expect(s.stateAt(-1)).toBe(s.initial);
    expect(s.stepBack()).toBe(false);
    expect(s.seek(-50)).toBe(-1);
  });
});

describe('actions', () => {
  it('performed at the end, apply there and move the cursor to their first event', () => {
    const s = newSandbox({ cluster: ONE_NODE });
    s.runUntil({ kind: 'pod-running' });
    const before = s.events.length;
    const r = s.perform({ do: 'createPod', name: 'web-1' });
    expect(r).toMatchObject({ step: before, first: before, error: null, rewrote: false });
    expect(s.cursor).toBe(before);
    expect(s.events[before]!.summary).toBe('create pod default/web-1 (node node-1)');
    expect(s.revision).toBe(0);
  });

  it('performed after stepping back, rewrite the future from a replay with the same seed', () => {
    const s = newSandbox({ cluster: ONE_NODE });
    s.runUntil({ kind: 'pod-running' });
    s.perform({ do: 'createPod', name: 'web-1' });
    s.runUntil({ kind: 'pod-running', pod: 'web-1' });
    const old = s.events.slice();
    // Back to before web-1 existed, and delete web-0 instead.
    const at = s.actions[1]!.first! - 1;
    s.seek(at);
    const r = s.perform({ do: 'deletePod', pod: 'web-0' });
    expect(r.rewrote).toBe(true);
    expect(s.revision).toBe(1);
    expect(s.actions.map((a) => a.action.do)).toEqual(['createPod', 'deletePod']);
    // The past up to the cursor is the same trace, byte for byte.
    expect(trace(s.events, at)).toBe(trace(old, at));
    expect(s.events[r.first!]!.summary).toBe('delete pod default/web-0 (graceful)');
    expect(tkeys(s.stateAt(s.events.length - 1).api!.pods)).toEqual(['default/web-0']);
  });

  it('the trace is a pure function of spec, seed and the logged actions', () => {
    const s = newSandbox({ seed: 5 });
    s.runUntil({ kind: 'plugin', name: 'host-local' });
    s.perform({ do: 'scale', deployment: 'web', replicas: 2 });
    s.stepForward();
    s.stepForward();
    s.perform({ do: 'restartKubelet', node: 'node-2' });
    s.runUntil({ kind: 'pod-running' });
    s.seek(s.cursor + 30);
    const replay = new Session({ seed: 5, actions: s.loggedActions() });
    replay.seek(s.cursor);
    expect(trace(replay.events, s.cursor)).toBe(trace(s.events, s.cursor));
    // However the steps are grouped: one run to the same point gives the same trace.
    const other = new Session({ seed: 5, actions: s.loggedActions() });
    other.runUntil({ kind: 'predicate', test: (_e, i) => i === s.cursor });
    expect(trace(other.events, s.cursor)).toBe(trace(s.events, s.cursor));
  });

  it('an action in the middle of a unit of work takes effect after it, and replays so', () => {
    const s = newSandbox({ cluster: ONE_NODE });
    // Find where one unit of work recorded several events: the libcni call and its first exec.
    const boundaries = new Set<number>();
    const probe = newSandbox({ cluster: ONE_NODE });
    for (let k = 0; k < 60; k++) {
      probe.seek(probe.events.length);
      boundaries.add(probe.events.length);
    }
    const inside = [...Array(probe.events.length).keys()].find(
      (i) => i > probe.start + 2 && !boundaries.has(i),
    );
    expect(inside).toBeDefined();
    s.seek(inside! - 1);
    const r = s.perform({ do: 'createPod', name: 'late' });
    expect(r.step).toBeGreaterThan(inside!);
    expect(boundaries.has(r.step)).toBe(true);
    const replay = new Session({ cluster: ONE_NODE, actions: s.loggedActions() });
    replay.seek(s.events.length - 1);
    expect(trace(replay.events)).toBe(trace(s.events));
  });

  it('a refused action changes nothing and is not logged', () => {
    const s = newSandbox({ cluster: ONE_NODE });
    s.runUntil({ kind: 'pod-running' });
    const length = s.events.length;
    expect(() => s.perform({ do: 'createPod', name: 'web-0' })).toThrow(
      new SessionError('pods "web-0" already exists'),
    );
    expect(() => s.perform({ do: 'restartKubelet', node: 'node-9' })).toThrow(
      'no such node: node-9',
    );
    expect(s.events).toHaveLength(length);
    expect(s.actions).toHaveLength(1);
    // Refused after stepping back: the old future is kept.
    s.seek(s.start + 5);
    expect(() => s.perform({ do: 'deletePod', pod: 'nope' })).toThrow('pods "nope" not found');
    expect(s.revision).toBe(0);
    expect(s.events).toHaveLength(length);
  });

  it('an action that fails after changing something is kept, with its error', () => {
    const s = newSandbox({ cluster: ONE_NODE });
    const r = s.perform({
      do: 'hangPlugin',
      node: 'node-1',
      plugin: 'no-such-plugin',
      commands: ['ADD'],
    });
    expect(r.error).toMatch(/not a plugin binary/);
    expect(s.events[r.first!]!.error).toMatch(/not a plugin binary/);
    expect(s.actions.at(-1)).toMatchObject({ error: r.error, count: 1 });
  });

  it('planned actions after the cursor are dropped when the user acts first', () => {
    const s = newSandbox({ cluster: ONE_NODE });
    s.seek(s.start + 1);
    s.plan({ do: 'createPod', name: 'planned' });
    const at = s.events.length;
    s.perform({ do: 'createPod', name: 'mine' });
    expect(s.actions.map((a) => (a.action as { name: string }).name)).toEqual(['web-0', 'mine']);
    expect(s.actions[1]!.step).toBe(at);
  });

  it('a pending action is applied as soon as nothing else is left to happen', () => {
    const s = new Session({
      cluster: ONE_NODE,
      actions: [{ step: 100_000, action: { do: 'createPod', name: 'far' } }],
    });
    expect(s.runUntil({ kind: 'pod-running', pod: 'far' })).not.toBeNull();
    expect(s.actions[0]!.first).toBe(s.start + 1);
  });
});

describe('run until', () => {
  it('the next plugin call, an error, a fault, idle', () => {
    const faults: FaultInjector = (c) => c.removeFile('node-1', '/opt/cni/bin/bridge');
    const s = new Session({ cluster: ONE_NODE, faults });
    s.plan({ do: 'injectFault', fault: 'missing-bridge' });
    s.plan({ do: 'createPod', name: 'web-0' });
    const fault = s.runUntil({ kind: 'fault' });
    expect(s.events[fault!]!.summary).toBe('rm /opt/cni/bin/bridge');
    const exec = s.runUntil({ kind: 'plugin' });
    expect(s.events[exec!]).toMatchObject({ kind: 'exec', target: 'loopback' });
    const err = s.runUntil({ kind: 'error' });
    expect(s.events[err!]!.summary).toMatch(/failed to find plugin "bridge"/);
    expect(s.markers.map((m) => m.kind)).toEqual(
      expect.arrayContaining(['fault', 'action', 'error']),
    );
    expect(s.markers.find((m) => m.kind === 'fault')).toEqual({
      step: fault,
      kind: 'fault',
      label: 'fault missing-bridge',
    });
    expect(s.runUntil({ kind: 'pod-running' }, { maxEvents: 500 })).toBeNull();
  });

  it('a hidden fault (a challenge’s) is replayed, but no marker, log entry or "next fault" shows it', () => {
    const faults: FaultInjector = (c) => c.removeFile('node-1', '/opt/cni/bin/bridge');
    const base = new Session({ cluster: ONE_NODE, faults });
    const actions: LoggedAction[] = [
      {
        step: base.start + 1,
        action: { do: 'injectFault', fault: 'missing-bridge' },
        hidden: true,
      },
      { step: base.start + 1, action: { do: 'createPod', name: 'web-0' } },
    ];
    const s = new Session({ cluster: ONE_NODE, faults, actions });
    const err = s.runUntil({ kind: 'error' });
    expect(s.events[err!]!.summary).toMatch(/failed to find plugin "bridge"/);
    expect(s.markers.filter((m) => m.kind === 'fault')).toEqual([]);
    expect(s.actions.map((a) => a.action.do)).toEqual(['createPod']);
    s.seek(s.start);
    expect(s.runUntil({ kind: 'fault' }, { maxEvents: 300 })).toBeNull();
    // Kept in what is saved and replayed.
    expect(s.loggedActions()[0]).toMatchObject({ hidden: true });
  });

  it('idle: until nothing is left to happen', () => {
    const s = newSandbox({ cluster: ONE_NODE });
    const end = s.runUntil({ kind: 'idle' });
    expect(end).toBe(s.events.length - 1);
    expect(s.finished).toBe(true);
    expect(s.stepForward()).toBe(false);
    expect(s.markers.filter((m) => m.kind === 'pod-running')).toEqual([
      { step: expect.any(Number), kind: 'pod-running', label: 'default/web-0 Running' },
    ]);
  });

  it('jobs yield as they compute, so that a page can spread them over frames', () => {
    const s = newSandbox({ cluster: ONE_NODE });
    const job = s.runUntilJob({ kind: 'pod-running' });
    let yields = 0;
    let r = job.next();
    while (!r.done) {
      yields++;
      r = job.next();
    }
    expect(yields).toBeGreaterThan(10);
    expect(r.value).toBe(s.cursor);
    s.seek(s.start);
    expect(drain(s.stepForwardJob())).toBe(true);
    expect(s.cursor).toBe(s.start + 1);
  });
});

describe('the view', () => {
  it('states[i] is the world after events[i]; machines by actor kind', () => {
    const s = newSandbox({ cluster: ONE_NODE });
    s.runUntil({ kind: 'pod-running' });
    expect(s.states).toHaveLength(s.events.length);
    expect(s.stateAt(1_000_000)).toBe(s.states.at(-1));
    const kinds = new Set(tvalues(s.stateAt(s.cursor).actors).map((a) => a.machine));
    for (const k of ['kubelet', 'podWorker', 'containerd', 'sandbox']) {
      if (kinds.has(k)) expect(s.machines[k]).toBeDefined();
    }
    const [audit] = s.audit(s.stateAt(s.cursor));
    expect(audit).toMatchObject({ node: 'node-1', pods: 1, reservations: 1 });
  });

  it('replaceJob swaps the whole run and changes the revision', () => {
    const s = newSandbox({ cluster: ONE_NODE });
    s.seek(30);
    const actions: LoggedAction[] = [{ step: 0, action: { do: 'createPod', name: 'x' } }];
    drain(s.replaceJob(ONE_NODE, 9, actions, 25));
    expect(s.revision).toBe(1);
    expect(s.seed).toBe(9);
    expect(s.cursor).toBe(25);
    expect(s.actions[0]!.step).toBe(s.start + 1);
  });
});
