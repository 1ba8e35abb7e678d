import { describe, expect, it } from 'vitest';
import { Simulation, newWorld } from '../sim/world';
import { envEvent, execEvent, isKind, kernelEvent, type EventInit, type TraceEvent } from './trace';

describe('event constructors', () => {
  it('lay the keys out in the order the trace file has always had', () => {
    const ev = execEvent({
      parent: 3,
      payload: { path: '/opt/cni/bin/bridge', env: { CNI_COMMAND: 'ADD' }, stdin: '{}', pid: 7 },
      summary: 'exec /opt/cni/bin/bridge (ADD)',
      level: 'cni',
      target: 'bridge',
      source: 'libcni',
      node: 'node-1',
    });
    expect(Object.keys(ev)).toEqual([
      'node',
      'source',
      'target',
      'kind',
      'level',
      'summary',
      'payload',
      'parent',
    ]);
    const sim = new Simulation(newWorld(1));
    const recorded = sim.note(ev);
    expect(JSON.stringify(recorded)).toBe(
      '{"node":"node-1","source":"libcni","target":"bridge","kind":"exec","level":"cni",' +
        '"summary":"exec /opt/cni/bin/bridge (ADD)","payload":{"path":"/opt/cni/bin/bridge",' +
        '"env":{"CNI_COMMAND":"ADD"},"stdin":"{}","pid":7},"parent":3,"seq":0,"time":1500}',
    );
  });

  it('leave out a parent that is not there', () => {
    const ev = envEvent({
      node: null,
      source: 'operator',
      target: 'kernel',
      level: 'kernel',
      summary: 'reboot',
      payload: { op: 'reboot' },
    });
    expect('parent' in ev).toBe(false);
  });

  it('refuse a payload of another kind (checked by the typecheck)', () => {
    const head = { node: 'n', source: 's', target: 't', level: 'kernel' as const, summary: '' };
    // @ts-expect-error an exit's payload is not an exec's
    execEvent({ ...head, payload: { pid: 1, stdout: '', stderr: '', exitCode: 0 } });
    // @ts-expect-error a link.add needs the link's name and kind
    kernelEvent({ ...head, payload: { op: 'link.add', ns: 'host' } });
    // @ts-expect-error the kind and the payload disagree
    const wrong: EventInit = { ...head, kind: 'exit', payload: { op: 'reboot' } };
    expect(wrong.kind).toBe('exit');
  });
});

describe('isKind', () => {
  it('narrows a list of events to one kind', () => {
    const sim = new Simulation(newWorld(1));
    sim.note(
      envEvent({
        node: null,
        source: 'a',
        target: 'b',
        level: 'cluster',
        summary: 'x',
        payload: { op: 'env' },
      }),
    );
    const events: readonly TraceEvent[] = sim.events;
    const envs = events.filter(isKind('env'));
    expect(envs.map((e) => e.payload)).toEqual([{ op: 'env' }]);
    expect(events.filter(isKind('exec'))).toEqual([]);
  });
});
