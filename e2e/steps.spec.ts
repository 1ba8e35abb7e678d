import { expect, test, type Page } from '@playwright/test';
import { clearSavedState, collectPageErrors, openApp, runUntilPodShown } from './support';

// Each step drawn as a change (issue 16): the topology marks what the current step added, changed
// or removed; the sequence diagram keeps its lifelines readable and the current message centred.

test.use({ viewport: { width: 1280, height: 720 } });
test.setTimeout(60_000);
test.afterEach(async ({ page }) => clearSavedState(page));

function views(page: Page) {
  return page.getByRole('region', { name: 'Views' });
}

test('topology: the step that gives eth0 its address marks it, in words and in the drawing', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  await runUntilPodShown(page);
  await views(page).getByRole('tab', { name: 'Topology' }).click();
  const topo = views(page).getByRole('region', { name: 'Topology' });
  await expect(topo.locator('.topo-svg')).toBeVisible();
  // Step back to the step that added the pod's address.
  const back = page.getByRole('button', { name: 'Step back', exact: true });
  const changes = topo.getByRole('region', { name: /^Changes at step \d+$/ });
  for (let i = 0; i < 120; i++) {
    const t = (await changes.count()) ? ((await changes.textContent()) ?? '') : '';
    if (/added address 10\.244\.1\.\d+\/24 on eth0/.test(t)) break;
    await back.click();
  }
  await expect(changes).toContainText(/added address 10\.244\.1\.\d+\/24 on eth0 in web-0/);
  // The chip of eth0 in the pod's namespace is marked changed, and says so.
  const eth0 = topo.locator('.topo-podns ~ .topo-chip.is-changed', {
    has: page.locator('text.topo-chip-name', { hasText: 'eth0' }),
  });
  await expect(eth0).toHaveCount(1);
  await expect(eth0.locator('title')).toHaveText(/changed at this step/);
  await expect(topo.getByRole('group', { name: /^Pod namespace default\/web-0/ })).toHaveAttribute(
    'aria-label',
    /eth0 10\.244\.1\.\d+\/24 \(changed at this step\)/,
  );
  // Stepping animates the change, unless the user prefers less motion.
  const anim = () => eth0.locator('rect').evaluate((r) => getComputedStyle(r).animationName);
  expect(await anim()).toBe('topo-flash');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await anim()).toBe('none');
  // The next step leaves the address unmarked.
  await page.getByRole('button', { name: 'Step forward', exact: true }).click();
  await expect(topo).not.toContainText(/added address 10\.244\.1\.\d+\/24 on eth0/);
  expect(errors).toEqual([]);
});

test('sequence: at 1280 px every lifeline is readable and the current message is centred', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  await runUntilPodShown(page);
  await views(page).getByRole('tab', { name: 'Sequence' }).click();
  const diagram = views(page).getByRole('region', { name: 'Sequence diagram' });
  const scroller = diagram.locator('.seq-scroller');
  const back = page.getByRole('button', { name: 'Step back', exact: true });
  await expect(diagram.locator('.seq-host svg text.seq-text.is-current').first()).toBeVisible({
    timeout: 15_000,
  });
  for (const moves of [0, 7, 6]) {
    for (let i = 0; i < moves; i++) await back.click();
    const current = diagram.locator('.seq-host svg text.seq-text.is-current:not([data-more])');
    await expect(current).toHaveCount(1, { timeout: 15_000 });
    // Centred: the current message is in the middle third of the scroller's visible height, and
    // inside the page.
    await expect
      .poll(async () => {
        const s = (await scroller.boundingBox())!;
        const c = (await current.boundingBox())!;
        const mid = c.y + c.height / 2;
        return (
          mid >= s.y + s.height / 3 &&
          mid <= s.y + (2 * s.height) / 3 &&
          c.x >= s.x &&
          c.x + c.width <= s.x + s.width &&
          c.y + c.height <= 720
        );
      })
      .toBe(true);
    // The lifelines' headers in view show their whole names, inside their boxes and the pane;
    // those of the current message's two ends among them.
    const s = (await scroller.boundingBox())!;
    // Each header box: its name's lines (one, or the actor then its node).
    const labels = await diagram.locator('.seq-header svg g[data-lifeline]').evaluateAll((gs) =>
      gs.flatMap((g) => {
        const ts = Array.from(g.querySelectorAll('text')).filter(
          (t) => getComputedStyle(t).visibility !== 'hidden',
        );
        if (ts.length === 0) return [];
        const rs = ts.map((t) => t.getBoundingClientRect());
        const b = g.querySelector('rect')!.getBoundingClientRect();
        return [
          {
            text: (g as SVGGElement).dataset['lifeline']!,
            r: [
              Math.min(...rs.map((r) => r.left)),
              Math.max(...rs.map((r) => r.right)),
              Math.min(...rs.map((r) => r.top)),
            ],
            box: [b.left, b.right],
          },
        ];
      }),
    );
    expect(labels.length).toBeGreaterThanOrEqual(2);
    for (const l of labels) {
      expect(l.r[0], `${l.text} starts inside the pane`).toBeGreaterThanOrEqual(s.x - 0.5);
      expect(l.r[1], `${l.text} ends inside the pane`).toBeLessThanOrEqual(s.x + s.width + 0.5);
      expect(l.r[2], `${l.text} is in the pane`).toBeGreaterThanOrEqual(s.y - 0.5);
      expect(l.r[0], `${l.text} inside its box`).toBeGreaterThanOrEqual(l.box[0]! - 0.5);
      expect(l.r[1], `${l.text} inside its box`).toBeLessThanOrEqual(l.box[1]! + 0.5);
    }
    const ends = await diagram
      .locator('.seq-lifelines [data-role] button')
      .evaluateAll((bs) => bs.map((b) => b.textContent!.replace(/ \(current message.*$/, '')));
    expect(ends.length).toBeGreaterThanOrEqual(1);
    for (const e of ends) expect(labels.map((l) => l.text)).toContain(e.replace(/^‹ | ›$/g, ''));
    // Every lifeline is named, readable, in the list above the diagram.
    const all = diagram.getByRole('list', { name: 'Lifelines, left to right' }).getByRole('button');
    expect(await all.count()).toBeGreaterThanOrEqual(5);
    for (const b of await all.all()) {
      await expect(b).toBeInViewport({ ratio: 1 });
    }
  }
  // A lifeline out of view is one click away.
  const far = diagram
    .locator(
      '.seq-lifelines [data-where="left"] button, .seq-lifelines [data-where="right"] button',
    )
    .first();
  const name = (await far.textContent())!.replace(/^‹ | ›$/g, '');
  await far.click();
  await expect(
    diagram.locator(`.seq-header svg g[data-lifeline="${name}"] text`).first(),
  ).toBeInViewport();
  expect(errors).toEqual([]);
});
