import { PNG } from 'pngjs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useJourney } from './support/journey';

interface ManifestIcon {
  src: string;
  sizes: string;
  type: string;
  purpose?: string;
}

describe('the app can be installed on a phone’s home screen, opening like an app', () => {
  const journey = useJourney();
  let page: Page;

  beforeAll(async () => {
    page = await journey.newPage();
    await page.goto('/');
    await page.getByRole('heading', { name: /^Tickets for what's on/ }).waitFor();
  });

  it('links a manifest that names Admit, opens standalone at the start page and uses the theme’s colours', async () => {
    const href = await page.locator('link[rel="manifest"]').getAttribute('href');
    expect(href).toBe('/manifest.webmanifest');
    const response = await page.request.get(href!);
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toMatch(/^application\/manifest\+json/);
    expect(await response.json()).toMatchObject({
      name: 'Admit',
      short_name: 'Admit',
      start_url: '/',
      display: 'standalone',
      theme_color: '#4c6ef5',
      background_color: '#ffffff',
    });
    expect(await page.locator('meta[name="theme-color"]').getAttribute('content')).toBe('#4c6ef5');
  });

  it('names icons that exist as PNGs of the sizes it says: 192 and 512 px, and a maskable one', async () => {
    const manifest = (await (await page.request.get('/manifest.webmanifest')).json()) as { icons: ManifestIcon[] };
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose ?? 'any'}`).toSorted()).toEqual([
      '192x192 any',
      '512x512 any',
      '512x512 maskable',
    ]);
    for (const icon of manifest.icons) {
      const response = await page.request.get(icon.src);
      expect(response.status(), icon.src).toBe(200);
      expect(response.headers()['content-type']).toBe('image/png');
      const png = PNG.sync.read(await response.body());
      expect(`${png.width}x${png.height}`, icon.src).toBe(icon.sizes);
    }
    // A maskable icon is cut to any shape: its corners must be filled, not transparent.
    const maskable = manifest.icons.find((icon) => icon.purpose === 'maskable')!;
    const png = PNG.sync.read(await (await page.request.get(maskable.src)).body());
    expect(png.data[3]).toBe(255);
  });

  it('is installable in Chromium’s own judgement', async () => {
    const cdp = await page.context().newCDPSession(page);
    const { errors } = await cdp.send('Page.getAppManifest');
    expect(errors).toEqual([]);
    // Every context of a test browser is private, which alone keeps Chromium from offering to install.
    const installabilityErrors = async () =>
      (await cdp.send('Page.getInstallabilityErrors')).installabilityErrors
        .map((error) => error.errorId)
        .filter((errorId) => errorId !== 'in-incognito');
    await expect.poll(installabilityErrors).toEqual([]);
  });
});
