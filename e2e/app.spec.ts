/// <reference lib="dom" />
import { expect, test, type Page } from '@playwright/test';
import {
  clearSavedState,
  collectPageErrors,
  currentStep,
  expectNoSeriousAxeViolations,
  openApp,
  podIpCell,
} from './support';

test.afterEach(async ({ page }) => clearSavedState(page));

/** Leaves the focused widget (a tab uses the arrow keys itself), as a person clicking away does. */
async function blur(page: Page): Promise<void> {
  await page.evaluate('document.activeElement && document.activeElement.blur()');
}

/** Presses → until `done` holds (checked after every press), at most `max` times. */
async function stepUntil(page: Page, done: () => Promise<boolean>, max = 400): Promise<void> {
  await blur(page);
  for (let i = 0; i < max; i++) {
    if (await done()) return;
    await page.keyboard.press('ArrowRight');
  }
  expect(await done(), `condition not met after ${max} steps`).toBe(true);
}

async function stepBackUntil(page: Page, done: () => Promise<boolean>, max = 400): Promise<void> {
  await blur(page);
  for (let i = 0; i < max; i++) {
    if (await done()) return;
    await page.keyboard.press('ArrowLeft');
  }
  expect(await done(), `condition not met after ${max} steps back`).toBe(true);
}

async function openTab(page: Page, name: string): Promise<void> {
  await page.getByRole('tab', { name, exact: true }).click();
}

async function runUntil(page: Page, what: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Run until' }).selectOption({ label: what });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
    timeout: 30_000,
  });
}

async function perform(page: Page, button: string): Promise<void> {
  await page.getByRole('button', { name: button, exact: true }).click();
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
    timeout: 30_000,
  });
}

test('create a pod, step through ADD to its IP, and back past the IP assignment', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const errors = collectPageErrors(page);
  await openApp(page);

  await openTab(page, 'Actions');
  await page.getByLabel('Pod name').fill('db-0');
  await page.getByRole('combobox', { name: 'Node for the pod' }).selectOption('node-2');
  await perform(page, 'Create pod');
  await expect(page.getByRole('region', { name: 'Inspector' })).toContainText(
    'create pod default/db-0 (node node-2)',
  );

  // Step through the ADD (kernel detail: every veth, address and route) until the pod has its IP.
  const ip = await podIpCell(page, 'db-0');
  await stepUntil(page, async () => /^10\.244\.2\.\d+$/.test((await ip.textContent()) ?? ''));
  const podIp = (await ip.textContent())!;
  await expect(page.getByRole('region', { name: 'Inspector' })).toContainText(
    `pod default/db-0 Running, IP ${podIp}`,
  );

  // The topology has the address in the pod's namespace.
  await openTab(page, 'Topology');
  const podNs = page.getByRole('group', {
    name: new RegExp(`^Pod namespace .*${podIp.replace(/\./g, '\\.')}/`),
  });
  await expect(podNs).toBeVisible();

  // Back past the kernel's `ip addr add`: gone from the topology and from the pod table.
  await stepBackUntil(page, async () => (await podNs.count()) === 0);
  const back = await currentStep(page);
  await expect(await podIpCell(page, 'db-0')).toHaveText('<none>');

  // One step forward is that `ip addr add`, read from the recorded trace.
  await blur(page);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => currentStep(page)).toBe(back + 1);
  await expect(page.getByRole('region', { name: 'Inspector' })).toContainText(
    `addr add ${podIp}/24`,
  );
  await openTab(page, 'Topology');
  await expect(podNs).toBeVisible();
  expect(errors).toEqual([]);
});

test('a corrupted cache makes DEL fail: the journal says so, the IP stays held', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openApp(page);
  await runUntil(page, 'a pod is Running');
  await expect(await podIpCell(page, 'web-0')).toHaveText('10.244.1.2');

  await openTab(page, 'Actions');
  await page
    .getByRole('combobox', { name: 'Fault' })
    .selectOption({ label: 'Corrupted result cache' });
  await expect(page.getByText(/libcni before v1\.2 \(.*\) cannot parse it/)).toBeVisible();
  await perform(page, 'Inject fault');
  await expect(page.getByRole('status').filter({ hasText: 'Fault injected' })).toBeVisible();
  await page.getByRole('combobox', { name: 'Pod', exact: true }).selectOption('default/web-0');
  await perform(page, 'Delete pod');

  await runUntil(page, 'next error');
  await expect(page.getByRole('region', { name: 'Inspector' })).toContainText(
    'failed to get network "containerd-net" cached result',
  );
  // Let the kubelet retry once more.
  await runUntil(page, 'next error');

  await openTab(page, 'Journal');
  await page.getByRole('searchbox', { name: 'Filter' }).fill('StopPodSandbox');
  const journal = page.getByLabel('Journal of node-1');
  await expect(journal).toContainText('level=error msg="StopPodSandbox for');
  await expect(journal).toContainText('failed to destroy network for sandbox');

  await openTab(page, 'Pods');
  await expect(page.getByRole('cell', { name: 'Terminating' })).toBeVisible();
  await expect(await podIpCell(page, 'web-0')).toHaveText('10.244.1.2');

  // The metrics: node-1's reservation is still in use.
  await openTab(page, 'Metrics');
  await expect(page.getByRole('region', { name: 'Metrics' })).toContainText(/IPAM used 1\b/);
});

