import { expect, test, type Page } from '@playwright/test';
import { clearSavedState, openApp } from './support';

// Every control has a name of its own: a screen reader's list of form fields, or a test, can
// tell them apart (three selects in Actions were all "Node").

test.afterEach(async ({ page }) => clearSavedState(page));
test.setTimeout(60_000);

const ROLES = 'combobox|textbox|spinbutton|checkbox|radio|slider|button|switch|searchbox';

/** Controls (role and name) that share their name with another control of the page. */
async function sharedNames(page: Page): Promise<string[]> {
  const snap = await page.locator('body').ariaSnapshot();
  const count = new Map<string, number>();
  for (const m of snap.matchAll(new RegExp(`- (${ROLES}) "((?:[^"\\\\]|\\\\.)*)"`, 'g'))) {
    const key = `${m[1]} "${m[2]}"`;
    count.set(key, (count.get(key) ?? 0) + 1);
  }
  return [...count].filter(([, n]) => n > 1).map(([k, n]) => `${k} ×${n}`);
}

test('no two controls share an accessible name, in any tab', async ({ page }) => {
  await openApp(page);
  await page
    .getByRole('group', { name: 'Run until' })
    .getByRole('combobox')
    .selectOption({ label: 'a pod is Running' });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
    timeout: 20_000,
  });
  const cluster = page.getByRole('region', { name: 'Cluster' });
  const views = page.getByRole('region', { name: 'Views' });
  for (const tab of ['Pods', 'Files', 'Journal', 'Actions', 'Config']) {
    await cluster.getByRole('tab', { name: tab, exact: true }).click();
    await page.waitForTimeout(300);
    expect(await sharedNames(page), `Cluster: ${tab}`).toEqual([]);
  }
  for (const tab of ['Steps', 'Sequence', 'Topology', 'Machines', 'Metrics']) {
    await views.getByRole('tab', { name: tab, exact: true }).click();
    await page.waitForTimeout(300);
    expect(await sharedNames(page), `Views: ${tab}`).toEqual([]);
  }
});
