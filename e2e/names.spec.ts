import { expect, test, type Page } from '@playwright/test';
import { clearSavedState, openApp, runUntil } from './support';

// Every control has a name of its own: a screen reader's list of form fields, or a test, can
// tell them apart (three selects in Actions were all "Node").

test.afterEach(async ({ page }) => clearSavedState(page));
test.setTimeout(60_000);

const ROLES = 'combobox|textbox|spinbutton|checkbox|radio|slider|button|switch|searchbox';

/** Controls (role and name) that share their name with another control of the page. */
async function sharedNames(page: Page): Promise<string[]> {
  const snap = await page.locator('body').ariaSnapshot();
  const count = new Map<string, number>();
  for (const m of snap.matchAll(new RegExp(`- (${ROLES}) "((?:[^"\\\\]|\\\\.)*)"`, 'g'))) {
    const key = `${m[1]} "${m[2]}"`;
    count.set(key, (count.get(key) ?? 0) + 1);
  }
  return [...count].filter(([, n]) => n > 1).map(([k, n]) => `${k} ×${n}`);
}

test('no two controls share an accessible name, in any tab', async ({ page }) => {
  await openApp(page);
  await runUntil(page, 'a pod is Running');
  const cluster = page.getByRole('region', { name: 'Cluster' });
  const views = page.getByRole('region', { name: 'Views' });
  for (const tab of ['Pods', 'Files', 'Journal', 'Actions', 'Config']) {
    await cluster.getByRole('tab', { name: tab, exact: true }).click();
    await page.waitForTimeout(300);
    expect(await sharedNames(page), `Cluster: ${tab}`).toEqual([]);
  }
  for (const tab of ['Steps', 'Sequence', 'Topology', 'Machines', 'Metrics']) {
    await views.getByRole('tab', { name: tab, exact: true }).click();
    await page.waitForTimeout(300);
    expect(await sharedNames(page), `Views: ${tab}`).toEqual([]);
  }
});

test.describe('at 1440 px', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("the pods table's cells after the name are one line each", async ({ page }) => {
    await openApp(page);
    await page.getByRole('tab', { name: 'Actions' }).click();
    for (const name of ['db-0', 'db-1']) {
      await page.getByLabel('Pod name').fill(name);
      await page.getByRole('button', { name: 'Create pod', exact: true }).click();
      await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled();
    }
    await runUntil(page, 'a pod is Running');
    await page.getByRole('tab', { name: 'Pods' }).click();
    const table = page.getByRole('region', { name: 'Cluster' }).getByRole('table');
    await expect(table).toContainText('Running');
    await expect(table).toContainText('ContainerCreating');
    const lines = await table.locator('thead th, tbody td').evaluateAll((cells) =>
      cells.map((c) => {
        const r = document.createRange();
        r.selectNodeContents(c);
        const tops = new Set(Array.from(r.getClientRects()).map((x) => Math.round(x.top)));
        return { text: c.textContent, lines: tops.size };
      }),
    );
    expect(lines.filter((l) => l.lines > 1)).toEqual([]);
    expect(lines.map((l) => l.text)).toContain('Running');
  });
});
