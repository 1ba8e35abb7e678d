/**
 * The event recorder as client-go's EventCorrelator runs it (tools/record/events_cache.go:
 * EventAggregate, eventObserve, EventSourceObjectSpamFilter.Filter; defaults 10 similar in 600 s,
 * burst 25, 1 per 300 s).
 */
import { describe, expect, it } from 'vitest';
import { newWorld, Simulation } from '../sim/world';
import { COMBINED_PREFIX, emptyApi, eventList, forgetEventClient, recordEvent } from './apiserver';
import type { ApiState } from '../state/api';

const S = 1_000_000;

function sim(): Simulation {
  return new Simulation({ ...newWorld(1), api: emptyApi() });
}

function failed(s: Simulation, n: number, opts: { object?: string; source?: string } = {}) {
  recordEvent(s, {
    type: 'Warning',
    reason: 'FailedCreatePodSandBox',
    message: `Failed to create pod sandbox: failed to setup network for sandbox "${n.toString(16).padStart(8, '0')}": boom`,
    object: opts.object ?? 'pod/web-0',
    uid: 'u1',
    namespace: 'default',
    source: opts.source ?? 'kubelet, node-1',
  });
}

const wait = (s: Simulation, us: number) => s.advance(us);

describe('event aggregation (EventAggregator)', () => {
  it('keeps 9 distinct messages of one reason apart and combines from the 10th on', () => {
    const s = sim();
    for (let i = 1; i <= 12; i++) {
      failed(s, i);
      wait(s, 10 * S);
    }
    const evs = eventList(s.state.api!);
    expect(evs).toHaveLength(10);
    expect(evs.slice(0, 9).every((e) => e.count === 1 && !e.message.startsWith('('))).toBe(true);
    const combined = evs[9]!;
    expect(combined.message.startsWith(COMBINED_PREFIX)).toBe(true);
    // It counts up and carries the latest message.
    expect(combined.count).toBe(3);
    expect(combined.message).toContain('"0000000c"');
    expect(combined.lastTime - combined.firstTime).toBe(20 * S);
  });

  it('counts up an identical event instead of adding a line', () => {
    const s = sim();
    for (let i = 0; i < 5; i++) failed(s, 7);
    const evs = eventList(s.state.api!);
    expect(evs).toHaveLength(1);
    expect(evs[0]!.count).toBe(5);
  });

  it('starts afresh when the last similar event is more than 10 minutes old', () => {
    const s = sim();
    for (let i = 1; i <= 9; i++) failed(s, i);
    wait(s, 601 * S);
    failed(s, 10);
    expect(eventList(s.state.api!).filter((e) => e.message.startsWith(COMBINED_PREFIX))).toEqual(
      [],
    );
  });

  it('aggregates per object: another pod does not count towards web-0', () => {
    const s = sim();
    for (let i = 1; i <= 9; i++) failed(s, i);
    failed(s, 10, { object: 'pod/web-1' });
    expect(eventList(s.state.api!).some((e) => e.message.startsWith(COMBINED_PREFIX))).toBe(false);
  });
});

describe('spam filter (EventSourceObjectSpamFilter)', () => {
  it('sends 25 events about one object at once, then one per 5 minutes', () => {
    const s = sim();
    for (let i = 0; i < 30; i++) failed(s, 1);
    const dropped = s.events.filter((e) => e.kind === 'api' && 'dropped' in e.payload);
    const sent = s.events.filter((e) => e.kind === 'api' && 'event' in e.payload);
    expect(sent).toHaveLength(25);
    expect(dropped).toHaveLength(5);
    expect(dropped[0]!.summary).toMatch(/^not sent \(spam filter/);
    expect(eventList(s.state.api!)[0]!.count).toBe(25);
    // 5 minutes later one token is back: the event is sent, with the count the client kept,
    // dropped ones included.
    wait(s, 300 * S);
    failed(s, 1);
    expect(eventList(s.state.api!)[0]!.count).toBe(31);
    failed(s, 1);
    expect(eventList(s.state.api!)[0]!.count).toBe(31);
  });

  it('limits each source and object on its own', () => {
    const s = sim();
    for (let i = 0; i < 26; i++) failed(s, 1);
    failed(s, 1, { object: 'pod/web-1' });
    failed(s, 1, { source: 'kubelet, node-2' });
    expect(eventList(s.state.api!).map((e) => [e.object, e.source, e.count])).toEqual([
      ['pod/web-0', 'kubelet, node-1', 25],
      ['pod/web-1', 'kubelet, node-1', 1],
      ['pod/web-0', 'kubelet, node-2', 1],
    ]);
  });

  it('a dropped event changes nothing the API server holds', () => {
    const s = sim();
    for (let i = 0; i < 25; i++) failed(s, 1);
    const before = s.state.api!.events;
    failed(s, 1);
    expect(s.state.api!.events).toBe(before);
  });
});

describe('a restarted client', () => {
  it('forgets its memory, so its bucket is full again', () => {
    const s = sim();
    for (let i = 0; i < 26; i++) failed(s, 1);
    s.apply(
      {
        kind: 'note',
        node: null,
        source: 't',
        target: 't',
        level: 'cluster',
        summary: 'x',
        payload: {},
      } as never,
      (d) => forgetEventClient(d.api as ApiState, 'kubelet, node-1'),
    );
    failed(s, 1);
    const last = s.events[s.events.length - 1]!;
    expect(last.kind === 'api' && 'event' in last.payload).toBe(true);
    // The restarted kubelet does not know the old Event object's name: it creates a new one.
    expect(eventList(s.state.api!).map((e) => e.count)).toEqual([25, 1]);
  });
});
