import { expect, test } from '@playwright/test';
import { clearSavedState, openLanding, runUntil } from './support';

// Notices do not pile up for ever: an info notice goes by itself (not while the pointer is on
// it), the same message again replaces the one shown, and at most three show.

test.afterEach(async ({ page }) => clearSavedState(page));

test('an info notice expires; hovering holds it; a repeated one shows once', async ({ page }) => {
  await page.clock.install();
  // The installed clock holds the whole engine's load, on which openApp would wait: this test
  // needs only "Step forward" enabled.
  await openLanding(page);
  const notices = page.getByRole('list', { name: 'Notices' });
  await runUntil(page, 'next error');
  const said = notices.getByRole('status').filter({ hasText: 'Nothing is left to happen' });
  await expect(said).toHaveCount(1);
  // Held while the pointer is on it.
  await said.hover();
  await page.clock.runFor(12_000);
  await expect(said).toHaveCount(1);
  await page.mouse.move(5, 5);
  await page.clock.runFor(9_000);
  await expect(notices).toHaveCount(0);

  // Run pressed five times at the end: the same notice five times, shown once.
  for (let i = 0; i < 5; i++) await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled();
  await expect(notices.getByRole('status')).toHaveCount(1);
  await expect(said).toHaveCount(1);

  // Dismissed from the keyboard, the notice hands the focus back to where it came from (Run),
  // not to the page.
  const run = page.getByRole('button', { name: 'Run', exact: true });
  await run.focus();
  await notices.getByRole('button', { name: 'Dismiss notice' }).focus();
  await page.keyboard.press('Enter');
  await expect(notices).toHaveCount(0);
  await expect(run).toBeFocused();

  // And once more, left to expire.
  await run.click();
  await expect(said).toHaveCount(1);
  await page.mouse.move(5, 5);
  await page.clock.runFor(9_000);
  await expect
    .poll(async () => {
      await page.clock.runFor(1_000);
      return notices.count();
    })
    .toBe(0);
});
