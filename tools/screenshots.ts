/**
 * npm run screenshots
 *
 * Builds the app, serves it with vite preview, and saves small screenshots of the main views
 * into docs/screenshots/ (documentation assets shown by the README). Drives the app by roles and
 * accessible names, as the e2e tests do, in the system Chromium.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { build, preview } from 'vite';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium';

const ROOT = resolve(import.meta.dirname, '..');
const OUT = join(ROOT, 'docs', 'screenshots');
const PORT = Number(process.env['SCREENSHOTS_PORT'] ?? 4321);

async function ready(page: Page): Promise<void> {
  await page
    .getByRole('button', { name: 'Step forward', exact: true })
    .and(page.locator(':enabled'))
    .waitFor({ timeout: 60_000 });
}

async function runUntil(page: Page, label: string): Promise<void> {
  await page.getByRole('combobox', { name: 'Run until' }).selectOption({ label });
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await ready(page);
}

async function tab(page: Page, pane: string, name: string): Promise<void> {
  await page.getByRole('region', { name: pane }).getByRole('tab', { name, exact: true }).click();
  await page.getByText('Loading the simulation…').first().waitFor({ state: 'detached' });
}

async function shot(page: Page, name: string): Promise<void> {
  await page.evaluate('document.activeElement && document.activeElement.blur()');
  await page.waitForTimeout(400); // transitions and lazy drawings settle
  await page.screenshot({ path: join(OUT, `${name}.png`), animations: 'disabled' });
  console.log(`docs/screenshots/${name}.png`);
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'cnisim-shots-'));
  const dist = join(tmp, 'dist');
  mkdirSync(OUT, { recursive: true });
  await build({ root: ROOT, logLevel: 'warn', build: { outDir: dist, emptyOutDir: true } });
  const server = await preview({
    root: ROOT,
    logLevel: 'warn',
    build: { outDir: dist },
    preview: { port: PORT, strictPort: true, host: '127.0.0.1' },
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS],
  });
  try {
    // A 1280×720 projector, light and dark.
    for (const scheme of ['light', 'dark'] as const) {
      const ctx = await browser.newContext({
        viewport: { width: 1280, height: 720 },
        colorScheme: scheme,
        serviceWorkers: 'block',
      });
      const page = await ctx.newPage();
      await page.goto(`http://127.0.0.1:${PORT}/`);
      await ready(page);
      if (scheme === 'dark') {
        await shot(page, 'landing-dark');
        await ctx.close();
        continue;
      }
      await shot(page, 'landing');
      await runUntil(page, 'next plugin call');
      await tab(page, 'Views', 'Sequence');
      await page.locator('.seq-view svg').first().waitFor({ timeout: 30_000 });
      await shot(page, 'sequence');
      await runUntil(page, 'a pod is Running');
      await tab(page, 'Views', 'Topology');
      // Back to the step that gives the pod its address: the topology highlights that change.
      const changes = page.getByRole('region', { name: /^Changes at step \d+$/ });
      for (let i = 0; i < 120; i++) {
        const t = (await changes.count()) ? ((await changes.textContent()) ?? '') : '';
        if (/added address 10\.244\.1\.\d+\/24 on eth0/.test(t)) break;
        await page.getByRole('button', { name: 'Step back', exact: true }).click();
      }
      await tab(page, 'Cluster', 'Files');
      await page
        .getByRole('button', { name: /^10\.244\.1\.\d+$/ })
        .first()
        .click();
      await page.getByRole('region', { name: 'File viewer' }).scrollIntoViewIfNeeded();
      await shot(page, 'topology-files');
      await tab(page, 'Views', 'Machines');
      await tab(page, 'Cluster', 'Journal');
      await shot(page, 'machines-journal');
      await tab(page, 'Views', 'Metrics');
      await tab(page, 'Cluster', 'Config');
      await page.getByRole('textbox', { name: /^Contents of/ }).waitFor({ timeout: 30_000 });
      await shot(page, 'metrics-config');
      await ctx.close();
    }
    // A packet walk across nodes (host-gw), on the underlay wire; a lesson's goal beside the start.
    {
      const ctx = await browser.newContext({
        viewport: { width: 1280, height: 720 },
        colorScheme: 'light',
        serviceWorkers: 'block',
      });
      const page = await ctx.newPage();
      await page.goto(`http://127.0.0.1:${PORT}/#/scenario/cross-node-host-gw?step=202`);
      await ready(page);
      await tab(page, 'Cluster', 'Packets');
      await page
        .getByRole('combobox', { name: 'Packet source', exact: true })
        .selectOption({ label: 'pod web-0 (node-1)' });
      const to = page.getByRole('combobox', { name: 'Packet destination', exact: true });
      await to.locator('option', { hasText: 'pod db-0' }).waitFor({ state: 'attached' });
      const db0 = (await to.locator('option').allTextContents()).find((t) =>
        t.startsWith('pod db-0'),
      )!;
      await to.selectOption({ label: db0 });
      await page.getByRole('button', { name: 'Walk the packet' }).click();
      const text = page.locator('.topo-hop-text');
      for (let i = 0; i < 20 && !/· wire/.test((await text.textContent()) ?? ''); i++)
        await page.getByRole('button', { name: 'Next hop' }).click();
      await shot(page, 'topology-walk');
      await page.goto(`http://127.0.0.1:${PORT}/#/lesson/add-step-by-step`);
      await ready(page);
      await page.getByRole('button', { name: 'Show goal' }).click();
      const goal = page.getByRole('region', { name: 'The goal beside your state' });
      await goal.getByRole('heading', { name: 'Topology' }).waitFor({ timeout: 30_000 });
      // The lesson's pane scrolls: the two topologies on their own.
      await page.setViewportSize({ width: 1280, height: 1000 });
      await page.waitForTimeout(400);
      await goal.locator('.goal-topology').screenshot({
        path: join(OUT, 'show-goal.png'),
        animations: 'disabled',
      });
      console.log('docs/screenshots/show-goal.png');
      await ctx.close();
    }
    // Presenter mode on a projector: the narration, the topology and the steps.
    for (const [width, height] of [
      [1280, 720],
      [1920, 1080],
    ] as const) {
      const ctx = await browser.newContext({
        viewport: { width, height },
        colorScheme: 'light',
        serviceWorkers: 'block',
      });
      const page = await ctx.newPage();
      await page.goto(`http://127.0.0.1:${PORT}/`);
      await ready(page);
      await runUntil(page, 'a pod is Running');
      await page.getByRole('button', { name: 'Presenter' }).click();
      await page.locator('svg.topo-svg').waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Step back', exact: true }).click();
      await shot(page, `presenter-${width}`);
      await ctx.close();
    }
    // A phone in portrait: the panes stacked.
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      deviceScaleFactor: 1,
      isMobile: true,
      hasTouch: true,
      serviceWorkers: 'block',
    });
    const page = await phone.newPage();
    await page.goto(`http://127.0.0.1:${PORT}/`);
    await ready(page);
    await shot(page, 'phone');
    await phone.close();
  } finally {
    await browser.close();
    await server.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
