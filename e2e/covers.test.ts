import { mkdirSync } from 'node:fs';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

const shots = process.env.SCREENSHOT_DIR ?? '/tmp/shots';

/** A photo as a phone takes it: a sky over a field, with EXIF (a GPS position) the server must remove. */
const photo = (width: number, height: number) =>
  sharp({
    create: { width, height, channels: 3, background: '#74c0fc' },
  })
    .composite([
      {
        input: { create: { width, height: Math.round(height / 3), channels: 3, background: '#2f9e44' } },
        top: height - Math.round(height / 3),
        left: 0,
      },
    ])
    .jpeg()
    .withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '52/1 31/1 0/1' } })
    .toBuffer();

describe('an admin gives an event a cover and the organization a logo, and a visitor sees them', () => {
  const journey = useJourney({ context: { timezoneId: 'Europe/Berlin' } });
  let organizer: Page;
  let visitor: Page;
  let eventId = '';
  let slug = '';
  let organizationId = '';

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    [organizer, visitor] = await Promise.all([
      journey.newPage({ viewport: { width: 1280, height: 900 } }),
      journey.newPage({ viewport: { width: 390, height: 844 } }),
    ]);
    await signUpAndVerify(organizer, { name: 'Olivia Organizer', email: 'olivia.covers@example.test' });
    ({ organizationId } = await callAs(organizer)<{ organizationId: string }>('orgs.create', { name: 'Harbour Nights' }));
    ({ eventId, slug } = await callAs(organizer)<{ eventId: string; slug: string }>('events.create', {
      organizationId,
      title: 'Open Air at the Harbour',
      venue: 'Harbour Park',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-07-04T18:00',
      endsAtLocal: '2030-07-04T23:00',
      capacity: 50,
    }));
    await callAs(organizer)('events.addTicketType', { eventId, name: 'Standing', capacity: 40 });
    await callAs(organizer)('events.publish', { eventId });
  });

  it('chooses a cover, sets its focal point on the preview, and saves it', async () => {
    await organizer.goto(`/manage/events/${eventId}`);
    const card = organizer.getByRole('heading', { name: 'Cover picture' }).locator('xpath=../..');
    await card
      .locator('input[type=file]')
      .setInputFiles({ name: 'harbour.jpg', mimeType: 'image/jpeg', buffer: await photo(2000, 1200) });
    const focus = card.getByRole('button', { name: /^Focal point at 50% from the left, 50% from the top/ });
    await focus.focus();
    await organizer.keyboard.press('ArrowDown');
    await card.getByRole('button', { name: /^Focal point at 50% from the left, 55% from the top/ }).waitFor();
    await organizer.screenshot({ path: `${shots}/cover-choose-1280.png`, fullPage: true });
    await card.getByRole('button', { name: 'Save picture' }).click();
    await card.getByRole('button', { name: 'Remove picture' }).waitFor();
    await card.locator('img[srcset*="/files/i/"]').first().waitFor();
  });

  it('uploads a logo on the organization’s page, and refuses a file that is not an image', async () => {
    await organizer.goto(`/manage/orgs/${organizationId}`);
    const card = organizer.getByRole('heading', { name: 'Logo', exact: true }).locator('xpath=../..');
    await card
      .locator('input[type=file]')
      .setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
    await card.getByRole('alert').waitFor();
    await card.locator('input[type=file]').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: await sharp(await photo(400, 400))
        .png()
        .toBuffer(),
    });
    await card.getByRole('button', { name: 'Save picture' }).click();
    await card.getByRole('button', { name: 'Remove picture' }).waitFor();
    await organizer.getByRole('heading', { name: 'Events of Harbour Nights' }).locator('xpath=..').locator('img').waitFor();
  });

  it('shows the visitor the cover, at the width the phone needs, without the page moving, and the logo', async () => {
    await visitor.goto(`/e/${slug}`);
    await visitor.getByRole('heading', { name: 'Open Air at the Harbour', level: 1 }).waitFor();
    const cover = visitor.locator('picture img').first();
    await cover.waitFor();
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    const shown = await cover.evaluate((img: HTMLImageElement) => ({
      src: img.currentSrc,
      width: img.getBoundingClientRect().width,
      height: img.getBoundingClientRect().height,
      position: getComputedStyle(img).objectPosition,
    }));
    // A 390 px phone at device scale 1 takes the 400 or 800 px WebP, cropped wide around the focal point.
    expect(shown.src).toMatch(/\/files\/i\/[0-9a-f]{24}-(400|800)\.webp$/);
    expect(shown.width / shown.height).toBeCloseTo(16 / 9, 1);
    expect(shown.position).toBe('50% 55%');
    const response = await visitor.request.get(shown.src);
    expect(response.headers()['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await sharp(await response.body()).metadata()).exif).toBeUndefined();
    await expect(visitor.locator('picture img').count()).resolves.toBe(2);
    await visitor.screenshot({ path: `${shots}/public-cover-390.png`, fullPage: true });
    await visitor.setViewportSize({ width: 1280, height: 900 });
    await visitor.screenshot({ path: `${shots}/public-cover-1280.png`, fullPage: true });
    await visitor.goto('/');
    await visitor.getByRole('link', { name: 'Open Air at the Harbour' }).waitFor();
    await visitor.screenshot({ path: `${shots}/home-cover-1280.png` });
  });

  it('uploads the same photo again to move its focal point, and the visitor still sees the cover once the old one is gone', async () => {
    await visitor.goto(`/e/${slug}`);
    const before = await visitor
      .locator('picture img')
      .first()
      .evaluate((img: HTMLImageElement) => img.currentSrc);

    await organizer.goto(`/manage/events/${eventId}`);
    const card = organizer.getByRole('heading', { name: 'Cover picture' }).locator('xpath=../..');
    await card
      .locator('input[type=file]')
      .setInputFiles({ name: 'harbour.jpg', mimeType: 'image/jpeg', buffer: await photo(2000, 1200) });
    await card.getByRole('button', { name: /^Focal point at 50% from the left, 50% from the top/ }).focus();
    await organizer.keyboard.press('ArrowUp');
    await card.getByRole('button', { name: /^Focal point at 50% from the left, 45% from the top/ }).waitFor();
    await card.getByRole('button', { name: 'Save picture' }).click();
    await card.getByRole('button', { name: 'Remove picture' }).waitFor();
    // The replaced cover's variants are deleted by a job, soon after.
    await expect.poll(async () => (await visitor.request.get(before)).status(), { timeout: 20_000, interval: 500 }).toBe(404);

    await visitor.reload();
    const cover = visitor.locator('picture img').first();
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => getComputedStyle(img).objectPosition)).toBe('50% 45%');
    await expect.poll(() => cover.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  });
});
