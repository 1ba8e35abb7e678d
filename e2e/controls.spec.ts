/// <reference lib="dom" />
import { expect, test, type Page } from '@playwright/test';
import { clearSavedState, collectPageErrors, currentStep, openApp } from './support';

test.afterEach(async ({ page }) => clearSavedState(page));

async function blur(page: Page): Promise<void> {
  await page.evaluate('document.activeElement && document.activeElement.blur()');
}

async function runUntil(page: Page, what: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Run until' }).selectOption({ label: what });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
    timeout: 30_000,
  });
}

/** Presses → or ← (waiting for each step to show) until the inspector's text matches `re`. */
async function stepUntilInspector(
  page: Page,
  re: RegExp,
  max: number,
  key: 'ArrowRight' | 'ArrowLeft' = 'ArrowRight',
): Promise<void> {
  await blur(page);
  for (let i = 0; i < max; i++) {
    if (re.test((await inspector(page).textContent()) ?? '')) return;
    const at = await currentStep(page);
    await page.keyboard.press(key);
    await expect.poll(() => currentStep(page)).not.toBe(at);
  }
}

const inspector = (page: Page) => page.getByRole('region', { name: 'Inspector' });

test('keys: 1-4 set the detail level, Home and End jump, space plays and pauses', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  await runUntil(page, 'a pod is Running');
  const running = await currentStep(page);
  await blur(page);

  for (const [key, name] of [
    ['1', 'Cluster'],
    ['2', 'Runtime'],
    ['3', 'CNI'],
    ['4', 'Kernel'],
  ] as const) {
    await page.keyboard.press(key);
    await expect(page.getByRole('radio', { name, exact: true })).toBeChecked();
  }

  await page.keyboard.press('Home');
  await expect.poll(() => currentStep(page)).toBeLessThan(running);
  const home = await currentStep(page);
  await page.keyboard.press('End');
  await expect.poll(() => currentStep(page)).toBeGreaterThanOrEqual(running);

  await page.keyboard.press('Home');
  await expect.poll(() => currentStep(page)).toBe(home);
  await page.keyboard.press(' ');
  await expect(page.getByRole('button', { name: 'Pause', exact: true })).toBeVisible();
  await expect.poll(() => currentStep(page)).toBeGreaterThan(home);
  await page.keyboard.press(' ');
  await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeVisible();

  // The scrubber's markers are reachable from the keyboard: "Jump to" lists them.
  const jump = page.getByRole('combobox', { name: 'Jump to' });
  const running1 = jump.getByRole('option', { name: /pod Running/ }).first();
  const label = (await running1.textContent())!;
  await jump.selectOption({ label });
  await expect.poll(() => currentStep(page)).toBe(Number(/^(\d+)/.exec(label)![1]));
  expect(errors).toEqual([]);
});

