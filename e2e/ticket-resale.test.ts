import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { callAs, screenshots } from './support/browser';
import { useJourney } from './support/journey';
import { signUpAndVerify } from './support/sign-in';

describe('a fan who cannot go offers their ticket back, and the next buyer of the sold-out event takes it at its price', () => {
  const journey = useJourney({ context: { timezoneId: 'Europe/Berlin' } });
  let organizer: Page;
  let seller: Page;
  let buyer: Page;
  let eventId = '';
  let slug = '';
  let ticketTypeId = '';
  let sellerOrderId = '';
  let sellerCode = '';

  beforeAll(async () => {
    organizer = await journey.newPage({ viewport: { width: 1280, height: 900 } });
    seller = await journey.newPage({ viewport: { width: 390, height: 844 } });
    buyer = await journey.newPage({ viewport: { width: 390, height: 844 } });
  });

  it('lets the organizer allow resale at face value with a €2.00 fee', async () => {
    await signUpAndVerify(organizer, { name: 'Olga Organizer', email: 'olga.resale@example.test' });
    // Making the event is other screens' work: it is done through their callables.
    const { organizationId } = await callAs(organizer)<{ organizationId: string }>('orgs.create', { name: 'Dockside' });
    ({ eventId, slug } = await callAs(organizer)<{ eventId: string; slug: string }>('events.create', {
      organizationId,
      title: 'Trio at the Dockside',
      venue: 'Dockside Hall, Kiel',
      timeZone: 'Europe/Berlin',
      startsAtLocal: '2030-10-02T20:00',
      endsAtLocal: '2030-10-02T22:00',
      capacity: 1,
    }));
    ({ ticketTypeId } = await callAs(organizer)<{ ticketTypeId: string }>('events.addTicketType', {
      eventId,
      name: 'Standing',
      capacity: 1,
      price: 2500,
    }));
    await callAs(organizer)('events.publish', { eventId });

    await organizer.goto(`/manage/events/${eventId}/transfers`);
    await organizer.getByRole('heading', { name: /^Ticket transfers/, level: 1 }).waitFor();
    await organizer.getByRole('switch', { name: 'Allow resale at face value' }).check();
    await organizer.getByRole('textbox', { name: 'Resale fee (EUR)' }).fill('2');
    await organizer.getByRole('button', { name: 'Save' }).click();
    await organizer.getByText(/^Saved: .*offer them back for resale\.$/).waitFor();
    await organizer
      .getByTestId('resale-terms')
      .getByText(/€2\.00 is kept from each refund/)
      .waitFor();
    await screenshots(organizer, 'resale-settings');
  });

  it('shows the buyer of the only ticket what offering it back gives them, and offers it', async () => {
    await signUpAndVerify(seller, { name: 'Sven Seller', email: 'sven.seller@example.test' });
    // Paying is the paid checkout's journey: the sandbox's test card, through the callables.
    ({ orderId: sellerOrderId } = await callAs(seller)<{ orderId: string }>('orders.create', {
      eventId,
      lines: [{ ticketTypeId, quantity: 1 }],
    }));
    const { clientSecret } = await callAs(seller)<{ clientSecret: string }>('orders.startPayment', { orderId: sellerOrderId });
    await callAs(seller)('payments.sandboxConfirm', {
      clientSecret,
      cardNumber: '4242424242424242',
      expiry: '12/34',
      cvc: '123',
    });
    expect(await callAs(seller)<{ status: string }>('orders.confirmPayment', { orderId: sellerOrderId })).toMatchObject({
      status: 'paid',
    });

    await seller.goto('/tickets');
    sellerCode = (await seller.locator('code').first().textContent()) ?? '';
    await seller.getByRole('button', { name: 'Offer for resale: the Standing ticket' }).click();
    const dialog = seller.getByRole('dialog', { name: 'Offer your Standing ticket for resale' });
    await dialog.getByRole('row', { name: 'You paid €25.00' }).waitFor();
    await dialog.getByRole('row', { name: 'The organizer’s fee -€2.00' }).waitFor();
    await dialog.getByRole('row', { name: 'You get back €23.00' }).waitFor();
    await dialog.getByText(/When it sells, it becomes void and €23\.00 goes back to the card you paid with/).waitFor();
    await screenshots(seller, 'resale-dialog');
    await dialog.getByRole('button', { name: 'Offer for resale' }).click();

    await seller.getByText('Offered for resale · you get €23.00 back when it sells.').waitFor();
    // Focus is on the sentence, as the button pressed is gone; sending it on waits until the offer is taken back.
    expect(await seller.evaluate(() => document.activeElement?.textContent)).toMatch(/^Offered for resale/);
    expect(await seller.getByRole('button', { name: /^Send to someone/ }).count()).toBe(0);
    await seller.getByRole('img', { name: `QR code of ticket ${sellerCode}` }).waitFor();
    await screenshots(seller, 'resale-my-tickets-offered');
  });

  it('lets the seller take the offer back on the order page, and offer it again', async () => {
    await seller.goto(`/orders/${sellerOrderId}`);
    await seller.getByText('Offered for resale · you get €23.00 back when it sells.').waitFor();
    await seller.getByRole('button', { name: 'Take back the Standing ticket from resale' }).click();
    await seller.getByText('Cannot go? Offer it back at the price you paid.').waitFor();
    await seller.getByRole('button', { name: 'Send to someone: the Standing ticket' }).waitFor();
    await seller.getByRole('button', { name: 'Offer for resale: the Standing ticket' }).click();
    const dialog = seller.getByRole('dialog', { name: 'Offer your Standing ticket for resale' });
    await dialog.getByRole('row', { name: 'You get back €23.00' }).waitFor();
    await dialog.getByRole('button', { name: 'Offer for resale' }).click();
    await seller.getByText('Offered for resale · you get €23.00 back when it sells.').waitFor();
    await screenshots(seller, 'resale-order-offered');
  });

  it('sells the ticket offered back to the next buyer of the sold-out event, at the price paid', async () => {
    // The organizer raises the price meanwhile: the ticket offered back still costs what its seller paid.
    await callAs(organizer)('events.updateTicketType', {
      ticketTypeId,
      name: 'Standing',
      price: 3000,
      capacity: 1,
      maxPerOrder: 10,
      maxPerBuyer: null,
      salesStartLocal: null,
      salesEndLocal: null,
      hidden: false,
    });
    await signUpAndVerify(buyer, { name: 'Bea Buyer', email: 'bea.buyer@example.test' });
    await buyer.goto(`/e/${slug}`);
    // Not sold out while a ticket is offered back.
    await buyer.getByText('Sold out; 1 ticket offered back at face value').waitFor();
    const tickets = buyer.getByRole('region', { name: 'Tickets' });
    await tickets.getByText('1 ticket offered back by another fan, at the price they paid').waitFor();
    expect(await tickets.getByRole('button', { name: /waiting list/i }).count()).toBe(0);
    await buyer.getByRole('spinbutton', { name: 'Number of Standing tickets' }).fill('1');
    await buyer.getByTestId('picker-total').getByText('€25.00').waitFor();
    await screenshots(buyer, 'resale-picker');
    await buyer.getByRole('button', { name: 'Get 1 ticket' }).click();

    await buyer.getByTestId('order-total').getByText('€25.00').waitFor();
    await buyer.getByLabel('Card number').fill('4242 4242 4242 4242');
    await buyer.getByLabel('Expiry (MM/YY)').fill('12/34');
    await buyer.getByLabel('CVC').fill('123');
    await buyer.getByRole('button', { name: 'Pay with test card' }).click();
    await expect.poll(() => buyer.getByTestId('order-status').textContent()).toBe('Paid');
    await buyer.goto('/tickets');
    const qr = buyer.getByRole('img', { name: /^QR code of ticket / });
    await qr.waitFor();
    expect(await qr.getAttribute('aria-label')).not.toBe(`QR code of ticket ${sellerCode}`);
  });

  it('voids the seller’s ticket and refunds them the price less the fee', async () => {
    // Live, on the order page the seller left open.
    await seller.getByTestId('order-refunded').getByText('-€23.00').waitFor();
    await seller
      .getByTestId('order-resold')
      .getByText(/^Standing ticket resold on .*: €23\.00 back to your card$/)
      .waitFor();
    await seller.getByText('Your ticket was resold').waitFor();
    expect(await seller.getByRole('button', { name: /^Take back/ }).count()).toBe(0);
    await screenshots(seller, 'resale-order-refunded');
    // Gone from My tickets, as a ticket sent on is.
    await seller.goto('/tickets');
    await seller.getByRole('heading', { name: 'No tickets yet' }).waitFor();
    expect(await seller.getByRole('img', { name: /^QR code of ticket / }).count()).toBe(0);

    // The order's timeline tells the story: offered, taken back, offered again, resold.
    await organizer.goto(`/manage/events/${eventId}/orders/${sellerOrderId}`);
    const resold = organizer.getByText(/^Ticket \w+ resold at €25\.00: it is void, and €23\.00 goes back/);
    await resold.waitFor();
    const offered = /^Ticket \w+ offered for resale at €25\.00, with a fee of €2\.00$/;
    expect(await organizer.getByText(offered).count()).toBe(2);
    await organizer.getByText(/^The offer to resell ticket \w+ was taken back$/).waitFor();
    await screenshots(organizer, 'resale-order-timeline');
  });
});
