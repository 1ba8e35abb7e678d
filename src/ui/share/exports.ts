/**
 * Exports of what is on screen: the sequence as Mermaid source and SVG, the topology as SVG and
 * PNG, the trace as JSON (trace-file.ts), and opening such a JSON file again.
 *
 * The drawings are the views' own: the view is brought on screen if it is not, its SVG is copied
 * with the computed styles written onto each element (the page's CSS and theme do not travel
 * with a file), and framed by its content.
 */
import { buildWindow, visibleSeqs, windowFor } from '../views/sequence/model';
import { WINDOW } from '../views/sequence/SequenceView';
import { loadEngine } from '../../engine';
import { get, notify, ui, type LeftTab } from '../store';

/** trace-file.ts, with the engine whose saved form it writes and reads. */
const importTraceFile = () => Promise.all([import('./trace-file'), loadEngine()]).then(([m]) => m);

const SVG_NS = 'http://www.w3.org/2000/svg';

function stamp(): string {
  const { cursor } = get();
  return `cnisim-step-${cursor + 1}`;
}

export function download(name: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** The Mermaid source of the sequence window around the current step, as the view draws it. */
export function mermaidSource(): string | null {
  const { session, cursor, level } = get();
  if (!session) return null;
  const events = session.events;
  const visible = visibleSeqs(events, level, null, events.length);
  const range = windowFor(visible, cursor, WINDOW);
  return buildWindow(events, visible.slice(range.start, range.end)).source;
}

/** Brings a view on screen and waits for its drawing. */
async function drawing(tab: LeftTab, selector: string): Promise<SVGSVGElement> {
  ui.leftTab(tab);
  const deadline = performance.now() + 15_000;
  for (;;) {
    const el = document.querySelector<SVGSVGElement>(selector);
    if (el && el.getBBox().width > 0) return el;
    if (performance.now() > deadline) throw new Error('the view did not finish drawing');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'visibility',
  'display',
] as const;

/** A standalone copy of an on-screen SVG: computed styles inlined, framed by its content. */
export function standaloneSvg(svg: SVGSVGElement, background: string): string {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const src = [svg, ...svg.querySelectorAll('*')];
  const dst = [copy, ...copy.querySelectorAll('*')];
  src.forEach((el, i) => {
    const d = dst[i];
    if (!(d instanceof SVGElement) || !(el instanceof SVGElement)) return;
    const cs = getComputedStyle(el);
    const style = STYLE_PROPS.map((p) => `${p}:${cs.getPropertyValue(p)}`).join(';');
    d.setAttribute('style', style);
    d.removeAttribute('tabindex');
  });
  const box = svg.getBBox();
  const pad = 12;
  const vb = [box.x - pad, box.y - pad, box.width + 2 * pad, box.height + 2 * pad];
  copy.setAttribute('xmlns', SVG_NS);
  copy.setAttribute('viewBox', vb.join(' '));
  copy.setAttribute('width', String(Math.ceil(vb[2]!)));
  copy.setAttribute('height', String(Math.ceil(vb[3]!)));
  copy.removeAttribute('class');
  const bg = document.createElementNS(SVG_NS, 'rect');
  bg.setAttribute('x', String(vb[0]));
  bg.setAttribute('y', String(vb[1]));
  bg.setAttribute('width', String(vb[2]));
  bg.setAttribute('height', String(vb[3]));
  bg.setAttribute('fill', background);
  copy.insertBefore(bg, copy.firstChild);
  return new XMLSerializer().serializeToString(copy);
}

function background(): string {
  return getComputedStyle(document.body).backgroundColor || '#ffffff';
}

async function svgToPng(svgText: string, scale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil(img.width * scale);
    canvas.height = Math.ceil(img.height * scale);
    const ctx = canvas.getContext('2d');
    if (!ctx) throw new Error('no canvas');
    ctx.scale(scale, scale);
    ctx.drawImage(img, 0, 0);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob(
        (b) => (b ? resolve(b) : reject(new Error('PNG encoding failed'))),
        'image/png',
      ),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

export type ExportKind = 'mermaid' | 'sequence-svg' | 'topology-svg' | 'topology-png' | 'trace';

export async function exportAs(kind: ExportKind): Promise<void> {
  try {
    switch (kind) {
      case 'mermaid': {
        const src = mermaidSource();
        if (src !== null) download(`${stamp()}.mmd`, new Blob([src], { type: 'text/plain' }));
        return;
      }
      case 'sequence-svg': {
        const svg = await drawing('sequence', '.seq-view .seq-host > svg');
        const text = standaloneSvg(svg, background());
        download(`${stamp()}-sequence.svg`, new Blob([text], { type: 'image/svg+xml' }));
        return;
      }
      case 'topology-svg':
      case 'topology-png': {
        const svg = await drawing('topology', '.topo-view svg.topo-svg');
        const text = standaloneSvg(svg, background());
        if (kind === 'topology-svg') {
          download(`${stamp()}-topology.svg`, new Blob([text], { type: 'image/svg+xml' }));
        } else {
          download(`${stamp()}-topology.png`, await svgToPng(text));
        }
        return;
      }
      case 'trace': {
        const { session, leftTab, rightTab } = get();
        if (!session) return;
        const { traceFile } = await importTraceFile();
        const text = JSON.stringify(traceFile(session, { left: leftTab, right: rightTab }));
        download(`${stamp()}-trace.json`, new Blob([text], { type: 'application/json' }));
        return;
      }
    }
  } catch (e) {
    notify('error', `The export failed: ${(e as Error).message}`);
  }
}

/** Opens a trace JSON file as a shared sandbox (not saved over the user's own). */
export async function importTrace(file: File): Promise<void> {
  const { parseTraceFile, sameTrace, MAX_TRACE_CHARS } = await importTraceFile();
  if (file.size > MAX_TRACE_CHARS) {
    notify('error', 'This file cannot be opened: it is larger than 64 MiB.');
    return;
  }
  const parsed = parseTraceFile(await file.text());
  if (!parsed.ok) {
    notify('error', parsed.error);
    return;
  }
  const { openShared } = await import('./open');
  const session = await openShared(parsed.file.saved, parsed.file.views, 'Opening the trace');
  if (!session) return;
  if (!sameTrace(session, parsed.file)) {
    notify(
      'warning',
      'This version of cnisim replays the file differently: the steps may not match its events.',
    );
  } else notify('info', `Opened ${file.name}: the same trace, at step ${session.cursor + 1}.`);
}
