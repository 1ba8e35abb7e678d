/// <reference lib="dom" />
/**
 * npm run bench:ui
 *
 * Builds the app and a blank Vite + React page (bench/ui-blank/), serves both with vite preview
 * and measures in headless Chromium (the system one, as the e2e tests):
 *
 * - the JavaScript and CSS of the first screen, gzip (what index.html references: entry,
 *   modulepreloads, stylesheets), and what was fetched before the first paint and before the
 *   sandbox was interactive;
 * - time to interactive: navigation to "Step forward" enabled, against the blank page's first
 *   contentful paint, both in the same run, pages alternating;
 * - step latency: click on "Step forward" to the next painted frame, with 110 pods on node-1
 *   (109 restored from a saved sandbox, the 110th created and stepped through), p50 and p95,
 *   at the end of the trace (each step computes events) and inside it (each step reads states).
 *
 * Figures, not assertions: machines differ and timings swing from run to run.
 */
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { chromium, type Page } from 'playwright-core';
import { build, preview, type PreviewServer } from 'vite';
import { checksumOf, type SavedSession } from '../src/engine/session/serialize';
import { DEFAULT_CLUSTER } from '../src/engine/cluster/cluster';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium';

const ROOT = resolve(import.meta.dirname, '..');
const RUNS = Number(process.env['BENCH_RUNS'] ?? 7);
const CLICKS = Number(process.env['BENCH_CLICKS'] ?? 60);

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? NaN;
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const ms = (n: number) => `${n.toFixed(0)} ms`;

function gz(file: string): number {
  return gzipSync(readFileSync(file), { level: 9 }).length;
}

/** JS and CSS index.html loads before anything runs: the first screen's bytes. */
function criticalAssets(dist: string): string[] {
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const refs = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.(?:js|css))"/g)].map(
    (m) => m[1]!,
  );
  return [...new Set(refs)];
}

async function serve(root: string, outDir: string, port: number): Promise<PreviewServer> {
  return preview({
    root,
    configFile: false,
    logLevel: 'warn',
    base: './',
    build: { outDir },
    preview: { port, strictPort: true, host: '127.0.0.1' },
  });
}

/** Marks "bench:interactive" at the first frame after "Step forward" is enabled. */
const INTERACTIVE_PROBE = `(() => {
  const find = () => Array.from(document.querySelectorAll('button')).find((b) => b.textContent.trim().startsWith('Step forward'));
  let done = false;
  const check = () => {
    const b = find();
    if (done || !b || b.disabled) return;
    done = true;
    obs.disconnect();
    performance.mark('bench:enabled');
    requestAnimationFrame(() => setTimeout(() => performance.mark('bench:interactive'), 0));
  };
  const obs = new MutationObserver(check);
  obs.observe(document, { subtree: true, childList: true, attributes: true });
})();`;

interface Load {
  fcp: number;
  marks: Record<string, number>;
  interactive: number | null;
  resources: { path: string; start: number; end: number }[];
}

async function load(page: Page, url: string, waitInteractive: boolean): Promise<Load> {
  await page.goto(url);
  if (waitInteractive) {
    await page.waitForFunction(() => performance.getEntriesByName('bench:interactive').length > 0, {
      timeout: 30_000,
    });
  } else {
    await page.waitForFunction(
      () => performance.getEntriesByName('first-contentful-paint').length > 0,
    );
  }
  return page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
    const i = performance.getEntriesByName('bench:interactive')[0];
    return {
      fcp,
      interactive: i ? i.startTime : null,
      marks: Object.fromEntries(
        performance
          .getEntriesByType('mark')
          .filter((m) => m.name.startsWith('cnisim:'))
          .map((m) => [m.name.slice(7), m.startTime]),
      ),
      resources: performance
        .getEntriesByType('resource')
        .map((r) => r as PerformanceResourceTiming)
        .map((r) => ({ path: new URL(r.name).pathname, start: r.startTime, end: r.responseEnd })),
    };
  });
}

