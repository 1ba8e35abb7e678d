import { expect, test } from '@playwright/test';
import { clearSavedState, collectPageErrors, currentStep } from './support';

test.afterEach(async ({ page }) => clearSavedState(page));

// GitHub Pages and docs sites serve the build under a sub-path: every URL in it is relative.
test('the build works from a sub-path', async ({ page, baseURL }) => {
  const errors = collectPageErrors(page);
  const root = new URL('./', baseURL).href;
  const sub = `${root}docs/tools/cnisim/`;
  await page.route(`${sub}**`, async (route) => {
    const url = route.request().url().replace(sub, root);
    await route.fulfill({ response: await route.fetch({ url }) });
  });
  // Anything the page asks for outside the sub-path would miss the build.
  const outside: string[] = [];
  page.on('request', (r) => {
    if (r.url().startsWith(root) && !r.url().startsWith(sub)) outside.push(r.url());
  });
  await page.goto(sub);
  const forward = page.getByRole('button', { name: 'Step forward', exact: true });
  await expect(forward).toBeEnabled({ timeout: 15_000 });
  const start = await currentStep(page);
  await forward.click();
  await expect.poll(() => currentStep(page)).toBe(start + 1);
  await page.goto(`${sub}embed.html?step=3&views=steps`);
  await expect(page.locator('.position strong')).toHaveText('3');
  expect(outside).toEqual([]);
  expect(errors).toEqual([]);
});
