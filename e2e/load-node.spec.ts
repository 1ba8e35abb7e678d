import { expect, test } from '@playwright/test';
import { testBundleFiles, tgzOf } from '../src/engine/properties/bundle-files';
import {
  clearSavedState,
  collectPageErrors,
  expectNoSeriousAxeViolations,
  openApp,
} from './support';

test.afterEach(async ({ page }) => clearSavedState(page));
// The drill runs in the page: room to spare on a busy 2-core machine.
test.describe.configure({ timeout: 90_000 });

test('Load a node: a dropped bundle is dry-run and its report shown; a bad file gets a message', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  await page.getByRole('button', { name: 'Load a node' }).click();
  const dialog = page.getByRole('dialog', { name: 'Load a node' });
  await expect(dialog).toBeVisible();

  const input = dialog.getByLabel('Bundle (.tar.gz)');
  await input.setInputFiles({
    name: 'node-bundle.tar.gz',
    mimeType: 'application/gzip',
    buffer: Buffer.from(tgzOf(testBundleFiles('kubeadm-containerd'))),
  });
  const report = dialog.getByLabel('Node report');
  await expect(report).toContainText('Loaded by the runtime: containerd-net', { timeout: 60_000 });
  await expect(report).toContainText('Dry-run (the staging drill):');
  await expect(report).toContainText('ok     [0.05ms] ADD: one pod (kubectl run probe)');
  await expect(report).toContainText(
    "[ipam-pod-cidr] The range 10.88.0.0/16 is not inside the node's pod CIDR",
  );
  await expect(dialog.getByRole('status')).toHaveText('Report ready: 0 error(s).');
  await expectNoSeriousAxeViolations(page, 'the Load a node dialog with a report');

  await input.setInputFiles({
    name: 'photo.png',
    mimeType: 'image/png',
    buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
  });
  await expect(dialog.getByRole('alert')).toHaveText(
    'not a node bundle: neither a .tar.gz nor a tar archive (see docs/your-node.md)',
  );
  await expect(report).toBeHidden();

  await dialog.getByText('Or paste the files').click();
  await dialog
    .getByLabel('Config (/etc/cni/net.d)')
    .fill('{"cniVersion": "1.0.0", "name": "x",\n  "plugins": [}');
  await dialog.getByRole('button', { name: 'Check these files' }).click();
  await expect(report).toContainText('not valid JSON at line 2, column 15');

  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  expect(errors).toEqual([]);
});
