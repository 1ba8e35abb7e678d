/// <reference lib="dom" />
import { expect, test, type Page } from '@playwright/test';
import { clearSavedState, collectPageErrors, openApp, runUntil } from './support';

/**
 * No user action blocks the main thread for more than 200 ms (issue 17): the longest task the
 * Long Tasks API ('longtask' entries, tasks over 50 ms) sees while each action runs. The figures
 * are printed (`longest main-thread task`), one line per action; LONGTASK_PROFILE=1 adds where
 * the time went.
 *
 * The 200 ms budget is measured by `npm run bench:ui` (medians of repeated loads, cold and warm,
 * against a blank page). This test fails only past GUARD_MS, twice the budget: an action whose
 * work is no longer sliced (reopening a 110-pod sandbox in one task takes seconds), never a
 * machine's noise. On an idle 2-core machine every action here stays under 110 ms; one CI run
 * saw 207 ms while reopening, before the reopening yielded between its parts.
 * LONGTASK_LIMIT_MS sets another limit (200 for the budget itself).
 */
const TARGET_MS = 200;
const GUARD_MS = 2 * TARGET_MS;
const limitFor = (): number =>
  process.env.LONGTASK_LIMIT_MS !== undefined ? Number(process.env.LONGTASK_LIMIT_MS) : GUARD_MS;

test.afterEach(async ({ page }) => clearSavedState(page));
test.describe.configure({ timeout: 240_000 });

/** Records every long task of every page load in window.__longTasks. */
async function observeLongTasks(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: number[]; print: () => void };
    w.__longTasks = [];
    w.print = () => undefined;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push(e.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
}

const taskCount = (page: Page) =>
  page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks.length);

/** The longest task since the `from`-th (after a moment for the last ones to be reported). */
async function longestSince(page: Page, from: number): Promise<number> {
  await page.waitForTimeout(300);
  return page.evaluate(
    (n) => Math.max(0, ...(window as unknown as { __longTasks: number[] }).__longTasks.slice(n)),
    from,
  );
}

const figures: [string, number][] = [];

/** LONGTASK_PROFILE=1: the functions with the most self time during each action (diagnosis). */
async function startProfile(page: Page): Promise<(name: string) => Promise<void>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.start');
  return async (name) => {
    const { profile } = await cdp.send('Profiler.stop');
    const self = new Map<string, number>();
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const dt = profile.timeDeltas ?? [];
    (profile.samples ?? []).forEach((id, i) => {
      const f = byId.get(id)!.callFrame;
      const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
      self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
    });
    // The longest run of samples without idle: what the longest task spent its time in.
    const parent = new Map<number, number>();
    for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    const samples = profile.samples ?? [];
    let best: [number, number] = [0, 0];
    let from = 0;
    let sum = 0;
    let bestSum = 0;
    samples.forEach((id, i) => {
      if (byId.get(id)!.callFrame.functionName === '(idle)') {
        from = i + 1;
        sum = 0;
        return;
      }
      sum += dt[i] ?? 0;
      if (sum > bestSum) {
        bestSum = sum;
        best = [from, i];
      }
    });
    const incl = new Map<string, number>();
    for (let i = best[0]; i <= best[1]; i++) {
      const seen = new Set<string>();
      for (let id: number | undefined = samples[i]; id !== undefined; id = parent.get(id)) {
        const f = byId.get(id)!.callFrame;
        const key = `${f.functionName || '(anon)'} ${f.url.split('/').pop()}:${f.lineNumber}`;
        if (seen.has(key)) continue;
        seen.add(key);
        incl.set(key, (incl.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
      }
    }
    const inclTop = [...incl].sort((a, b) => b[1] - a[1]).slice(0, 40);
    console.log(
      `profile ${name}, longest busy span ${Math.round(bestSum / 1000)} ms, inclusive:\n${inclTop.map(([k, ms]) => `  ${Math.round(ms)} ms ${k}`).join('\n')}`,
    );
    const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25);
    console.log(
      `profile ${name}:\n${top.map(([k, ms]) => `  ${Math.round(ms)} ms ${k}`).join('\n')}`,
    );
    await cdp.detach();
  };
}

