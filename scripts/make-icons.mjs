// Draws the web app manifest's PNG icons from apps/web/public/favicon.svg with the headless Chromium the
// browser journeys use (no image library is installed): `node scripts/make-icons.mjs`, then commit them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const publicDir = path.join(root, 'apps/web/public');
const favicon = readFileSync(path.join(publicDir, 'favicon.svg'), 'utf8');
const dataUrl = `data:image/svg+xml;base64,${Buffer.from(favicon).toString('base64')}`;
/** The favicon's own background: a maskable icon is filled with it to the edges. */
const indigo = '#4c6ef5';

/**
 * `any` icons are the favicon, its rounded corners transparent. A maskable icon may be cut to any
 * shape within its inner 80 % circle, so the favicon is drawn at 80 % on a full square of its colour.
 * iOS ignores the manifest and rounds an opaque square itself: the apple-touch-icon is maskable's twin.
 */
const icons = [
  { file: 'icon-192.png', size: 192, scale: 1, fill: 'transparent' },
  { file: 'icon-512.png', size: 512, scale: 1, fill: 'transparent' },
  { file: 'icon-maskable-512.png', size: 512, scale: 0.8, fill: indigo },
  { file: 'apple-touch-icon.png', size: 180, scale: 0.8, fill: indigo },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  for (const { file, size, scale, fill } of icons) {
    await page.setViewportSize({ width: size, height: size });
    const drawn = Math.round(size * scale);
    await page.setContent(
      `<body style="margin:0;background:${fill};width:${size}px;height:${size}px;display:grid;place-items:center">` +
        `<img src="${dataUrl}" width="${drawn}" height="${drawn}"></body>`,
    );
    await page.locator('img').evaluate((img) => img.decode());
    await page.screenshot({ path: path.join(publicDir, file), omitBackground: fill === 'transparent' });
    console.log(`apps/web/public/${file} (${size}×${size})`);
  }
} finally {
  await browser.close();
}
