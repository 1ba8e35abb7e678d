import { expect, test } from '@playwright/test';
import {
  clearSavedState,
  collectPageErrors,
  expectNoSeriousAxeViolations,
  openApp,
  runUntil,
} from './support';

test.afterEach(async ({ page }) => clearSavedState(page));

test('walk a ping from one pod to another on the same bridge, hop by hop', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectPageErrors(page);
  await openApp(page);
  await page.getByRole('tab', { name: 'Actions', exact: true }).click();
  await page.getByLabel('Pod name').fill('db-0');
  await page.getByRole('combobox', { name: 'Node for the pod' }).selectOption('node-1');
  await page.getByRole('button', { name: 'Create pod', exact: true }).click();
  await runUntil(page, 'nothing is left to happen');

  await page.getByRole('tab', { name: 'Packets', exact: true }).click();
  const from = page.getByRole('combobox', { name: 'Packet source', exact: true });
  await from.selectOption({ label: 'pod db-0 (node-1)' });
  const to = page.getByRole('combobox', { name: 'Packet destination', exact: true });
  const web0 = (await to.locator('option').allTextContents()).find((t) =>
    t.startsWith('pod web-0'),
  );
  expect(web0).toBeDefined();
  await to.selectOption({ label: web0! });
  await page.getByRole('button', { name: 'Walk the packet' }).click();
  await expect(page.getByRole('status')).toContainText('delivered, and the reply came back');
  const hops = page.getByRole('list', { name: 'Hops' });
  await expect(hops.getByRole('listitem').first()).toBeVisible();
  // The bridge forwards it between its ports; the reply goes the other way.
  await expect(hops).toContainText('cni0');
  await expect(hops).toContainText('reply');

  // A step back: the walk belongs to the step it was made at.
  await page.getByRole('button', { name: 'Step back', exact: true }).click();
  await expect(hops).toHaveCount(0);
  await expectNoSeriousAxeViolations(page, 'the Packets view');
  expect(errors).toEqual([]);
});
