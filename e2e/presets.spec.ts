import { expect, test } from '@playwright/test';
import { clearSavedState, collectPageErrors, openApp, runUntil } from './support';

test.afterEach(async ({ page }) => clearSavedState(page));

test('a host-gw preset sandbox: a pod on node-1 reaches a pod on node-2 with its own address', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = collectPageErrors(page);
  await openApp(page);
  await page.getByRole('tab', { name: 'Actions', exact: true }).click();
  await page
    .getByRole('combobox', { name: 'Cluster', exact: true })
    .selectOption({ label: 'Two nodes, host-gw routes (network.mode host-gw)' });
  await expect(page.getByText(/kindnetd's KIND-MASQ-AGENT chain/)).toBeVisible();
  await page.getByRole('button', { name: 'New sandbox', exact: true }).click();
  await page.getByRole('button', { name: 'Discard and start over', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled();

  for (const [pod, node] of [
    ['api-0', 'node-1'],
    ['db-0', 'node-2'],
  ]) {
    await page.getByLabel('Pod name').fill(pod!);
    await page.getByRole('combobox', { name: 'Node for the pod' }).selectOption(node!);
    await page.getByRole('button', { name: 'Create pod', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Create pod', exact: true })).toBeEnabled();
  }
  await runUntil(page, 'nothing is left to happen');

  await page.getByRole('tab', { name: 'Packets', exact: true }).click();
  const from = page.getByRole('combobox', { name: 'Packet source', exact: true });
  await from.selectOption({ label: 'pod api-0 (node-1)' });
  const to = page.getByRole('combobox', { name: 'Packet destination', exact: true });
  await to.selectOption({ label: 'pod db-0 (node-2) 10.244.2.2' });
  await page.getByRole('button', { name: 'Walk the packet' }).click();
  await expect(page.getByRole('status')).toContainText('delivered, and the reply came back');
  const hops = page.getByRole('list', { name: 'Hops' });
  // The agent's chain returns for the cluster CIDR: nothing masquerades the pod's address.
  await expect(hops).toContainText('KIND-MASQ-AGENT');
  await expect(hops).toContainText('172.18.0.3');
  await expect(hops).not.toContainText('SNAT to');
  await expect(
    hops.getByRole('listitem').filter({ hasText: 'node-2: received on eth0' }),
  ).toContainText('10.244.1.2 > 10.244.2.2');
  expect(errors).toEqual([]);
});
