import { expect, test, type Page } from '@playwright/test';
import { axeOn, clearSavedState, collectPageErrors, openApp, terminalScreen } from './support';

// A node's containerd release: shown in its header, picked in the Actions panel, and running
// from the next `Restart containerd` (docs/runtimes.md, "Changing a node's release").

test.use({ viewport: { width: 1280, height: 800 } });
test.setTimeout(120_000);
test.afterEach(async ({ page }) => clearSavedState(page));

/** Clears the screen, types a line and returns what the screen shows after it ran. */
async function run(page: Page, line: string): Promise<string> {
  await page.getByRole('group', { name: 'Shell on node-1' }).click();
  await page.keyboard.type('clear');
  await page.keyboard.press('Enter');
  await expect
    .poll(async () => (await terminalScreen(page)).trim())
    .toMatch(/^root@node-1:[^#]*#$/);
  await page.keyboard.type(line);
  await page.keyboard.press('Enter');
  await expect
    .poll(async () => (await terminalScreen(page)).trimEnd(), { timeout: 15_000 })
    .toMatch(/#.*\n?[\s\S]*root@node-1:[^#]*#$/);
  return terminalScreen(page);
}

function header(page: Page) {
  return page.getByRole('region', { name: 'Cluster' }).getByRole('group', { name: 'Node node-1' });
}

async function openTab(page: Page, name: string): Promise<void> {
  await page
    .getByRole('region', { name: 'Cluster' })
    .getByRole('tab', { name, exact: true })
    .click();
}

test('pick a release, restart containerd: the header and the node shell follow', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  await openTab(page, 'Pods');
  await expect(header(page)).toContainText('node-1: Ready=True');
  await expect(header(page)).toContainText('containerd 1.7.22');
  await expect(
    header(page).getByTitle('behaviour range 1.7.0–1.7.22; go-cni v1.1.9, libcni v1.1.2'),
  ).toBeVisible();

  await openTab(page, 'Actions');
  const actions = page.getByRole('region', { name: 'Cluster' });
  await expect(actions).toContainText(
    'node-1 runs containerd 1.7.22 (behaviour range 1.7.0–1.7.22; go-cni v1.1.9, libcni v1.1.2)',
  );
  const field = page.getByRole('combobox', { name: 'containerd release to install' });
  const install = page.getByRole('button', { name: 'Install containerd release', exact: true });
  // A number that is no release: the engine's error, and nothing to install.
  await field.fill('1.8.0');
  await expect(page.getByRole('alert')).toContainText(
    'unknown containerd release "1.8.0": expected a release number like "1.7.22"',
  );
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(install).toBeDisabled();

  await field.fill('2.0.0');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await install.click();
  await expect(page.getByRole('status')).toContainText(
    'containerd 2.0.0 installed on node-1 at step',
  );
  await expect(page.getByRole('status')).toContainText('it takes effect on restart');
  await expect(actions).toContainText('containerd 2.0.0 is installed: it takes effect on restart.');
  // The step of the install shows what changed: containerd's installed release.
  const inspector = page.getByRole('region', { name: 'Inspector' });
  await expect(inspector).toContainText(
    "containerd 2.0.0 installed: it runs from containerd's next start",
  );
  await expect(inspector).toContainText('containerd.installed');

  // Before the restart: the daemon still runs 1.7.22; the binary on disk is 2.0.0.
  await openTab(page, 'Pods');
  await expect(header(page)).toContainText('containerd 1.7.22');
  await expect(header(page)).toContainText('2.0.0 installed: takes effect on restart');
  await openTab(page, 'Shell');
  await expect(page.locator('.shell-terminal .xterm')).toBeVisible({ timeout: 15_000 });
  expect(await run(page, 'crictl version')).toContain('RuntimeVersion:  v1.7.22');
  expect(await run(page, 'containerd --version')).toContain(
    'containerd github.com/containerd/containerd/v2 v2.0.0 ',
  );

  // Restart containerd: once it is up again, it runs 2.0.0.
  await openTab(page, 'Actions');
  await page.getByRole('combobox', { name: 'Node', exact: true }).selectOption('node-1');
  await page.getByRole('button', { name: 'Restart containerd', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
    timeout: 30_000,
  });
  await openTab(page, 'Pods');
  await page.evaluate('document.activeElement && document.activeElement.blur()');
  for (let i = 0; i < 200; i++) {
    if (((await header(page).textContent()) ?? '').includes('containerd 2.0.0')) break;
    await page.keyboard.press('ArrowRight');
  }
  await expect(header(page)).toContainText('containerd 2.0.0');
  await expect(header(page)).not.toContainText('installed');
  await expect(
    header(page).getByTitle('behaviour range 2.0.0; go-cni v1.1.10, libcni v1.2.3'),
  ).toBeVisible();

  await openTab(page, 'Shell');
  expect(await run(page, 'crictl version')).toContain('RuntimeVersion:  v2.0.0');
  expect(await run(page, 'containerd --version')).toContain(' v2.0.0 ');

  await openTab(page, 'Actions');
  await expect(actions).toContainText(
    'node-1 runs containerd 2.0.0 (behaviour range 2.0.0; go-cni v1.1.10, libcni v1.2.3)',
  );
  const axe = await axeOn(page).include('.pane-cluster').analyze();
  expect(
    axe.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(', ')}`),
  ).toEqual([]);
  expect(errors).toEqual([]);
});
