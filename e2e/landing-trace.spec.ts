import { expect, test, type Page } from '@playwright/test';
import { clearSavedState, collectPageErrors, currentStep } from './support';

test.afterEach(async ({ page }) => clearSavedState(page));

/**
 * Holds the engine's chunks (the landing's, src/engine/landing.ts, and the whole engine's,
 * src/engine/app.ts) until `release` is called: until then, the page has only the landing's
 * precomputed trace (src/ui/landing-trace.ts).
 */
async function holdEngine(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route(/\/assets\/(landing|app)-[^/]*\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

const engineReady = (page: Page) =>
  expect
    .poll(() => page.evaluate(() => performance.getEntriesByName('cnisim:ready').length), {
      timeout: 15_000,
    })
    .toBe(1);

test('the landing steps through its precomputed trace before the engine, and the engine takes over at the same step', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  const release = await holdEngine(page);
  await page.goto('./');
  const forward = page.getByRole('button', { name: 'Step forward', exact: true });
  await expect(forward).toBeEnabled();
  const inspector = page.getByRole('region', { name: 'Inspector' });
  const cluster = page.getByRole('region', { name: 'Cluster' });
  // The landing's state, not placeholders: both nodes booted, no pod yet.
  await expect(cluster.getByText('node-1: Ready=True')).toBeVisible();
  await expect(cluster.getByText('No pods at this step.')).toBeVisible();
  await expect(page.getByText('Loading the simulation…')).toHaveCount(0);
  const start = await currentStep(page);

  // → creates the pod, from the precomputed trace: the engine has not arrived.
  await forward.click();
  await expect.poll(() => currentStep(page)).toBe(start + 1);
  await expect(inspector).toContainText('create pod default/web-0 (node node-1)');
  await expect(cluster.getByRole('button', { name: 'web-0' })).toBeVisible();
  // Describe the pod (precomputed too).
  await cluster.getByRole('button', { name: 'web-0' }).click();
  await expect(cluster.getByText('kubectl describe pod web-0')).toBeVisible();
  await expect(cluster).toContainText('PodScheduled=True, Initialized=True, Ready=False');
  // Far enough that a list drawn anew would start on another row.
  for (let i = 0; i < 29; i++) await page.keyboard.press('ArrowRight');
  await expect.poll(() => currentStep(page)).toBe(start + 30);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => currentStep(page)).toBe(start + 29);
  await expect(inspector).toContainText('mkdir -p /var/lib/cni/networks/containerd-net');
  const reached = await currentStep(page);
  const shown = await inspector.textContent();
  const steps = page.getByRole('list', { name: 'Steps' });
  const rows = await steps.getByRole('listitem').allTextContents();
  expect(
    await page.evaluate(() => performance.getEntriesByName('cnisim:landing-ready').length),
  ).toBe(0);

  // The engine arrives: its session takes over at the same step, level and trace.
  release();
  await engineReady(page);
  expect(await currentStep(page)).toBe(reached);
  await expect(inspector).toHaveText(shown!);
  expect(await steps.getByRole('listitem').allTextContents()).toEqual(rows);
  // One step on at the CNI level, then one more past the precomputed trace, computed by the
  // engine: no step lost or taken twice.
  await page.getByRole('radio', { name: 'CNI' }).check();
  await forward.click();
  await expect(inspector).toContainText('host-local exited 0');
  await forward.click();
  await expect(inspector).toContainText('bridge exited 0');
  expect(errors).toEqual([]);
});

test('a step past the precomputed trace waits for the engine, then is taken once', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  const release = await holdEngine(page);
  await page.goto('./');
  const forward = page.getByRole('button', { name: 'Step forward', exact: true });
  await expect(forward).toBeEnabled();
  // At the Cluster level, the precomputed trace's last step comes soon: the pod's sandbox.
  await page.getByRole('radio', { name: 'Cluster' }).check();
  while (await forward.isEnabled()) await forward.click();
  await expect(page.getByRole('status')).toContainText('Loading the simulation');
  const waiting = await currentStep(page);
  await page.keyboard.press('End'); // ignored while the step waits
  release();
  await engineReady(page);
  await expect.poll(() => currentStep(page), { timeout: 15_000 }).toBeGreaterThan(waiting);
  const after = await currentStep(page);
  await expect(page.getByRole('status')).toHaveCount(0);
  // Exactly one step at the Cluster level: the next cluster event after the precomputed ones.
  const steps = page.getByRole('list', { name: 'Steps' });
  await expect(steps.locator('li.current')).toHaveAttribute('data-step', String(after - 1));
  // The step taken is the first cluster-level event after the one waited at.
  const rows = await steps
    .locator('li[data-step]')
    .evaluateAll((ls) => ls.map((l) => Number((l as HTMLElement).dataset['step'])));
  expect(rows.filter((i) => i >= waiting - 1)).toEqual([waiting - 1, after - 1]);
  expect(errors).toEqual([]);
});

test('the embed steps through the precomputed trace before the engine, and keeps the step', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  const release = await holdEngine(page);
  await page.goto('./embed.html?views=steps,inspector');
  const forward = page.getByRole('button', { name: 'Step forward', exact: true });
  await expect(forward).toBeEnabled();
  const start = await currentStep(page);
  await forward.click();
  await forward.click();
  await expect.poll(() => currentStep(page)).toBe(start + 2);
  await expect(page.locator('.embed-view-inspector')).toContainText(
    'Successfully assigned default/web-0 to node-1',
  );
  release();
  await expect(page.locator('.embed-view-steps li.current')).toHaveAttribute(
    'data-step',
    String(start + 1),
  );
  // The engine's session took over (Play needs it), at the same step.
  await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeEnabled({
    timeout: 15_000,
  });
  expect(await currentStep(page)).toBe(start + 2);
  await forward.click();
  await expect.poll(() => currentStep(page)).toBe(start + 3);
  await expect(page.locator('.embed-view-inspector')).toContainText(
    'pod worker for default/web-0 started',
  );
  expect(errors).toEqual([]);
});
