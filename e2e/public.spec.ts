import { expect, test } from '@playwright/test';
import { collectPageErrors, openApp } from './support';

// The app installs like an app: a favicon (SVG), icons and a web app manifest from public/,
// linked from the pages, served by the build, and cached by the service worker for offline use.

test('index.html links a favicon and a manifest whose icons are served; the worker caches them', async ({
  page,
  request,
  baseURL,
}) => {
  const errors = collectPageErrors(page);
  await openApp(page);
  const href = (sel: string) => page.locator(sel).getAttribute('href');
  const icon = await href('link[rel="icon"]');
  const manifest = await href('link[rel="manifest"]');
  expect(icon).toBe('./favicon.svg');
  expect(manifest).toBe('./manifest.webmanifest');
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', /^#/);

  const get = async (path: string) => {
    const r = await request.get(new URL(path, baseURL + '/').href);
    expect(r.status(), path).toBe(200);
    return r;
  };
  const svg = await get(icon!);
  expect(svg.headers()['content-type']).toContain('image/svg+xml');
  expect(await svg.text()).toMatch(/^<svg [^>]*viewBox="0 0 64 64"/);

  const m = (await (await get(manifest!)).json()) as {
    name: string;
    short_name: string;
    start_url: string;
    scope: string;
    display: string;
    icons: { src: string; sizes: string; type: string; purpose?: string }[];
  };
  expect(m).toMatchObject({
    short_name: 'cnisim',
    start_url: './',
    scope: './',
    display: 'standalone',
  });
  // Chromium installs an app with a 192 px and a 512 px icon; every icon listed is served.
  expect(m.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  for (const i of m.icons) {
    const r = await get(new URL(i.src, new URL(manifest!, baseURL + '/')).pathname);
    expect(r.headers()['content-type']).toContain(i.type);
    if (i.type === 'image/png') {
      const png = await r.body();
      const [w, h] = [png.readUInt32BE(16), png.readUInt32BE(20)];
      expect(`${w}x${h}`).toBe(i.sizes);
    }
  }
  // The embed page has the favicon too; the service worker's list holds them all.
  expect(await (await get('embed.html')).text()).toContain('href="./favicon.svg"');
  const sw = await (await get('sw.js')).text();
  for (const f of [
    'favicon.svg',
    'manifest.webmanifest',
    'icons/icon-192.png',
    'icons/icon-512.png',
  ])
    expect(sw).toContain(JSON.stringify(f));
  // The browser fetched the icon with no CSP complaint.
  expect(errors).toEqual([]);
});
