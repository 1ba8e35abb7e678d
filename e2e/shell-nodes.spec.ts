import { expect, test, type Page } from '@playwright/test';
import {
  clearSavedState,
  collectPageErrors,
  currentStep,
  openApp,
  terminalScreen,
  runUntil,
} from './support';

// The shell beyond node-1: each node's terminal in its tab, the cursor after a line that changed
// the node, and a lesson's terminals apart from the sandbox's (issue 16, items 1, 7 and 11).

test.use({ viewport: { width: 1280, height: 800 } });
test.setTimeout(90_000);
test.afterEach(async ({ page }) => clearSavedState(page));

/** Types a line and waits for the next (empty) prompt of `node` after it. */
async function typeLine(page: Page, node: string, line: string): Promise<void> {
  await page.keyboard.type(line);
  await expect.poll(async () => (await terminalScreen(page)).trimEnd()).toMatch(/# \S.*$/);
  await page.keyboard.press('Enter');
  await expect
    .poll(async () => (await terminalScreen(page)).trimEnd(), { timeout: 20_000 })
    .toMatch(new RegExp(`root@${node}:[^#]*#$`));
}

async function openShell(page: Page, node = 'node-1'): Promise<void> {
  await page.getByRole('tab', { name: 'Shell' }).click();
  await expect(page.locator('.shell-terminal .xterm')).toBeVisible({ timeout: 15_000 });
  await expect.poll(() => terminalScreen(page)).toContain(`root@${node}:~#`);
  await page.getByRole('group', { name: `Shell on ${node}` }).click();
}

test("node-2's tab shows node-2's terminal, alone and usable, and each node keeps its screen", async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  await openShell(page);
  await typeLine(page, 'node-1', 'echo typed-on-node-1');

  await page.getByRole('tablist', { name: 'Nodes' }).getByRole('tab', { name: 'node-2' }).click();
  const group = page.getByRole('group', { name: 'Shell on node-2' });
  await expect(group).toBeVisible();
  // One terminal in the panel (node-1's is not left on top of it), fully on screen.
  await expect(page.locator('.shell-terminal .xterm')).toHaveCount(1);
  await expect.poll(() => terminalScreen(page)).toContain('root@node-2:~#');
  expect(await terminalScreen(page)).not.toContain('typed-on-node-1');
  const box = (await page.locator('.shell-terminal .xterm-screen').boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(800);
  expect(box.height).toBeGreaterThan(150);

  // Typed keys reach node-2's shell, and the answers are node-2's.
  await group.click();
  await expect(page.locator('.shell-terminal textarea')).toBeFocused();
  await typeLine(page, 'node-2', 'ip netns add only-on-node-2');
  await typeLine(page, 'node-2', 'ip netns list');
  expect(await terminalScreen(page)).toMatch(/ip netns list\s*only-on-node-2/);
  await typeLine(page, 'node-2', 'journalctl -u kubelet -n 1 --no-pager');
  expect(await terminalScreen(page)).toMatch(/node-2 kubelet\[\d+\]: I0303/);

  // Back to node-1: its own screen, and its node has no such netns.
  await page.getByRole('tablist', { name: 'Nodes' }).getByRole('tab', { name: 'node-1' }).click();
  await expect(page.locator('.shell-terminal .xterm')).toHaveCount(1);
  await expect.poll(() => terminalScreen(page)).toContain('typed-on-node-1');
  await page.getByRole('group', { name: 'Shell on node-1' }).click();
  await typeLine(page, 'node-1', 'ip netns list');
  expect(await terminalScreen(page)).not.toContain('only-on-node-2');
  expect(errors).toEqual([]);
});

test('after a line that changed the node, the next line reads what it left (the cursor follows)', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  await openShell(page);
  await typeLine(page, 'node-1', 'ip netns add demo');
  const before = await currentStep(page);
  await typeLine(
    page,
    'node-1',
    'CNI_PATH=/opt/cni/bin cnitool add containerd-net /var/run/netns/demo',
  );
  expect(await terminalScreen(page)).toContain('"gateway": "10.244.1.1"');
  // The plugin runs are behind the cursor: several steps past the one before the line.
  expect(await currentStep(page)).toBeGreaterThan(before + 1);
  await page.keyboard.type('clear');
  await page.keyboard.press('Enter');
  await typeLine(page, 'node-1', 'ip -n demo -br addr');
  expect(await terminalScreen(page)).toMatch(/eth0@if\d+ +UP +10\.244\.1\.\d+\/24/);
  expect(errors).toEqual([]);
});

