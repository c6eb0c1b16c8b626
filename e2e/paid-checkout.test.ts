import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshots } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

async function expectText(page: Page, text: string | RegExp, timeout = 5_000) {
  await page.getByText(text).first().waitFor({ timeout });
}

/** Every request a page makes to Stripe: with the sandbox provider there must be none, anywhere. */
function stripeRequests(page: Page) {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (/(^|\.)stripe\.(com|network)$/.test(new URL(request.url()).hostname)) seen.push(request.url());
  });
  return seen;
}

describe('a buyer pays for tickets in yen with the sandbox provider, while the organizer watches the order', () => {
  const journey = useJourney();
  let organizer: Page;
  let buyer: Page;
  let buyerStripe: string[];
  let eventPath = '';

  beforeAll(async () => {
    organizer = await journey.newPage({ timezoneId: 'Europe/Berlin' });
    buyer = await journey.newPage({ timezoneId: 'Asia/Tokyo' });
    buyerStripe = stripeRequests(buyer);
  });

  it('lets the organizer sell a ticket type with a price in yen', async () => {
    await signUpAndVerify(organizer, { name: 'Olivia Organizer', email: 'olivia@example.test' });
    await organizer.getByRole('link', { name: 'Organize' }).first().click();
    await organizer.getByLabel('Organization name').fill('Tokyo Jazz Club');
    await organizer.getByRole('button', { name: 'Create organization' }).click();
    await organizer.getByRole('heading', { name: 'Events of Tokyo Jazz Club' }).waitFor();

    await organizer.getByLabel('Title').fill('Blue Note Night');
    await organizer.getByLabel('Venue').fill('Minato, Tokyo');
    const zone = organizer.getByRole('combobox', { name: 'Time zone of the event' });
    await zone.fill('Asia/Tokyo');
    await organizer.getByRole('option', { name: 'Asia/Tokyo' }).click();
    await organizer.getByLabel('Starts').fill('2030-09-20T19:00');
    await organizer.getByLabel('Ends').fill('2030-09-20T22:00');
    await organizer.getByRole('combobox', { name: 'Currency' }).fill('JPY');
    await organizer.getByRole('option', { name: /^JPY — / }).click();
    await organizer.getByRole('textbox', { name: 'Capacity', exact: true }).fill('3');
    await organizer.getByRole('button', { name: 'Create event' }).click();

    await organizer.getByRole('heading', { name: 'Blue Note Night' }).waitFor();
    await organizer.getByRole('textbox', { name: 'Name', exact: true }).fill('Seat');
    await organizer.getByRole('textbox', { name: 'Price (JPY)' }).fill('1500');
    await organizer.getByRole('textbox', { name: 'Capacity', exact: true }).fill('3');
    await organizer.getByLabel('Limit per order').fill('2');
    await organizer.getByRole('button', { name: 'Add ticket type' }).click();
    await organizer.getByRole('cell', { name: 'Seat', exact: true }).waitFor();
    await organizer.getByRole('cell', { name: '¥1,500' }).waitFor();
    await organizer.getByRole('button', { name: 'Publish' }).click();
    await expectText(organizer, 'On sale');
    eventPath = new URL((await organizer.getByRole('link', { name: 'View public page' }).getAttribute('href'))!, journey.url)
      .pathname;
  });

  it('holds two tickets with a countdown and marks the payment form as test payments', async () => {
    await signUpAndVerify(buyer, { name: 'Bruno Buyer', email: 'bruno@example.test' });
    await buyer.goto(eventPath);
    await expectText(buyer, '¥1,500');
    await buyer.getByRole('spinbutton', { name: 'Number of Seat tickets' }).fill('2');
    await expect.poll(() => buyer.getByTestId('picker-total').textContent()).toBe('¥3,000');
    await buyer.getByRole('button', { name: 'Get 2 tickets' }).click();

    await buyer.getByRole('heading', { name: 'Your order' }).waitFor();
    await expect.poll(() => buyer.getByTestId('order-status').textContent()).toBe('Awaiting payment');
    await expect.poll(() => buyer.getByTestId('order-total').textContent()).toBe('¥3,000');
    const countdown = await buyer.getByRole('timer').textContent();
    expect(countdown).toMatch(/^Tickets held for (9:[0-5]\d|10:00)$/);
    await expectText(buyer, 'Test payments — no money moves');
    await screenshots(buyer, 'order-page');

    // The organizer sees the pending order at once, and the places as held.
    await organizer.getByRole('cell', { name: /Bruno Buyer/ }).waitFor();
    await organizer.getByRole('cell', { name: 'Pending' }).waitFor();
    await expectText(organizer, '2 places held while buyers pay');
  });

  it('shows a declined card and keeps the hold for another card', async () => {
    await buyer.getByLabel('Card number').fill('4000 0000 0000 0002');
    await buyer.getByLabel('Expiry (MM/YY)').fill('12/34');
    await buyer.getByLabel('CVC').fill('123');
    await buyer.getByRole('button', { name: 'Pay with test card' }).click();
    await expectText(buyer, 'The card was declined. Your tickets are still held: try another card.');
    await screenshots(buyer, 'order-declined');
    await expect.poll(() => buyer.getByTestId('order-status').textContent()).toBe('Awaiting payment');
  });

  it('asks for the confirmation step with card 3155, and after approval the order is paid and the organizer sees it live', async () => {
    await buyer.getByLabel('Card number').fill('4000 0025 0000 3155');
    await buyer.getByRole('button', { name: 'Pay with test card' }).click();
    const dialog = buyer.getByRole('dialog', { name: 'Confirm this test payment' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Approve payment' }).click();

    await expect.poll(() => buyer.getByTestId('order-status').textContent(), { timeout: 10_000 }).toBe('Paid');
    await expectText(buyer, 'Payment received — your tickets are ready');
    await screenshots(buyer, 'order-paid');
    await organizer.getByRole('cell', { name: 'Complete' }).waitFor();
    await expectText(organizer, '2 of 3 places taken');

    await buyer.getByRole('link', { name: 'Show my tickets' }).click();
    await buyer.getByRole('heading', { name: 'My tickets' }).waitFor();
    await expect.poll(() => buyer.getByRole('img', { name: /^QR code of ticket / }).count()).toBe(2);
  });

  it('gives the places back at once when the buyer cancels an order', async () => {
    await buyer.goto(eventPath);
    await buyer.getByRole('spinbutton', { name: 'Number of Seat tickets' }).fill('1');
    await buyer.getByRole('button', { name: 'Get 1 ticket' }).click();
    await buyer.getByRole('heading', { name: 'Your order' }).waitFor();
    await expectText(buyer, 'Test payments — no money moves');
    await expectText(organizer, '1 place held while buyers pay');

    await buyer.getByRole('button', { name: 'Cancel order' }).click();
    await buyer.getByRole('heading', { name: 'Blue Note Night' }).waitFor();
    await buyer.getByRole('region', { name: 'Tickets' }).getByText('1 left').waitFor();
    await expectText(organizer, '2 of 3 places taken');
    await organizer.getByRole('cell', { name: 'Cancelled' }).waitFor();
  });

  it('never talked to Stripe: the sandbox loads nothing from outside', () => {
    expect(buyerStripe).toEqual([]);
  });
});
