/**
 * A new user's paths through the app that broke in a walk-through after issue 16's fixes: each
 * test is one path, as a workshop participant, an operator or a course taker takes it.
 */
import { expect, test, type Page } from '@playwright/test';
import { clearSavedState, collectPageErrors, currentStep, openApp } from './support';

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

test('a run past a prediction does not complete the lesson before the learner has seen it', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = collectPageErrors(page);
  await page.goto('./#/lesson/add-step-by-step');
  const lesson = page.getByRole('region', { name: 'ADD, step by step' });
  await expect(lesson).toBeVisible({ timeout: 30_000 });
  await page.getByRole('tab', { name: 'Actions', exact: true }).click();
  const cluster = page.getByRole('region', { name: 'Cluster' });
  await cluster.getByRole('textbox', { name: 'Pod name' }).fill('web-0');
  await cluster.getByRole('button', { name: 'Create pod' }).click();
  await settled(page);
  // The run reaches web-0 Running, then the lesson holds the cursor before bridge's ADD for a
  // prediction: no goal is met at the step shown, so the lesson is not done yet.
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const prediction = lesson.getByRole('form', { name: 'Prediction' });
  await expect(prediction).toBeVisible({ timeout: 30_000 });
  await settled(page);
  await expect(lesson.getByRole('list', { name: 'Goals' }).getByText('(met)')).toHaveCount(0);
  await expect(lesson.getByText('8 min · done')).toHaveCount(0);
  const progress = () =>
    page.evaluate(() => JSON.parse(localStorage.getItem('cnisim.course.v1') ?? '{}'));
  expect((await progress()).lessons?.['add-step-by-step']?.done ?? false).toBe(false);

  // Answered, the run goes on to the end: now the lesson is done.
  await prediction.getByRole('radio').first().check();
  await prediction.getByRole('button').click();
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(lesson.getByText('Every goal is met: lesson complete.')).toBeVisible({
    timeout: 30_000,
  });
  expect((await progress()).lessons['add-step-by-step'].done).toBe(true);
  expect(errors).toEqual([]);
});

test('after a fault that lets new pods run, an idle run does not tell to create a pod there', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = collectPageErrors(page);
  await openApp(page);
  const cluster = page.getByRole('region', { name: 'Cluster' });
  await page.getByRole('tab', { name: 'Actions', exact: true }).click();
  await cluster
    .getByRole('combobox', { name: 'Fault', exact: true })
    .selectOption({ label: 'ip_forward off on a node' });
  await cluster.getByRole('button', { name: 'Inject fault' }).click();
  await settled(page);
  // "Create pod" offers the fault's node; the pod runs there: ip_forward shows in traffic.
  await cluster.getByRole('textbox', { name: 'Pod name' }).fill('web-1');
  await expect(cluster.getByRole('combobox', { name: 'Node for the pod' })).toHaveValue('node-1');
  await cluster.getByRole('button', { name: 'Create pod' }).click();
  await settled(page);
  await page.getByRole('combobox', { name: 'Run until' }).selectOption({ label: 'next error' });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const idle = page.getByRole('status').filter({ hasText: 'did not come: the cluster is idle' });
  await expect(idle).toBeVisible({ timeout: 30_000 });
  await expect(idle).toContainText('Act on it to go on.');
  await expect(idle).not.toContainText('create one there');
  expect(errors).toEqual([]);
});

test('a quiz question that asks for every answer says so once', async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto('./#/lesson/pod-ip-origin');
  const lesson = page.getByRole('region', { name: 'Where the pod IP comes from' });
  await expect(lesson).toBeVisible({ timeout: 30_000 });
  const group = lesson.getByRole('group', { name: /^Which addresses of 10\.244\.1\.0\/24/ });
  await expect(group).toBeVisible();
  const legend = (await group.locator('legend').textContent()) ?? '';
  expect(legend.match(/select all that apply/gi)).toHaveLength(1);
  await expect(group.getByRole('checkbox')).toHaveCount(4);
  // A question with one answer says nothing of the kind, and offers radio buttons.
  const single = lesson.getByRole('group', { name: /^How does the address host-local chose/ });
  await expect(single.locator('legend')).not.toContainText('select all');
  await expect(single.getByRole('radio')).toHaveCount(4);
  expect(errors).toEqual([]);
});