test("a lesson's shell does not show what was typed in the sandbox", async ({ page }) => {
  await openApp(page);
  await openShell(page);
  await typeLine(page, 'node-1', 'echo typed-in-the-sandbox');
  await page.goto('./#/lesson/add-step-by-step');
  await expect(page.getByRole('region', { name: 'ADD, step by step' })).toBeVisible({
    timeout: 20_000,
  });
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
    timeout: 20_000,
  });
  await openShell(page);
  expect(await terminalScreen(page)).not.toContain('typed-in-the-sandbox');
  await typeLine(page, 'node-1', 'echo typed-in-the-lesson');
  // Back in the sandbox: its terminal again, without the lesson's line.
  await page.goto('./#/');
  await expect(page.getByRole('region', { name: 'ADD, step by step' })).toHaveCount(0, {
    timeout: 20_000,
  });
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
    timeout: 20_000,
  });
  await openShell(page);
  await expect.poll(() => terminalScreen(page)).toContain('typed-in-the-sandbox');
  expect(await terminalScreen(page)).not.toContain('typed-in-the-lesson');
});

test.describe('at 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("the terminal is wide enough for crictl's table: each pod is one row", async ({ page }) => {
    await openApp(page);
    await runUntil(page, 'a pod is Running');
    await openShell(page);
    await typeLine(page, 'node-1', 'crictl pods');
    const rows = await page
      .locator('.shell-terminal .xterm-rows > div')
      .evaluateAll((rs) => rs.map((r) => (r.textContent ?? '').replace(/\u00a0/g, ' ')));
    expect(
      rows.some((r) => /^POD ID +CREATED +STATE +NAME +NAMESPACE +ATTEMPT +RUNTIME\s*$/.test(r)),
    ).toBe(true);
    expect(
      rows.some((r) => /^[0-9a-f]{13} +.+ago +Ready +web-0 +default +0 +\(default\)\s*$/.test(r)),
    ).toBe(true);
  });
});

test("a node's tab, clicked, hands the keys to that node's terminal, not to the app's shortcuts", async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  await openShell(page);
  const nodes = page.getByRole('tablist', { name: 'Nodes' });
  const presenter = page.getByRole('button', { name: 'Presenter' });
  const step = await currentStep(page);

  // The operator clicks node-2's tab and types at once: every key is node-2's, none the app's
  // (P would turn presenter mode on, Space play the trace, → step, 1–4 change the level).
  await nodes.getByRole('tab', { name: 'node-2' }).click();
  await expect(page.locator('.shell-terminal textarea')).toBeFocused();
  await typeLine(page, 'node-2', 'echo p 1 2');
  expect(await terminalScreen(page)).toMatch(/echo p 1 2\s*p 1 2/);
  await expect(presenter).toHaveAttribute('aria-pressed', 'false');
  expect(await currentStep(page)).toBe(step);

  // Back to node-1 with a click, the same: the keys reach node-1's terminal.
  await nodes.getByRole('tab', { name: 'node-1' }).click();
  await expect(page.locator('.shell-terminal textarea')).toBeFocused();
  await typeLine(page, 'node-1', 'echo on node-1');
  expect(await terminalScreen(page)).toMatch(/echo on node-1\s*on node-1/);
  // The selected tab clicked again gives the focus back to its terminal too.
  await page.getByRole('button', { name: 'Step forward', exact: true }).focus();
  await nodes.getByRole('tab', { name: 'node-1' }).click();
  await expect(page.locator('.shell-terminal textarea')).toBeFocused();
  await expect(presenter).toHaveAttribute('aria-pressed', 'false');

  // The keyboard way stays the tabs pattern's: arrows move between the tabs, the focus with them.
  await nodes.getByRole('tab', { name: 'node-1' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(nodes.getByRole('tab', { name: 'node-2' })).toBeFocused();
  await expect(nodes.getByRole('tab', { name: 'node-2' })).toHaveAttribute('aria-selected', 'true');
  expect(errors).toEqual([]);
});

test('the Shell tab, clicked, hands the keys to the terminal: "ip a" is typed, not P', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  const step = await currentStep(page);
  // The operator clicks Shell and types at once, as in a terminal window.
  await page.getByRole('tab', { name: 'Shell' }).click();
  await expect(page.locator('.shell-terminal textarea')).toBeFocused({ timeout: 15_000 });
  await expect.poll(() => terminalScreen(page)).toContain('root@node-1:~#');
  await typeLine(page, 'node-1', 'ip a');
  expect(await terminalScreen(page)).toMatch(/ip a\s*1: lo: <LOOPBACK,UP,LOWER_UP>/);
  await expect(page.getByRole('button', { name: 'Presenter' })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  expect(await currentStep(page)).toBe(step);
  // Clicked again while shown, the same.
  await page.getByRole('button', { name: 'Step forward', exact: true }).focus();
  await page.getByRole('tab', { name: 'Shell' }).click();
  await expect(page.locator('.shell-terminal textarea')).toBeFocused();
  // By the keyboard the tabs pattern holds: the focus stays on the tab, arrows move it.
  await page.getByRole('tab', { name: 'Shell' }).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByRole('tab', { name: 'Packets' })).toBeFocused();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Shell' })).toBeFocused();
  await expect(page.locator('.shell-terminal .xterm')).toBeVisible();
  expect(errors).toEqual([]);
});
