/// <reference lib="dom" />
/**
 * npm run bench:ui
 *
 * Builds the app and a blank Vite + React page (bench/ui-blank/), serves both with vite preview
 * and measures in headless Chromium (the system one, as the e2e tests):
 *
 * - the JavaScript and CSS of the first screen, gzip (what index.html references: entry,
 *   modulepreloads, stylesheets);
 * - for the app (index.html) and the embed (embed.html, the default sandbox), against the blank
 *   page, in BENCH_RUNS (15) rounds where the three pages load in turn, in a rotating order, each
 *   in a fresh context: first contentful paint, the moment "Step forward" is enabled, and the
 *   bytes fetched before it (all, and the engine's code: the part of each chunk that comes from
 *   src/engine or the packages only it uses), and the longest main-thread task of the load (Long
 *   Tasks API, the blank page's too), as medians with min and max;
 * - reopening a saved 110-pod sandbox (BENCH_REOPENS, 7; 0 skips it): a scale to 110 pods on
 *   the default cluster run until nothing is left to happen (about 6,500 steps), reopened from
 *   localStorage (a reload, after a visit: warm caches) and from its share link (a fresh
 *   context: cold caches): from navigation to "Step forward" enabled at the saved step, median
 *   with min and max (budget: 1 s, issue 16), and the longest main-thread task of each reopening
 *   (Long Tasks API; budget: 200 ms, issue 17; BENCH_VERBOSE=1 lists them all);
 * - step latency (BENCH_CLICKS, 60; 0 skips it): click on "Step forward" to the next painted
 *   frame, with 110 pods on node-1 (109 restored from a saved sandbox, the 110th created and
 *   stepped through), then with BENCH_BIG_PODS (500; 0 skips it) on 3 nodes with /22 pod CIDRs
 *   (budget: p95 under 50 ms, issue 13), p50 and p95, at the end of the trace (each step
 *   computes events) and inside it (each step reads states).
 *
 * Figures, not assertions: machines differ and timings swing from run to run.
 */
