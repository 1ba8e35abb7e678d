import { expect, test, type Frame, type Page } from '@playwright/test';
import { FRAMED_BY_A_PUBLIC_SITE } from './chromium';
import {
  clearSavedState,
  clearServiceWorkers,
  collectPageErrors,
  controlledByServiceWorker,
  currentStep,
  openApp,
} from './support';

// The only tests with the service worker: the config blocks it for every other test. Each
// leaves no worker, cache or saved state behind.
test.use({
  serviceWorkers: 'allow',
  // As in embed.spec.ts: the docs site of the last test may frame the local preview server.
  launchOptions: FRAMED_BY_A_PUBLIC_SITE,
});
test.describe.configure({ timeout: 90_000 });

let cleanUp: (Page | Frame)[] = [];
test.beforeEach(({ page }) => {
  cleanUp = [page];
});
test.afterEach(async ({ context, page }) => {
  await context.setOffline(false);
  for (const t of cleanUp) await clearServiceWorkers(t);
  await clearSavedState(page);
});

test('after a first visit the app works offline: reload and step', async ({ page, context }) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  // The worker has cached every file of the build and controls the page.
  await expect.poll(() => controlledByServiceWorker(page), { timeout: 60_000 }).toBe(true);

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

test('after a first visit an embedded lesson works offline: reload and step', async ({
  page,
  context,
}) => {
  const errors = collectPageErrors(page);
  await page.goto('./embed.html?scenario=lesson:add-step-by-step&views=steps,topology');
  await expect(page.getByRole('heading', { name: 'Lesson: ADD, step by step' })).toBeVisible({
    timeout: 15_000,
  });
  await expect.poll(() => controlledByServiceWorker(page), { timeout: 60_000 }).toBe(true);

  await context.setOffline(true);
  await page.reload();
  // The lesson's data, the engine and the lazy views all come from the cache.
  await expect(page.getByRole('heading', { name: 'Lesson: ADD, step by step' })).toBeVisible({
    timeout: 15_000,
  });
  await expect(page.getByRole('heading', { name: 'Topology' })).toBeVisible();
  // The lesson's start is where the learner acts: the solution's replay goes on from there.
  await page.getByRole('button', { name: 'Replay the solution' }).click();
  await expect(page.getByText('replaying the solution')).toBeVisible();
  const forward = page.getByRole('button', { name: 'Step forward' });
  await expect(forward).toBeEnabled();
  const before = await currentStep(page);
  await forward.click();
  await expect.poll(() => currentStep(page)).toBe(before + 1);
  await context.setOffline(false);
  expect(errors).toEqual([]);
});

test.describe('an embed in a documentation page', () => {
  test('works offline after the first visit: reload the page and step', async ({
    page,
    context,
    baseURL,
  }) => {
    // https: a frame is a secure context (service workers) only if its page is one too.
    const DOCS = 'https://docs.test';
    const app = new URL('./', baseURL).href;
    const errors = collectPageErrors(page);
    // The workshop's page (its own site keeps serving it: only the simulator's origin is cut).
    await page.route(`${DOCS}/**`, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'text/html',
        body: `<!doctype html><html lang="en"><head><title>Workshop</title></head><body><main>
<h1>Workshop</h1><iframe id="frame" title="cnisim" style="width:100%;height:600px;border:0"
  src="${app}embed.html?views=steps&amp;origin=${encodeURIComponent(DOCS)}"></iframe></main></body></html>`,
      }),
    );
    await page.goto(`${DOCS}/workshop.html`);
    const frame = page.frameLocator('#frame');
    await expect(frame.getByRole('button', { name: 'Step forward' })).toBeEnabled({
      timeout: 15_000,
    });
    const embed = () => page.frames().find((f) => f.url().startsWith(app))!;
    cleanUp.push(embed());
    await expect.poll(() => controlledByServiceWorker(embed()), { timeout: 60_000 }).toBe(true);

    await context.setOffline(true);
    await page.reload();
    await expect(frame.getByRole('button', { name: 'Step forward' })).toBeEnabled({
      timeout: 15_000,
    });
    cleanUp.push(embed());
    const step = frame.locator('.position strong');
    const before = Number(await step.textContent());
    await frame.getByRole('button', { name: 'Step forward' }).click();
    await expect(step).toHaveText(String(before + 1));
    await context.setOffline(false);
    expect(errors).toEqual([]);
  });
});