test('a damaged link cannot be kept over my own sandbox', async ({ page }) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  const forward = page.getByRole('button', { name: 'Step forward', exact: true });
  const saved = () =>
    page.evaluate(() => JSON.parse(localStorage.getItem('cnisim.sandbox.v1') ?? 'null')?.cursor);
  const start = await currentStep(page);
  for (let i = 0; i < 3; i++) await forward.click();
  await expect.poll(() => currentStep(page)).toBe(start + 3);
  // Saved at its last step (the cursor counts from 0).
  await expect.poll(saved).toBe(start + 2);
  const mine = await saved();

  // A link cut short when pasted: the default sandbox is open instead.
  await page.goto('./#/s/AY2QsXKDMBBE_-VqmYCNA6FNmnSZtBkXsnSAJoAcSeCC0b9nZUKfTrO3-7R3K3n23');
  await expect(
    page.getByRole('alert').filter({ hasText: 'This link cannot be opened' }),
  ).toBeVisible();
  const banner = page.getByRole('region', { name: 'Shared sandbox' });
  await expect(banner).toContainText('could not be opened');
  await expect(banner).not.toContainText('You opened a shared sandbox');
  // Nothing was opened to keep: "Keep this as my sandbox" would replace mine with the default.
  await expect(banner.getByRole('button', { name: 'Keep this as my sandbox' })).toHaveCount(0);
  expect(await saved()).toBe(mine);
  await banner.getByRole('button', { name: 'Back to my sandbox' }).click();
  await expect(banner).toBeHidden();
  expect(await saved()).toBe(mine);
  expect(errors).toEqual([]);
});

test("an embed's warning goes by itself, as the app's do; its errors stay", async ({ page }) => {
  test.setTimeout(90_000);
  // A docs page with a typo in a parameter and a lesson that is not in the build: the embed says
  // both; the warning then gets out of the way, the error stays (the embed shows something else).
  await page.goto('./embed.html?scenario=lesson:no-such-lesson&views=steps,inspectr');
  const warning = page.getByRole('alert').filter({ hasText: 'Embed parameter' });
  const error = page.getByRole('alert').filter({ hasText: 'The default sandbox is shown instead' });
  await expect(warning).toBeVisible({ timeout: 15_000 });
  await expect(error).toBeVisible();
  await expect(page.locator('.position strong')).toHaveText('16');
  await expect(warning).toBeHidden({ timeout: 30_000 });
  await expect(error).toBeVisible();
});

test('Back during a long run leaves it for the page the address names', async ({ page }) => {
  test.setTimeout(120_000);
  const errors = collectPageErrors(page);
  await page.goto('./#/lesson/add-step-by-step');
  const lesson = page.getByRole('region', { name: 'ADD, step by step' });
  await expect(lesson).toBeVisible({ timeout: 30_000 });
  // Back to the sandbox, a deployment of 200 pods, and a run that takes a while.
  await page.goto('./#/');
  await expect(lesson).toBeHidden({ timeout: 20_000 });
  await settled(page);
  const cluster = page.getByRole('region', { name: 'Cluster' });
  await page.getByRole('tab', { name: 'Actions', exact: true }).click();
  await cluster.getByRole('spinbutton', { name: 'Replicas' }).fill('200');
  await cluster.getByRole('button', { name: 'Scale deployment' }).click();
  await settled(page);
  const before = await currentStep(page);
  await page
    .getByRole('combobox', { name: 'Run until' })
    .selectOption({ label: 'nothing is left to happen' });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  const busy = page.getByRole('status').filter({ hasText: 'Running until' });
  await expect(busy).toBeVisible();

  // The user has seen enough and goes Back: the lesson the address names opens; the run stops.
  await page.goBack();
  expect(page.url()).toContain('#/lesson/add-step-by-step');
  await expect(lesson).toBeVisible({ timeout: 20_000 });
  await expect(busy).toBeHidden();
  // Leaving is not a Stop: nothing about the run shows over the lesson.
  await expect(page.getByText(/^Stopped running until/)).toHaveCount(0);
  // Forward again: my sandbox, at the step the run was stopped from.
  await page.goForward();
  await expect(lesson).toBeHidden({ timeout: 20_000 });
  await settled(page);
  expect(await currentStep(page)).toBe(before);
  expect(errors).toEqual([]);
});

