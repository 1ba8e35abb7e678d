import AxeBuilder from '@axe-core/playwright';
import { expect, type Frame, type Page } from '@playwright/test';

/** Collects uncaught page errors and console errors, to assert none happened. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(`console.error: ${msg.text()}`);
  });
  return errors;
}

/** Opens the app and waits until the sandbox is interactive ("Step forward" enabled). */
export async function openApp(page: Page): Promise<void> {
  await page.goto('./');
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
    timeout: 15_000,
  });
  // "Step forward" works on the landing's engine first; the tests act on the whole app, whose
  // panes and panels settle once the whole engine is in (boot.ts marks cnisim:ready).
  // Checked in the page every 50 ms: expect.poll's back-off (100, 250, 500, then 1000 ms) kept
  // waiting up to a second after the mark, in each of the ~100 tests that open the app.
  await page.waitForFunction(
    () => performance.getEntriesByName('cnisim:ready').length === 1,
    undefined,
    { polling: 50, timeout: 15_000 },
  );
}

/** Opens the app and waits only for the landing: "Step forward" enabled. */
export async function openLanding(page: Page): Promise<void> {
  await page.goto('./');
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
    timeout: 15_000,
  });
}

/** The app saves the sandbox in localStorage: tests leave none behind. */
export async function clearSavedState(page: Page): Promise<void> {
  if (page.isClosed() || !page.url().startsWith('http')) return;
  await page.evaluate('localStorage.clear()').catch(() => undefined);
}

/** Unregisters the service workers and deletes the caches of a page or frame's origin. */
export async function clearServiceWorkers(target: Page | Frame): Promise<void> {
  if (!target.url().startsWith('http')) return;
  await target
    .evaluate(
      `Promise.all([
        navigator.serviceWorker.getRegistrations().then((rs) => Promise.all(rs.map((r) => r.unregister()))),
        caches.keys().then((ks) => Promise.all(ks.map((k) => caches.delete(k)))),
      ])`,
    )
    .catch(() => undefined);
}

/** Whether a service worker controls the page or frame (waits for one to be ready). */
export function controlledByServiceWorker(target: Page | Frame): Promise<boolean> {
  return target.evaluate(
    'navigator.serviceWorker.ready.then(() => navigator.serviceWorker.controller !== null)',
  ) as Promise<boolean>;
}

export function stepCounter(page: Page) {
  return page.locator('.position strong');
}

export async function currentStep(page: Page): Promise<number> {
  return Number(await stepCounter(page).textContent());
}

/** The pods table of the Cluster pane (opens the Pods tab). */
export async function podsTable(page: Page) {
  await page.getByRole('tab', { name: 'Pods' }).click();
  return page.getByRole('region', { name: 'Cluster' }).getByRole('table');
}

export async function podIpCell(page: Page, pod: string) {
  const table = await podsTable(page);
  return table
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: pod }) })
    .getByRole('cell')
    .nth(4);
}

/**
 * Axe for a page, set up for what the tests read: the violations. Axe gathers every node of only
 * those (the other result types keep one node each), and a page without frames is analysed in
 * place with axe.run instead of frame by frame with the parts put together in a new blank page:
 * the same rules and violations, in about a third of the time (an app scan took 7.3 s, now 2.8 s,
 * on a loaded 2-core machine). A page with frames keeps the frame-by-frame run, which also
 * reaches frames of another origin.
 */
export function axeOn(page: Page): AxeBuilder {
  const builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
  return page.frames().length === 1 ? builder.setLegacyMode() : builder;
}

/** Axe: no serious or critical violations in the page as it is now. */
export async function expectNoSeriousAxeViolations(page: Page, what: string): Promise<void> {
  const results = await axeOn(page).analyze();
  const blocking = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${what}: ${v.impact}: ${v.id} — ${v.help} (${v.nodes.map((n) => n.target).join(', ')})`,
    );
  expect(blocking).toEqual([]);
}

/** A node's terminal screen as one string: rows joined, so that wrapped lines read whole. */
export async function terminalScreen(page: Page): Promise<string> {
  return page
    .locator('.shell-terminal .xterm-rows > div')
    .evaluateAll((rows) => rows.map((r) => (r.textContent ?? '').replace(/\u00a0/g, ' ')).join(''));
}

/** "Run until <label>" from the step controls, and the run's end ("Step forward" enabled again). */
export async function runUntil(page: Page, label: string): Promise<void> {
  await page
    .getByRole('group', { name: 'Run until' })
    .getByRole('combobox')
    .selectOption({ label });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Step forward', exact: true })).toBeEnabled({
    timeout: 20_000,
  });
}

/** "Run until a pod is Running", until the Cluster pane shows the pod's address. */
export async function runUntilPodShown(page: Page): Promise<void> {
  const group = page.getByRole('group', { name: 'Run until' });
  await group.getByRole('combobox').selectOption({ label: 'a pod is Running' });
  await group.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByRole('region', { name: 'Cluster' })).toContainText('10.244.1.', {
    timeout: 15_000,
  });
}
