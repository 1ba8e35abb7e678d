import { describe, expect, it } from 'vitest';
import { podRows } from '../apiserver/apiserver';
import { Cluster } from '../cluster/cluster';
import { journalLines } from '../node/journal';
import type { TraceEvent } from '../trace/trace';
import { isErrorEvent } from './condition';
import { seekView, TraceIndex, traceIndex } from './seek';

function naiveCounts(events: readonly TraceEvent[], upTo: number) {
  const byKind: Record<string, number> = {};
  const byLevel: Record<string, number> = {};
  let errors = 0;
  for (const e of events.slice(0, upTo + 1)) {
    byKind[e.kind] = (byKind[e.kind] ?? 0) + 1;
    byLevel[e.level] = (byLevel[e.level] ?? 0) + 1;
    if (isErrorEvent(e)) errors++;
  }
  return { events: Math.min(upTo + 1, events.length), byKind, byLevel, errors };
}

describe('seeking in a trace', () => {
  // A run with failures (an exhausted /30) and journal lines on two nodes.
  const c = new Cluster(
    {
      nodes: [
        { name: 'node-1', podCIDR: '10.244.1.0/30' },
        { name: 'node-2', podCIDR: '10.244.2.0/24' },
      ],
    },
    { seed: 4 },
  );
  c.scale('web', 5);
  c.runFor(40_000_000);

  it('the index answers what a pass over the trace would, at every step, as the trace grows', () => {
    const ix = new TraceIndex(c.events);
    const n = c.events.length;
    expect(n).toBeGreaterThan(500);
    for (let step = -1; step < n; step += 7) {
      for (const node of ['node-1', 'node-2']) {
        expect(ix.journal(node, step)).toEqual(journalLines(c.events, node, step));
        expect(ix.journal(node, step, { last: 3, units: ['kubelet'] })).toEqual(
          journalLines(c.events, node, step, ['kubelet']).slice(-3),
        );
      }
      expect(ix.counts(step)).toEqual(naiveCounts(c.events, step));
    }
    // More events: the index catches up.
    c.runFor(20_000_000);
    expect(c.events.length).toBeGreaterThan(n);
    const last = c.events.length - 1;
    expect(ix.journal('node-1', last)).toEqual(journalLines(c.events, 'node-1'));
    expect(ix.counts(last)).toEqual(naiveCounts(c.events, last));
  });

  it('a shrunk events array (a new history) is indexed again', () => {
    const events = c.events.slice(0, 500);
    const ix = new TraceIndex(events);
    expect(ix.counts(499).events).toBe(500);
    events.length = 100;
    expect(ix.counts(799)).toEqual(naiveCounts(events, 99));
    expect(ix.journal('node-1', 99)).toEqual(journalLines(events, 'node-1', 99));
  });

  it('the view at a step is the recorded world and its kubectl rows', () => {
    const step = 300;
    const v = seekView(c, step, { journal: 2 });
    expect(v.state).toBe(c.sim.states[step]);
    expect(v.pods).toEqual(podRows(c.sim.states[step]!.api!, c.sim.states[step]!.clock));
    expect(v.journal['node-1']).toEqual(journalLines(c.events, 'node-1', step).slice(-2));
    expect(seekView(c, 10 ** 9).state).toBe(c.sim.state);
    expect(traceIndex(c.events)).toBe(traceIndex(c.events));
  });
});