/** A saved sandbox with a deployment of `pods` on node-1, at its end once replayed. */
function savedWithPods(pods: number): string {
  const body: Omit<SavedSession, 'checksum'> = {
    format: 'cnisim-session',
    version: 1,
    seed: 1,
    cluster: DEFAULT_CLUSTER,
    actions: [
      { step: 0, action: { do: 'scale', deployment: 'web', replicas: pods, node: 'node-1' } },
    ],
    cursor: 2_000_000,
    level: 'kernel',
    trace: { length: 0, digest: '811c9dc5' },
  };
  return JSON.stringify({ ...body, checksum: checksumOf(body) });
}

/**
 * Clicks "Step forward" `n` times; for each, the time from the click to the next painted frame
 * (a step that needs longer work shows "busy": its latency runs until that ends). A string, so
 * that the bundler's helpers do not end up in the page.
 */
const CLICK_LATENCIES = `async (count) => {
  const button = Array.from(document.querySelectorAll('button')).find((b) =>
    b.textContent.trim().startsWith('Step forward'));
  const nextPaint = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
  const idle = async () => { while (document.querySelector('.busy')) await nextPaint(); };
  const out = [];
  for (let i = 0; i < count; i++) {
    await idle();
    const t0 = performance.now();
    button.click();
    await nextPaint();
    await idle();
    out.push(performance.now() - t0);
  }
  return out;
}`;

