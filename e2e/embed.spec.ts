import { expect, test, type Page } from '@playwright/test';
import { FRAMED_BY_A_PUBLIC_SITE } from './chromium';
import { clearSavedState, collectPageErrors, expectNoSeriousAxeViolations } from './support';

// A documentation site on another origin than the simulator (the preview server), served by
// Playwright: it embeds the simulator both ways and drives it through the postMessage API.
const DOCS = 'http://docs.test';
const EVIL = 'http://evil.test';

// Chromium refuses to let a public site (docs.test) frame a local address (the preview server
// at 127.0.0.1): a real docs site frames a public cnisim, so that check is off here.
test.use({
  launchOptions: FRAMED_BY_A_PUBLIC_SITE,
});

test.describe.configure({ timeout: 90_000 });

function hostPage(app: string): string {
  return `<!doctype html><html lang="en"><head><title>Docs</title>
<script src="${app}cni-sim.js"></script>
<script src="${app}cni-sim.js"></script>
<script>
  window.__msgs = [];
  window.__events = [];
  window.addEventListener('message', (e) => {
    const frame = document.getElementById('frame');
    if (e.source !== frame.contentWindow || e.origin !== ${JSON.stringify(new URL(app).origin)}) return;
    window.__msgs.push(e.data);
  });
  function drive(m) {
    document.getElementById('frame').contentWindow.postMessage(
      Object.assign({ cnisim: 1 }, m), ${JSON.stringify(new URL(app).origin)});
  }
</script></head>
<body>
<main>
<h1>Pod networking</h1>
<iframe id="frame" title="cnisim" style="width:100%;height:300px;border:0"
  src="${app}embed.html?step=2&amp;views=steps,inspector&amp;origin=${encodeURIComponent(DOCS)}"></iframe>
<cni-sim id="el" step="3" views="steps,inspector" theme="dark"></cni-sim>
<div style="height:4000px"></div>
<cni-sim id="below" views="steps"></cni-sim>
</main>
<script>
  for (const t of ['cni-sim:ready', 'cni-sim:step'])
    document.getElementById('el').addEventListener(t, (e) => window.__events.push([t, e.detail]));
</script>
</body></html>`;
}

async function serve(page: Page, origin: string, html: string): Promise<void> {
  await page.route(`${origin}/**`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html', body: html }),
  );
}

const msgs = (page: Page) =>
  page.evaluate('window.__msgs') as Promise<{ type: string; step?: number; height?: number }[]>;

test('a host page embeds the simulator as an iframe and as <cni-sim>, and drives both', async ({
  page,
  baseURL,
}) => {
  const app = new URL('./', baseURL).href;
  const errors = collectPageErrors(page);
  await serve(page, DOCS, hostPage(app));
  await page.goto(`${DOCS}/guide.html`);

  // The iframe: ready at step 2, then driven by postMessage.
  await expect
    .poll(async () => (await msgs(page)).find((m) => m.type === 'ready'))
    .toMatchObject({
      step: 2,
    });
  const frame = page.frameLocator('#frame');
  await expect(frame.locator('.position strong')).toHaveText('2');
  await page.evaluate("drive({ type: 'goto', step: 5 })");
  await expect
    .poll(async () => (await msgs(page)).filter((m) => m.type === 'step').at(-1))
    .toMatchObject({ step: 5 });
  await expect(frame.locator('.position strong')).toHaveText('5');
  await expect.poll(async () => (await msgs(page)).some((m) => m.type === 'height')).toBe(true);
  // Malformed and foreign messages are ignored.
  await page.evaluate("drive({ type: 'goto', step: -4 }); drive({ type: 'eval', code: 'x' })");
  await page.evaluate("drive({ type: 'views', views: ['topology'] })");
  await expect(frame.getByRole('heading', { name: 'Topology' })).toBeVisible();
  await expect(frame.getByRole('heading', { name: 'Steps' })).toBeHidden();
  await expect(frame.locator('.position strong')).toHaveText('5');

  // The element: loaded twice without error, dark, at step 3; methods and events.
  await expect
    .poll(() => page.evaluate("window.__events.find((e) => e[0] === 'cni-sim:ready')?.[1]"))
    .toEqual({ step: 3, length: expect.any(Number) });
  const inner = page.frameLocator('cni-sim#el iframe');
  await expect(inner.locator('.position strong')).toHaveText('3');
  expect(await inner.locator('html').getAttribute('data-theme')).toBe('dark');
  await page.evaluate("document.getElementById('el').goTo(7)");
  await expect.poll(() => page.evaluate("document.getElementById('el').step")).toBe(7);
  await expect(inner.locator('.position strong')).toHaveText('7');
  await page.evaluate("document.getElementById('el').setAttribute('step', '4')");
  await expect.poll(() => page.evaluate("document.getElementById('el').step")).toBe(4);
  // Its scenario attribute takes a lesson.
  await page.evaluate("document.getElementById('el').setAttribute('scenario', 'lesson:chaining')");
  await expect(inner.getByRole('heading', { name: /^Lesson: Chaining/ })).toBeVisible();
  // It sizes itself to its content.
  await expect
    .poll(() =>
      page.evaluate(
        "document.getElementById('el').shadowRoot.querySelector('iframe').style.height",
      ),
    )
    .not.toBe('');

  // The one far below renders only once scrolled into view.
  const below = page.locator('#below');
  expect(
    await page.evaluate(
      "document.getElementById('below').shadowRoot.querySelector('iframe') === null",
    ),
  ).toBe(true);
  await below.scrollIntoViewIfNeeded();
  await expect
    .poll(() =>
      page.evaluate("document.getElementById('below').shadowRoot.querySelector('iframe') !== null"),
    )
    .toBe(true);
  expect(errors).toEqual([]);
});

