import { expect, test, type Page } from '@playwright/test';
import { clearSavedState, collectPageErrors, openApp } from './support';

// Each step drawn as a change (issue 16): the topology marks what the current step added, changed
// or removed; the sequence diagram keeps its lifelines readable and the current message centred.

test.use({ viewport: { width: 1280, height: 720 } });
test.setTimeout(60_000);
test.afterEach(async ({ page }) => clearSavedState(page));

async function runUntilRunning(page: Page): Promise<void> {
  const group = page.getByRole('group', { name: 'Run until' });
  await group.getByRole('combobox').selectOption({ label: 'a pod is Running' });
  await group.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Cluster' })).toContainText('10.244.1.', {
    timeout: 15_000,
  });
}

function views(page: Page) {
  return page.getByRole('region', { name: 'Views' });
}

test('topology: the step that gives eth0 its address marks it, in words and in the drawing', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  await runUntilRunning(page);
  await views(page).getByRole('tab', { name: 'Topology' }).click();
  const topo = views(page).getByRole('region', { name: 'Topology' });
  await expect(topo.locator('.topo-svg')).toBeVisible();
  // Step back to the step that added the pod's address.
  const back = page.getByRole('button', { name: 'Step back', exact: true });
  const changes = topo.getByRole('region', { name: /^Changes at step \d+$/ });
  for (let i = 0; i < 120; i++) {
    const t = (await changes.count()) ? ((await changes.textContent()) ?? '') : '';
    if (/added address 10\.244\.1\.\d+\/24 on eth0/.test(t)) break;
    await back.click();
  }
  await expect(changes).toContainText(/added address 10\.244\.1\.\d+\/24 on eth0 in web-0/);
  // The chip of eth0 in the pod's namespace is marked changed, and says so.
  const eth0 = topo.locator('.topo-podns ~ .topo-chip.is-changed', {
    has: page.locator('text.topo-chip-name', { hasText: 'eth0' }),
  });
  await expect(eth0).toHaveCount(1);
  await expect(eth0.locator('title')).toHaveText(/changed at this step/);
  await expect(topo.getByRole('group', { name: /^Pod namespace default\/web-0/ })).toHaveAttribute(
    'aria-label',
    /eth0 10\.244\.1\.\d+\/24 \(changed at this step\)/,
  );
  // Stepping animates the change, unless the user prefers less motion.
  const anim = () => eth0.locator('rect').evaluate((r) => getComputedStyle(r).animationName);
  expect(await anim()).toBe('topo-flash');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await anim()).toBe('none');
  // The next step leaves the address unmarked.
  await page.getByRole('button', { name: 'Step forward', exact: true }).click();
  await expect(topo).not.toContainText(/added address 10\.244\.1\.\d+\/24 on eth0/);
  expect(errors).toEqual([]);
});
