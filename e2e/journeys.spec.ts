/**
 * A new user's paths through the app that broke in a walk-through after issue 16's fixes: each
 * test is one path, as a workshop participant, an operator or a course taker takes it.
 */
import { expect, test, type Page } from '@playwright/test';
import { clearSavedState, collectPageErrors, openApp } from './support';

test.afterEach(async ({ page }) => clearSavedState(page));

/** Waits until the action just clicked has been performed ("Step forward" enabled again). */
async function settled(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
    timeout: 20_000,
  });
  await expect(page.locator('.busy')).toHaveCount(0);
}

test('a plugin removed from /opt/cni/bin comes back with Actions → Install plugins', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = collectPageErrors(page);
  await openApp(page);
  const cluster = page.getByRole('region', { name: 'Cluster' });
  const binary = (name: string) =>
    cluster.getByRole('navigation', { name: 'Files of node-1' }).getByRole('button', {
      name,
      exact: true,
    });

  // The operator removes portmap (a package upgrade gone wrong), as lessons 11 and 15 do.
  await page.getByRole('tab', { name: 'Actions', exact: true }).click();
  await cluster.getByRole('textbox', { name: 'Path' }).fill('/opt/cni/bin/portmap');
  await cluster.getByRole('button', { name: 'Remove file' }).click();
  await settled(page);
  await page.getByRole('tab', { name: 'Files', exact: true }).click();
  await expect(binary('bridge')).toBeVisible();
  await expect(binary('portmap')).toHaveCount(0);

  // "Install plugin portmap v1.1.1 on node-1", as the lessons' hints say.
  await page.getByRole('tab', { name: 'Actions', exact: true }).click();
  await cluster.getByRole('combobox', { name: 'Plugins to install' }).selectOption('portmap');
  await cluster.getByRole('button', { name: 'Install plugins' }).click();
  await settled(page);
  await page.getByRole('tab', { name: 'Files', exact: true }).click();
  await expect(binary('portmap')).toBeVisible();

  // The whole package brings back a missing plugin too (the plugin-missing fault's recovery).
  await page.getByRole('tab', { name: 'Actions', exact: true }).click();
  await cluster.getByRole('textbox', { name: 'Path' }).fill('/opt/cni/bin/bridge');
  await cluster.getByRole('button', { name: 'Remove file' }).click();
  await settled(page);
  await cluster
    .getByRole('combobox', { name: 'Plugins to install' })
    .selectOption({ label: 'every plugin of the package' });
  await cluster.getByRole('button', { name: 'Install plugins' }).click();
  await settled(page);
  await page.getByRole('tab', { name: 'Files', exact: true }).click();
  await expect(binary('bridge')).toBeVisible();
  await expect(binary('portmap')).toBeVisible();
  expect(errors).toEqual([]);
});
