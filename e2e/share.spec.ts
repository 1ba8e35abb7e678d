import { expect, test, type Page } from '@playwright/test';
import {
  clearSavedState,
  collectPageErrors,
  currentStep,
  expectNoSeriousAxeViolations,
  openApp,
} from './support';

test.afterEach(async ({ page }) => clearSavedState(page));
// Stepping one click at a time on a busy 2-core machine: room to spare.
test.describe.configure({ timeout: 90_000 });

async function stepTo(page: Page, step: number): Promise<void> {
  while ((await currentStep(page)) < step) {
    const before = await currentStep(page);
    await page.getByRole('button', { name: 'Step forward', exact: true }).click();
    await expect.poll(() => currentStep(page)).toBe(before + 1);
  }
}

async function savedCursor(page: Page): Promise<number | null> {
  const text = (await page.evaluate("localStorage.getItem('cnisim.sandbox.v1')")) as string | null;
  return text === null ? null : (JSON.parse(text) as { cursor: number }).cursor;
}

async function shareLink(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Share' });
  const field = dialog.getByRole('textbox', { name: 'Link' });
  await expect(field).toHaveValue(/#\/s\/[A-Za-z0-9_-]+$/);
  const url = await field.inputValue();
  await dialog.getByRole('button', { name: 'Copy link' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Link copied.');
  expect(await page.evaluate('navigator.clipboard.readText()')).toBe(url);
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  return url;
}

test('a shared link opens the same step and views, and never overwrites my sandbox', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const errors = collectPageErrors(page);
  await openApp(page);
  const start = await currentStep(page);
  await stepTo(page, start + 3);
  await page.getByRole('tab', { name: 'Journal' }).click();
  const url = await shareLink(page);

  // My own sandbox moves on, and is saved.
  await page.getByRole('tab', { name: 'Pods' }).click();
  await stepTo(page, start + 6);
  await expect.poll(() => savedCursor(page)).toBe(start + 5);

  // The link, opened in the same tab: its step and views, and a banner.
  await page.goto(url);
  await expect.poll(() => currentStep(page)).toBe(start + 3);
  await expect(page.getByRole('tab', { name: 'Journal' })).toHaveAttribute('aria-selected', 'true');
  const banner = page.getByRole('region', { name: 'Shared sandbox' });
  await expect(banner).toContainText('You opened a shared sandbox.');
  await expectNoSeriousAxeViolations(page, 'shared link');

  // Working in it changes nothing saved.
  await stepTo(page, start + 4);
  await page.waitForTimeout(600);
  expect(await savedCursor(page)).toBe(start + 5);

  // Back to my sandbox: my step, no hash.
  await banner.getByRole('button', { name: 'Back to my sandbox' }).click();
  await expect.poll(() => currentStep(page)).toBe(start + 6);
  await expect(banner).toBeHidden();
  expect(new URL(page.url()).hash).toBe('');

  // A fresh page load of the link works too; "Keep this as my sandbox" saves it.
  const other = await context.newPage();
  await other.goto(url);
  await expect.poll(() => currentStep(other)).toBe(start + 3);
  await other.getByRole('button', { name: 'Keep this as my sandbox' }).click();
  await expect.poll(() => savedCursor(other)).toBe(start + 2);
  expect(new URL(other.url()).hash).toBe('');
  await other.close();
  expect(errors).toEqual([]);
});

test('a tampered or hostile link opens the default sandbox with a clear message', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  const start = await currentStep(page);
  await stepTo(page, start + 2);
  await expect.poll(() => savedCursor(page)).toBe(start + 1);

  for (const hash of [
    '#/s/AY2QsXKDMBBE_-VqmYCNA6FNmnSZtBkXsnSAJoAcSeCC0b9nZUKfTrO3-7R3K3n23',
    `#/s/${encodeURIComponent('<img src=x onerror="window.__pwned=1">')}`,
    `#/s/${'A'.repeat(40_000)}`,
  ]) {
    await page.goto(`./${hash}`);
    await expect(
      page.getByRole('alert').filter({ hasText: 'This link cannot be opened' }),
    ).toBeVisible();
    await expect.poll(() => currentStep(page)).toBe(start);
    await expect(page.getByRole('region', { name: 'Shared sandbox' })).toBeVisible();
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await page.locator('img').count()).toBe(0);
    await page.getByRole('button', { name: 'Dismiss notice' }).first().click();
  }
  expect(await savedCursor(page)).toBe(start + 1);
  await page.getByRole('button', { name: 'Back to my sandbox' }).click();
  await expect.poll(() => currentStep(page)).toBe(start + 2);
  expect(errors).toEqual([]);
});

