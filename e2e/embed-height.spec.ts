import { expect, test, type Page } from '@playwright/test';
import { FRAMED_BY_A_PUBLIC_SITE } from './chromium';

// A docs page that sizes the iframe from the embed's `height` messages, exactly as
// docs/embedding.md shows: the height must settle at the content's height, not grow for ever
// (the content must not be sized by the iframe's own height, e.g. in vh).
const DOCS = 'http://docs.test';

test.use({ launchOptions: FRAMED_BY_A_PUBLIC_SITE });
test.describe.configure({ timeout: 60_000 });

function hostPage(app: string, views: string): string {
  const origin = JSON.stringify(new URL(app).origin);
  return `<!doctype html><html lang="en"><head><title>Docs</title></head><body><main>
<h1>Pod networking</h1>
<iframe id="sim" title="cnisim" style="width: 100%; height: 520px; border: 0"
  src="${app}embed.html?step=12&amp;views=${views}&amp;origin=${encodeURIComponent(DOCS)}"></iframe>
<script>
  window.__heights = [];
  const sim = document.getElementById('sim');
  addEventListener('message', (e) => {
    if (e.source !== sim.contentWindow || e.origin !== ${origin} || e.data?.cnisim !== 1) return;
    if (e.data.type === 'height') {
      window.__heights.push(e.data.height);
      sim.style.height = e.data.height + 'px';
    }
  });
</script></main></body></html>`;
}

const heights = (page: Page) => page.evaluate('window.__heights') as Promise<number[]>;

for (const views of ['sequence,inspector', 'topology,steps', 'steps,inspector']) {
  test(`an iframe sized from its height messages settles (${views})`, async ({ page, baseURL }) => {
    const app = new URL('./', baseURL).href;
    await page.route(`${DOCS}/**`, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: hostPage(app, views) }),
    );
    await page.goto(`${DOCS}/guide.html`);
    const frame = page.frameLocator('#sim');
    await expect(frame.locator('.position strong')).toHaveText('12', { timeout: 15_000 });
    await expect.poll(async () => (await heights(page)).length).toBeGreaterThan(0);
    // Let the views (the sequence, the topology) render, then check that the height stopped moving.
    await page.waitForTimeout(2500);
    const settled = await heights(page);
    await page.waitForTimeout(1500);
    const later = await heights(page);
    expect(later, `heights reported: ${later.join(' → ')}`).toEqual(settled);
    const last = later.at(-1)!;
    expect(later.length, `heights reported: ${later.join(' → ')}`).toBeLessThan(8);
    // The iframe is as tall as the embed's content, no taller.
    const content = await page
      .frameLocator('#sim')
      .locator('.embed')
      .evaluate((el) => Math.ceil(el.getBoundingClientRect().bottom));
    expect(Math.abs(last - content)).toBeLessThanOrEqual(24);
    const box = await page.locator('#sim').boundingBox();
    expect(Math.round(box!.height)).toBe(last);
  });
}