import { readFileSync, readdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { chromium, type Browser, type Page } from 'playwright-core';
import { build, preview, type PreviewServer } from 'vite';
import { newSandbox } from '../src/engine/session/index';
import { checksumOf, serializeSession, type SavedSession } from '../src/engine/session/serialize';
import { encodeLink } from '../src/ui/share/link';
import { type ClusterSpec, DEFAULT_CLUSTER } from '../src/engine/cluster/cluster';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium';

const ROOT = resolve(import.meta.dirname, '..');
const RUNS = Number(process.env['BENCH_RUNS'] ?? 15);
const CLICKS = Number(process.env['BENCH_CLICKS'] ?? 60);
const REOPENS = Number(process.env['BENCH_REOPENS'] ?? 7);
const BIG_PODS = Number(process.env['BENCH_BIG_PODS'] ?? 500);
// The app's port, the blank page's next to it (BENCH_PORT: two benches on one machine).
const PORT = Number(process.env['BENCH_PORT'] ?? 4301);

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
    performance.mark('cnisim:enabled');
    requestAnimationFrame(() => setTimeout(() => performance.mark('bench:interactive'), 0));
  };
  const obs = new MutationObserver(check);
  obs.observe(document, { subtree: true, childList: true, attributes: true });
})();`;

/** Records every long task (over 50 ms) of the page, [start, duration], in window.__longTasks. */
const LONG_TASKS = `(() => {
  window.__longTasks = [];
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__longTasks.push([Math.round(e.startTime), Math.round(e.duration)]); })
    .observe({ type: 'longtask', buffered: true });
})();`;

/** The page's long tasks so far, after a moment for the last report. */
async function longTasks(page: Page): Promise<[number, number][]> {
  await page.waitForTimeout(300);
  return page.evaluate(
    () => (window as unknown as { __longTasks: [number, number][] }).__longTasks,
  );
}

/** The longest of `tasks` (0 if none took over 50 ms). */
const longestOf = (tasks: [number, number][]) => Math.max(0, ...tasks.map(([, d]) => d));

/** The longest task so far. */
async function longestTask(page: Page): Promise<number> {
  return longestOf(await longTasks(page));
}

/** "over 200 ms in 3 of 15": how many of the longest tasks went past issue 17's budget. */
const overBudget = (longest: number[]) =>
  `over 200 ms in ${longest.filter((t) => t > 200).length} of ${longest.length}`;

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
/** Three nodes with /22 pod CIDRs, as `npm run bench`'s clusters (room for 500 pods). */
const THREE_NODES: ClusterSpec = {
  nodes: [0, 1, 2].map((i) => ({ name: `node-${i + 1}`, podCIDR: `10.244.${i * 4}.0/22` })),
};

/** The most replicas one saved scale action may ask for (session/serialize.ts). */
const MAX_REPLICAS = 250;

/**
 * A saved sandbox with `pods` pods: of `web` on node-1 of the default cluster, or spread over the
 * nodes of `cluster` by the scheduler, in deployments of at most MAX_REPLICAS.
 */
function savedWithPods(pods: number, cluster?: ClusterSpec): string {
  const names = ['web', 'api', 'db', 'cache', 'queue', 'auth'];
  const actions: SavedSession['actions'] = cluster
    ? names
        .map((deployment, i) => ({
          step: 0,
          action: {
            do: 'scale' as const,
            deployment,
            replicas: Math.min(MAX_REPLICAS, pods - i * MAX_REPLICAS),
          },
        }))
        .filter((a) => a.action.replicas > 0)
    : [{ step: 0, action: { do: 'scale', deployment: 'web', replicas: pods, node: 'node-1' } }];
  const body: Omit<SavedSession, 'checksum'> = {
    format: 'cnisim-session',
    version: 1,
    seed: 1,
    cluster: cluster ?? DEFAULT_CLUSTER,
    actions,
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

/**
 * Step latency with a sandbox reopened from `saved` (its last pod still to come): the last pod
 * created at the end, then "Step forward" at the end of the trace (each step computes the next
 * events) and inside it (each step reads recorded states).
 */
async function stepLatency(browser: Browser, label: string, saved: string): Promise<void> {
  const ctx = await browser.newContext({ serviceWorkers: 'block' });
  const page = await ctx.newPage();
  await page.addInitScript(
    ([key, value]) => {
      if (!sessionStorage.getItem('bench-seeded')) {
        localStorage.setItem(key, value);
        sessionStorage.setItem('bench-seeded', '1');
      }
    },
    ['cnisim.sandbox.v1', saved] as const,
  );
  const t0 = Date.now();
  await page.goto(`http://127.0.0.1:${PORT}/`);
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
  // A save the app refuses leaves the landing's 16 steps: no figures for that.
  if (Number(/of (\d+)/.exec(steps ?? '')?.[1] ?? 0) < 1000)
    throw new Error(`${label}: the saved sandbox was not restored (${steps?.trim()})`);
  console.log(
    `\nStep latency, ${label} (restoring all but the last pod took ${restoreS.toFixed(1)} s; ${steps?.trim()}):`,
  );
  await page.getByRole('tab', { name: 'Actions' }).click();
  await page.getByLabel('Pod name').fill('web-last');
  await page.getByRole('button', { name: 'Create pod' }).click();
  await page.getByRole('tab', { name: 'Pods' }).click();
  const atEnd = await clickLatencies(page, CLICKS);
  console.log(
    `  at the end (computing): p50 ${ms(percentile(atEnd, 50))}, p95 ${ms(percentile(atEnd, 95))}, max ${ms(Math.max(...atEnd))}`,
  );
  for (let i = 0; i < 2 * CLICKS; i++) await page.keyboard.press('ArrowLeft');
  const inside = await clickLatencies(page, CLICKS);
  console.log(
    `  inside the trace (reading):  p50 ${ms(percentile(inside, 50))}, p95 ${ms(percentile(inside, 95))}, max ${ms(Math.max(...inside))}`,
  );
  await page.evaluate(() => localStorage.clear());
  await ctx.close();
}

/** Median, min and max of a series, as printed. */
function stats(xs: number[]): { median: number; min: number; max: number } {
  return { median: percentile(xs, 50), min: Math.min(...xs), max: Math.max(...xs) };
}
const series = (xs: number[]) => {
  const s = stats(xs);
  return `${ms(s.median)} (min ${ms(s.min)}, max ${ms(s.max)})`;
};

/**
 * What the engine is in each chunk of the app's build: the share of its rendered code that comes
 * from src/engine/ (the facade excepted) or from a package only the engine uses. A chunk's engine
 * bytes are its gzip size times that share.
 */
const ENGINE_PACKAGES = /node_modules\/(immer|xstate|zod|@noble|ipaddr\.js|pure-rand)\//;
function engineShares(shares: Map<string, number>) {
  return {
    name: 'bench-engine-shares',
    generateBundle(_o: unknown, bundle: Record<string, unknown>) {
      for (const c of Object.values(bundle) as {
        type: string;
        fileName: string;
        modules?: Record<string, { renderedLength: number }>;
      }[]) {
        if (c.type !== 'chunk' || !c.modules) continue;
        let engine = 0;
        let all = 0;
        for (const [id, m] of Object.entries(c.modules)) {
          all += m.renderedLength;
          const isEngine =
            (id.includes('/src/engine/') && !id.endsWith('/src/engine/index.ts')) ||
            ENGINE_PACKAGES.test(id);
          if (isEngine) engine += m.renderedLength;
        }
        shares.set(c.fileName.split('/').pop()!, all ? engine / all : 0);
      }
    },
  };
}

