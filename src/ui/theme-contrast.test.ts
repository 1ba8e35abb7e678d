import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { themedHighlightStyle, TOKEN_VARS } from './panels/editorHighlight';

// WCAG AA contrast (4.5:1 for text) of the theme's colour tokens (app.css) in both themes: the
// text tokens on every surface they are drawn on, the editor's token colours, and every colour
// the SVG diagrams (topology, sequence, machines, metrics) give their text. axe does not check
// SVG text; e2e/contrast.spec.ts checks the rendered pages as well.

const css = (p: string) => readFileSync(new URL(p, import.meta.url), 'utf8');
const APP = css('./app.css');

function block(src: string, header: string): Record<string, string> {
  const at = src.indexOf(header);
  if (at < 0) throw new Error(`no block ${header}`);
  const body = src.slice(src.indexOf('{', at) + 1, src.indexOf('}', at));
  const vars: Record<string, string> = {};
  for (const m of body.matchAll(/(--[a-z0-9-]+):\s*([^;]+);/g)) vars[m[1]!] = m[2]!.trim();
  return vars;
}

const LIGHT = block(APP, ':root {');
const DARK = block(APP, ":root[data-theme='dark'] {");
const DARK_SYSTEM = block(APP, ":root:not([data-theme='light']) {");

function rgb(hex: string): [number, number, number] {
  const h = hex.replace('#', '');
  const full = h.length === 3 ? [...h].map((c) => c + c).join('') : h;
  if (!/^[0-9a-f]{6}$/i.test(full)) throw new Error(`not a colour: ${hex}`);
  return [0, 2, 4].map((i) => parseInt(full.slice(i, i + 2), 16)) as [number, number, number];
}

