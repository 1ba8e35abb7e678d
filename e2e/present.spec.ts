import { expect, test } from '@playwright/test';
import { clearSavedState, currentStep, expectNoSeriousAxeViolations, openApp } from './support';

test.afterEach(async ({ page }) => clearSavedState(page));

test('presenter mode: keyboard only, large type, the step narrated; print hides the controls', async ({
  page,
}) => {
  await openApp(page);
  const before = await page.evaluate(
    'parseFloat(getComputedStyle(document.documentElement).fontSize)',
  );
  await page.keyboard.press('p');
  await expect(page.getByRole('button', { name: 'Presenter' })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
  expect(
    await page.evaluate('parseFloat(getComputedStyle(document.documentElement).fontSize)'),
  ).toBeGreaterThan(before as number);
  const narration = page.getByRole('region', { name: 'Narration' });
  const start = await currentStep(page);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => currentStep(page)).toBe(start + 1);
  await expect(narration).toContainText(`Step ${start + 1}`);
  await expect(narration.locator('mark')).toContainText('create pod default/web-0');
  await expect(page.getByRole('region', { name: 'Cluster' })).toBeHidden();
  await expectNoSeriousAxeViolations(page, 'presenter mode');

  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeHidden();
  await expect(narration).toBeVisible();
  await page.emulateMedia({ media: 'screen' });

  await page.keyboard.press('p');
  await expect(narration).toBeHidden();
  await expect(page.getByRole('region', { name: 'Cluster' })).toBeVisible();
});