interface PageFigures {
  fcp: number[];
  enabled: number[];
  marks: Record<string, number[]>;
  bytesBeforePaint: number[];
  bytesBeforeInteractive: number[];
  engineBeforeInteractive: number[];
  /** The longest main-thread task of each load (Long Tasks API). */
  longest: number[];
}

const emptyFigures = (): PageFigures => ({
  fcp: [],
  enabled: [],
  marks: {},
  bytesBeforePaint: [],
  bytesBeforeInteractive: [],
  engineBeforeInteractive: [],
  longest: [],
});

/** A 110-pod sandbox as the app saves it, and the step it was saved at. */
async function saved110(): Promise<{ text: string; steps: number }> {
  await import('../src/engine/kernel/iptables/late');
  const s = newSandbox();
  s.perform({ do: 'scale', deployment: 'web', replicas: 110 });
  s.runUntil({ kind: 'idle' });
  return { text: serializeSession(s), steps: s.events.length };
}

/** Reopening a saved 110-pod sandbox after a reload, and from its share link. */
async function reopening(browser: Browser): Promise<void> {
  const { text, steps } = await saved110();
  const link = encodeLink({ saved: JSON.parse(text) as SavedSession, views: {} });
  const at = `Step ${steps} of ${steps}`;
  console.log(
    `\nReopening a saved 110-pod sandbox (${steps} steps), ${REOPENS} times each (budget 1 s):`,
  );
  // A reload after a visit (warm caches); a link opened in a fresh browser (cold caches).
  for (const how of ['a reload', 'its share link'] as const) {
    const times: number[] = [];
    const longest: number[] = [];
    for (let i = 0; i < REOPENS; i++) {
      const ctx = await browser.newContext({ serviceWorkers: 'block' });
      const page = await ctx.newPage();
      await page.addInitScript(LONG_TASKS);
      // A reload follows a visit: the app's files are in the browser's caches. The saved text is
      // written from a small page of the same origin (the app's own page would save over it
      // when hidden; an init script carrying it would be a long task of the measured page).
      if (how === 'a reload') {
        await page.goto(`http://127.0.0.1:${PORT}/`);
        await page.getByRole('button', { name: 'Step forward' }).waitFor();
        await page.waitForFunction(() => performance.getEntriesByName('cnisim:ready').length > 0);
        await page.goto(`http://127.0.0.1:${PORT}/manifest.webmanifest`);
        await page.evaluate((v) => localStorage.setItem('cnisim.sandbox.v1', v), text);
      }
      await page.goto(`http://127.0.0.1:${PORT}/${how === 'a reload' ? '' : `#/s/${link}`}`);
      await page.waitForFunction(
        (want) => {
          const b = Array.from(document.querySelectorAll('button')).find((x) =>
            x.textContent!.trim().startsWith('Step forward'),
          );
          const pos = document.querySelector('.position')?.textContent ?? '';
          return b !== undefined && !b.disabled && pos.includes(want);
        },
        at,
        { timeout: 300_000, polling: 'raf' },
      );
      times.push(await page.evaluate(() => performance.now()));
      const tasks = await longTasks(page);
      longest.push(longestOf(tasks));
      if (process.env['BENCH_VERBOSE'])
        console.log(`    long tasks (start, ms): ${JSON.stringify(tasks)}`);
      await ctx.close();
    }
    console.log(`  from ${how}: ${series(times)}`);
    console.log(`    longest main-thread task: ${series(longest)}; ${overBudget(longest)}`);
  }
}

async function main(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'cnisim-bench-'));
  const appDist = join(tmp, 'app');
  const blankRoot = join(ROOT, 'bench', 'ui-blank');
  const blankDist = join(tmp, 'blank');
  console.log('Building the app and a blank Vite + React page...');
  const shares = new Map<string, number>();
  await build({
    root: ROOT,
    logLevel: 'warn',
    plugins: [engineShares(shares)],
    build: { outDir: appDist, emptyOutDir: true },
  });
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

  const app = await serve(ROOT, appDist, PORT);
  const blank = await serve(blankRoot, blankDist, PORT + 1);
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS],
    headless: true,
  });
  const pages = {
    app: `http://127.0.0.1:${PORT}/`,
    embed: `http://127.0.0.1:${PORT}/embed.html`,
  } as const;
  try {
    const figures = { app: emptyFigures(), embed: emptyFigures() };
    const blankFcp: number[] = [];
    const blankLongest: number[] = [];
    const lastFetched: Record<string, string[]> = {};
    // One warm-up round (not counted), then RUNS rounds; the order of the three pages rotates,
    // so that each is measured as often first, second and third on a machine whose load varies.
    for (let run = 0; run < RUNS + 1; run++) {
      const all = ['blank', 'app', 'embed'] as const;
      const order = all.map((_, i) => all[(i + run) % all.length]!);
      for (const which of order) {
        // Each load in a fresh context: empty cache, no storage, no service worker.
        const ctx = await browser.newContext({ serviceWorkers: 'block' });
        const page = await ctx.newPage();
        await page.addInitScript(LONG_TASKS);
        if (which === 'blank') {
          const l = await load(page, `http://127.0.0.1:${PORT + 1}/`, false);
          if (run > 0) blankFcp.push(l.fcp);
          if (run > 0) blankLongest.push(await longestTask(page));
        } else {
          await page.addInitScript(INTERACTIVE_PROBE);
          const l = await load(page, pages[which], true);
          const f = figures[which];
          const bytes = (
            pred: (r: Load['resources'][number]) => boolean,
            share: (file: string) => number = () => 1,
          ) =>
            l.resources
              .filter((r) => /\.(js|css)$/.test(r.path) && pred(r))
              .reduce((a, r) => {
                const file = r.path.split('/').pop()!;
                return a + (sizes.get(file) ?? 0) * share(file);
              }, 0);
          if (run > 0) {
            f.fcp.push(l.fcp);
            f.enabled.push(l.marks['enabled'] ?? l.interactive!);
            for (const [k, v] of Object.entries(l.marks)) (f.marks[k] ??= []).push(v);
            f.bytesBeforePaint.push(bytes((r) => r.start < l.fcp));
            // Fetched before "Step forward" was enabled.
            const enabled = l.marks['enabled'] ?? l.interactive!;
            f.bytesBeforeInteractive.push(bytes((r) => r.end <= enabled));
            f.engineBeforeInteractive.push(
              bytes(
                (r) => r.end <= enabled,
                (file) => shares.get(file) ?? 0,
              ),
            );
            // To the whole engine's session (its modules, the landing's sandbox, then the rest).
            await page.waitForFunction(
              () => performance.getEntriesByName('cnisim:ready').length > 0,
              undefined,
              { timeout: 60_000 },
            );
            f.longest.push(await longestTask(page));
            lastFetched[which] = l.resources
              .filter((r) => /\.js$/.test(r.path) && r.end <= enabled)
              .map((r) => r.path.split('/').pop()!);
          }
        }
        await ctx.close();
      }
    }

    console.log('\nFirst screen (gzip -9):');
    console.log(`  app, referenced by index.html: ${kib(critBytes)} (${crit.join(', ')})`);
    console.log(`  blank Vite + React page:       ${kib(blankBytes)}`);
    const lazy = [...sizes]
      .filter(([f]) => f.endsWith('.js'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25)
      .map(([f, n]) => `${f} ${kib(n)} (engine ${((shares.get(f) ?? 0) * 100).toFixed(0)} %)`);
    console.log(`  largest chunks: ${lazy.join(', ')}`);

    const b = stats(blankFcp).median;
    console.log(
      `\n${RUNS} interleaved loads of each page (fresh context, empty cache); median (min, max):`,
    );
    console.log(`  blank Vite + React page, first paint: ${series(blankFcp)}`);
    console.log(`    longest main-thread task of the load: ${series(blankLongest)}`);
    for (const which of ['app', 'embed'] as const) {
      const f = figures[which];
      const fcp = stats(f.fcp).median;
      const en = stats(f.enabled).median;
      console.log(`  ${which}:`);
      console.log(
        `    first paint:            ${series(f.fcp)}  ratio ${(fcp / b).toFixed(2)}x (budget 1.5x)`,
      );
      console.log(
        `    "Step forward" enabled: ${series(f.enabled)}  ratio ${(en / b).toFixed(2)}x (budget 2.0x)`,
      );
      console.log(
        `    fetched before first paint ${kib(stats(f.bytesBeforePaint).median)}, before interactive ${kib(stats(f.bytesBeforeInteractive).median)}, of which engine code ${kib(stats(f.engineBeforeInteractive).median)} (budget 120 KiB)`,
      );
      console.log(
        `    longest main-thread task, to 300 ms after the whole engine's session: ${series(f.longest)}; ${overBudget(f.longest)}`,
      );
      console.log(`    scripts before interactive: ${(lastFetched[which] ?? []).join(', ')}`);
      console.log(
        `    milestones (median): ${Object.entries(f.marks)
          .map(([k, v]) => `${k} ${ms(percentile(v, 50))}`)
          .join(', ')}`,
      );
    }

    if (REOPENS > 0) await reopening(browser);

    if (CLICKS <= 0) return;
    await stepLatency(browser, '110 pods on node-1', savedWithPods(109));
    if (BIG_PODS > 0)
      await stepLatency(
        browser,
        `${BIG_PODS} pods on 3 nodes`,
        savedWithPods(BIG_PODS - 1, THREE_NODES),
      );
  } finally {
    await browser.close();
    await app.close();
    await blank.close();
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