function luminance(hex: string): number {
  const [r, g, b] = rgb(hex).map((v) => {
    const c = v / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function contrast(a: string, b: string): number {
  const [l1, l2] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (l1 + 0.05) / (l2 + 0.05);
}

/** Text colours and the surfaces they are drawn on. */
const SURFACES = ['--bg', '--panel', '--panel-2'];
const ON_SURFACES = [
  '--fg',
  '--muted',
  '--accent',
  '--tok-string',
  '--tok-atom',
  '--tok-literal',
  '--tok-invalid',
  '--tok-muted',
  '--hop',
];
const PAIRS: [string, string][] = [
  ...ON_SURFACES.flatMap((t) => SURFACES.map((s) => [t, s] as [string, string])),
  ['--accent-fg', '--accent'],
  ['--bg', '--accent'],
  ['--current-fg', '--current'],
  ['--fg', '--current'],
  ['--error-fg', '--error-bg'],
  ['--warn-fg', '--warn-bg'],
  ['--ok-fg', '--ok-bg'],
  ['--error-fg', '--bg'],
  ['--error-fg', '--panel'],
];

describe('theme contrast (WCAG AA, 4.5:1)', () => {
  it('the dark theme is the same whether chosen or the system', () => {
    expect(DARK_SYSTEM).toEqual(DARK);
    expect(Object.keys(DARK).sort()).toEqual(
      Object.keys(LIGHT)
        .filter((k) => k !== '--mono')
        .sort(),
    );
  });

  for (const [name, theme] of [
    ['light', LIGHT],
    ['dark', DARK],
  ] as const) {
    it(`every text token on its surfaces, ${name}`, () => {
      const low = PAIRS.map(([fg, bg]) => ({
        pair: `${fg} on ${bg}`,
        ratio: Math.round(contrast(theme[fg]!, theme[bg]!) * 100) / 100,
      })).filter((p) => p.ratio < 4.5);
      expect(low).toEqual([]);
    });
  }

  it("the editor's colours are all theme tokens that are checked above", () => {
    const used = new Set<string>();
    for (const spec of themedHighlightStyle.specs) {
      const c = spec['color'];
      if (typeof c !== 'string') continue;
      const m = /^var\((--[a-z0-9-]+)\)$/.exec(c);
      expect(m, `editor colour ${c}`).not.toBeNull();
      used.add(m![1]!);
    }
    expect(used.has('--tok-string')).toBe(true);
    expect(used.has('--tok-atom')).toBe(true);
    for (const v of [...used, ...Object.values(TOKEN_VARS)]) expect(ON_SURFACES).toContain(v);
  });

  it('every colour the diagrams give their text is a checked token', () => {
    const files = [
      './views/topology/topology.css',
      './views/sequence/sequence.css',
      './views/machines/machines.css',
      './views/metrics/metrics.css',
    ];
    const textColours = new Set<string>();
    for (const f of files) {
      for (const rule of css(f).matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
        const selector = rule[1]!.trim();
        if (!/text|label|name|kind|sub|title|tspan|value|axis|legend/i.test(selector)) continue;
        for (const d of rule[2]!.matchAll(/(?:^|;)\s*(fill|color)\s*:\s*var\((--[a-z0-9-]+)/g))
          textColours.add(d[2]!);
      }
    }
    expect(textColours.size).toBeGreaterThan(2);
    // --bg: the focused state's name, on --accent (checked as a pair above).
    const checked = new Set([...ON_SURFACES, '--error-fg', '--current-fg', '--bg']);
    expect([...textColours].filter((c) => !checked.has(c))).toEqual([]);
  });

  // The Sequence view draws with the app's own SVG (views/sequence/SequenceDrawing.tsx), its
  // colours set in sequence.css: every text on what it is drawn on (4.5:1), every line that
  // carries meaning (lifelines, arrows, boxes, the focus ring) on its surfaces (3:1, WCAG 1.4.11).
  describe('the Sequence view', () => {
    const rules = new Map<string, Record<string, string>>();
    const source = css('./views/sequence/sequence.css').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const rule of source.matchAll(/([^{}]+)\{([^{}]*)\}/g)) {
      const decls: Record<string, string> = {};
      for (const d of rule[2]!.matchAll(/([a-z-]+)\s*:\s*([^;]+);/g)) decls[d[1]!] = d[2]!.trim();
      for (const sel of rule[1]!.split(',')) {
        const key = sel.trim();
        rules.set(key, { ...rules.get(key), ...decls });
      }
    }
    /** The theme token a rule gives a property (`var(--x, fallback)`). */
    const token = (selector: string, prop: string): string => {
      const v = rules.get(selector)?.[prop] ?? '';
      const m = /(?:^|\s)var\((--[a-z0-9-]+)/.exec(v);
      if (!m) throw new Error(`${selector} { ${prop} } is not a theme token: "${v}"`);
      return m[1]!;
    };
    const BG = token('.seq-host .seq-bg', 'fill');
    const BAND = token('.seq-host .seq-band', 'fill');
    const BOX = token('.seq-host .seq-box', 'fill');
    const TEXT: [string, string][] = [
      [token('.seq-host text.seq-text', 'fill'), BG],
      [token('.seq-host text.seq-text.is-failed', 'fill'), BG],
      [token('.seq-host text.seq-text.is-current', 'fill'), BAND],
      [token('.seq-host text.seq-name', 'fill'), BOX],
      [token('.seq-header text.seq-name', 'fill'), token('.seq-header .seq-box', 'fill')],
    ];
    const LINES: [string, string][] = [
      [token('.seq-host .seq-lifeline', 'stroke'), BG],
      // Lifelines run across the current message's band.
      [token('.seq-host .seq-lifeline', 'stroke'), BAND],
      [token('.seq-host .seq-box', 'stroke'), BG],
      [token('.seq-host .seq-msg .seq-line', 'stroke'), BG],
      [token('.seq-host .seq-msg .seq-head', 'fill'), BG],
      [token('.seq-host .seq-msg.is-failed .seq-line', 'stroke'), BG],
      [token('.seq-host .seq-msg.is-current .seq-line', 'stroke'), BAND],
      [token('.seq-host .seq-msg.is-current .seq-head', 'fill'), BAND],
      [token('.seq-host [data-seq]:focus-visible', 'outline'), BG],
    ];

    it('edges the letters of a message with what is under them (the halo)', () => {
      expect(token('.seq-host text.seq-text', 'stroke')).toBe(BG);
      expect(token('.seq-host text.seq-text.is-current', 'stroke')).toBe(BAND);
    });

    for (const [name, theme] of [
      ['light', LIGHT],
      ['dark', DARK],
    ] as const) {
      it(`texts 4.5:1 and lines 3:1 on what they are drawn on, ${name}`, () => {
        const low = [
          ...TEXT.map(([fg, bg]) => ({ fg, bg, min: 4.5 })),
          ...LINES.map(([fg, bg]) => ({ fg, bg, min: 3 })),
        ]
          .map(({ fg, bg, min }) => ({
            pair: `${fg} on ${bg}`,
            min,
            ratio: Math.round(contrast(theme[fg]!, theme[bg]!) * 100) / 100,
          }))
          .filter((p) => p.ratio < p.min);
        expect(low).toEqual([]);
      });
    }
  });

  it('the computation is WCAG: black on white is 21:1; the old dark editor string was 2.46:1', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrast('#aa1111', '#121418')).toBeCloseTo(2.46, 1);
    expect(contrast('#222299', '#121418')).toBeLessThan(1.6);
  });
});
