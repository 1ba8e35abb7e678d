import { describe, expect, it } from 'vitest';
import { Cluster } from '../../../engine/cluster/cluster';
import type { TraceEvent } from '../../../engine/trace/trace';
import fc from 'fast-check';
import {
  buildWindow,
  centredScroll,
  labelX,
  SCREEN_TEXT,
  escapeMermaid,
  lastAtOrBefore,
  visibleSeqs,
  windowFor,
  wrapText,
} from './model';

function onePod(): Cluster {
  const c = new Cluster(undefined, { seed: 1 });
  c.createPod({ name: 'web-0' });
  c.runFor(5_000_000);
  return c;
}

describe('sequence model', () => {
  const c = onePod();
  const events = c.sim.events;

  it('shows fewer messages at lower detail levels, and never journal lines', () => {
    const all = visibleSeqs(events, 'kernel');
    const cni = visibleSeqs(events, 'cni');
    const cluster = visibleSeqs(events, 'cluster');
    expect(all.length).toBeGreaterThan(cni.length);
    expect(cni.length).toBeGreaterThan(cluster.length);
    expect(all.every((s) => events[s]!.kind !== 'log')).toBe(true);
    expect(cluster.every((s) => events[s]!.level === 'cluster')).toBe(true);
  });

  it('filters one node and keeps the events of no node', () => {
    const n2 = visibleSeqs(events, 'kernel', 'node-2');
    expect(n2.every((s) => events[s]!.node !== 'node-1')).toBe(true);
    expect(n2.some((s) => events[s]!.node === null)).toBe(true);
  });

  it('moves its window only every half window, keeping the current message inside', () => {
    const vis = visibleSeqs(events, 'kernel');
    const keys = new Set<string>();
    for (let step = 0; step < events.length; step++) {
      const w = windowFor(vis, step, 40);
      expect(w.end - w.start).toBe(Math.min(40, vis.length));
      if (w.current !== null) {
        const pos = vis.indexOf(w.current);
        expect(pos).toBeGreaterThanOrEqual(w.start);
        expect(pos).toBeLessThan(w.end);
        expect(w.current).toBeLessThanOrEqual(step);
      }
      keys.add(`${w.start}`);
    }
    expect(keys.size).toBeLessThanOrEqual(Math.ceil(vis.length / 20) + 1);
  });

  it('highlights the last shown message when the current step is folded away', () => {
    const vis = visibleSeqs(events, 'cni');
    const kernelStep = events.find((e) => e.kind === 'kernel' && e.source === 'bridge')!.seq;
    const w = windowFor(vis, kernelStep);
    expect(w.current).toBe(vis[lastAtOrBefore(vis, kernelStep)]);
    expect(events[w.current!]!.level).not.toBe('kernel');
  });

  it('has kubelet, containerd, libcni, the plugins, kernel and fs as participants, in order', () => {
    const seqs = events.filter((e) => e.node === 'node-1' || e.node === null).map((e) => e.seq);
    const win = buildWindow(events, seqs);
    const actors = win.participants.map((p) => p.actor);
    for (const a of [
      'kubelet',
      'containerd',
      'libcni',
      'bridge',
      'host-local',
      'portmap',
      'kernel',
      'fs',
    ])
      expect(actors).toContain(a);
    const at = (a: string) => actors.indexOf(a);
    expect(at('kubelet')).toBeLessThan(at('containerd'));
    expect(at('containerd')).toBeLessThan(at('libcni'));
    expect(at('libcni')).toBeLessThan(at('bridge'));
    expect(at('bridge')).toBeLessThan(at('kernel'));
    expect(at('kernel')).toBeLessThan(at('fs'));
    // One message per event, replies dashed.
    expect(win.messages).toHaveLength(seqs.length);
    expect(win.source).toContain('-->>');
    expect(win.source.split('\n')[0]).toBe('sequenceDiagram');
  });

  it('labels participants with their node when the window spans two nodes', () => {
    const win = buildWindow(
      events,
      events.slice(0, 16).map((e) => e.seq),
    );
    expect(win.participants.map((p) => p.label)).toContain('kubelet (node-2)');
  });

  it('escapes every character Mermaid or HTML could interpret', () => {
    const evil = 'a;b#c<script>alert(1)</script>&"\'`{x}|%%\nend';
    const esc = escapeMermaid(evil);
    expect(esc.replace(/#\d+;/g, '')).not.toMatch(/[#;<>&"'`{}|%\n]/);
    expect(esc.replace(/#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))).toBe(
      evil.replace('\n', ' '),
    );
    const ev: TraceEvent = {
      seq: 0,
      time: 0,
      node: 'n;1',
      source: 'x<img src=x onerror=alert(1)>',
      target: 'kernel',
      kind: 'kernel',
      level: 'kernel',
      summary: evil,
      payload: { op: 'test' },
      error: 'boom; <b>bad</b>',
    };
    const win = buildWindow([ev], [0]);
    const body = win.source.split('\n').slice(1).join('\n');
    expect(body.replace(/#\d+;/g, '')).not.toMatch(/[#<>;&]/);
    expect(win.source).toContain('-x');
  });

  it('wraps messages for a page into lines, escaped one by one, joined by line breaks', () => {
    const ev: TraceEvent = {
      seq: 0,
      time: 0,
      node: 'node-1',
      source: 'bridge',
      target: 'kernel',
      kind: 'kernel',
      level: 'kernel',
      summary:
        'ip link set veth1234abcd master cni0 <b>x</b>; then a_very_long_token_without_spaces',
      payload: { op: 'test' },
    };
    const win = buildWindow([ev], [0], { maxText: 60, wrap: 20 });
    const text = win.messages[0]!.text;
    const lines = text.split('<br/>');
    expect(lines.length).toBeGreaterThan(1);
    for (const l of lines) expect(l.replace(/#\d+;/g, '')).not.toMatch(/[#<>;&]/);
    expect(win.messages[0]!.plain).toBe(ev.summary);
    // Without `wrap`, one line as before.
    expect(buildWindow([ev], [0]).messages[0]!.text).not.toContain('<br/>');
  });
});

describe('wrapText', () => {
  it('keeps every character, in lines no longer than the width', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ minLength: 1, maxLength: 30 }).map((w) => w.replace(/\s/g, 'x')),
          {
            maxLength: 12,
          },
        ),
        fc.integer({ min: 1, max: 40 }),
        (words, width) => {
          const lines = wrapText(words.join(' '), width);
          for (const l of lines) expect([...l].length).toBeLessThanOrEqual(width);
          expect(lines.join('').replace(/ /g, '')).toBe(words.join(''));
        },
      ),
      { seed: 8, numRuns: 200 },
    );
  });

  it('breaks at spaces when words fit', () => {
    expect(wrapText('delete pod default/web-0 (graceful)', 16)).toEqual([
      'delete pod',
      'default/web-0',
      '(graceful)',
    ]);
  });
});

describe('the screen layout of the diagram', () => {
  it('wraps long messages into short lines and counts them', () => {
    const ev = {
      ...({} as TraceEvent),
      seq: 0,
      source: 'libcni',
      target: 'bridge',
      kind: 'exec',
      level: 'cni',
      node: 'node-1',
      summary: 'exec /opt/cni/bin/bridge ADD (CNI_CONTAINERID=0123456789abcdef CNI_IFNAME=eth0)',
    } as TraceEvent;
    const win = buildWindow([ev], [0], SCREEN_TEXT);
    const m = win.messages[0]!;
    expect(m.lines).toBe(m.text.split('<br/>').length);
    expect(m.lines).toBeGreaterThan(1);
    for (const line of m.text.split('<br/>')) expect(line.length).toBeLessThanOrEqual(40);
    expect(buildWindow([ev], [0]).messages[0]!.lines).toBe(1);
  });

  it('centres a span in the part of the viewport under the header, within the scroll range', () => {
    // A message at 1000..1040 in 3000 px of content, a 450 px viewport with a 50 px header.
    const top = centredScroll(1000, 1040, 450, 3000, 50);
    const centre = 1020 - top;
    expect(centre).toBe(50 + 200);
    // Near the start or the end it stops at the range's ends.
    expect(centredScroll(10, 20, 450, 3000, 50)).toBe(0);
    expect(centredScroll(2990, 3000, 450, 3000, 50)).toBe(2550);
    expect(centredScroll(0, 100, 450, 300)).toBe(0);
  });

  it('keeps a cut participant label inside the visible part of its box', () => {
    // Box 100..220, view 150..650: the label centres on 150..220.
    expect(labelX({ x: 100, w: 120 }, { x: 150, w: 500 }, 60)).toBe(185);
    // Fully in view: the box's centre.
    expect(labelX({ x: 200, w: 120 }, { x: 150, w: 500 }, 60)).toBe(260);
    // Too little in view for the label: hidden.
    expect(labelX({ x: 100, w: 120 }, { x: 190, w: 500 }, 60)).toBeNull();
  });
});
