import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { runSinglePodAdd } from '../src/engine/index';

// The engine is pure TypeScript: run it here too and check the page shows exactly its result.
const expected = runSinglePodAdd();

// One pod's ADD is dozens of steps: plugin executions, kernel changes, file writes.
const MIN_STEPS = 20;

/** Fails the test on uncaught page errors and console errors. */
function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console.error: ${msg.text()}`);
  });
  return errors;
}

test('first page runs ADD for one pod and shows its steps and IP', async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto('./');

  await expect(page).toHaveTitle('cnisim — CNI simulator');
  await expect(page.getByRole('heading', { level: 1, name: 'cnisim' })).toBeVisible();

  const demo = page.getByRole('region', { name: 'ADD for one pod' });
  await expect(demo).toBeVisible();
  await expect(demo.getByRole('alert')).toHaveCount(0);

  const podIp = demo.getByRole('status', { name: 'Pod IP' });
  await expect(podIp).toHaveText('10.88.0.2');
  await expect(demo.getByLabel('Pod IP')).toHaveText('10.88.0.2');

  expect(expected.error).toBeNull();
  expect(expected.podIp).toBe('10.88.0.2');
  expect(expected.steps.length).toBeGreaterThanOrEqual(MIN_STEPS);

  const steps = demo.getByRole('list', { name: /^Steps/ }).getByRole('listitem');
  await expect(steps).toHaveCount(expected.steps.length);
  const texts = await steps.allTextContents();
  expected.steps.forEach((step, i) => {
    const text = texts[i] ?? '';
    for (const part of [String(step.index), step.source, step.target, step.summary]) {
      expect(text, `step ${i + 1} should show ${JSON.stringify(part)}`).toContain(part);
    }
  });

  expect(errors).toEqual([]);
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`first page has no serious or critical axe violations (${colorScheme})`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme });
    await page.goto('./');
    await expect(page.getByRole('status', { name: 'Pod IP' })).toHaveText('10.88.0.2');

    const results = await new AxeBuilder({ page }).analyze();
    const blocking = results.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.impact}: ${v.id} — ${v.help} (${v.nodes.map((n) => n.target).join(', ')})`);
    expect(blocking).toEqual([]);
  });
}
