import { createElement, Fragment } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { loadCourse } from '../../../engine/course/content';
import { lessonHandout } from '../../../engine/course/handout';
import type { TraceEvent } from '../../../engine/trace/trace';
import { stepDiagram } from '../../course/handout/diagram';
import { ev } from './events.fixture';
import { FONT, LINE, layoutSequence, textWidth, type SequenceDrawing } from './layout';
import { buildWindow, visibleSeqs, type SequenceWindow } from './model';
import { SequenceDrawing as Drawing } from './SequenceDrawing';

/** Every rule a readable diagram keeps, checked on one drawing. */
function checkDrawing(win: SequenceWindow, d: SequenceDrawing, current: number | null): void {
  const where = `${d.title}`;
  // Boxes left to right, none overlapping, every one inside the drawing.
  for (let i = 0; i < d.participants.length; i++) {
    const p = d.participants[i]!;
    expect(p.boxX, where).toBeGreaterThanOrEqual(d.minX);
    expect(p.boxX + p.boxW, where).toBeLessThanOrEqual(d.minX + d.width);
    for (const l of p.lines) expect(textWidth(l), `${where}: ${l}`).toBeLessThan(p.boxW);
    const next = d.participants[i + 1];
    if (next) expect(next.boxX, where).toBeGreaterThan(p.boxX + p.boxW);
  }
  const xs = d.participants.map((p) => p.x);
  let bottom = d.boxY + d.boxH;
  d.messages.forEach((m, k) => {
    const src = win.messages[k]!;
    expect(m.seq).toBe(src.seq);
    expect(m.current).toBe(src.seq === current);
    expect(m.texts.map((t) => t.text)).toEqual(src.drawn);
    // Rows one under the other: the text below the previous arrow, the arrow below the text.
    for (const t of m.texts) {
      expect(t.y - FONT, where).toBeGreaterThanOrEqual(bottom);
      expect(t.y, where).toBeLessThan(m.y);
      const half = textWidth(t.text) / 2;
      expect(t.x - half, where).toBeGreaterThanOrEqual(d.minX);
      expect(t.x + half, where).toBeLessThanOrEqual(d.minX + d.width);
      if (m.self) {
        // A loop's text crosses no other lifeline.
        for (const x of xs)
          if (x !== m.x1)
            expect(x < t.x - half || x > t.x + half, `${where}: ${t.text}`).toBe(true);
      } else {
        // A message's text fits between the lifelines it joins.
        const [lo, hi] = [Math.min(m.x1, m.x2), Math.max(m.x1, m.x2)];
        expect(t.x - half, `${where}: ${t.text}`).toBeGreaterThanOrEqual(lo);
        expect(t.x + half, `${where}: ${t.text}`).toBeLessThanOrEqual(hi);
      }
    }
    expect(m.x1).toBe(xs[win.participants.findIndex((p) => p.id === src.from)]);
    expect(m.x2).toBe(xs[win.participants.findIndex((p) => p.id === src.to)]);
    expect(m.self).toBe(src.from === src.to);
    bottom = m.y + (m.self ? d.loop.h : 0);
    expect(bottom, where).toBeLessThanOrEqual(d.lifelineEnd);
  });
  expect(d.lifelineEnd).toBeLessThanOrEqual(d.height);
}

