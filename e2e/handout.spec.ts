import { expect, test, type Page } from '@playwright/test';
import {
  clearSavedState,
  collectPageErrors,
  expectNoSeriousAxeViolations,
  openApp,
} from './support';

test.afterEach(async ({ page }) => clearSavedState(page));

const TITLE = 'ADD, step by step';
const FIRST = 'The kubelet asks the runtime for a pod sandbox over CRI (RunPodSandbox).';
const LAST = "containerd kept eth0's IP with the sandbox";

/** window.print is counted instead of opening the browser's dialog. */
async function countPrints(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { prints: number; print: () => void };
    w.prints = 0;
    w.print = () => {
      w.prints++;
    };
  });
}
const prints = (page: Page) => page.evaluate('window.prints') as Promise<number>;

async function openLesson(page: Page): Promise<void> {
  await page.goto('./#/lesson/add-step-by-step');
  await expect(page.getByRole('region', { name: TITLE })).toBeVisible({ timeout: 20_000 });
}

/** Every step of the handout has its sentences and its diagram (an SVG). */
async function expectStepsWithDiagrams(page: Page): Promise<void> {
  const handout = page.locator('.handout');
  const steps = handout.locator('.handout-step');
  await expect.poll(() => steps.count()).toBeGreaterThanOrEqual(10);
  const n = await steps.count();
  await expect(handout.locator('.handout-step .handout-diagram svg')).toHaveCount(n, {
    timeout: 30_000,
  });
  for (let i = 0; i < n; i++) {
    await expect(steps.nth(i).locator('p').nth(1)).not.toBeEmpty();
    // An image with a name and, as its description, every message in full.
    const img = steps.nth(i).getByRole('img', { name: /^Sequence of steps \d+ to \d+$/ });
    await expect(img).toHaveAccessibleDescription(/^\d+ messages between .*\(this step\)/);
    // The step's own message is the one set in bold (its first line begins its summary).
    const bold = steps.nth(i).locator('svg text.is-current');
    await expect(bold.first()).toBeAttached();
    const line = ((await bold.first().textContent()) ?? '').trim();
    const summary = (await steps.nth(i).locator('.handout-what').textContent()) ?? '';
    expect(line.length).toBeGreaterThan(0);
    expect(summary.startsWith(line), `step ${i}: "${line}" begins "${summary}"`).toBe(true);
  }
  await expect(steps.filter({ hasText: FIRST })).toHaveCount(1);
  await expect(steps.filter({ hasText: FIRST }).locator('svg')).toBeVisible();
  await expect(steps.filter({ hasText: LAST }).locator('svg')).toBeVisible();
}

test('"Print handout" shows the lesson as a handout, steps with diagrams, and prints it', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = collectPageErrors(page);
  const fetched: string[] = [];
  page.on('request', (r) => fetched.push(r.url()));
  await countPrints(page);
  await openLesson(page);
  await page.getByRole('button', { name: 'Print handout' }).click();

  const handout = page.getByRole('article', { name: TITLE });
  await expect(handout).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: TITLE })).toBeFocused();
  // The app is put away while the handout is shown.
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeHidden();
  await expect(handout.getByRole('status')).toHaveText('The handout is ready to print.', {
    timeout: 30_000,
  });
  await expect.poll(() => prints(page)).toBe(1);
  await expect(handout.getByRole('heading', { name: 'Introduction' })).toBeVisible();
  await expect(handout).toContainText("node-1 runs containerd with containerd's example conflist");
  await expect(handout.getByRole('heading', { name: 'Goals' })).toBeVisible();
  await expect(handout).toContainText('The host end of the pod');
  await expectStepsWithDiagrams(page);
  await expectNoSeriousAxeViolations(page, 'the handout');
  // The diagrams are the app's own SVG: the handout never loads Mermaid.
  expect(fetched.filter((u) => /\/(mermaid|sequenceDiagram)[^/]*\.js/.test(u))).toEqual([]);

  // On paper: no controls, nothing but the handout.
  await page.emulateMedia({ media: 'print' });
  await expect(handout.getByRole('button', { name: 'Print' })).toBeHidden();
  await expect(handout.getByRole('button', { name: 'Back to the lesson' })).toBeHidden();
  await expect(handout.getByText(FIRST)).toBeVisible();
  const pdf = await page.pdf({ format: 'A4' });
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  await page.emulateMedia({ media: 'screen' });

  await handout.getByRole('button', { name: 'Back to the lesson' }).click();
  await expect(handout).toBeHidden();
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Print handout' })).toBeFocused();
  expect(errors).toEqual([]);
});

test('printing a lesson page (Ctrl-P or the browser) prints the handout, not the app', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await countPrints(page);
  await openLesson(page);
  // Prepared in the background once the lesson is open; hidden on screen.
  await expect(page.locator('html.has-handout')).toBeAttached({ timeout: 20_000 });
  await expect(page.locator('.handout')).toBeHidden();

  await page.emulateMedia({ media: 'print' });
  await expect(page.getByRole('article', { name: TITLE })).toBeVisible();
  await expectStepsWithDiagrams(page);
  for (const name of ['Step forward', 'Print handout', 'Presenter'])
    await expect(page.getByRole('button', { name, exact: true })).toBeHidden();
  await expect(page.getByRole('region', { name: 'Views' })).toBeHidden();
  await page.emulateMedia({ media: 'screen' });

  await page.keyboard.press('Control+p');
  await expect.poll(() => prints(page)).toBe(1);
  // Ctrl-P prints without putting the app away.
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeVisible();
});

test('the sandbox never fetches the handout code', async ({ page }) => {
  const fetched: string[] = [];
  page.on('request', (r) => fetched.push(r.url()));
  await openApp(page);
  await page.waitForTimeout(1500);
  expect(fetched.filter((u) => /\/Handout-/.test(u))).toEqual([]);
  // A lesson fetches it once the page is idle.
  await openLesson(page);
  await expect.poll(() => fetched.filter((u) => /\/Handout-/.test(u)).length).toBeGreaterThan(0);
});