test('exports: the sequence, the topology and the trace; the trace opens again', async ({
  page,
  browser,
}) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  const start = await currentStep(page);
  await stepTo(page, start + 12);
  const dialog = page.getByRole('dialog', { name: 'Share' });
  const exports = dialog.getByRole('group', { name: 'Export' });

  async function exported(label: string): Promise<{ name: string; body: Buffer }> {
    if (!(await dialog.isVisible())) {
      await page.getByRole('button', { name: 'Share', exact: true }).click();
    }
    const [download] = await Promise.all([
      page.waitForEvent('download', { timeout: 20_000 }),
      exports.getByRole('button', { name: label }).click(),
    ]);
    const path = await download.path();
    const { readFile } = await import('node:fs/promises');
    return { name: download.suggestedFilename(), body: await readFile(path) };
  }

  // "Embed" writes the HTML for this sandbox at this step.
  await page.getByRole('button', { name: 'Share', exact: true }).click();
  await dialog.getByRole('button', { name: 'Embed', exact: true }).click();
  await expect(dialog.getByRole('textbox', { name: 'Embed code' })).toHaveValue(
    new RegExp(`<cni-sim scenario="[A-Za-z0-9_-]+" step="${start + 12}" views="steps,inspector"`),
  );

  const mmd = await exported('Sequence (Mermaid)');
  expect(mmd.name).toBe(`cnisim-step-${start + 12}.mmd`);
  expect(mmd.body.toString()).toMatch(/^sequenceDiagram\n/);
  expect(mmd.body.toString()).toContain('participant');

  const seq = await exported('Sequence (SVG)');
  expect(seq.name).toBe(`cnisim-step-${start + 12}-sequence.svg`);
  expect(seq.body.toString()).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);

  const topo = await exported('Topology (SVG)');
  expect(topo.body.toString()).toContain('<svg');
  expect(topo.body.toString()).toContain('node-1');
  const png = await exported('Topology (PNG)');
  expect(png.name).toBe(`cnisim-step-${start + 12}-topology.png`);
  expect(png.body.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));

  const trace = await exported('Trace (JSON)');
  const json = JSON.parse(trace.body.toString()) as { format: string; events: unknown[] };
  expect(json.format).toBe('cnisim-trace');
  expect(json.events.length).toBeGreaterThanOrEqual(start + 12);

  // In another browser (a fresh sandbox), the file opens at its step.
  const elsewhere = await browser.newContext({
    baseURL: new URL('./', page.url()).href,
    serviceWorkers: 'block',
  });
  const other = await elsewhere.newPage();
  const otherErrors = collectPageErrors(other);
  await openApp(other);
  expect(await currentStep(other)).toBe(start);
  await other.getByRole('button', { name: 'Share', exact: true }).click();
  await other
    .getByRole('dialog', { name: 'Share' })
    .getByLabel('Open a trace (JSON)')
    .setInputFiles({ name: trace.name, mimeType: 'application/json', buffer: trace.body });
  await expect.poll(() => currentStep(other)).toBe(start + 12);
  await expect(other.getByRole('status').filter({ hasText: 'the same trace' })).toBeVisible();
  await expect(other.getByRole('region', { name: 'Shared sandbox' })).toBeVisible();
  await elsewhere.close();
  expect(errors).toEqual([]);
  expect(otherErrors).toEqual([]);
});

test('a scenario file and a lesson’s step have addresses; an unknown scenario opens my sandbox', async ({
  page,
  context,
}) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  const start = await currentStep(page);
  await stepTo(page, start + 2);
  await expect.poll(() => savedCursor(page)).toBe(start + 1);

  // A scenario file of the build, at a step: on its own, like a shared link.
  await page.goto('./#/scenario/silent-ip-leak?step=25');
  await expect.poll(() => currentStep(page)).toBe(25);
  const banner = page.getByRole('region', { name: 'Shared sandbox' });
  await expect(banner).toContainText('You opened the scenario “silent-ip-leak”.');
  await page.waitForTimeout(600);
  expect(await savedCursor(page)).toBe(start + 1);
  await banner.getByRole('button', { name: 'Back to my sandbox' }).click();
  await expect.poll(() => currentStep(page)).toBe(start + 2);

  // A name the build does not have: a message listing the scenarios, and my sandbox.
  await page.goto('./#/scenario/no-such-scenario');
  await expect(
    page.getByRole('alert').filter({ hasText: 'There is no scenario "no-such-scenario"' }),
  ).toContainText('silent-ip-leak');
  await expect.poll(() => currentStep(page)).toBe(start + 2);
  await expect(banner).toBeHidden();
  expect(new URL(page.url()).hash).toBe('');

  // A lesson's step: the same moment, narration and all, from its address.
  await page.goto('./#/lesson/add-step-by-step');
  const lesson = page.getByRole('region', { name: 'ADD, step by step' });
  await expect(lesson).toBeVisible({ timeout: 20_000 });
  // Where the learner takes over nothing runs by itself: three steps back into its start.
  const begin = await currentStep(page);
  for (let i = 1; i <= 3; i++) {
    await page.getByRole('button', { name: 'Step back', exact: true }).click();
    await expect.poll(() => currentStep(page)).toBe(begin - i);
  }
  const narration = await lesson.getByLabel('What happens at this step').innerText();
  expect(narration.length).toBeGreaterThan(10);
  const other = await context.newPage();
  await other.goto(`./#/lesson/add-step-by-step?step=${begin - 3}`);
  await expect.poll(() => currentStep(other), { timeout: 20_000 }).toBe(begin - 3);
  await expect(
    other
      .getByRole('region', { name: 'ADD, step by step' })
      .getByLabel('What happens at this step'),
  ).toHaveText(narration);
  await other.close();
  expect(errors).toEqual([]);
});