describe('a sequence diagram laid out without a browser', () => {
  const lessons = loadCourse().lessons;

  // Replays every lesson's solution: about 10 s alone, over 30 s beside the whole suite on 2 cores.
  it("draws every step of every lesson's handout readably", { timeout: 120_000 }, () => {
    let drawings = 0;
    let loops = 0;
    let widest = 0;
    for (const lesson of lessons) {
      const h = lessonHandout(lesson);
      if ('errors' in h) throw new Error(`${lesson.id}: ${h.errors.join('; ')}`);
      const visible = visibleSeqs(h.events, 'kernel');
      for (const s of h.steps) {
        const { window: win, current } = stepDiagram(h.events, s.step, visible);
        if (win.messages.length === 0) continue;
        const d = layoutSequence(win, current);
        checkDrawing(win, d, current);
        drawings++;
        loops += d.messages.filter((m) => m.self).length;
        widest = Math.max(widest, d.width);
        // The step's own message is the one in bold, and the text alternative says so.
        expect(d.messages.filter((m) => m.current).length).toBe(current === null ? 0 : 1);
        if (current !== null) expect(d.description).toContain(`Step ${current + 1} (this step):`);
      }
    }
    expect(drawings).toBeGreaterThan(300);
    expect(loops).toBeGreaterThan(0);
    // Ten lifelines at most: the widest diagram stays printable (scaled by at most about 2).
    expect(widest).toBeLessThan(1600);
  });

  const events: TraceEvent[] = [
    ev(0, 'containerd', 'libcni', 'AddNetworkList containerd-net'),
    ev(1, 'libcni', 'bridge', 'exec /opt/cni/bin/bridge (ADD)'),
    ev(2, 'bridge', 'bridge', 'a state change of the plugin that is long enough to wrap'),
    ev(3, 'bridge', 'libcni', 'bridge exited 1', {
      kind: 'exit',
      error: 'failed to set up <b>cni0</b> & "eth0"',
    }),
    ev(4, 'libcni', 'containerd', '', { kind: 'libcni.return' }),
    ev(5, 'kernel', 'kernel', 'a loop on the last lifeline, with a long text to the right'),
  ];
  const win = buildWindow(
    events,
    events.map((e) => e.seq),
    { maxText: 60, wrap: 22 },
  );

  it('draws replies, failures, loops (also on the last lifeline) and empty texts', () => {
    const d = layoutSequence(win, 3);
    checkDrawing(win, d, 3);
    const [add, exec, loop, exit, ret, last] = d.messages;
    expect(add!.reply || exec!.reply || loop!.reply).toBe(false);
    expect(exit).toMatchObject({ reply: true, failed: true, current: true });
    expect(ret).toMatchObject({ reply: true, texts: [] });
    expect(loop!.self && last!.self).toBe(true);
    // The loop on the last lifeline widens the drawing to the right for its text.
    const kernel = d.participants[d.participants.length - 1]!;
    expect(last!.x1).toBe(kernel.x);
    expect(d.minX + d.width).toBeGreaterThan(kernel.boxX + kernel.boxW);
    expect(d.title).toBe('Sequence of steps 1 to 6');
    expect(d.description).toContain(
      'Step 4 (this step): bridge to libcni, reply: bridge exited 1 — failed: failed to set up <b>cni0</b> & "eth0".',
    );
    expect(d.height).toBeGreaterThan(6 * 2 * LINE);
  });

  it('puts the node on a line of its own when the window has several nodes', () => {
    const two = buildWindow(
      [...events, ev(6, 'containerd', 'libcni', 'AddNetworkList', { node: 'node-2' })],
      [0, 6],
    );
    const d = layoutSequence(two, null);
    expect(d.participants.map((p) => p.lines)).toEqual([
      ['containerd', '(node-1)'],
      ['libcni', '(node-1)'],
      ['containerd', '(node-2)'],
      ['libcni', '(node-2)'],
    ]);
    checkDrawing(two, d, null);
  });

  it('renders as an SVG image with a title and a description, every text escaped', () => {
    const html = renderToStaticMarkup(createElement(Drawing, { win, current: 3 }));
    expect(html).toMatch(/^<svg [^>]*role="img"/);
    expect(html).toMatch(/<title id="[^"]+">Sequence of steps 1 to 6<\/title>/);
    expect(html).toMatch(
      /<desc id="[^"]+">6 messages between containerd, libcni, bridge, kernel\./,
    );
    // The trace's text is text, never markup.
    expect(html).not.toContain('<b>');
    expect(html).toContain('&lt;b&gt;cni0&lt;/b&gt;');
    // The current message: its texts in bold, its line thick; the others not.
    const current = html.match(/<text [^>]*class="seq-text is-current"[^>]*>/g) ?? [];
    expect(current.length).toBe(win.messages[3]!.drawn.length);
    for (const t of current) expect(t).toContain('font-weight="700"');
    expect(html.match(/class="seq-msg[^"]*is-current/g)?.length).toBe(1);
    // Named and described by its title and desc, their ids its only ones.
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toHaveLength(2);
    expect(html).toContain(`aria-labelledby="${ids[0]}"`);
    expect(html).toContain(`aria-describedby="${ids[1]}"`);
    expect(html).toMatch(new RegExp(`<title id="${ids[0]}">`));
    expect(html).toMatch(new RegExp(`<desc id="${ids[1]}">`));
    // Two diagrams on one page do not share them.
    const two = renderToStaticMarkup(
      createElement(Fragment, null, [
        createElement(Drawing, { key: 1, win, current: 3 }),
        createElement(Drawing, { key: 2, win, current: 3 }),
      ]),
    );
    const twoIds = [...two.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(twoIds).size).toBe(4);
    // The same drawing every time.
    expect(renderToStaticMarkup(createElement(Drawing, { win, current: 3 }))).toBe(html);
  });
});
