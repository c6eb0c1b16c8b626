import { mkdirSync, readFileSync } from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { screenshots } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

const shots = '/tmp/shots';

/** Calls a server function as the page's signed-in person and returns its result (fails the test otherwise). */
async function call<T>(page: Page, name: string, data: unknown): Promise<T> {
  const response = await page.request.post(`/fn/${name}`, { data: { data } });
  const body = (await response.json()) as { result: T; error?: unknown };
  if (response.status() !== 200) throw new Error(`${name} failed: ${response.status()} ${JSON.stringify(body.error)}`);
  return body.result;
}

/** Clicks a link to a file as a person would, and gives back the saved file's name and first bytes. */
async function download(page: Page, link: Locator) {
  const [saved] = await Promise.all([page.waitForEvent('download'), link.click()]);
  return {
    name: saved.suggestedFilename(),
    start: readFileSync(await saved.path())
      .subarray(0, 5)
      .toString('latin1'),
  };
}

describe('an organizer refunds one ticket of a paid order and follows it on the order’s page', () => {
  const journey = useJourney({
    context: { timezoneId: 'Europe/Berlin' },
  });
  let organizer: Page;
  let buyer: Page;
  let eventId = '';
  let orderId = '';

  beforeAll(async () => {
    mkdirSync(shots, { recursive: true });
    organizer = await journey.newPage({ viewport: { width: 1280, height: 900 } });
    buyer = await journey.newPage();
  });

  it('sets up an event with a priced ticket type and a buyer who paid for two tickets with a test card', async () => {
    await signUpAndVerify(organizer, { name: 'Olivia Organizer', email: 'olivia@example.test' });
    // The organizer's price field is another screen's work: the event is made through the same callables it uses.
    const { organizationId } = await call<{ organizationId: string }>(organizer, 'orgs.create', { name: 'Harbour Nights' });
    ({ eventId } = await call<{ eventId: string }>(organizer, 'events.create', {
      organizationId,
      title: 'Late Jazz at the Harbour',
      venue: 'Harbour Hall, Hamburg',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-06-14T20:00',
      endsAtLocal: '2030-06-14T23:30',
      capacity: 50,
    }));
    const { ticketTypeId } = await call<{ ticketTypeId: string }>(organizer, 'events.addTicketType', {
      eventId,
      name: 'Standing',
      capacity: 50,
      maxPerOrder: 4,
      price: 2500,
    });
    await call(organizer, 'events.publish', { eventId });

    await signUpAndVerify(buyer, { name: 'Bruno Buyer', email: 'bruno@example.test' });
    ({ orderId } = await call<{ orderId: string }>(buyer, 'orders.create', {
      eventId,
      lines: [{ ticketTypeId, quantity: 2 }],
    }));
    const { clientSecret } = await call<{ clientSecret: string }>(buyer, 'orders.startPayment', { orderId });
    await call(buyer, 'payments.sandboxConfirm', { clientSecret, cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' });
    expect(await call<{ status: string }>(buyer, 'orders.confirmPayment', { orderId })).toMatchObject({ status: 'paid' });
  });

  it('shows the paid order in the event’s list and opens its detail from there', async () => {
    await organizer.goto(`/manage/events/${eventId}`);
    await organizer.getByRole('heading', { name: 'Late Jazz at the Harbour' }).waitFor();
    const row = organizer.getByRole('row', { name: /Bruno Buyer/ });
    await row.getByText('Complete').waitFor();
    await row.getByRole('link', { name: 'Bruno Buyer' }).click();

    await organizer.getByRole('heading', { name: 'Bruno Buyer', level: 1 }).waitFor();
    await organizer.getByTestId('order-status').getByText('Complete').waitFor();
    await organizer.getByRole('list').getByText('Paid €50.00').waitFor();
    const tickets = organizer.getByRole('table', { name: 'Tickets' });
    await expect.poll(() => tickets.getByRole('checkbox').count()).toBe(2);
  });

  it('downloads the order’s tickets as a PDF from its detail, as the confirmation email attaches them', async () => {
    const pdf = await download(organizer, organizer.getByRole('link', { name: 'Download tickets (PDF)' }));
    expect(pdf).toEqual({ name: expect.stringMatching(/-tickets\.pdf$/), start: '%PDF-' });
    await screenshots(organizer, 'order-detail');
  });

  it('refunds one ticket with a reason in the dialog, and sees the order partly refunded and the timeline, live', async () => {
    await organizer.getByRole('checkbox', { name: 'Refund ticket 1: Standing, Bruno Buyer' }).check();
    await organizer.getByRole('button', { name: 'Refund 1 ticket (€25.00)' }).click();

    const dialog = organizer.getByRole('dialog', { name: 'Refund 1 ticket' });
    await dialog.waitFor();
    const reason = dialog.getByRole('textbox', { name: 'Reason' });
    // Focus moves into the dialog, to the one thing to fill in.
    await expect.poll(() => reason.evaluate((element) => element === document.activeElement)).toBe(true);
    await expect(dialog.getByTestId('refund-amount').textContent()).resolves.toBe('€25.00');

    await dialog.getByRole('button', { name: 'Refund €25.00' }).click();
    await dialog.getByText('This field is required.').waitFor();

    await reason.fill('Cannot come on the day');
    await organizer.screenshot({ path: `${shots}/order-detail-dialog-1280.png` });
    await dialog.getByRole('button', { name: 'Refund €25.00' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await organizer.getByTestId('order-status').getByText('Partly refunded').waitFor();
    const timeline = organizer.getByRole('list').filter({ hasText: 'Paid €50.00' });
    await timeline.getByText('Refund of €25.00 for 1 ticket requested').waitFor();
    await timeline.getByText('Reason: Cannot come on the day').waitFor();
    await timeline.getByText('Refund of €25.00 completed').waitFor();
    await timeline.getByText(/by Olivia Organizer/).waitFor();
    await organizer.getByText('Refunded', { exact: true }).first().waitFor();
    await expect(organizer.getByRole('table', { name: 'Tickets' }).getByRole('checkbox').count()).resolves.toBe(1);
    await expect(organizer.getByRole('table', { name: 'Tickets' }).getByText('Void').count()).resolves.toBe(1);

    await organizer.screenshot({ path: `${shots}/order-detail-1280.png`, fullPage: true });
    await organizer.setViewportSize({ width: 390, height: 844 });
    await organizer.screenshot({ path: `${shots}/order-detail-390.png`, fullPage: true });

    // What is left can be refunded at once; Escape closes the dialog without refunding.
    await organizer.getByRole('button', { name: 'Refund all remaining tickets' }).click();
    const rest = organizer.getByRole('dialog', { name: 'Refund the remaining ticket' });
    await rest.getByTestId('refund-amount').getByText('€25.00').waitFor();
    await organizer.screenshot({ path: `${shots}/order-detail-dialog-390.png` });
    await organizer.keyboard.press('Escape');
    await rest.waitFor({ state: 'hidden' });
    await organizer.getByTestId('order-status').getByText('Partly refunded').waitFor();
    await organizer.setViewportSize({ width: 1280, height: 900 });
  });

  it('shows the order as partly refunded in the event’s list, and the place back on sale', async () => {
    await organizer.getByRole('link', { name: 'Late Jazz at the Harbour', exact: true }).click();
    await organizer
      .getByRole('row', { name: /Bruno Buyer/ })
      .getByText('Partly refunded')
      .waitFor();
    await organizer.getByText('1 of 50 places taken').waitFor();
  });

  it('shows the buyer the refunded ticket after the valid one, with no code to scan', async () => {
    await buyer.setViewportSize({ width: 390, height: 844 });
    await buyer.goto('/tickets');
    const cards = buyer.getByRole('listitem', { name: 'Standing ticket for Late Jazz at the Harbour' });
    await expect.poll(() => cards.count()).toBe(2);
    await cards.nth(1).getByText('Refunded').waitFor();
    await cards.nth(1).getByText('This ticket no longer admits anyone.').waitFor();
    await cards
      .nth(0)
      .getByRole('img', { name: /^QR code of ticket / })
      .waitFor();
    await expect(cards.nth(1).getByRole('img').count()).resolves.toBe(0);
    await expect(cards.nth(0).getByText('Refunded').count()).resolves.toBe(0);
    // The valid ticket's order can be downloaded; a refunded ticket has nothing left to print.
    await cards.nth(0).getByRole('link', { name: 'Download tickets (PDF)' }).waitFor();
    await expect(cards.nth(1).getByRole('link', { name: 'Download tickets (PDF)' }).count()).resolves.toBe(0);
    await buyer.screenshot({ path: `${shots}/my-tickets-refunded-390.png`, fullPage: true });
    await buyer.setViewportSize({ width: 1280, height: 900 });
    await buyer.screenshot({ path: `${shots}/my-tickets-refunded-1280.png`, fullPage: true });
  });

  it('gives the buyer the remaining ticket as a PDF from the order’s page', async () => {
    await buyer.goto(`/orders/${orderId}`);
    const pdf = await download(buyer, buyer.getByRole('link', { name: 'Download tickets (PDF)' }));
    expect(pdf).toEqual({ name: expect.stringMatching(/-tickets\.pdf$/), start: '%PDF-' });
    await screenshots(buyer, 'order-buyer');
  });
});
