import { expect, test } from '@playwright/test';
import { clearSavedState, collectPageErrors, currentStep, openApp } from './support';

// The one test with the service worker: the config blocks it for every other test.
test.use({ serviceWorkers: 'allow' });
test.describe.configure({ timeout: 90_000 });

test.afterEach(async ({ page }) => clearSavedState(page));

test('after a first visit the app works offline: reload and step', async ({ page, context }) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  // The worker has cached every file of the build and controls the page.
  await expect
    .poll(
      () =>
        page.evaluate(
          'navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller !== null)',
        ),
      { timeout: 60_000 },
    )
    .toBe(true);

  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
    timeout: 15_000,
  });
  const before = await currentStep(page);
  await page.getByRole('button', { name: 'Step forward', exact: true }).click();
  await expect.poll(() => currentStep(page)).toBe(before + 1);
  // A lazy view's chunk comes from the cache too.
  await page.getByRole('tab', { name: 'Topology' }).click();
  await expect(page.getByRole('region', { name: 'Topology' })).toBeVisible();
  await context.setOffline(false);
  expect(errors).toEqual([]);
});