/** Runs `action` (which returns once it is done) and records the longest task meanwhile. */
async function measure(
  page: Page,
  name: string,
  action: () => Promise<void>,
  navigates: boolean | number = false,
): Promise<void> {
  // `navigates`: true for an action that loads the page, or the count of long tasks to start at.
  const from = typeof navigates === 'number' ? navigates : navigates ? 0 : await taskCount(page);
  const profiling = process.env.LONGTASK_PROFILE ? await startProfile(page) : null;
  await action();
  if (profiling) await profiling(name);
  const longest = Math.round(await longestSince(page, from));
  figures.push([name, longest]);
  const all = (await page.evaluate(
    (n) => (window as unknown as { __longTasks: number[] }).__longTasks.slice(n),
    from,
  )) as number[];
  console.log(
    `longest main-thread task: ${name}: ${longest} ms (${all.length} long tasks: ${all.map(Math.round).join(' ')})`,
  );
}

/**
 * Waits, cheaply, until an element matching `selector` has a text matching `re`: role and text
 * locators walk the whole page's accessibility tree on every poll, which on a 110-pod page is
 * itself a long task that would be counted against the app.
 */
async function waitText(page: Page, selector: string, re: RegExp, timeout = 180_000) {
  await page.waitForFunction(
    ([sel, src]) =>
      Array.from(document.querySelectorAll(sel!)).some((e) =>
        new RegExp(src!).test(e.textContent ?? ''),
      ),
    [selector, re.source],
    { polling: 250, timeout },
  );
}

/** Waits until "Step forward" is enabled (nothing computing). */
async function idle(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const b = Array.from(document.querySelectorAll('button')).find((e) =>
        e.textContent?.startsWith('Step forward'),
      );
      return b !== undefined && !b.disabled;
    },
    undefined,
    { polling: 250, timeout: 180_000 },
  );
}

test('no action blocks the main thread for long (guard: twice the 200 ms of issue 17)', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const errors = collectPageErrors(page);
  await observeLongTasks(page);
  await openApp(page);
  await page.getByRole('tab', { name: 'Actions' }).click();
  await page.getByRole('spinbutton', { name: 'Replicas' }).fill('110');
  const scale = page.getByRole('button', { name: 'Scale deployment' });
  await scale.waitFor();

  await measure(page, 'scaling to 110 pods', async () => {
    await scale.click();
    await waitText(page, 'p', /^Done at step \d+\.$/);
    await idle(page);
  });

  await page
    .getByRole('combobox', { name: 'Run until' })
    .selectOption({ label: 'nothing is left to happen' });
  const runButton = page.getByRole('button', { name: 'Run', exact: true });
  await runButton.waitFor();
  await measure(page, 'a run (until nothing is left to happen)', async () => {
    await runButton.click();
    await idle(page);
  });
  await page.getByRole('tab', { name: 'Pods' }).click();
  await expect(page.getByRole('region', { name: 'Cluster' }).getByText('Running')).toHaveCount(111);

  const shareButton = page.getByRole('button', { name: 'Share', exact: true });
  await shareButton.waitFor();
  await measure(page, 'sharing the 110-pod sandbox', async () => {
    await shareButton.click();
    await page.waitForFunction(
      () =>
        /#\/s\/[A-Za-z0-9_-]+$/.test(
          (document.querySelector('#share-link') as HTMLInputElement | null)?.value ?? '',
        ),
      undefined,
      { polling: 250, timeout: 180_000 },
    );
  });
  const dialog = page.getByRole('dialog', { name: 'Share' });
  const link = await dialog.getByRole('textbox', { name: 'Link' }).inputValue();
  await dialog.getByRole('button', { name: 'Close' }).click();

  // Saved when the page is hidden (pagehide) at the latest: the reload reopens it.
  await measure(
    page,
    'reopening the 110-pod sandbox (a reload)',
    async () => {
      await page.reload();
      await idle(page);
      await waitText(page, '.position', /\d/);
    },
    true,
  );
  await expect(page.getByRole('region', { name: 'Cluster' }).getByText('Running')).toHaveCount(111);

  await measure(page, 'opening the 110-pod sandbox from its link', async () => {
    await page.goto(link);
    await waitText(page, 'button', /^Back to my sandbox$/);
    await idle(page);
  });

  await page.goto('./#/challenge/node-notready?seed=1');
  const panel = page.getByRole('region', { name: 'Challenge: A node goes NotReady' });
  await expect(panel).toBeVisible({ timeout: 60_000 });
  await idle(page);
  await panel.getByLabel('The conflist in /etc/cni/net.d is not valid JSON').check();
  await panel
    .getByLabel(
      "Restore the node's pod network conflist in /etc/cni/net.d from configuration management",
    )
    .check();
  const submit = panel.getByRole('button', { name: 'Submit answer' });
  await submit.waitFor();
  await measure(page, 'checking a challenge answer', async () => {
    await submit.click();
    await waitText(page, '.course-challenge', /Solved: the node recovered\./);
  });

  const beforeLesson = await taskCount(page);
  await page.goto('./#/lesson/add-step-by-step');
  await expect(page.getByRole('region', { name: 'ADD, step by step' })).toBeVisible({
    timeout: 60_000,
  });
  const print = page.getByRole('button', { name: 'Print handout' });
  await print.waitFor();
  await measure(page, "preparing a lesson's handout", async () => {
    await print.click();
    await waitText(page, '.handout [role=status]', /^The handout is ready to print\.$/);
  });
  // The handout is prepared in the background once the lesson is open: what it did before the
  // click counts too (the lesson's own start included).
  await measure(
    page,
    'opening a lesson, its handout prepared in the background',
    async () => undefined,
    beforeLesson,
  );

  console.log(`long tasks per action (ms): ${figures.map(([n, ms]) => `${n} ${ms}`).join('; ')}`);
  expect(errors).toEqual([]);
  for (const [name, ms] of figures)
    expect(ms, `the longest main-thread task while ${name}`).toBeLessThanOrEqual(limitFor());
});