test('a shared link opened right after my last steps keeps them in my sandbox', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  const forward = page.getByRole('button', { name: 'Step forward', exact: true });
  const start = await currentStep(page);
  await forward.click();
  await expect.poll(() => currentStep(page)).toBe(start + 1);
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Share' });
  const link = await dialog.getByRole('textbox', { name: 'Link' }).inputValue();
  await dialog.getByRole('button', { name: 'Close' }).click();
  // Two more steps, and at once a link pasted into the address bar (same tab).
  for (const n of [2, 3]) {
    await forward.click();
    await expect.poll(() => currentStep(page)).toBe(start + n);
  }
  await page.goto(link);
  const banner = page.getByRole('region', { name: 'Shared sandbox' });
  await expect(banner).toContainText('You opened a shared sandbox.');
  await expect.poll(() => currentStep(page)).toBe(start + 1);
  await banner.getByRole('button', { name: 'Back to my sandbox' }).click();
  await expect(banner).toBeHidden();
  await expect.poll(() => currentStep(page)).toBe(start + 3);
  expect(errors).toEqual([]);
});

test('a paste too large for a node file is refused at once, and says why', async ({
  page,
  context,
}) => {
  test.setTimeout(90_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const errors = collectPageErrors(page);
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await openApp(page);
  await page.getByRole('tab', { name: 'Config', exact: true }).click();
  const editor = page.getByRole('textbox', {
    name: 'Contents of /etc/cni/net.d/10-containerd-net.conflist on node-1',
  });
  await expect(editor).toContainText('"containerd-net"', { timeout: 15_000 });
  const status = page.locator('.editor-status');
  await expect(status).toHaveText('As on node-1 at this step.');

  // A careless paste: 1.3 MB of JSON (a whole dump) over the conflist. A file on a node holds
  // at most 1,000,000 characters: the editor refuses it at once rather than freeze the page.
  const huge = JSON.stringify(
    {
      cniVersion: '1.0.0',
      name: 'dump',
      plugins: Array.from({ length: 20_000 }, (_, i) => ({ type: 'bridge', bridge: `cni${i}` })),
    },
    null,
    2,
  );
  expect(huge.length).toBeGreaterThan(1_000_000);
  await page.evaluate((t) => navigator.clipboard.writeText(t), huge);
  await editor.click();
  await page.keyboard.press('Control+a');
  // The tasks before the paste (the editor's first parse, the clipboard written) are reported.
  await page.waitForTimeout(1_000);
  const from = await page.evaluate(
    () => (window as unknown as { __longTasks: number[] }).__longTasks.length,
  );
  await page.keyboard.press('Control+v');
  await expect(status).toContainText('Not pasted: the file would be 1,');
  await expect(status).toContainText('a file on a node holds at most 1,000,000 characters');
  await page.waitForTimeout(500);
  const longest = await page.evaluate(
    (n) => Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks.slice(n)),
    from,
  );
  console.log(`longest main-thread task, a 1.3 MB paste: ${Math.round(longest)} ms`);
  expect(longest).toBeLessThan(200);
  // The file is as it was; a paste of a fitting size goes in, and the message goes.
  await expect(editor).toContainText('"containerd-net"');
  await page.evaluate(
    (t) => navigator.clipboard.writeText(t),
    '{ "cniVersion": "1.0.0", "name": "pasted", "plugins": [ { "type": "loopback" } ] }',
  );
  await page.keyboard.press('Control+a');
  await page.keyboard.press('Control+v');
  await expect(editor).toContainText('"pasted"');
  await expect(status).toHaveText('Valid JSON, not applied yet.');
  expect(errors).toEqual([]);
});

test("a lesson's address with a step past its trace opens at the last step and says so", async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await page.goto('./#/lesson/add-step-by-step?step=99999');
  await expect(page.getByRole('region', { name: 'ADD, step by step' })).toBeVisible({
    timeout: 30_000,
  });
  const warning = page.getByRole('alert').filter({ hasText: "The address's step" });
  await expect(warning).toContainText(
    /^The address's step 99999 is past the end of the trace, which ends at step (\d+); step \1 is shown\./,
    { timeout: 30_000 },
  );
  const last = /ends at step (\d+)/.exec((await warning.textContent())!)![1]!;
  expect(await currentStep(page)).toBe(Number(last));
  expect(errors).toEqual([]);
});
