import type { Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations } from './support/accessibility';
import { callAs } from './support/browser';
import { checkoutFrame, siteUrl, startSite } from './support/embed-site';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';
import { routeStripeJs, stripeJourney } from './support/stripe-js';

// The embedded checkout with Stripe (decision 0061): a card, 3-D Secure included, is paid inside the
// frame, in Stripe's own dialog; a method that goes on to the bank's page (which may refuse to be
// shown inside another site) continues on the order's page in a new tab, and the frame says why.

describe('a guest pays with Stripe on the organizer’s website', () => {
  const stripe = stripeJourney();
  const journey = useJourney({ env: stripe.env });
  let buyer: Page;
  let site: Server;
  let siteOrigin = '';

  beforeAll(async () => {
    const organizer = await journey.newPage();
    await signUpAndVerify(organizer, { name: 'Olga Organizer', email: 'olga@example.test' });
    const call = callAs(organizer);
    const { organizationId } = await call('orgs.create', { name: 'Club Blau' });
    const { eventId, slug } = await call('events.create', {
      organizationId,
      title: 'Friday Jazz',
      venue: 'Club Blau, Berlin',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-05-10T20:00',
      endsAtLocal: '2030-05-10T23:00',
      capacity: 20,
      currency: 'EUR',
    });
    await call('events.addTicketType', { eventId, name: 'Table', capacity: 20, maxPerOrder: 4, price: 2500 });
    await call('events.publish', { eventId });
    site = await startSite(journey.url, slug!);
    siteOrigin = siteUrl(site, '127.0.0.1');
    await call('events.setEmbedSites', { eventId, sites: [siteOrigin] });
    await organizer.close();
    buyer = await journey.newPage();
    await routeStripeJs(buyer.context(), stripe.standIn());
  });
  afterAll(async () => {
    site?.close();
    await stripe.close();
  });

  /** A guest's order of `count` tables in the frame, up to Stripe's payment form. */
  async function orderInFrame(count: number, name: string, email: string) {
    await buyer.goto(`${siteOrigin}/?${email}`);
    const frame = await checkoutFrame(buyer);
    await frame.getByRole('spinbutton', { name: 'Number of Table tickets' }).fill(String(count));
    await frame.getByRole('button', { name: 'Continue with email' }).click();
    await frame.getByRole('textbox', { name: 'Your name' }).fill(name);
    await frame.getByRole('textbox', { name: 'Email address' }).fill(email);
    await frame.getByRole('button', { name: `Get ${count} ticket${count === 1 ? '' : 's'}` }).click();
    await frame.getByLabel('Card number (Stripe stand-in)').waitFor();
    return frame;
  }

  it('pays a 3-D Secure card in Stripe’s dialog inside the frame, without leaving the host page', async () => {
    const frame = await orderInFrame(2, 'Paula Payer', 'paula@example.test');
    await frame.getByLabel('Card number (Stripe stand-in)').fill('4000 0025 0000 3155');
    await frame.getByRole('button', { name: 'Pay now' }).click();
    await frame
      .getByRole('dialog', { name: '3D Secure 2 Test Page' })
      .getByRole('button', { name: 'Complete authentication' })
      .click();

    await expect.poll(() => frame.getByTestId('order-status').textContent(), { timeout: 10_000 }).toBe('Paid');
    expect(new URL(buyer.url()).origin).toBe(siteOrigin);
  });

  it('continues a payment at the bank’s page in a new tab, says why, and shows the order paid in the frame', async () => {
    const frame = await orderInFrame(1, 'Iris Ideal', 'iris@example.test');
    await frame.getByLabel('iDEAL').check();
    await frame.getByText('which cannot open inside this website').waitFor();
    expect(await frame.getByRole('button', { name: 'Pay now' }).count()).toBe(0);
    expect(await accessibilityViolations(frame as unknown as Page)).toEqual([]);

    const [tab] = await Promise.all([
      buyer.context().waitForEvent('page'),
      frame.getByRole('link', { name: 'Continue in a new tab' }).click(),
    ]);
    // The order's own page, opened by the guest's token, at full size: there the bank's page may open.
    await tab.getByRole('heading', { name: 'Your order' }).waitFor();
    await tab.getByLabel('iDEAL').check();
    await tab.getByRole('button', { name: 'Pay now' }).click();
    await tab.waitForURL(/\/orders\/[^/?]+\?.*payment_intent=pi_/);
    await expect.poll(() => tab.getByTestId('order-status').textContent(), { timeout: 10_000 }).toBe('Paid');

    // The frame on the host page sees it as it happens.
    await expect.poll(() => frame.getByTestId('order-status').textContent(), { timeout: 10_000 }).toBe('Paid');
    expect(new URL(buyer.url()).origin).toBe(siteOrigin);
    await tab.close();
  });
});
