import { expect, test, type Page } from '@playwright/test';
import {
  axeOn,
  clearSavedState,
  collectPageErrors,
  currentStep,
  openApp,
  runUntilPodShown,
} from './support';

test.afterEach(async ({ page }) => clearSavedState(page));

/** Runs the landing sandbox until its pod is Running (ADD done, IP assigned). */
function views(page: Page) {
  return page.getByRole('region', { name: 'Views' });
}

/** Axe on the Views pane only (the other panes have tests of their own). */
async function expectNoSeriousViolationsInViews(page: Page, what: string): Promise<void> {
  const results = await axeOn(page).include('section.pane-views').analyze();
  const blocking = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${what}: ${v.impact}: ${v.id} — ${v.help} (${v.nodes.map((n) => n.target).join(', ')})`,
    );
  expect(blocking).toEqual([]);
}

test('sequence: the plugins exchange messages, and clicking one selects its step', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  await runUntilPodShown(page);
  await page.getByRole('tab', { name: 'Sequence' }).click();
  const diagram = views(page).getByRole('region', { name: 'Sequence diagram' });
  // The current step's message is highlighted: one button, in bold.
  const current = diagram.locator('text.seq-text.is-current[role=button]');
  await expect(current).toHaveCount(1, { timeout: 15_000 });
  await expect(current).toHaveAttribute('font-weight', '700');
  // At the CNI detail level the window around the pod's Running holds the plugin calls.
  await page.keyboard.press('3');
  const start = await currentStep(page);
  const bridge = diagram.getByRole('button', { name: /^Step \d+: exec \/opt\/cni\/bin\/bridge/ });
  await expect(bridge.first()).toBeVisible({ timeout: 15_000 });
  const name = (await bridge.first().getAttribute('aria-label'))!;
  const step = Number(/^Step (\d+)/.exec(name)![1]);
  await bridge.first().click();
  await expect.poll(() => currentStep(page)).toBe(step);
  expect(step).toBeLessThan(start);
  await expect(current).toHaveAttribute('aria-label', name);
  // Keyboard: a message is a button.
  await bridge.first().focus();
  await page.keyboard.press('Enter');
  await expect.poll(() => currentStep(page)).toBe(step);
  expect(errors).toEqual([]);
});

test('topology: the pod gets its address on eth0, and loses it when stepping back', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  await runUntilPodShown(page);
  await page.getByRole('tab', { name: 'Topology' }).click();
  const topo = views(page).getByRole('region', { name: 'Topology' });
  const pod = topo.getByRole('group', { name: /^Pod namespace default\/web-0/ });
  await expect(pod).toHaveAttribute('aria-label', /eth0 10\.244\.1\.\d+\/24/);
  await expect(topo.locator('text.topo-chip-name', { hasText: 'cni0' })).toBeVisible();
  // Routes on focus.
  await pod.focus();
  await expect(topo).toContainText('default via 10.244.1.1 dev eth0');
  // Step back until the address is gone.
  for (let i = 0; i < 80; i++) {
    const label = (await pod.getAttribute('aria-label')) ?? '';
    if (!/10\.244\.1\.\d+/.test(label)) break;
    await page.keyboard.press('ArrowLeft');
  }
  await expect(pod).not.toHaveAttribute('aria-label', /10\.244\.1\.\d+/);
  await topo.getByRole('button', { name: 'Zoom in' }).click();
  await topo.getByRole('button', { name: 'Fit' }).click();
  expect(errors).toEqual([]);
});

// One page for both: the Machines view only reads, then Metrics moves the step.
test('machines and metrics views, at the pod Running', async ({ page }) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  await runUntilPodShown(page);

  await test.step('machines: the pod worker and the sandbox are lit in their states', async () => {
    await page.getByRole('tab', { name: 'Machines' }).click();
    const m = views(page).getByRole('region', { name: 'State machines' });
    await expect(
      m.getByRole('img', { name: /^kubelet pod worker states: .*running \(1 pods\)/ }),
    ).toBeVisible();
    await expect(
      m.getByRole('img', { name: /^containerd sandbox states: .*ready \(1 sandboxes\)/ }),
    ).toBeVisible();
    await expect(m.getByRole('img', { name: /^kernel link states: / })).toBeVisible();
  });

  await test.step('metrics: IPAM use follows the pod, and change points are one click away', async () => {
    await page.getByRole('tab', { name: 'Metrics' }).click();
    const m = views(page).getByRole('region', { name: 'Metrics' });
    await expect(
      m.getByRole('img', {
        name: /^node-1 metrics .*pods 1, IPAM used 1 of 253, orphan veths 0, leaked IPs 0$/,
      }),
    ).toBeVisible();
    const at = await currentStep(page);
    await m.getByRole('button', { name: 'Previous change' }).click();
    await expect.poll(() => currentStep(page)).toBeLessThan(at);
  });
  expect(errors).toEqual([]);
});

// One page for both schemes: the theme follows prefers-color-scheme in CSS alone, at once.
test('the drawn views have no serious or critical axe violations (light, then dark)', async ({
  page,
}) => {
  test.setTimeout(150_000); // eight axe scans: slow on a busy 2-core machine
  await page.emulateMedia({ colorScheme: 'light' });
  await openApp(page);
  await runUntilPodShown(page);
  for (const colorScheme of ['light', 'dark'] as const) {
    await test.step(colorScheme, async () => {
      await page.emulateMedia({ colorScheme });
      for (const tab of ['Sequence', 'Topology', 'Machines', 'Metrics']) {
        await page.getByRole('tab', { name: tab }).click();
        if (tab === 'Sequence')
          await expect(views(page).locator('.seq-host svg')).toBeVisible({ timeout: 15_000 });
        else await expect(views(page).locator('svg').first()).toBeVisible();
        await expectNoSeriousViolationsInViews(page, `${tab} (${colorScheme})`);
      }
    });
  }
});
