/**
 * npm run icons
 *
 * Draws public/favicon.svg into the PNG icons of the web app manifest (public/icons/), in the
 * system Chromium. Run it after changing the SVG; the PNGs are committed like the screenshots.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/chromium';

const ROOT = resolve(import.meta.dirname, '..');
const svg = readFileSync(join(ROOT, 'public', 'favicon.svg'), 'utf8');

const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS] });
try {
  for (const [size, name, pad] of [
    [192, 'icon-192.png', 0],
    [512, 'icon-512.png', 0],
    // Maskable: the whole square is painted, the picture inside the safe zone (80 %).
    [512, 'icon-maskable-512.png', 0.1],
  ] as const) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const inner = Math.round(size * (1 - 2 * pad));
    await page.setContent(
      `<body style="margin:0;background:#0b5cad;display:grid;place-items:center;height:${size}px">` +
        `<div style="width:${inner}px;height:${inner}px">${svg.replace('<svg ', `<svg width="${inner}" height="${inner}" `)}</div></body>`,
    );
    await page.screenshot({ path: join(ROOT, 'public', 'icons', name), omitBackground: false });
    console.log(`public/icons/${name}`);
    await page.close();
  }
} finally {
  await browser.close();
}
