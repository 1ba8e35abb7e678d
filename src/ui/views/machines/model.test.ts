import { describe, expect, it } from 'vitest';
import { Cluster } from '../../../engine/cluster/cluster';
import { podWorkerMachine } from '../../../engine/kubelet/machines';
import { sandboxMachine } from '../../../engine/runtime/machines';
import { linkLifeMachine } from './linkLife';
import {
  actorsOf,
  chartOf,
  countByState,
  layoutChart,
  lifeMoves,
  linkLives,
  moveOf,
} from './model';
import { kubeletMachine } from '../../../engine/kubelet/machines';
import { containerdMachine } from '../../../engine/runtime/machines';
import { machineKinds } from './registry';

/** As the session gives them (SessionView.machines). */
const MACHINES = {
  kubelet: kubeletMachine,
  podWorker: podWorkerMachine,
  containerd: containerdMachine,
  sandbox: sandboxMachine,
};

const MACHINE_KINDS = machineKinds(MACHINES);

describe('machines model', () => {
  it('reads states and transitions off the pod worker machine', () => {
    const c = chartOf(podWorkerMachine);
    expect(c.id).toBe('podWorker');
    const keys = c.states.map((s) => s.key);
    expect(keys).toEqual(Object.keys(podWorkerMachine.root.states));
    expect(c.states.find((s) => s.initial)!.key).toBe('syncing');
    expect(c.states.find((s) => s.key === 'gone')!.final).toBe(true);
    const e = (from: string, to: string) => c.edges.filter((x) => x.from === from && x.to === to);
    expect(e('syncing', 'creatingSandbox')[0]!.label).toBe('NEED_SANDBOX');
    expect(e('creatingSandbox', 'startingContainers')[0]!.guard).toBe('current');
    expect(e('backingOff', 'syncing')[0]).toMatchObject({ delayed: true, label: 'after retry' });
    expect(e('kubeletDown', 'terminating')[0]!.guard).toBe('deleting');
    expect(c.fromAny.map((x) => `${x.event}>${x.to}`)).toEqual([
      'DELETE>terminating',
      'KUBELET_DOWN>kubeletDown',
    ]);
    expect(c.states.find((s) => s.key === 'terminating')!.internal).toContain('DELETE');
    // Layers read left to right: creation before running, deletion after.
    const layer = (k: string) => c.states.find((s) => s.key === k)!.layer;
    expect(layer('syncing')).toBe(0);
    expect(layer('creatingSandbox')).toBeLessThan(layer('startingContainers'));
    expect(layer('terminating')).toBeGreaterThan(layer('startingContainers'));
    expect(layer('gone')).toBeGreaterThan(layer('terminating'));
  });

  it('lays every machine out without overlapping boxes', () => {
    for (const m of [...MACHINE_KINDS.map((k) => k.machine), linkLifeMachine]) {
      const l = layoutChart(chartOf(m));
      const boxes = [...l.boxes.values()];
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i]!;
          const b = boxes[j]!;
          expect(a.x + a.w <= b.x || b.x + b.w <= a.x || a.y + a.h <= b.y || b.y + b.h <= a.y).toBe(
            true,
          );
        }
      for (const b of boxes) {
        expect(b.x + b.w).toBeLessThanOrEqual(l.width);
        expect(b.y + b.h).toBeLessThanOrEqual(l.height);
      }
    }
  });

  const c = new Cluster(undefined, { seed: 1 });
  c.createPod({ name: 'web-0' });
  c.createPod({ name: 'web-1' });
  c.runFor(5_000_000);
  const states = c.sim.states;
  const last = states[states.length - 1]!;

  it('finds each node’s actors and the states they are in', () => {
    const workers = actorsOf(last, 'podWorker', 'node-1');
    expect(workers.map((a) => a.record.context['pod'])).toEqual(['default/web-0']);
    expect(countByState(workers)).toEqual(new Map([['running', 1]]));
    expect(countByState(actorsOf(last, 'sandbox', null))).toEqual(new Map([['ready', 2]]));
    expect(actorsOf(last, 'kubelet', 'node-2').map((a) => a.state)).toEqual(['running']);
  });

  it('every state change in the trace is a transition the chart has', () => {
    const charts = new Map(MACHINE_KINDS.map((k) => [k.kind, chartOf(k.machine)]));
    let moves = 0;
    for (const e of c.events) {
      const m = moveOf(e);
      if (!m || m.from === null || m.from === m.to) continue;
      const chart = charts.get(m.machine);
      if (!chart) continue;
      moves++;
      const ok =
        chart.edges.some((x) => x.from === m.from && x.to === m.to) ||
        chart.fromAny.some((x) => x.to === m.to);
      expect(ok, `${m.machine}: ${m.from} → ${m.to}`).toBe(true);
    }
    expect(moves).toBeGreaterThan(5);
    expect(chartOf(sandboxMachine).edges.length).toBeGreaterThan(5);
  });

  it('follows kernel links through their lives, as the link-life chart allows', () => {
    const chart = chartOf(linkLifeMachine);
    const seen = new Set<string>();
    for (let i = 1; i < states.length; i++) {
      for (const n of Object.keys(states[i]!.nodes)) {
        for (const m of lifeMoves(states[i - 1]!.nodes[n]!.kernel, states[i]!.nodes[n]!.kernel)) {
          seen.add(`${m.from}>${m.to}`);
          if (m.from === 'none') {
            // One step may make a link and bring it up (a namespace's lo at unshare).
            expect(['created', 'moved', 'up']).toContain(m.to);
          } else if (m.to === 'deleted') {
            expect(chart.fromAny[0]!.to).toBe('deleted');
          } else {
            expect(
              chart.edges.some((x) => x.from === m.from && x.to === m.to),
              `${m.name}: ${m.from} → ${m.to}`,
            ).toBe(true);
          }
        }
      }
    }
    expect(seen).toContain('created>up');
    const lives = linkLives(last.nodes['node-1']!.kernel);
    expect(lives.get('up')).toBeGreaterThanOrEqual(4);
  });
});