test('invalid JSON in the conflist editor: an inline error, and the app keeps working', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = collectPageErrors(page);
  await openApp(page);
  await openTab(page, 'Config');
  const editor = page.getByRole('textbox', {
    name: 'Contents of /etc/cni/net.d/10-containerd-net.conflist on node-1',
  });
  await expect(editor).toBeVisible({ timeout: 15_000 });
  await expect(editor).toContainText('"containerd-net"');
  await editor.click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.type('oops ');
  await expect(page.getByText(/^Invalid JSON at line 1, column 1/)).toBeVisible();
  await expect(page.locator('.cm-lintRange-error').first()).toBeVisible({ timeout: 10_000 });

  // The rest of the app still works while the editor holds invalid JSON.
  const before = await currentStep(page);
  await page.getByRole('button', { name: 'Step forward', exact: true }).click();
  await expect.poll(() => currentStep(page)).toBe(before + 1);

  // Applied, the node reacts as a real one: containerd's fsnotify reload (a few steps later)
  // loads no network.
  await perform(page, 'Apply to node-1');
  const status = page.getByRole('region', { name: 'Network status of node-1' });
  await stepUntil(
    page,
    async () => (await status.textContent())!.includes('containerd: no network loaded'),
    60,
  );
  await runUntil(page, 'next error');
  expect(errors).toEqual([]);
});

test('typing in the conflist while its editor loads goes on in the editor, not into shortcuts', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  // The editor's code (CodeMirror) is held back until the user has typed in the plain text area
  // shown meanwhile.
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  await page.route(/\/assets\/JsonEditor-[^/]*\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  await openApp(page);
  await openTab(page, 'Config');
  const label = 'Contents of /etc/cni/net.d/10-containerd-net.conflist on node-1';
  const fallback = page.locator('textarea.editor-fallback');
  await expect(fallback).toHaveAccessibleName(label, { timeout: 15_000 });
  await fallback.click();
  await page.keyboard.press('Control+Home');
  await page.keyboard.type('oops ');
  release();
  const editor = page.locator('.cm-content');
  await expect(editor).toHaveAccessibleName(label, { timeout: 15_000 });
  await expect(editor).toBeFocused();
  // Typed on at the cursor, in the editor: "p" did not toggle presenter mode, nor " " play.
  await page.keyboard.type('pq');
  await expect(editor).toContainText(/^oops pq\{/);
  await expect(page.getByText(/^Invalid JSON at line 1, column 1/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Presenter' })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  expect(errors).toEqual([]);
});

test('a reload finds the sandbox as it was; a damaged save gives a notice', async ({ page }) => {
  test.setTimeout(90_000);
  await openApp(page);
  await openTab(page, 'Actions');
  await page.getByLabel('Pod name').fill('keep-me');
  await perform(page, 'Create pod');
  await blur(page);
  for (let i = 0; i < 12; i++) await page.keyboard.press('ArrowRight');
  await page.getByRole('radio', { name: 'CNI' }).check();
  const step = await currentStep(page);

  await page.reload();
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
    timeout: 30_000,
  });
  await expect.poll(() => currentStep(page)).toBe(step);
  await expect(page.getByRole('radio', { name: 'CNI' })).toBeChecked();
  await openTab(page, 'Pods');
  await expect(page.getByRole('button', { name: 'keep-me', exact: true })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);

  // A damaged save: a notice, and a fresh sandbox instead of a blank page. The page saves on
  // pagehide, so the damage is done on the next load, before the app reads the save.
  await page.addInitScript(() => {
    const v = localStorage.getItem('cnisim.sandbox.v1');
    if (v?.includes('keep-me'))
      localStorage.setItem('cnisim.sandbox.v1', v.replaceAll('keep-me', 'kept-me'));
  });
  await page.reload();
  await expect(page.getByRole('alert')).toContainText('Your saved sandbox could not be restored');
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled();
  await expect(page.getByText('Press → to step')).toBeVisible();
});

const VIEWS: { pane: string; tab: string }[] = [
  { pane: 'Views', tab: 'Steps' },
  { pane: 'Views', tab: 'Sequence' },
  { pane: 'Views', tab: 'Topology' },
  { pane: 'Views', tab: 'Machines' },
  { pane: 'Views', tab: 'Metrics' },
  { pane: 'Cluster', tab: 'Pods' },
  { pane: 'Cluster', tab: 'Files' },
  { pane: 'Cluster', tab: 'Journal' },
  { pane: 'Cluster', tab: 'Actions' },
  { pane: 'Cluster', tab: 'Config' },
];

test('every main view: no serious or critical axe violations, no CSP violation', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await page.addInitScript(() => {
    const w = window as unknown as { cspViolations: string[] };
    w.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.cspViolations.push(`${e.violatedDirective}: ${e.blockedURI}`),
    );
  });
  const errors = collectPageErrors(page);
  await openApp(page);
  // The inspector of a plugin call: env table, stdin and stdout in scrollable blocks.
  await runUntil(page, 'next plugin call');
  await expectNoSeriousAxeViolations(page, 'Inspector › plugin call');
  await runUntil(page, 'a pod is Running');
  for (const v of VIEWS) {
    await page.getByRole('region', { name: v.pane }).getByRole('tab', { name: v.tab }).click();
    await expect(page.getByText('Loading the simulation…')).toHaveCount(0, { timeout: 15_000 });
    if (v.tab === 'Files') {
      await page.getByRole('button', { name: '10-containerd-net.conflist' }).click();
    }
    if (v.tab === 'Config') {
      await expect(page.getByRole('textbox', { name: /^Contents of/ })).toBeVisible({
        timeout: 15_000,
      });
    }
    if (v.tab === 'Sequence')
      await expect(page.locator('.seq-host svg text.seq-text').first()).toBeVisible();
    await expectNoSeriousAxeViolations(page, `${v.pane} › ${v.tab}`);
  }
  expect(
    await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
  ).toEqual([]);
  expect(errors).toEqual([]);
});
