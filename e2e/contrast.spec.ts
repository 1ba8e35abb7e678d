import { expect, test, type Page } from '@playwright/test';
import { clearSavedState, openApp, runUntil } from './support';

// WCAG AA contrast (4.5:1) of what axe does not check: the text of the SVG diagrams (sequence,
// topology, machines, metrics) and the conflist editor's tokens, in both themes. Each text's
// colour is compared with what is drawn under its centre (the shapes and boxes below it).

test.use({ viewport: { width: 1440, height: 900 } });
test.setTimeout(90_000);
test.afterEach(async ({ page }) => clearSavedState(page));

interface Low {
  text: string;
  fg: string;
  bg: string;
  ratio: number;
}

/** Texts under `selector` whose colour has less than 4.5:1 against what is under them. */
async function lowContrast(page: Page, selector: string): Promise<{ checked: number; low: Low[] }> {
  return page.evaluate((sel) => {
    type RGBA = [number, number, number, number];
    const parse = (c: string): RGBA | null => {
      const m = /rgba?\(([^)]+)\)/.exec(c);
      if (!m) return null;
      const p = m[1]!
        .split(/[\s,/]+/)
        .filter(Boolean)
        .map(Number);
      return [p[0]!, p[1]!, p[2]!, p.length > 3 ? p[3]! : 1];
    };
    const over = (top: RGBA, under: RGBA): RGBA => {
      const a = top[3] + under[3] * (1 - top[3]);
      if (a === 0) return [0, 0, 0, 0];
      const ch = (i: number) => (top[i]! * top[3] + under[i]! * under[3] * (1 - top[3])) / a;
      return [ch(0), ch(1), ch(2), a];
    };
    const lum = (c: RGBA) => {
      const f = (v: number) => {
        const x = v / 255;
        return x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
    };
    const SHAPES = new Set(['rect', 'circle', 'ellipse', 'polygon', 'path']);
    /** The colour drawn under a point, below `self` (the layers composited down to opaque). */
    const under = (self: Element, x: number, y: number): RGBA => {
      const layers: RGBA[] = [];
      for (const el of document.elementsFromPoint(x, y)) {
        if (el === self || self.contains(el) || (el.contains(self) && el instanceof SVGTextElement))
          continue;
        const cs = getComputedStyle(el);
        let c: RGBA | null = null;
        if (el instanceof SVGElement) {
          if (SHAPES.has(el.tagName) && cs.fill !== 'none') {
            c = parse(cs.fill);
            if (c) c[3] *= Number(cs.fillOpacity || 1) * Number(cs.opacity || 1);
          } else if (el.tagName === 'svg') c = parse(cs.backgroundColor);
        } else c = parse(cs.backgroundColor);
        if (c && c[3] > 0) layers.push(c);
        if (c && c[3] >= 1) break;
      }
      let bg: RGBA = [255, 255, 255, 1];
      for (const l of layers.reverse()) bg = over(l, bg);
      return bg;
    };
    const low: { text: string; fg: string; bg: string; ratio: number }[] = [];
    let checked = 0;
    const texts = Array.from(document.querySelectorAll(sel)).filter(
      (el) =>
        (el.textContent ?? '').trim() !== '' &&
        !Array.from(el.children).some((c) => c.tagName === 'tspan'),
    );
    for (const el of texts) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const x = r.left + r.width / 2;
      const y = r.top + r.height / 2;
      if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
      const top = document.elementFromPoint(x, y);
      // Hidden under something else (a sticky header): not what is seen.
      if (top && top !== el && !el.contains(top) && !top.contains(el)) continue;
      const cs = getComputedStyle(el);
      const fg = parse(el instanceof SVGElement ? cs.fill : cs.color);
      if (!fg) continue;
      const bg = under(el, x, y);
      const fgOver = over(fg, bg);
      const [a, b] = [lum(fgOver), lum(bg)].sort((p, q) => q - p) as [number, number];
      const ratio = (a + 0.05) / (b + 0.05);
      checked++;
      if (ratio < 4.5)
        low.push({
          text: (el.textContent ?? '').trim().slice(0, 40),
          fg: fgOver.map((v) => Math.round(v)).join(','),
          bg: bg.map((v) => Math.round(v)).join(','),
          ratio: Math.round(ratio * 100) / 100,
        });
    }
    return { checked, low };
  }, selector);
}

for (const theme of ['Light', 'Dark']) {
  test(`diagram text and editor tokens have 4.5:1 contrast, ${theme.toLowerCase()} theme`, async ({
    page,
  }) => {
    await openApp(page);
    await page.getByRole('combobox', { name: 'Theme' }).selectOption({ label: theme });
    await runUntil(page, 'a pod is Running');
    const views = page.getByRole('region', { name: 'Views' });
    for (const [tab, ready] of [
      ['Sequence', '.seq-host svg text'],
      ['Topology', '.topo-svg text'],
      ['Machines', 'svg text'],
      ['Metrics', 'svg text'],
    ] as const) {
      await views.getByRole('tab', { name: tab }).click();
      await expect(views.locator(ready).first()).toBeVisible({ timeout: 15_000 });
      const r = await lowContrast(page, '.pane-views svg text, .pane-views svg tspan');
      expect(r.checked, `${tab}: texts checked`).toBeGreaterThan(3);
      expect(r.low, `${tab}, ${theme}`).toEqual([]);
    }
    await page.getByRole('tab', { name: 'Config' }).click();
    await expect(page.locator('.cm-content .cm-line').first()).toBeVisible({ timeout: 15_000 });
    const ed = await lowContrast(page, '.cm-content .cm-line span, .cm-gutterElement');
    expect(ed.checked).toBeGreaterThan(10);
    expect(ed.low, `editor, ${theme}`).toEqual([]);
  });
}

// The printed handout's diagrams (black on white whatever the theme), as its preview shows them.
for (const theme of ['Light', 'Dark']) {
  test(`the handout's diagram text has 4.5:1 contrast, ${theme.toLowerCase()} theme`, async ({
    page,
  }) => {
    await page.addInitScript(() => {
      window.print = () => undefined;
    });
    await page.goto('./#/lesson/add-step-by-step');
    await expect(page.getByRole('region', { name: 'ADD, step by step' })).toBeVisible({
      timeout: 20_000,
    });
    await page.getByRole('combobox', { name: 'Theme' }).selectOption({ label: theme });
    await page.getByRole('button', { name: 'Print handout' }).click();
    const handout = page.getByRole('article', { name: 'ADD, step by step' });
    await expect(handout.getByRole('status')).toHaveText('The handout is ready to print.', {
      timeout: 30_000,
    });
    let checked = 0;
    for (const i of [0, 5, 10]) {
      await handout.locator('.handout-diagram svg').nth(i).scrollIntoViewIfNeeded();
      const r = await lowContrast(page, '.handout-diagram svg text');
      checked += r.checked;
      expect(r.low, `handout, ${theme}`).toEqual([]);
    }
    expect(checked).toBeGreaterThan(30);
  });
}