test('an embed answers only its host: another origin cannot drive it nor hear it', async ({
  page,
  baseURL,
}) => {
  const app = new URL('./', baseURL).href;
  // evil.test frames the simulator claiming docs.test as its host.
  await serve(
    page,
    EVIL,
    hostPage(app)
      .replace(/<cni-sim[^]*?<\/cni-sim>/g, '')
      .replace('cni-sim.js', 'nothing.js'),
  );
  await page.goto(`${EVIL}/page.html`);
  const frame = page.frameLocator('#frame');
  await expect(frame.locator('.position strong')).toHaveText('2');
  await page.evaluate("drive({ type: 'goto', step: 9 })");
  await page.waitForTimeout(1000);
  await expect(frame.locator('.position strong')).toHaveText('2');
  expect(await msgs(page)).toEqual([]);
});

test('embed.html alone: parameters, theme, and no serious axe violations', async ({ page }) => {
  const errors = collectPageErrors(page);
  await page.goto('./embed.html?step=4&views=steps,inspector&theme=light&level=cni&bogus=1');
  await expect(page.locator('.position strong')).toHaveText('4');
  expect(await page.locator('html').getAttribute('data-theme')).toBe('light');
  await expect(page.getByRole('heading', { name: 'Steps' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Inspector' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Open in cnisim' })).toHaveAttribute('href', /\/$/);
  await page.getByRole('button', { name: 'Step forward' }).click();
  await expect(page.locator('.position strong')).toHaveText('5');
  await expectNoSeriousAxeViolations(page, 'embed.html');
  // Nothing of the embed is saved as the user's sandbox.
  expect(await page.evaluate("localStorage.getItem('cnisim.sandbox.v1')")).toBeNull();
  // The embed registers the service worker, which the config blocks outside offline.spec.ts.
  expect(
    await page.evaluate('navigator.serviceWorker.getRegistrations().then((r) => r.length)'),
  ).toBe(0);
  expect(errors).toEqual([]);
});

test("embed.html: a step past the end of a lesson's trace opens at its last step and says so", async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await page.goto('./embed.html?scenario=lesson:add-step-by-step&step=99999&views=steps');
  const warning = page.getByRole('alert').filter({ hasText: 'Embed parameter step:' });
  await expect(warning).toContainText(
    /^Embed parameter step: 99999 is past the end of the trace, which ends at step (\d+); step \1 is shown\.$/,
    { timeout: 30_000 },
  );
  const last = /ends at step (\d+)/.exec((await warning.textContent())!)![1]!;
  await expect(page.locator('.position strong')).toHaveText(last);
  await expect(page.locator('.position')).toContainText(`of ${last}`);
  expect(errors).toEqual([]);
});

