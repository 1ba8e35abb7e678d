import { expect, test } from '@playwright/test';
import {
  clearSavedState,
  collectPageErrors,
  currentStep,
  expectNoSeriousAxeViolations,
  openApp,
} from './support';

test.afterEach(async ({ page }) => clearSavedState(page));

test('the landing is a booted sandbox with one pod about to be created', async ({ page }) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  await expect(page).toHaveTitle('cnisim — CNI simulator');
  await expect(page.getByRole('heading', { level: 1, name: 'cnisim' })).toBeVisible();
  await expect(page.getByText('Press → to step')).toBeVisible();
  for (const name of ['Step back', 'Play', 'Reset']) {
    await expect(page.getByRole('button', { name, exact: true })).toBeVisible();
  }
  // Booted: both nodes Ready, no pod yet.
  const cluster = page.getByRole('region', { name: 'Cluster' });
  await expect(cluster.getByText('node-1: Ready=True')).toBeVisible();
  await expect(cluster.getByText('node-2: Ready=True')).toBeVisible();
  await expect(cluster.getByText('No pods at this step.')).toBeVisible();
  const start = await currentStep(page);

  // → creates the pod.
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => currentStep(page)).toBe(start + 1);
  await expect(page.getByRole('region', { name: 'Inspector' })).toContainText(
    'create pod default/web-0 (node node-1)',
  );
  await expect(cluster.getByRole('button', { name: 'web-0' })).toBeVisible();
  await expect(page.getByText('Press → to step')).toBeHidden();

  // "?" opens the shortcuts; Escape closes them.
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  expect(errors).toEqual([]);
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the landing has no serious or critical axe violations (${colorScheme})`, async ({
    page,
  }) => {
    await page.emulateMedia({ colorScheme });
    await openApp(page);
    await expectNoSeriousAxeViolations(page, `landing (${colorScheme})`);
  });
}
