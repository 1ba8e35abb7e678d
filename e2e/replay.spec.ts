/// <reference lib="dom" />
/**
 * Issue 16: a saved sandbox replays to what the user saw after a reload (item 2); a run that
 * only repeats a failure stops and says so (item 4); a fault says its node and Create pod offers
 * it (item 6); a fault's recovery is shown when asked for, and its safe commands run in the
 * node's shell with one click (item 8).
 */
import { expect, test, type Page } from '@playwright/test';
import { clearSavedState, collectPageErrors, currentStep, openApp } from './support';

test.afterEach(async ({ page }) => clearSavedState(page));

async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name, exact: true }).click();
}

async function settled(page: Page): Promise<void> {
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
    timeout: 30_000,
  });
}

async function runUntil(page: Page, what: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Run until' }).selectOption({ label: what });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await settled(page);
}

async function perform(page: Page, button: string): Promise<void> {
  await page.getByRole('button', { name: button, exact: true }).click();
  await settled(page);
}

const position = (page: Page) => page.locator('.position');

test('a fault names its node, Create pod offers it, and the sandbox reloads to the same step and clock', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = collectPageErrors(page);
  await openApp(page);
  await runUntil(page, 'a pod is Running');

  await openTab(page, 'Actions');
  await page
    .getByRole('combobox', { name: 'Fault', exact: true })
    .selectOption({ label: 'Conflist cniVersion newer than a plugin supports' });
  await expect(page.getByText('on node-1', { exact: true })).toBeVisible();
  await perform(page, 'Inject fault');
  await expect(
    page.getByRole('status').filter({ hasText: /^Fault injected on node-1 at step \d+/ }),
  ).toBeVisible();
  // Create pod now offers the fault's node.
  await expect(page.getByRole('combobox', { name: 'Node' }).first()).toHaveValue('node-1');
  await page.getByLabel('Pod name').fill('web-1');
  await page.getByRole('combobox', { name: 'Node' }).first().selectOption('');
  await expect(
    page.getByText('The fault injected on node-1 shows only in pods on node-1.'),
  ).toBeVisible();
  await perform(page, 'Create pod');
  // web-1 goes to node-2 and runs: the run ends idle and says why no error came.
  await runUntil(page, 'next error');
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: 'The fault on node-1 shows only in pods created on node-1' }),
  ).toBeVisible();

  await page.getByLabel('Pod name').fill('web-2');
  await perform(page, 'Create pod');
  await runUntil(page, 'next error');
  const step = await currentStep(page);
  const clock = await position(page).textContent();

  await page.reload();
  await settled(page);
  await expect.poll(() => currentStep(page)).toBe(step);
  await expect(position(page)).toHaveText(clock!);
  await expect(page.getByText(/replays the saved actions differently/)).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a run that only repeats a failure stops and says so; the recovery runs in the shell', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openApp(page);
  await runUntil(page, 'a pod is Running');
  await openTab(page, 'Actions');
  await page
    .getByRole('combobox', { name: 'Fault', exact: true })
    .selectOption({ label: 'Conflist cniVersion newer than a plugin supports' });
  await perform(page, 'Inject fault');
  await page.getByLabel('Pod name').fill('web-1');
  await perform(page, 'Create pod');
  const before = await currentStep(page);
  await runUntil(page, 'a pod is Running');
  await expect(
    page.getByRole('alert').filter({
      hasText:
        /the kubelet has retried web-1 \d+ times with the same error, and nothing else changes/,
    }),
  ).toBeVisible();
  expect((await currentStep(page)) - before).toBeLessThan(500);

  // The recovery, when asked for; a read command runs in node-1's shell with one click.
  await page
    .getByRole('combobox', { name: 'Fault', exact: true })
    .selectOption({ label: 'IPAM exhaustion' });
  const recovery = page.getByRole('group').filter({ hasText: 'How an operator recovers' });
  const run = page.getByRole('button', {
    name: 'Run crictl pods -q --no-trunc in the shell of node-1',
  });
  await expect(run).toBeHidden();
  await page.getByText('How an operator recovers').click();
  await expect(recovery).toContainText('crictl pods -q --no-trunc');
  await expect(recovery).toContainText('Not offered as one click');
  await run.click();
  await expect(page.getByRole('tab', { name: 'Shell', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.locator('.shell-terminal')).toContainText('crictl pods -q --no-trunc', {
    timeout: 15_000,
  });
  await expect(page.locator('.shell-terminal')).toContainText(/[0-9a-f]{64}/);
});
