import { expect, test, type Page } from '@playwright/test';
import {
  axeOn,
  clearSavedState,
  collectPageErrors,
  currentStep,
  openApp,
  podsTable,
  terminalScreen,
} from './support';

// The node shell in the app: a terminal per node, running lines at the cursor (docs/shell.md).

// A projector-sized window: the terminal shows the last lines of what it printed.
test.use({ viewport: { width: 1280, height: 800 } });
// Each test types a dozen lines and runs the simulation: more than the default 30 s on 2 busy cores.
test.setTimeout(90_000);

test.afterEach(async ({ page }) => clearSavedState(page));

/** Types a line and waits for the next (empty) prompt after it. */
async function typeLine(page: Page, line: string): Promise<void> {
  await page.keyboard.type(line);
  await expect.poll(async () => (await terminalScreen(page)).trimEnd()).toMatch(/# \S.*$/);
  await page.keyboard.press('Enter');
  await expect
    .poll(async () => (await terminalScreen(page)).trimEnd(), { timeout: 15_000 })
    .toMatch(/root@node-1:[^#]*#$/);
}

/** `clear`: the screen then holds only the next prompt. */
async function clearScreen(page: Page): Promise<void> {
  await page.keyboard.type('clear');
  await page.keyboard.press('Enter');
  await expect
    .poll(async () => (await terminalScreen(page)).trim())
    .toMatch(/^root@node-1:[^#]*#$/);
}

async function runUntil(page: Page, what: string): Promise<void> {
  await page
    .getByRole('group', { name: 'Run until' })
    .getByRole('combobox')
    .selectOption({ label: what });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
    timeout: 20_000,
  });
}

async function openShell(page: Page): Promise<void> {
  await page.getByRole('tab', { name: 'Shell' }).click();
  const term = page.locator('.shell-terminal .xterm');
  await expect(term).toBeVisible({ timeout: 15_000 });
  await expect.poll(() => terminalScreen(page)).toContain('root@node-1:~#');
  await page.getByRole('group', { name: 'Shell on node-1' }).click();
}

test('reads the node: results cache, a cache file, containerd journal; reads add no step', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  await runUntil(page, 'a pod is Running');
  await expect(await podsTable(page)).toContainText('Running');
  const step = await currentStep(page);
  await openShell(page);

  await typeLine(page, 'ls /var/lib/cni/results');
  const ls = await terminalScreen(page);
  expect(ls).toMatch(/cni-loopback-[0-9a-f]{64}-lo/);
  expect(ls).toMatch(/containerd-net-[0-9a-f]{64}-eth0/);

  await typeLine(page, 'cat /var/lib/cni/results/containerd-net-*');
  const cat = await terminalScreen(page);
  // The file is longer than the screen: its end shows (the ADD result).
  expect(cat).toMatch(/"name":"eth0","sandbox":"\/var\/run\/netns\/cni-[0-9a-f-]{36}"/);
  expect(cat).toContain('"ips":[{"address":"10.244.1.2/24"');

  await clearScreen(page);
  await typeLine(page, 'journalctl -u containerd | grep -i sandbox');
  const journal = await terminalScreen(page);
  expect(journal).toMatch(/level=info msg="RunPodSandbox for &PodSandboxMetadata\{Name:web-0/);
  expect(journal).toContain('returns sandbox id');

  // Tab completes a path; history recalls the last line.
  await page.keyboard.type('ls /var/lib/cni/res');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.keyboard.press('ArrowUp');
  await expect.poll(() => terminalScreen(page)).toMatch(/# ls \/var\/lib\/cni\/results\/ *$/);
  await page.keyboard.press('Control+C');

  // A here-document over several lines: each line after the first gets bash's PS2 prompt "> ",
  // and the command runs once its delimiter comes. Ctrl-C on a "> " line drops the command.
  await clearScreen(page);
  const rows = () =>
    page
      .locator('.shell-terminal .xterm-rows > div')
      .evaluateAll((rs) => rs.map((r) => (r.textContent ?? '').replace(/\u00a0/g, ' ').trimEnd()))
      .then((rs) => rs.join('\n').trimEnd());
  await page.keyboard.type('cat <<EOF | grep -c cni');
  await page.keyboard.press('Enter');
  await expect.poll(rows).toMatch(/\n>$/);
  for (const line of ['cni0', 'eth0', 'cni-podman0']) {
    await page.keyboard.type(line);
    await page.keyboard.press('Enter');
  }
  await typeLine(page, 'EOF');
  expect(await rows()).toBe(
    'root@node-1:~# cat <<EOF | grep -c cni\n> cni0\n> eth0\n> cni-podman0\n> EOF\n2\nroot@node-1:~#',
  );
  await page.keyboard.type('if true; then');
  await page.keyboard.press('Enter');
  await expect.poll(rows).toMatch(/\n>$/);
  await page.keyboard.press('Control+C');
  await expect.poll(rows).toMatch(/# if true; then\n> \^C\nroot@node-1:~#$/);

  // None of this was a step: the cursor stayed.
  expect(await currentStep(page)).toBe(step);

  // Keyboard alone: Escape, then Tab leaves the terminal.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Tab');
  await expect(page.locator('.shell-terminal textarea')).not.toBeFocused();

  // The Cluster pane with the terminal (the Inspector at this step is another view's matter).
  const axe = await axeOn(page).include('.pane-cluster').analyze();
  expect(
    axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`),
  ).toEqual([]);
  expect(axe.passes.length).toBeGreaterThan(0);
  expect(errors).toEqual([]);
});

test('echo garbage into a cache file is a step, and the next DEL fails as with a corrupted cache', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  await runUntil(page, 'a pod is Running');
  await openShell(page);
  const before = await currentStep(page);

  await typeLine(page, 'cd /var/lib/cni/results');
  expect(await currentStep(page)).toBe(before);
  await typeLine(page, 'echo garbage > containerd-net-*');
  await expect.poll(() => currentStep(page)).toBe(before + 1);
  // The line is a step of the trace, shown in the Steps view.
  await expect(page.getByRole('region', { name: 'Views' })).toContainText(
    "echo garbage > 'containerd-net-*'",
  );
  await page.getByRole('group', { name: 'Shell on node-1' }).click();
  await typeLine(page, 'kubectl delete pod web-0');
  await expect.poll(() => terminalScreen(page)).toContain('pod "web-0" deleted');
  // The first error is libcni's DEL; the second, containerd's StopPodSandbox after it.
  await runUntil(page, 'next error');
  await runUntil(page, 'next error');

  await page.getByRole('group', { name: 'Shell on node-1' }).click();
  await clearScreen(page);
  await typeLine(page, 'journalctl -u containerd -n 1 -o cat');
  const out = await terminalScreen(page);
  expect(out).toContain('level=error msg="StopPodSandbox for');
  expect(out).toContain('failed to destroy network for sandbox');
  expect(out).toContain('failed to get network \\"containerd-net\\" cached result');
  expect(errors).toEqual([]);
});
