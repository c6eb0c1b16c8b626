import type { Server } from 'node:http';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from './support/accessibility';
import { callAs, screenshots } from './support/browser';
import { checkoutFrame, siteUrl, startSite } from './support/embed-site';
import { useJourney } from './support/journey';
import { readOutbox } from './support/outbox';
import { signUpAndVerify } from './support/sign-in';

// An organizer's own website sells an event's tickets through embed.js (decision 0061): the site is
// served from another local origin, as a real one would be, and shows the checkout in a frame only
// when the organizer listed it.

/** Presses Tab until `target` (in the page or its frame) has the focus, as a keyboard user would. */
async function tabTo(page: Page, target: Locator) {
  for (let press = 0; press < 12; press++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error('Tab never reached the field');
}

describe('an organizer sells tickets on their own website', () => {
  const journey = useJourney();
  let organizer: Page;
  let buyer: Page;
  let site: Server;
  let otherSite: Server;
  /** The organizer's site: 127.0.0.1, another site than Admit's localhost, where Admit's cookies do not go. */
  let allowedOrigin = '';
  let eventId = '';
  let slug = '';
  const beacons: string[] = [];

  beforeAll(async () => {
    organizer = await journey.newPage();
    buyer = await journey.newPage();
    buyer.on('request', (request) => void (new URL(request.url()).pathname === '/a' && beacons.push(request.postData() ?? '')));
  });
  afterAll(() => {
    site?.close();
    otherSite?.close();
  });

  it('lets the organizer list their website and copy the two lines', async () => {
    await signUpAndVerify(organizer, { name: 'Olga Organizer', email: 'olga@example.test' });
    const call = callAs(organizer);
    const { organizationId } = await call('orgs.create', { name: 'Club Blau' });
    const event = await call('events.create', {
      organizationId,
      title: 'Friday Jazz',
      venue: 'Club Blau, Berlin',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-05-10T20:00',
      endsAtLocal: '2030-05-10T23:00',
      capacity: 50,
    });
    eventId = event.eventId!;
    slug = event.slug!;
    await call('events.addTicketType', { eventId, name: 'Guest list', capacity: 20, price: 0 });
    await call('events.addTicketType', { eventId, name: 'Table', capacity: 20, price: 2500 });
    await call('events.publish', { eventId });
    site = await startSite(journey.url, slug);
    otherSite = await startSite(journey.url, slug);
    allowedOrigin = siteUrl(site, '127.0.0.1');

    await organizer.goto(`/manage/events/${eventId}`);
    await organizer.getByRole('heading', { name: 'Sell on your website' }).waitFor();
    await organizer.getByText(`<admit-tickets event="${event.slug}"></admit-tickets>`).waitFor();
    const sites = organizer.getByRole('textbox', { name: 'Websites allowed to show the checkout' });
    await sites.fill(`${allowedOrigin}/shop`);
    await organizer.getByRole('button', { name: 'Save websites' }).click();
    await organizer.getByText(/is not a site’s address/).waitFor();
    await sites.fill(`${allowedOrigin}/`);
    await organizer.getByRole('button', { name: 'Save websites' }).click();
    await organizer.getByRole('status').getByText('Saved').waitFor();
    await expect.poll(() => sites.inputValue()).toBe(allowedOrigin);
  });

  it('shows a link to the event’s page, not the checkout, on a website that is not on the list', async () => {
    await buyer.goto(siteUrl(otherSite, 'localhost'));
    const link = buyer.locator('admit-tickets').getByRole('link', { name: 'Friday Jazz' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`${journey.url}/e/${slug}`);
    expect(await buyer.locator('admit-tickets iframe').count()).toBe(0);
  });

  it('shows the checkout in the host page’s language', async () => {
    await buyer.goto(`${allowedOrigin}/fr`);
    const frame = await checkoutFrame(buyer);
    await frame.getByRole('heading', { name: 'Billets' }).waitFor();
    await frame.getByText('Gratuit').waitFor();
  });

  it('sells a guest a free ticket inside the host page, by keyboard only, and counts the website as the source', async () => {
    beacons.length = 0;
    await buyer.goto(allowedOrigin);
    const frame = await checkoutFrame(buyer);
    // From the host page's own heading: into the frame, through the picker, as a keyboard user goes.
    await buyer.getByRole('heading', { name: 'Club Blau' }).click();
    await tabTo(buyer, frame.getByRole('spinbutton', { name: 'Number of Guest list tickets' }));
    await buyer.keyboard.press('ArrowUp');
    await tabTo(buyer, frame.getByRole('button', { name: 'Continue with email' }));
    await buyer.keyboard.press('Enter');
    await tabTo(buyer, frame.getByRole('textbox', { name: 'Your name' }));
    await buyer.keyboard.type('Gus Guest');
    await tabTo(buyer, frame.getByRole('textbox', { name: 'Email address' }));
    await buyer.keyboard.type('gus@example.test');
    await buyer.keyboard.press('Enter');
    await frame.getByText('Check your email').waitFor();
    expect(new URL(buyer.url()).origin).toBe(allowedOrigin);
    // The frame grew to show the answer: the host page shows it whole, without a scroll bar of its own.
    const contentHeight = await frame.locator('main').evaluate((element) => element.getBoundingClientRect().height);
    await expect
      .poll(() => buyer.locator('admit-tickets iframe').evaluate((element) => element.getBoundingClientRect().height))
      .toBeCloseTo(Math.ceil(contentHeight), 0);
    expect(beacons.some((beacon) => beacon.includes(`"referrer":"${allowedOrigin}"`))).toBe(true);
    expect(await accessibilityViolations(frame as unknown as Page)).toEqual([]);
    await screenshots(buyer, 'embed-host-page');

    // The emailed link issues the ticket.
    let link: string | undefined;
    await expect
      .poll(async () => {
        const message = (await readOutbox(buyer)).find((one) => one.to === 'gus@example.test');
        link = message?.text.match(/https?:\/\/\S+\/orders\/\S+/)?.[0];
        return link;
      })
      .toBeTruthy();
    const mailbox = await journey.newPage();
    await mailbox.goto(link!);
    await expect.poll(() => mailbox.getByTestId('order-status').textContent(), { timeout: 10_000 }).toBe('Paid');
    await mailbox.context().close();
  });

  it('sells a guest paid tickets with the 3-D Secure test card without leaving the host page', async () => {
    await buyer.goto(`${allowedOrigin}/?again`);
    const frame = await checkoutFrame(buyer);
    await frame.getByRole('spinbutton', { name: 'Number of Table tickets' }).fill('2');
    await frame.getByRole('button', { name: 'Continue with email' }).click();
    await frame.getByRole('textbox', { name: 'Your name' }).fill('Paula Payer');
    await frame.getByRole('textbox', { name: 'Email address' }).fill('paula@example.test');
    await frame.getByRole('button', { name: 'Get 2 tickets' }).click();
    await frame.getByRole('heading', { name: 'Your order' }).waitFor();
    await frame.getByLabel('Card number').fill('4000 0025 0000 3155');
    await frame.getByLabel('Expiry (MM/YY)').fill('12/34');
    await frame.getByLabel('CVC').fill('123');
    await frame.getByRole('button', { name: 'Pay with test card' }).click();
    const confirmation = frame.getByRole('dialog', { name: 'Confirm this test payment' });
    await confirmation.getByRole('button', { name: 'Approve payment' }).click();
    await expect.poll(() => frame.getByTestId('order-status').textContent(), { timeout: 10_000 }).toBe('Paid');
    expect(new URL(buyer.url()).origin).toBe(allowedOrigin);
    expect(await accessibilityViolations(frame as unknown as Page)).toEqual([]);
  });

  it('opens the checkout over the page from a button, and closes it with Escape', async () => {
    await buyer.goto(`${allowedOrigin}/button`);
    await buyer.getByRole('button', { name: 'Book now' }).click();
    const dialog = buyer.getByRole('dialog', { name: 'Friday Jazz' });
    await dialog.waitFor();
    const frame = await checkoutFrame(buyer);
    await frame.getByRole('button', { name: 'Close' }).waitFor();
    await buyer.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await expect.poll(() => buyer.evaluate(() => document.activeElement?.tagName)).toBe('ADMIT-TICKETS');
  });

  it('continues in a new tab on a small screen, and says why', async () => {
    const phone = await journey.newPage({ viewport: { width: 390, height: 800 } });
    await phone.goto(allowedOrigin);
    const frame = await checkoutFrame(phone);
    await frame.getByText('On a small screen your order continues on our page in a new tab').waitFor();
    const tab = frame.getByRole('link', { name: 'Continue in a new tab' });
    expect(await tab.getAttribute('target')).toBe('_blank');
    await phone.context().close();
  });
});