test('stepping with the Sequence view open blocks nothing for long and fetches no Mermaid', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await observeLongTasks(page);
  const fetched: string[] = [];
  page.on('request', (r) => fetched.push(r.url()));
  await openApp(page);
  await runUntil(page, 'a pod is Running');
  const views = page.getByRole('region', { name: 'Views' });
  await views.getByRole('tab', { name: 'Sequence' }).click();
  const diagram = views.getByRole('region', { name: 'Sequence diagram' });
  await expect(diagram.locator('.seq-host svg')).toBeVisible({ timeout: 15_000 });
  await idle(page);
  const forward = page.getByRole('button', { name: 'Step forward', exact: true });
  const position = () => page.locator('.position').first().textContent();
  const name = 'stepping with the Sequence view open (20 steps forward, Home, End)';
  await measure(page, name, async () => {
    for (let i = 0; i < 20; i++) {
      await forward.click();
      await idle(page);
    }
    // Jumps far away and back: the window moves by hundreds of messages each time.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    const before = await position();
    await page.keyboard.press('Home');
    await expect.poll(position).not.toBe(before);
    const atHome = await position();
    await page.keyboard.press('End');
    await expect.poll(position).not.toBe(atHome);
    await idle(page);
  });
  // Clicking a message of the diagram jumps to its step.
  await measure(page, 'jumping to a message of the Sequence view', async () => {
    const before = await position();
    await diagram
      .getByRole('button', { name: /^Step \d+: / })
      .first()
      .click();
    await expect.poll(position).not.toBe(before);
    await idle(page);
  });
  const mine = figures.filter(([n]) => /Sequence view/.test(n));
  console.log(`long tasks per action (ms): ${mine.map(([n, ms]) => `${n} ${ms}`).join('; ')}`);
  expect(fetched.filter((u) => /mermaid|sequenceDiagram/i.test(u))).toEqual([]);
  expect(errors).toEqual([]);
  for (const [n, ms] of mine)
    expect(ms, `the longest main-thread task while ${n}`).toBeLessThanOrEqual(limitFor());
});
