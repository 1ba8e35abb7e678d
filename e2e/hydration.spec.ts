/**
 * index.html's first screen (src/prerender.tsx) is hydrated, not replaced: on the landing, React
 * takes over the nodes the browser has already laid out and painted (main.tsx), so the first
 * paint never waits for React to make a second copy of the page. Elsewhere (a saved sandbox, a
 * link, a course route) the page is rendered anew, as before, without a hydration error.
 */
import { expect, test, type Page } from '@playwright/test';
import { clearSavedState, collectPageErrors, currentStep, openApp, openLanding } from './support';

test.afterEach(async ({ page }) => clearSavedState(page));

/**
 * Marks index.html's prerendered nodes once it is parsed, before any module script runs
 * (readyState "interactive" comes first): the heading, "Step forward", the panes' <main> and the
 * Inspector's pane. (The views inside the panes are drawn anew when the engine's session takes
 * over from the precomputed trace, hydrated or not.)
 */
async function markPrerendered(page: Page): Promise<void> {
  await page.addInitScript(() => {
    document.addEventListener('readystatechange', () => {
      if (document.readyState !== 'interactive') return;
      const forward = Array.from(document.querySelectorAll('button')).find((b) =>
        (b.textContent ?? '').includes('Step forward'),
      );
      const marked = [
        document.querySelector('h1'),
        forward,
        document.querySelector('main.workbench'),
        document.querySelector('.pane-inspector'),
      ];
      (window as unknown as { __prerendered: (Element | null | undefined)[] }).__prerendered =
        marked;
    });
  });
}

/** How many of the marked nodes are still in the page (null: nothing was prerendered). */
function keptNodes(page: Page): Promise<number | null> {
  return page.evaluate(() => {
    const marked = (window as unknown as { __prerendered?: (Element | null | undefined)[] })
      .__prerendered;
    if (!marked) return null;
    return marked.filter((n) => n && n.isConnected).length;
  });
}

const mismatches = (page: Page) =>
  page.evaluate(() => performance.getEntriesByName('cnisim:hydration-mismatch').length);

/** Waits for the panes' later hydration (App.tsx, HydratesLater) and the whole engine. */
async function settled(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByName('cnisim:ready').length))
    .toBe(1);
}

test('the landing hydrates the prerendered first screen: its nodes are kept, and it steps', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await markPrerendered(page);
  await openLanding(page);
  // All four marked nodes, "Step forward" among them (now enabled), are the prerendered ones.
  expect(await keptNodes(page)).toBe(4);
  const start = await currentStep(page);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => currentStep(page)).toBe(start + 1);
  await settled(page);
  expect(await keptNodes(page)).toBe(4);
  await expect(page.getByRole('region', { name: 'Inspector' })).toContainText(
    'create pod default/web-0 (node node-1)',
  );
  // The panes hydrated after the controls still work: a tab of the Cluster pane.
  await page.getByRole('tab', { name: 'Journal' }).click();
  await expect(page.getByRole('tab', { name: 'Journal' })).toHaveAttribute('aria-selected', 'true');
  expect(await mismatches(page)).toBe(0);
  expect(errors).toEqual([]);
});

test('a step taken before the panes are hydrated shows in them', async ({ page }) => {
  const errors = collectPageErrors(page);
  await markPrerendered(page);
  // The controls go live in the task that hydrates them; the panes follow in later tasks.
  await page.goto('./');
  const forward = page.getByRole('button', { name: 'Step forward', exact: true });
  await expect(forward).toBeEnabled({ timeout: 15_000 });
  const start = await currentStep(page);
  await forward.click();
  await forward.click();
  await expect.poll(() => currentStep(page)).toBe(start + 2);
  await expect(page.getByRole('region', { name: 'Inspector' })).toContainText(
    'Successfully assigned default/web-0 to node-1',
  );
  await settled(page);
  expect(await keptNodes(page)).toBe(4);
  expect(await mismatches(page)).toBe(0);
  expect(errors).toEqual([]);
});

test('a chosen dark theme hydrates too, then shows', async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.addInitScript(() => localStorage.setItem('cnisim.theme', 'dark'));
  await markPrerendered(page);
  await openLanding(page);
  expect(await keptNodes(page)).toBe(4);
  await expect(page.getByRole('combobox', { name: 'Theme' })).toHaveValue('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await settled(page);
  expect(await mismatches(page)).toBe(0);
  expect(errors).toEqual([]);
});

test('presenter mode on the hydrated landing', async ({ page }) => {
  const errors = collectPageErrors(page);
  await markPrerendered(page);
  await openApp(page);
  await page.keyboard.press('p');
  await expect(page.locator('html')).toHaveClass(/presenter/);
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('button', { name: 'Presenter' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  expect(await keptNodes(page)).toBe(4);
  expect(await mismatches(page)).toBe(0);
  expect(errors).toEqual([]);
});

test('a saved sandbox, a share link and a lesson render anew without a hydration error', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  // A saved sandbox: stepped, saved on the way out, reopened.
  await openApp(page);
  const start = await currentStep(page);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => currentStep(page)).toBe(start + 1);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
    timeout: 15_000,
  });
  await expect.poll(() => currentStep(page)).toBe(start + 1);
  expect(await mismatches(page)).toBe(0);

  // Its share link, in a fresh page (nothing saved there).
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const link = await page
    .getByRole('dialog', { name: 'Share' })
    .getByRole('textbox', { name: 'Link' })
    .inputValue();
  await page.evaluate('localStorage.clear()');
  await page.goto('about:blank');
  await page.goto(link);
  await expect.poll(() => currentStep(page)).toBe(start + 1);
  expect(await mismatches(page)).toBe(0);

  // A lesson.
  await page.goto('about:blank');
  await page.goto('./#/lesson/add-step-by-step');
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
    timeout: 15_000,
  });
  expect(await mismatches(page)).toBe(0);
  expect(errors).toEqual([]);
});

test('the prerendered screen clips its panes until React has it; then they scroll', async ({
  browser,
  page,
}, testInfo) => {
  // Without scripts, the page is the prerendered screen: drawn as one layer (app.css), its
  // panes clipped.
  const still = await browser.newContext({
    javaScriptEnabled: false,
    baseURL: testInfo.project.use.baseURL,
  });
  const plain = await still.newPage();
  await plain.goto('./');
  await expect(plain.locator('#root')).toHaveClass('static-screen');
  await expect(plain.locator('.pane-views .tabpanel')).toHaveCSS('overflow-y', 'hidden');
  await expect(plain.locator('.pane-inspector')).toHaveCSS('overflow-y', 'hidden');
  await expect(plain.locator('.pane').first()).toHaveCSS('will-change', 'auto');
  await still.close();
  // Live: the class is gone, the steps scroll, and each pane is a layer again.
  await openLanding(page);
  await expect(page.locator('#root')).not.toHaveClass(/static-screen/);
  const steps = page.locator('.pane-views .tabpanel');
  await expect(steps).toHaveCSS('overflow-y', 'auto');
  await expect(page.locator('.pane-inspector')).toHaveCSS('overflow-y', 'auto');
  await expect(page.locator('.pane').first()).toHaveCSS('will-change', 'transform');
  await steps.hover();
  await page.mouse.wheel(0, 400);
  await expect.poll(() => steps.evaluate((e) => e.scrollTop)).toBeGreaterThan(0);
});