async function clickLatencies(page: Page, n: number): Promise<number[]> {
  const f = await page.evaluateHandle(CLICK_LATENCIES);
  return (await f.evaluate(
    (fn, count) => (fn as unknown as (c: number) => Promise<number[]>)(count),
    n,
  )) as number[];
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'cnisim-bench-'));
  const appDist = join(tmp, 'app');
  const blankRoot = join(ROOT, 'bench', 'ui-blank');
  const blankDist = join(tmp, 'blank');
  console.log('Building the app and a blank Vite + React page...');
  await build({ root: ROOT, logLevel: 'warn', build: { outDir: appDist, emptyOutDir: true } });
  await build({
    root: blankRoot,
    configFile: false,
    logLevel: 'warn',
    base: './',
    plugins: [react()],
    build: { outDir: blankDist, emptyOutDir: true },
  });

  // Bytes.
  const crit = criticalAssets(appDist);
  const critBytes = crit.reduce((a, f) => a + gz(join(appDist, f)), 0);
  const blankBytes = criticalAssets(blankDist).reduce((a, f) => a + gz(join(blankDist, f)), 0);
  const sizes = new Map(
    readdirSync(join(appDist, 'assets')).map((f) => [f, gz(join(appDist, 'assets', f))]),
  );

  const app = await serve(ROOT, appDist, 4301);
  const blank = await serve(blankRoot, blankDist, 4302);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
    headless: true,
  });
  try {
    const tti: number[] = [];
    const appFcp: number[] = [];
    const blankFcp: number[] = [];
    const marks: Record<string, number[]> = {};
    let beforePaint = 0;
    let beforeInteractive = 0;
    for (let run = 0; run < RUNS + 1; run++) {
      // Alternate which page loads first; each load in a fresh context (empty cache, no storage).
      const order = run % 2 ? ['app', 'blank'] : ['blank', 'app'];
      for (const which of order) {
        const ctx = await browser.newContext({ serviceWorkers: 'block' });
        const page = await ctx.newPage();
        if (which === 'app') {
          await page.addInitScript(INTERACTIVE_PROBE);
          const l = await load(page, 'http://127.0.0.1:4301/', true);
          if (run > 0) {
            tti.push(l.interactive!);
            appFcp.push(l.fcp);
            for (const [k, v] of Object.entries(l.marks)) (marks[k] ??= []).push(v);
            // When the last script the sandbox needed had arrived: what is left after it is
            // evaluation and the sandbox's own work on the main thread.
            const scripts = l.resources.filter(
              (r) => /\.js$/.test(r.path) && r.end <= l.interactive!,
            );
            (marks['scripts-arrived'] ??= []).push(Math.max(...scripts.map((r) => r.end)));
          }
          const bytes = (pred: (r: Load['resources'][number]) => boolean) =>
            l.resources
              .filter((r) => /\.(js|css)$/.test(r.path) && pred(r))
              .reduce((a, r) => a + (sizes.get(r.path.split('/').pop()!) ?? 0), 0);
          beforePaint = bytes((r) => r.start < l.fcp);
          beforeInteractive = bytes((r) => r.end <= l.interactive!);
        } else {
          const l = await load(page, 'http://127.0.0.1:4302/', false);
          if (run > 0) blankFcp.push(l.fcp);
        }
        await ctx.close();
      }
    }

    console.log('\nFirst screen (gzip -9):');
    console.log(`  app, referenced by index.html: ${kib(critBytes)} (${crit.join(', ')})`);
    console.log(`  blank Vite + React page:       ${kib(blankBytes)}`);
    console.log(`  app, requested before first paint: ${kib(beforePaint)}`);
    console.log(`  app, fetched before interactive:   ${kib(beforeInteractive)}`);
    const lazy = [...sizes].sort((a, b) => b[1] - a[1]).map(([f, n]) => `${f} ${kib(n)}`);
    console.log(`  every chunk: ${lazy.join(', ')}`);

    const t = percentile(tti, 50);
    const b = percentile(blankFcp, 50);
    console.log(`\nTime to interactive ("Step forward" enabled), median of ${RUNS}:`);
    console.log(
      `  app: ${ms(t)} (first paint ${ms(percentile(appFcp, 50))}); runs: ${tti.map((x) => x.toFixed(0)).join(', ')}`,
    );
    console.log(
      `  blank page first paint: ${ms(b)}; runs: ${blankFcp.map((x) => x.toFixed(0)).join(', ')}`,
    );
    console.log(`  ratio: ${(t / b).toFixed(2)}x (budget 1.5x)`);
    console.log(
      `  app milestones (median): ${Object.entries(marks)
        .map(([k, v]) => `${k} ${ms(percentile(v, 50))}`)
        .join(', ')}`,
    );

    // Step latency with 110 pods on a node.
    const ctx = await browser.newContext({ serviceWorkers: 'block' });
    const page = await ctx.newPage();
    await page.addInitScript(
      ([key, value]) => {
        if (!sessionStorage.getItem('bench-seeded')) {
          localStorage.setItem(key, value);
          sessionStorage.setItem('bench-seeded', '1');
        }
      },
      ['cnisim.sandbox.v1', savedWithPods(109)] as const,
    );
    const t0 = Date.now();
    await page.goto('http://127.0.0.1:4301/');
    await page
      .getByRole('button', { name: 'Step forward', exact: true })
      .waitFor({ state: 'visible' });
    await page.waitForFunction(
      () => {
        const b = Array.from(document.querySelectorAll('button')).find((x) =>
          x.textContent!.trim().startsWith('Step forward'),
        );
        return b && !b.disabled;
      },
      undefined,
      { timeout: 300_000 },
    );
    const restoreS = (Date.now() - t0) / 1000;
    const steps = await page.locator('.position').textContent();
    console.log(
      `\nStep latency, 110 pods on node-1 (restoring 109 took ${restoreS.toFixed(1)} s; ${steps?.trim()}):`,
    );
    // The 110th pod, created at the end: each step computes the next events.
    await page.getByRole('tab', { name: 'Actions' }).click();
    await page.getByLabel('Pod name').fill('web-last');
    await page.getByRole('button', { name: 'Create pod' }).click();
    await page.getByRole('tab', { name: 'Pods' }).click();
    const atEnd = await clickLatencies(page, CLICKS);
    console.log(
      `  at the end (computing): p50 ${ms(percentile(atEnd, 50))}, p95 ${ms(percentile(atEnd, 95))}, max ${ms(Math.max(...atEnd))}`,
    );
    // Inside the trace: back 2 × CLICKS steps, then forward over recorded states.
    for (let i = 0; i < 2 * CLICKS; i++) await page.keyboard.press('ArrowLeft');
    const inside = await clickLatencies(page, CLICKS);
    console.log(
      `  inside the trace (reading):  p50 ${ms(percentile(inside, 50))}, p95 ${ms(percentile(inside, 95))}, max ${ms(Math.max(...inside))}`,
    );
    await page.evaluate(() => localStorage.clear());
    await ctx.close();
  } finally {
    await browser.close();
    await app.close();
    await blank.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