test('Step forward at the end of an embedded lesson says that nothing is left, and where to act', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await page.goto('./embed.html?scenario=lesson:add-step-by-step&views=steps');
  await expect(page.getByRole('heading', { name: 'Lesson: ADD, step by step' })).toBeVisible({
    timeout: 30_000,
  });
  const position = page.locator('.position');
  const at = await position.textContent();
  await page.getByRole('button', { name: 'Step forward' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'This is the last step' })).toHaveText(
    'This is the last step: nothing is left to happen. To act on the cluster, open it in cnisim.',
  );
  await expect(position).toHaveText(at!);
  await expect(page.getByRole('link', { name: 'Open in cnisim' })).toBeVisible();

  // Autoplay that reaches the end just stops: nothing grows the host's iframe.
  await page.goto('./embed.html?scenario=lesson:add-step-by-step&views=steps&autoplay=1');
  await expect(page.getByRole('heading', { name: 'Lesson: ADD, step by step' })).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeVisible();
  await page.waitForTimeout(500);
  await expect(page.getByText('This is the last step')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('the default embed: its first screen is in embed.html; other parameters never paint it', async ({
  page,
}) => {
  // No module script: only the gate (embed-gate.js, a classic script in <head>) runs, and what
  // shows is the HTML the build rendered (src/embed/prerender.tsx).
  await page.route(/\/assets\/.*\.js$/, (route) => route.abort());
  await page.goto('./embed.html');
  await expect(page.getByRole('button', { name: 'Step forward' })).toBeDisabled();
  await expect(page.locator('.position strong')).toHaveText('16');
  await expect(page.getByRole('heading', { name: 'Sequence' })).toBeVisible();
  await expect(page.locator('.embed-view-inspector')).toContainText('node node-2 Ready=True');
  expect(await page.locator('html').getAttribute('data-theme')).toBeNull();
  // The theme and the host's origin do not change the screen; the gate applies the theme.
  await page.goto(`./embed.html?theme=dark&origin=${encodeURIComponent(DOCS)}`);
  await expect(page.locator('.position strong')).toHaveText('16');
  expect(await page.locator('html').getAttribute('data-theme')).toBe('dark');
  // Any other scenario, step, level or views, or a bad value: the default screen is hidden
  // before the first paint, until the embed's script renders the right one.
  for (const query of [
    'step=4',
    'level=cni',
    'views=steps,inspector',
    'scenario=lesson:add-step-by-step',
    'step=x',
  ]) {
    await page.goto(`./embed.html?${query}`);
    expect(await page.locator('html').getAttribute('data-prerender'), query).toBe('stale');
    await expect(page.getByRole('button', { name: 'Step forward' }), query).toBeHidden();
    await expect(page.locator('.embed-view-inspector'), query).toBeHidden();
  }
  // With its script, the embed at other parameters shows them (the live render replaces #root).
  await page.unrouteAll();
  await page.goto('./embed.html?step=4&views=steps,inspector');
  await expect(page.locator('.position strong')).toHaveText('4');
  await expect(page.getByRole('heading', { name: 'Steps' })).toBeVisible();
  await expect(page.locator('.prerendered')).toHaveCount(0);
});

/** A docs page with one iframe of embed.html at `query`, recording what it posts. */
function frameHost(app: string, query: string): string {
  const origin = JSON.stringify(new URL(app).origin);
  return `<!doctype html><html lang="en"><head><title>Docs</title>
<script>
  window.__msgs = [];
  window.addEventListener('message', (e) => {
    const frame = document.getElementById('frame');
    if (e.source !== frame.contentWindow || e.origin !== ${origin}) return;
    window.__msgs.push(e.data);
  });
  function drive(m) {
    document.getElementById('frame').contentWindow.postMessage(Object.assign({ cnisim: 1 }, m), ${origin});
  }
</script></head>
<body><main><h1>Lesson</h1>
<iframe id="frame" title="cnisim" style="width:100%;height:700px;border:0"
  src="${app}embed.html?${query}&amp;origin=${encodeURIComponent(DOCS)}"></iframe>
</main></body></html>`;
}

type Msg = { type: string; step?: number; length?: number; lesson?: string; message?: string };
const allMsgs = (page: Page) => page.evaluate('window.__msgs') as Promise<Msg[]>;
/** The last message of a type the embed posted. */
const lastOf = async (page: Page, type: string) =>
  (await allMsgs(page)).filter((m) => m.type === type).at(-1);

test('a lesson in an embed: narration and goals, solved once when its goals are met', async ({
  page,
  baseURL,
}) => {
  const app = new URL('./', baseURL).href;
  const errors = collectPageErrors(page);
  await serve(page, DOCS, frameHost(app, 'scenario=lesson:add-step-by-step&amp;views=steps'));
  await page.goto(`${DOCS}/lesson.html`);
  await expect.poll(async () => (await allMsgs(page)).some((m) => m.type === 'ready')).toBe(true);
  const frame = page.frameLocator('#frame');
  await expect(frame.getByRole('heading', { name: 'Lesson: ADD, step by step' })).toBeVisible();
  const goals = frame.getByRole('list', { name: 'Goals' });
  await expect(goals.getByRole('listitem')).toHaveCount(3);
  await expect(goals.getByText('(not met)')).toHaveCount(3);
  await expect(frame.getByRole('link', { name: 'Open in cnisim' })).toHaveAttribute(
    'href',
    /#\/lesson\/add-step-by-step$/,
  );

  // The reader replays the solution (the embed's control) and the host drives it to its end.
  const steps = async () => (await allMsgs(page)).filter((m) => m.type === 'step');
  const before = (await steps()).length;
  await frame.getByRole('button', { name: 'Replay the solution' }).click();
  await expect(frame.getByText('replaying the solution')).toBeVisible();
  // The new session is reported with its length: the solution's whole trace.
  await expect.poll(async () => (await steps()).length).toBeGreaterThan(before);
  const last = (await steps()).at(-1)!.length!;
  expect(last).toBeGreaterThan(40);
  await page.evaluate(`drive({ type: 'goto', step: ${last} })`);
  await expect
    .poll(async () => (await allMsgs(page)).filter((m) => m.type === 'solved'))
    .toEqual([{ cnisim: 1, type: 'solved', lesson: 'add-step-by-step' }]);
  await expect(frame.getByRole('status').filter({ hasText: 'lesson solved' })).toBeVisible();
  await expect(goals.getByText('(met)', { exact: true })).toHaveCount(3);
  await expect(frame.locator('.narration')).not.toBeEmpty();

  // Back and forth again: still one `solved`.
  await page.evaluate("drive({ type: 'goto', step: 3 })");
  await expect.poll(async () => (await lastOf(page, 'step'))?.step).toBe(3);
  await page.evaluate(`drive({ type: 'goto', step: ${last} })`);
  await expect.poll(async () => (await lastOf(page, 'step'))?.step).toBe(last);
  expect((await allMsgs(page)).filter((m) => m.type === 'solved')).toHaveLength(1);
  await expectNoSeriousAxeViolations(page, 'a lesson in an embed');
  expect(errors).toEqual([]);
});

test('scenario values: a scenario file, and unknown ids explained in the embed and to the host', async ({
  page,
  baseURL,
}) => {
  const app = new URL('./', baseURL).href;
  await serve(page, DOCS, frameHost(app, 'scenario=lesson:no-such-lesson&amp;views=steps'));
  await page.goto(`${DOCS}/lesson.html`);
  const frame = page.frameLocator('#frame');
  // An unknown lesson: the default sandbox, the problem in the embed and to the host.
  await expect(frame.getByRole('alert')).toContainText(
    'There is no lesson "no-such-lesson" (lessons: add-step-by-step,',
  );
  await expect(frame.getByRole('alert')).toContainText('The default sandbox is shown instead.');
  await expect(frame.getByRole('button', { name: 'Step forward' })).toBeEnabled();
  await expect
    .poll(async () => (await allMsgs(page)).find((m) => m.type === 'error')?.message)
    .toMatch(/^There is no lesson "no-such-lesson"/);

  // A scenario file of the build, at its start.
  await page.evaluate("drive({ type: 'load', scenario: 'scenario:hang-timeout' })");
  await expect(frame.locator('.position strong')).toHaveText('0');
  await expect.poll(() => lastOf(page, 'step')).toMatchObject({ step: 0, length: 118 });
  // A step past its end: the last step, and the host is told.
  await page.evaluate("drive({ type: 'goto', step: 5000 })");
  await expect(frame.locator('.position strong')).toHaveText('118');
  await expect
    .poll(async () => (await lastOf(page, 'error'))?.message)
    .toBe(
      'goto: step 5000 is past the end of the trace, which ends at step 118; step 118 is shown.',
    );
  await expect(frame.getByRole('heading', { name: /^Lesson:/ })).toBeHidden();
  await page.evaluate("drive({ type: 'load', scenario: 'scenario:nope' })");
  await expect
    .poll(async () => (await lastOf(page, 'error'))?.message)
    .toMatch(/^There is no scenario "nope" \(scenarios: .*hang-timeout/);
  // A lesson by message.
  await page.evaluate("drive({ type: 'load', scenario: 'lesson:chaining' })");
  await expect(frame.getByRole('heading', { name: /^Lesson: Chaining/ })).toBeVisible();
});

test('a fault injected through the API has its real consequence; an unknown one is refused', async ({
  page,
  baseURL,
}) => {
  const app = new URL('./', baseURL).href;
  const errors = collectPageErrors(page);
  await serve(page, DOCS, frameHost(app, 'views=inspector,pods'));
  await page.goto(`${DOCS}/faults.html`);
  await expect.poll(() => lastOf(page, 'ready')).toMatchObject({ step: 16 });
  const frame = page.frameLocator('#frame');

  // Refused: an id the catalogue does not have, and a fault that needs a Running pod at a step
  // where none runs. Each gets an error back; nothing changes.
  await page.evaluate("drive({ type: 'inject', fault: 'no-such-fault' })");
  await expect
    .poll(async () => (await lastOf(page, 'error'))?.message)
    .toMatch(
      /^fault no-such-fault: unknown fault "no-such-fault" \(one of cache-corrupted, .*plugin-missing/,
    );
  await page.evaluate(
    "drive({ type: 'inject', fault: 'no-such-fault', params: { node: 'node-1' } })",
  );
  await expect
    .poll(async () => (await lastOf(page, 'error'))?.message)
    .toMatch(/^fault no-such-fault: unknown fault "no-such-fault" \(one of /);
  await page.evaluate("drive({ type: 'inject', fault: 'cache-corrupted' })");
  await expect
    .poll(async () => (await lastOf(page, 'error'))?.message)
    .toMatch(/^fault cache-corrupted: No pod is Running at this step/);
  await expect(frame.getByRole('alert').filter({ hasText: 'no-such-fault' }).first()).toBeVisible();
  await expect(frame.locator('.position strong')).toHaveText('16');

  // plugin-missing: bridge removed from node-1's /opt/cni/bin, at the current step.
  await page.evaluate("drive({ type: 'inject', fault: 'plugin-missing' })");
  await expect
    .poll(() => lastOf(page, 'step'))
    .toMatchObject({ type: 'step', step: 21, length: 21 });
  // libcni's ADD of web-0 then fails as the real one does, and the kubelet reports it.
  await page.evaluate("drive({ type: 'goto', step: 35 })");
  await expect.poll(async () => (await lastOf(page, 'step'))?.step).toBe(35);
  await expect(frame.getByRole('heading', { name: 'Inspector' }).locator('..')).toContainText(
    'ADD failed: plugin type="bridge" failed (add): failed to find plugin "bridge" in path [/opt/cni/bin]',
  );
  // (The kubelet's event comes after containerd's clean-up, whose journal lines depend on the
  // release: one more on 1.7.22, which reports the sandbox it keeps.)
  await page.evaluate("drive({ type: 'goto', step: 58 })");
  await expect.poll(async () => (await lastOf(page, 'step'))?.step).toBe(58);
  await expect(frame.getByRole('heading', { name: 'Inspector' }).locator('..')).toContainText(
    'Warning FailedCreatePodSandBox pod/web-0',
  );
  await expect(frame.getByRole('heading', { name: 'Pods' }).locator('..')).toContainText(
    'ContainerCreating',
  );
  // The embed still works after the refusals.
  await frame.getByRole('button', { name: 'Step forward' }).click();
  await expect(frame.locator('.position strong')).toHaveText('59');
  expect(errors).toEqual([]);
});

test('"Embed this lesson" in the app writes a snippet that opens the lesson in an embed', async ({
  page,
}) => {
  const errors = collectPageErrors(page);
  await page.goto('./#/lesson/add-step-by-step');
  await page.getByRole('button', { name: 'Embed this lesson' }).click();
  const code = await page.getByRole('textbox', { name: 'Embed code for this lesson' }).inputValue();
  expect(code).toContain('<cni-sim scenario="lesson:add-step-by-step"');
  const src = /<iframe src="([^"]+)"/.exec(code)![1]!.replace(/&amp;/g, '&');
  await clearSavedState(page);
  await page.goto(src);
  await expect(page.getByRole('heading', { name: 'Lesson: ADD, step by step' })).toBeVisible();
  await expect(page.getByRole('list', { name: 'Goals' }).getByRole('listitem')).toHaveCount(3);
  expect(errors).toEqual([]);
});
