import { describe, expect, it } from 'vitest';
import { callAs } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

describe('the server restarts while a buyer is at the payment step', () => {
  const journey = useJourney();

  it('keeps the hold, and the payment after the restart completes the order once', async () => {
    const organizer = await journey.newPage();
    await signUpAndVerify(organizer, { name: 'Olivia Organizer', email: 'olivia@example.test' });
    const call = callAs(organizer);
    const { organizationId } = await call('orgs.create', { name: 'Restart Records' });
    const { eventId, slug } = await call('events.create', {
      organizationId,
      title: 'Power Cut Party',
      venue: 'Substation',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-03-01T21:00',
      endsAtLocal: '2030-03-02T03:00',
      capacity: 2,
    });
    await call('events.addTicketType', { eventId, name: 'Entry', capacity: 2, maxPerOrder: 2, price: 1200 });
    await call('events.publish', { eventId });
    await organizer.close();

    const buyer = await journey.newPage();
    await signUpAndVerify(buyer, { name: 'Bea Buyer', email: 'bea@example.test' });
    await buyer.goto(`/e/${slug}`);
    await buyer.getByRole('spinbutton', { name: 'Number of Entry tickets' }).fill('2');
    await buyer.getByRole('button', { name: 'Get 2 tickets' }).click();
    await buyer.getByLabel('Card number').waitFor();
    const orderPath = new URL(buyer.url()).pathname;

    // SIGTERM, then the same data directory and port again: the page's live channel reconnects.
    expect(await journey.stopServer()).toBe(0);
    await journey.startServer();

    await buyer.getByLabel('Card number').fill('4242 4242 4242 4242');
    await buyer.getByLabel('Expiry (MM/YY)').fill('12/34');
    await buyer.getByLabel('CVC').fill('123');
    await buyer.getByRole('button', { name: 'Pay with test card' }).click();
    await expect.poll(() => buyer.getByTestId('order-status').textContent(), { timeout: 10_000 }).toBe('Paid');

    // A reload asks the server again: one order, two tickets, the event sold out, nothing doubled.
    await buyer.goto(orderPath);
    await expect.poll(() => buyer.getByTestId('order-status').textContent()).toBe('Paid');
    await buyer.goto('/tickets');
    await expect.poll(() => buyer.getByRole('img', { name: /^QR code of ticket / }).count()).toBe(2);
    await buyer.goto(`/e/${slug}`);
    await buyer.getByRole('region', { name: 'Tickets' }).getByText('Sold out').waitFor();
  });
});
