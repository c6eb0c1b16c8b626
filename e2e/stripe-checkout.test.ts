import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callAs } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';
import { routeStripeJs, stripeJourney } from './support/stripe-js';

describe('a buyer pays with Stripe: Stripe.js only at the payment step, 3-D Secure on the page, a bank’s page and back', () => {
  const stripe = stripeJourney();
  const journey = useJourney({ env: stripe.env });
  let buyer: Page;
  let eventPath = '';
  let ticketTypeId = '';
  const stripeRequests: string[] = [];

  beforeAll(async () => {
    buyer = await journey.newPage({ timezoneId: 'Europe/Berlin' });
    const context = buyer.context();
    buyer.on('request', (request) => {
      if (/(^|\.)stripe\.(com|network)$/.test(new URL(request.url()).hostname)) stripeRequests.push(request.url());
    });
    await routeStripeJs(context, stripe.standIn());

    // The organizer's side is covered by other journeys: here the event is made through the callables.
    const organizer = await journey.newPage();
    await signUpAndVerify(organizer, { name: 'Olivia Organizer', email: 'olivia@example.test' });
    const call = callAs(organizer);
    const { organizationId } = await call('orgs.create', { name: 'Harbour Sounds' });
    const { eventId, slug } = await call('events.create', {
      organizationId,
      title: 'Harbour Sessions',
      venue: 'Pier 3',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-05-01T20:00',
      endsAtLocal: '2030-05-01T23:00',
      capacity: 10,
      currency: 'EUR',
    });
    ({ ticketTypeId } = await call('events.addTicketType', {
      eventId,
      name: 'Standing',
      capacity: 10,
      maxPerOrder: 4,
      price: 2500,
    }));
    await call('events.publish', { eventId });
    eventPath = `/e/${slug}`;
    await organizer.close();
  });

  afterAll(async () => {
    await stripe.close();
  });

  it('loads nothing from Stripe on the home page, the event page, sign-in and choosing tickets', async () => {
    await buyer.goto('/');
    await buyer.goto('/sign-in');
    await signUpAndVerify(buyer, { name: 'Bea Buyer', email: 'bea@example.test' });
    await buyer.goto(eventPath);
    await buyer.getByRole('heading', { name: 'Harbour Sessions' }).waitFor();
    await buyer.getByRole('spinbutton', { name: 'Number of Standing tickets' }).fill('2');
    await expect.poll(() => buyer.getByTestId('picker-total').textContent()).toBe('€50.00');

    expect(stripeRequests).toEqual([]);
    expect(ticketTypeId).not.toBe('');
  });

  it('opens the payment step with Stripe.js from js.stripe.com and the Payment Element in the buyer’s language', async () => {
    await buyer.getByRole('button', { name: 'Get 2 tickets' }).click();
    await buyer.getByRole('heading', { name: 'Your order' }).waitFor();
    const card = buyer.getByLabel('Card number (Stripe stand-in)');
    await card.waitFor();

    expect(stripeRequests).toEqual([expect.stringMatching(/^https:\/\/js\.stripe\.com\/[a-z]+\/stripe\.js/)]);
    const element = buyer.locator('[data-publishable-key]');
    await expect(element.getAttribute('data-publishable-key')).resolves.toBe('pk_test_browser_journey');
    await expect(element.getAttribute('data-locale')).resolves.toBe('en');
    // The sandbox's notice is not shown: this is Stripe.
    await expect(buyer.getByText('Test payments — no money moves').count()).resolves.toBe(0);
  });

  it("shows Stripe's message for a declined card and keeps the order payable", async () => {
    await buyer.getByLabel('Card number (Stripe stand-in)').fill('4000 0000 0000 0002');
    await buyer.getByRole('button', { name: 'Pay now' }).click();
    await buyer.getByText('Your card was declined.').waitFor();
    await expect.poll(() => buyer.getByTestId('order-status').textContent()).toBe('Awaiting payment');
  });

  it('comes back to the order page from the bank’s page, where the server checks the payment and the order is paid', async () => {
    await buyer.getByLabel('iDEAL').check();
    await buyer.getByRole('button', { name: 'Pay now' }).click();
    await buyer.waitForURL(/\/orders\/[^/?]+\?.*payment_intent=pi_/);

    await expect.poll(() => buyer.getByTestId('order-status').textContent(), { timeout: 10_000 }).toBe('Paid');
    await buyer.getByText('Payment received — your tickets are ready').waitFor();
    await buyer.getByRole('link', { name: 'Show my tickets' }).click();
    await expect.poll(() => buyer.getByRole('img', { name: /^QR code of ticket / }).count()).toBe(2);
  });

  /** One more ticket, from the event's page, paid with `card` in Stripe's form. */
  async function payForOneTicket(card: string) {
    await buyer.goto(eventPath);
    await buyer.getByRole('spinbutton', { name: 'Number of Standing tickets' }).fill('1');
    await buyer.getByRole('button', { name: 'Get 1 ticket' }).click();
    await buyer.getByLabel('Card number (Stripe stand-in)').fill(card);
    await buyer.getByRole('button', { name: 'Pay now' }).click();
  }

  it('completes a payment without a redirect when the card needs no extra step', async () => {
    await payForOneTicket('4242 4242 4242 4242');

    await expect.poll(() => buyer.getByTestId('order-status').textContent(), { timeout: 10_000 }).toBe('Paid');
    // The payment was created with the server's amount (2 × €25.00, then 1 × €25.00), never the browser's.
    expect([...stripe.standIn().intents.values()].map((intent) => intent.amount).sort()).toEqual([2500, 5000]);
  });

  it('authenticates a 3-D Secure card in Stripe’s dialog on the page, without leaving it', async () => {
    await payForOneTicket('4000 0025 0000 3155');
    await buyer
      .getByRole('dialog', { name: '3D Secure 2 Test Page' })
      .getByRole('button', { name: 'Complete authentication' })
      .click();

    await expect.poll(() => buyer.getByTestId('order-status').textContent(), { timeout: 10_000 }).toBe('Paid');
    expect(buyer.url()).not.toContain('payment_intent=');
  });
});