test('inspector: a plugin call, a kernel change before and after, a libcni cache file', async ({
  page,
}) => {
  await openApp(page);
  const insp = inspector(page);
  // containerd runs the loopback network first, then containerd-net (bridge).
  for (let i = 0; i < 4; i++) {
    await runUntil(page, 'next plugin call');
    if (((await insp.textContent()) ?? '').includes('Plugin call: bridge ADD')) break;
  }
  await expect(insp).toContainText('Plugin call: bridge ADD');
  const env = insp.getByRole('table', { name: 'Environment' });
  await expect(env.getByRole('row', { name: /CNI_COMMAND ADD/ })).toBeVisible();
  await expect(env.getByRole('row', { name: /CNI_IFNAME eth0/ })).toBeVisible();
  await expect(insp).toContainText('"type": "bridge"');
  await expect(insp).toContainText('The plugin is still running');
  // Its exit, a few CNI-level steps later: exit code and the result on stdout.
  await page.getByRole('radio', { name: 'CNI', exact: true }).check();
  await stepUntilInspector(page, /Plugin call: bridge ADD \(exec at step/, 40);
  await expect(insp).toContainText(/Plugin call: bridge ADD \(exec at step \d+\)/);
  await expect(insp).toContainText('Exit code 0');
  await expect(insp).toContainText('stdout (the result)');
  await expect(insp).toContainText('"ips"');

  // libcni writes the result cache once the chain succeeded.
  await stepUntilInspector(page, /Result cache \(/, 100);
  await expect(insp).toContainText(
    /Result cache \(.*\): \/var\/lib\/cni\/results\/containerd-net-/,
  );
  await expect(insp).toContainText('"kind": "cniCacheV1"');

  // Back, at kernel detail, to the step that gave the pod its address: before and after.
  await page.getByRole('radio', { name: 'Kernel', exact: true }).check();
  await stepUntilInspector(page, /addr add 10\.244\.1\.\d+\/24 .*dev eth0/, 200, 'ArrowLeft');
  await expect(insp).toContainText(/addr add 10\.244\.1\.\d+\/24 .*dev eth0/);
  await expect(insp.getByRole('heading', { name: 'Before' }).first()).toBeVisible();
  await expect(insp.getByRole('heading', { name: 'After' }).first()).toBeVisible();
  await expect(insp.locator('.before-after').first()).toContainText('10.244.1.');
});

test('files show host-local reservations with their \\r\\n; describe lists the pod events', async ({
  page,
}) => {
  await openApp(page);
  await runUntil(page, 'a pod is Running');
  const cluster = page.getByRole('region', { name: 'Cluster' });
  await cluster.getByRole('tab', { name: 'Files' }).click();
  await cluster.getByRole('button', { name: '10.244.1.2', exact: true }).click();
  const viewer = cluster.getByRole('region', { name: 'File viewer' });
  await expect(viewer).toContainText('/var/lib/cni/networks/containerd-net/10.244.1.2');
  await expect(viewer).toContainText('lines end with \\r\\n');
  await expect(viewer).toContainText('\\r\\n');

  await cluster.getByRole('button', { name: '10-containerd-net.conflist' }).click();
  await expect(viewer).toContainText('"cniVersion"');

  await cluster.getByRole('tab', { name: 'Pods' }).click();
  await cluster.getByRole('button', { name: 'web-0', exact: true }).click();
  const describe = cluster.getByRole('region', { name: 'Describe default/web-0' });
  await expect(describe).toContainText('kubectl describe pod web-0');
  await expect(describe).toContainText('Scheduled');
  await expect(describe).toContainText('Successfully assigned default/web-0 to node-1');
});

test.describe('on a phone in portrait', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('the panes stack and nothing scrolls sideways', async ({ page }) => {
    await openApp(page);
    // The panes take their final layout once the panels are in: measure them then.
    await expect(page.getByRole('region', { name: 'Inspector', exact: true })).not.toContainText(
      'Loading',
    );
    const box = async (name: string) =>
      (await page.getByRole('region', { name, exact: true }).boundingBox())!;
    const views = await box('Views');
    const insp = await box('Inspector');
    const cluster = await box('Cluster');
    expect(insp.y).toBeGreaterThanOrEqual(views.y + views.height - 1);
    expect(cluster.y).toBeGreaterThanOrEqual(insp.y + insp.height - 1);
    for (const b of [views, insp, cluster]) expect(b.x + b.width).toBeLessThanOrEqual(391);
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
    ).toBe(true);
    await page.getByRole('button', { name: 'Step forward', exact: true }).tap();
    await expect(inspector(page)).toContainText('create pod default/web-0');
  });
});

test('Run by keyboard: when the run ends, the focus is back on the Run button', async ({
  page,
}) => {
  await openApp(page);
  const group = page.getByRole('group', { name: 'Run until' });
  await group.getByRole('combobox').selectOption({ label: 'a pod is Running' });
  const run = group.getByRole('button', { name: 'Run', exact: true });
  await run.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('region', { name: 'Cluster' })).toContainText('10.244.1.', {
    timeout: 20_000,
  });
  await expect(run).toBeEnabled();
  await expect(run).toBeFocused();
});

test('Stop during a long run says that it stopped, where the user is, and how to go on', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = collectPageErrors(page);
  await openApp(page);
  await page.getByRole('tab', { name: 'Actions', exact: true }).click();
  await page.getByRole('spinbutton', { name: 'Replicas' }).fill('30');
  await page.getByRole('button', { name: 'Scale deployment' }).click();
  await expect(page.getByText(/^Done at step \d+\.$/)).toBeVisible({ timeout: 60_000 });
  const before = await currentStep(page);
  const group = page.getByRole('group', { name: 'Run until' });
  await group.getByRole('combobox').selectOption({ label: 'nothing is left to happen' });
  await group.getByRole('button', { name: 'Run', exact: true }).click();
  const busy = page.getByRole('status').filter({ hasText: /^Running until/ });
  await expect(busy).toBeVisible();
  await busy.getByRole('button', { name: 'Stop' }).click();
  await expect(busy).toBeHidden();

  const notice = page
    .getByRole('list', { name: 'Notices' })
    .getByRole('status')
    .filter({ hasText: 'Stopped running until nothing is left to happen' });
  await expect(notice).toBeVisible();
  const text = (await notice.textContent())!;
  const length = Number(/the trace now has (\d+) steps/.exec(text)![1]);
  expect(length).toBeGreaterThan(before);
  expect(text).toContain(`you are still at step ${before}.`);
  expect(text).toContain('Press Run to go on');
  expect(await currentStep(page)).toBe(before);
  await expect(page.locator('.position')).toContainText(`of ${length}`);
  // The focus is back on Run, which goes on from here.
  await expect(group.getByRole('button', { name: 'Run', exact: true })).toBeFocused();
  expect(errors).toEqual([]);
});
