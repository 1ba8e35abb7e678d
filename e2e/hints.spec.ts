import { expect, test, type Page } from '@playwright/test';
import { clearSavedState } from './support';

// The last hint disables "Show a hint": the keyboard focus must not fall back to the page (it
// goes to the hint just shown, and Tab goes on from there).

test.afterEach(async ({ page }) => clearSavedState(page));
test.setTimeout(60_000);

async function hintsToTheEnd(page: Page): Promise<void> {
  const show = page.getByRole('button', { name: 'Show a hint' });
  await show.focus();
  for (let i = 0; i < 30 && (await show.count()) > 0; i++) {
    await page.keyboard.press('Enter');
    await page.waitForTimeout(50);
  }
  await expect(page.getByRole('button', { name: 'No more hints' })).toBeDisabled();
}

const focused = (page: Page) =>
  page.evaluate(() => {
    const e = document.activeElement;
    return { tag: e?.tagName ?? '', id: e?.id ?? '', text: e?.textContent ?? '' };
  });

test('a lesson: after the last hint the focus is on that hint', async ({ page }) => {
  await page.goto('./#/lesson/add-step-by-step');
  await expect(page.getByRole('region', { name: 'ADD, step by step' })).toBeVisible({
    timeout: 20_000,
  });
  await hintsToTheEnd(page);
  const f = await focused(page);
  expect(f.tag).not.toBe('BODY');
  expect(f.id).toMatch(/^lesson-hint-/);
  expect(f.text).toMatch(/^Step: /);
  await page.keyboard.press('Tab');
  expect((await focused(page)).tag).not.toBe('BODY');
});

test('a challenge: after the last hint the focus is on that hint', async ({ page }) => {
  await page.goto('./#/challenge/node-notready?seed=1');
  await expect(page.getByRole('button', { name: 'Show a hint' })).toBeVisible({
    timeout: 20_000,
  });
  await hintsToTheEnd(page);
  const f = await focused(page);
  expect(f.tag).toBe('LI');
  expect(f.id).toMatch(/^challenge-hint-\d+$/);
  await expect(page.locator(`#${f.id}`)).toBeFocused();
});
