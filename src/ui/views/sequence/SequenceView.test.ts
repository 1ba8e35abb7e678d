/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { readFileSync } from 'node:fs';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../../../engine/trace/trace';
import { ev } from './events.fixture';
import { layoutSequence } from './layout';
import { buildWindow, SCREEN_TEXT } from './model';
import { SequenceHeader, SequenceSvg } from './SequenceDrawing';
import SequenceView from './SequenceView';

const events: TraceEvent[] = [
  ev(0, 'containerd', 'libcni', 'AddNetworkList containerd-net'),
  ev(1, 'libcni', 'bridge', 'exec /opt/cni/bin/bridge (ADD)'),
  ev(2, 'bridge', 'libcni', 'bridge exited 1', {
    kind: 'exit',
    error: 'failed to set up <b>cni0</b> & "eth0"',
  }),
  ev(3, 'libcni', 'containerd', '', { kind: 'libcni.return' }),
  ev(4, 'kubelet', 'kubelet', 'journal', { kind: 'log' }),
];

const view = (step: number) =>
  renderToStaticMarkup(
    createElement(SequenceView, { session: { events }, step, onSelectStep: () => undefined }),
  );

describe('the Sequence view, drawn without Mermaid', () => {
  it('draws the window around the step as SVG, every message a button to its step', () => {
    const html = view(1);
    expect(html).toMatch(/<section class="seq-view" aria-label="Sequence diagram">/);
    // A group (its messages are buttons), named by the steps it shows.
    expect(html).toMatch(/<svg [^>]*role="group"[^>]*aria-labelledby="([^"]+)"/);
    expect(html).toMatch(/<title id="[^"]+">Sequence of steps 1 to 4<\/title>/);
    expect(html).toContain('4 messages between containerd, libcni, bridge.');
    const buttons = [...html.matchAll(/role="button" tabindex="0" aria-label="([^"]+)"/g)].map(
      (m) => m[1],
    );
    expect(buttons).toEqual([
      'Step 1: AddNetworkList containerd-net',
      'Step 2: exec /opt/cni/bin/bridge (ADD)',
      'Step 3: bridge exited 1 — failed: failed to set up &lt;b&gt;cni0&lt;/b&gt; &amp; &quot;eth0&quot;',
      // libcni's return has no text: its arrow is the button.
      'Step 4: a reply without text',
    ]);
    expect(html).not.toContain('<b>');
    // The current step's message: bold, on the band; the others not.
    const current = html.match(/<text [^>]*class="seq-text is-current"[^>]*>/g) ?? [];
    expect(current.length).toBeGreaterThan(0);
    for (const t of current) expect(t).toMatch(/data-seq="1"/);
    expect(html.match(/class="seq-band"/g)).toHaveLength(1);
    expect(html.match(/class="seq-msg is-current"/g)).toHaveLength(1);
    // A failed message is marked as such.
    expect(html).toMatch(/class="seq-text is-failed" data-seq="2"/);
    expect(html).toMatch(/class="seq-msg is-failed" data-seq="2"/);
    // The sticky header: one box per lifeline, with its geometry for placing its name.
    expect([...html.matchAll(/<g data-lifeline="([^"]+)"/g)].map((m) => m[1])).toEqual([
      'containerd',
      'libcni',
      'bridge',
    ]);
    // Every lifeline in the list above the diagram, the current message's two ends marked.
    expect(html).toMatch(/<li data-lifeline="libcni" data-role="from">/);
    expect(html).toMatch(/<li data-lifeline="bridge" data-role="to">/);
  });

  it('moves the highlight, not the drawing, when the step moves inside the window', () => {
    const a = view(1);
    const b = view(2);
    const strip = (h: string) =>
      h
        .replace(/ is-current/g, '')
        .replace(/font-weight="700"/g, 'font-weight="400"')
        .replace(/stroke-width="3"/g, 'stroke-width="1.25"')
        .replace(/<rect class="seq-band"[^>]*><\/rect>/g, '')
        .replace(/ data-role="[a-z]+"/g, '')
        .replace(/<span class="visually-hidden"> \(current message [a-z]+\)<\/span>/g, '')
        .replace(/stroke-width="2"/g, 'stroke-width="1.25"');
    expect(a).not.toBe(b);
    expect(b).toMatch(/class="seq-text is-current is-failed" data-seq="2"/);
    expect(strip(b)).toBe(strip(a));
  });

  it('keeps the handout drawing black on white: the colours of the screen come from CSS', () => {
    const win = buildWindow(events, [0, 1, 2, 3], SCREEN_TEXT);
    const d = layoutSequence(win, null);
    const screen = renderToStaticMarkup(
      createElement(SequenceSvg, { drawing: d, current: 1, variant: 'screen' }),
    );
    // Presentation attributes are the paper's; sequence.css gives each class a theme token.
    expect(screen).not.toMatch(/var\(/);
    const css = readFileSync(new URL('./sequence.css', import.meta.url), 'utf8');
    for (const cls of ['seq-bg', 'seq-band', 'seq-lifeline', 'seq-box', 'seq-name', 'seq-text'])
      expect(screen.includes(`class="${cls}`) && css.includes(`.${cls}`), cls).toBe(true);
    const header = renderToStaticMarkup(createElement(SequenceHeader, { drawing: d }));
    expect(header).toMatch(/^<svg [^>]*aria-hidden="true"/);
    expect(header).not.toMatch(/\sid="/);
  });

  it('imports no Mermaid', () => {
    for (const f of ['./SequenceView.tsx', './SequenceDrawing.tsx', './layout.ts', './model.ts'])
      expect(readFileSync(new URL(f, import.meta.url), 'utf8'), f).not.toMatch(
        /from ['"]mermaid|import\(['"]mermaid/,
      );
  });
});
