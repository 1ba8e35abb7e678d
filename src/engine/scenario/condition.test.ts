import { describe, expect, it } from 'vitest';
import { Cluster } from '../cluster/cluster';
import { parseCondition, Watch } from './condition';
import { formatDuration, parseDuration } from './duration';
import { tget } from '../state/table';

describe('durations', () => {
  it('reads Go-style durations and numbers of seconds', () => {
    expect(parseDuration('30s')).toBe(30_000_000);
    expect(parseDuration('1m30s')).toBe(90_000_000);
    expect(parseDuration('1.5s')).toBe(1_500_000);
    expect(parseDuration('250ms')).toBe(250_000);
    expect(parseDuration('2h')).toBe(7_200_000_000);
    expect(parseDuration('10us')).toBe(10);
    expect(parseDuration('0')).toBe(0);
    expect(parseDuration(2.5)).toBe(2_500_000);
    for (const bad of ['', '10', '1 m', '-1s', 'ten seconds', '1d'])
      expect(parseDuration(bad)).toBe(null);
    expect(parseDuration(-1)).toBe(null);
  });

  it('prints them back readably', () => {
    expect(formatDuration(0)).toBe('0ms');
    expect(formatDuration(50)).toBe('0.05ms');
    expect(formatDuration(824_000)).toBe('824ms');
    expect(formatDuration(10_839_000)).toBe('10.839s');
    expect(formatDuration(90_000_000)).toBe('1m30s');
    expect(formatDuration(3_900_000_000)).toBe('1h5m');
  });
});

describe('the condition grammar', () => {
  const ok = (s: string) => {
    const r = parseCondition(s);
    if (!r.ok) throw new Error(r.error);
    return r.value;
  };
  const err = (s: string) => {
    const r = parseCondition(s);
    return r.ok ? null : r.error;
  };

  it('parses atoms, && and ||, and normalises the text', () => {
    expect(ok('idle').any).toEqual([[{ kind: 'idle' }]]);
    expect(ok('time:1m30s').any).toEqual([[{ kind: 'time', us: 90_000_000 }]]);
    expect(ok('plugin:bridge:DEL').any).toEqual([
      [{ kind: 'plugin', name: 'bridge', command: 'DEL' }],
    ]);
    expect(ok(' pod-running:web-0&&idle ||  error ').text).toBe(
      'pod-running:web-0 && idle || error',
    );
    expect(ok('log:failed to destroy network: x').any[0]![0]).toEqual({
      kind: 'log',
      text: 'failed to destroy network: x',
    });
    expect(ok('pod-status:kube-system/dns-*:Terminating').any[0]![0]).toMatchObject({
      kind: 'pod-status',
      status: 'Terminating',
    });
    expect(ok('fault').any[0]![0]).toEqual({ kind: 'fault', id: null });
    expect(ok('fault:ipam-exhaustion').any[0]![0]).toEqual({
      kind: 'fault',
      id: 'ipam-exhaustion',
    });
  });

  it('says what is wrong', () => {
    expect(err('pod-runing:web-0')).toMatch(
      /^unknown condition "pod-runing" \(expected one of idle, error/,
    );
    expect(err('time:soon')).toBe('time: "soon" is not a duration like 30s');
    expect(err('pod-running')).toBe('"pod-running" needs a pod, e.g. pod-running:web-0');
    expect(err('idle:now')).toBe('"idle" takes no argument');
    expect(err('plugin:bridge:ADDD')).toMatch(/"ADDD" is not a CNI command/);
    expect(err('pod-status:web-0:Crashing')).toMatch(/"Crashing" is not a status/);
    expect(err('pod-running:Web_0')).toMatch(/is not a pod name/);
    expect(err('idle ||')).toBe('empty condition');
  });

  it('watches state atoms on the world and event atoms from where the watch starts', () => {
    const c = new Cluster({ nodes: [{ name: 'node-1', podCIDR: '10.244.1.0/24' }] }, { seed: 1 });
    c.createPod({ name: 'web-0' });
    const w = new Watch(ok('plugin:bridge:ADD && pod-running:web-*'), c.events.length);
    const early = new Watch(ok('plugin:bridge'), c.events.length);
    let heldAt = -1;
    while (c.step()) {
      w.update(c.events);
      if (w.holds(c.sim.state, c.events.length, false)) {
        heldAt = c.events.length;
        break;
      }
    }
    expect(heldAt).toBeGreaterThan(0);
    expect(tget(c.sim.state.api!.pods, 'default/web-0')!.containerRunning).toBe(true);
    // A watch started after the plugin ran never sees it.
    const late = new Watch(ok('plugin:bridge'), c.events.length);
    late.update(c.events);
    early.update(c.events);
    expect(late.holds(c.sim.state, c.events.length, false)).toBe(false);
    expect(early.holds(c.sim.state, c.events.length, false)).toBe(true);
    const idle = new Watch(ok('idle'), 0);
    expect(idle.holds(c.sim.state, c.events.length, true)).toBe(true);
    expect(idle.holds(c.sim.state, c.events.length, false)).toBe(false);
    expect(new Watch(ok('time:5s || time:2s'), 0).nextTime(1_000_000)).toBe(2_000_000);
  });
});
