import { expect, test } from '@playwright/test';
import {
  clearSavedState,
  collectPageErrors,
  currentStep,
  expectNoSeriousAxeViolations,
  openApp,
  openLanding,
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

// One page for both schemes: the theme follows prefers-color-scheme in CSS alone, at once.
test('the landing has no serious or critical axe violations (light, then dark)', async ({
  page,
}) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openApp(page);
  for (const colorScheme of ['light', 'dark'] as const) {
    await test.step(colorScheme, async () => {
      await page.emulateMedia({ colorScheme });
      await expectNoSeriousAxeViolations(page, `landing (${colorScheme})`);
    });
  }
});

test('the first screen is in index.html: painted before any script has run', async ({ page }) => {
  // No script at all: what shows is the HTML the build rendered (src/prerender.tsx).
  await page.route('**/*.js', (route) => route.abort());
  await page.goto('./');
  await expect(page.getByRole('heading', { level: 1, name: 'cnisim' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeDisabled();
  await expect(page.getByText('Loading the simulation…').first()).toBeVisible();
  // The views show the landing's state and steps (its precomputed trace), not placeholders.
  const cluster = page.getByRole('region', { name: 'Cluster' });
  await expect(cluster.getByText('node-2: Ready=True')).toBeVisible();
  await expect(cluster.getByText('No pods at this step.')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Steps' })).toContainText('kubelet started');
  await expect(page.getByRole('region', { name: 'Inspector' })).toContainText(
    'node node-2 Ready=True',
  );
});

test('the landing steps on its own engine before the whole engine arrives, and keeps its steps', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  // Hold the whole engine's chunk (src/engine/app.ts) until the landing has stepped.
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route(/\/assets\/app-[^/]*\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await openLanding(page);
  const start = await currentStep(page);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => currentStep(page)).toBe(start + 2);
  // The panels read the whole engine; meanwhile the landing's views are drawn from its
  // precomputed trace (src/ui/landing-trace.ts), which the engine's session matches.
  const inspector = page.getByRole('region', { name: 'Inspector' });
  await expect(inspector).toContainText('Successfully assigned default/web-0 to node-1');
  await expect(inspector).not.toContainText('Loading the simulation…');
  release();
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByName('cnisim:ready').length))
    .toBe(1);
  await expect(inspector).toContainText('Successfully assigned default/web-0 to node-1');
  expect(await currentStep(page)).toBe(start + 2);
  const cluster = page.getByRole('region', { name: 'Cluster' });
  await expect(cluster.getByRole('button', { name: 'web-0' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('past its first steps, the landing waits for the whole engine, then runs on to the same pod', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  // The landing's engine has no iptables model: the bridge plugin's masquerade rule needs the
  // whole engine (src/engine/landing.ts, LANDING_EVENTS). Hold back every chunk with that model
  // in it (the whole engine's, or the fault catalogue's the panels fetch), and run past it.
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route('**/assets/*.js', async (route) => {
    const response = await route.fetch();
    const body = await response.text();
    if (body.includes('Chain already exists')) await released;
    await route.fulfill({ response, body });
  });
  await openLanding(page);
  const group = page.getByRole('group', { name: 'Run until' });
  await group.getByRole('combobox').selectOption({ label: 'a pod is Running' });
  await group.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Loading the rest of the engine' }),
  ).toBeVisible();
  release();
  const cluster = page.getByRole('region', { name: 'Cluster' });
  await expect(cluster).toContainText('10.244.1.2', { timeout: 30_000 });
  await expect(cluster).toContainText('Running');
  expect(errors).toEqual([]);
});
