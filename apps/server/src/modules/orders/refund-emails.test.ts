import { randomUUID } from 'node:crypto';
import { confirmPayment, createOrder, startPayment } from '@admit/shared/orders';
import { sandboxConfirm } from '@admit/shared/payments';
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { pdfPagesText } from '../../testing/pdf-text';
import { orderEmailTestApp } from '../../testing/order-email-fixtures';
import type { TestApp } from '../../testing/test-app';
import { sendLatePaymentRefundNotice, sendOrderConfirmation, sendRefundNotice, type OrderEmailDeps } from './order-emails';
import { order } from './schema';
import { refund } from '../payments/schema';
import { ticket } from '../tickets/schema';

// The refund emails and the dev outbox's listing of what was sent (the confirmation's tests are in
// order-emails.test.ts; both share orderEmailTestApp).

const fixtures = orderEmailTestApp();
const { expectOk, pricedEvent, payFor, paidOrder } = fixtures;
let t: TestApp;
let deps: OrderEmailDeps;
beforeAll(() => ({ t, deps } = fixtures.app));

describe('the refund email', () => {
  async function recordRefund(orderId: string, values: { amount: number; reason: string; ticketIds?: string[] }) {
    const id = randomUUID();
    await t.db.insert(refund).values({
      id,
      orderId,
      amount: values.amount,
      reason: values.reason,
      status: 'succeeded',
      idempotencyKey: `test-${id}`,
      ticketIds: values.ticketIds ?? [],
    });
    if (values.ticketIds?.length)
      for (const ticketId of values.ticketIds) await t.db.update(ticket).set({ status: 'void' }).where(eq(ticket.id, ticketId));
    return id;
  }

  it('says in the buyer’s language how much was refunded, why, and which tickets remain', async () => {
    const { orderId, buyer, tickets } = await paidOrder({ locale: 'de', currency: 'JPY', price: 1500 });
    const refundId = await recordRefund(orderId, { amount: 1500, reason: 'Doppelt gebucht', ticketIds: [tickets[0]!.id] });
    expect(await sendRefundNotice(deps, refundId)).toBe(true);

    const message = await t.lastMessageTo(buyer.email);
    expect(message.subject).toBe('Erstattung für Jazz night');
    expect(message.text).toMatch(/Wir haben 1\.500\s¥ für Jazz night erstattet\./);
    expect(message.text).toContain('Grund: Doppelt gebucht');
    expect(message.text).toContain('1 Ticket Ihrer Bestellung ist nicht mehr gültig. Ihr anderes Ticket bleibt gültig.');
    expect(message.attachments).toEqual([]);
  });

  it('says "We refunded €25.00 for Jazz night" in English, and escapes the reason', async () => {
    const { orderId, buyer } = await paidOrder({ locale: 'en' });
    const refundId = await recordRefund(orderId, { amount: 2500, reason: 'Sound <i>problems</i>' });
    await sendRefundNotice(deps, refundId);

    const message = await t.lastMessageTo(buyer.email);
    expect(message.subject).toBe('Refund for Jazz night');
    expect(message.text).toContain('We refunded €25.00 for Jazz night.');
    expect(message.text).toContain('Reason: Sound <i>problems</i>');
    expect(message.html).toContain('Reason: Sound &lt;i&gt;problems&lt;/i&gt;');
    expect(message.text).not.toContain('no longer valid');
  });

  it('is not sent for a refund that failed', async () => {
    const { orderId } = await paidOrder();
    const refundId = await recordRefund(orderId, { amount: 2500, reason: 'Cancelled' });
    await t.db.update(refund).set({ status: 'failed' }).where(eq(refund.id, refundId));
    await expect(sendRefundNotice(deps, refundId)).rejects.toThrow(/failed/);
  });
});

describe('the email for a payment that came too late', () => {
  it('says the payment was refunded in full and no tickets were issued', async () => {
    const { eventId, ticketTypeId, slug } = await pricedEvent({ capacity: 2 });
    const [late, other] = [await t.signUp('Lena Late'), await t.signUp()];
    const lateCookie = `${late.cookie}; admit.locale=en`;
    const create = (cookie: string) => expectOk(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 2 }] }, cookie);
    const { orderId } = await create(lateCookie);
    const { clientSecret } = await expectOk(startPayment, { orderId }, lateCookie);
    await expectOk(sandboxConfirm, { clientSecret, cardNumber: '4242424242424242', expiry: '12/34', cvc: '123' }, lateCookie);
    // The hold runs out before the payment is seen, and someone else buys the places.
    await t.db
      .update(order)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(order.id, orderId));
    await payFor(other.cookie, (await create(other.cookie)).orderId);
    expect((await expectOk(confirmPayment, { orderId }, lateCookie)).status).toBe('cancelled');

    expect(await sendLatePaymentRefundNotice(deps, orderId)).toBe(true);
    const message = await t.lastMessageTo(late.email);
    expect(message.subject).toBe('Your payment for Jazz night was refunded');
    expect(message.text).toContain(
      'Your payment of €50.00 for Jazz night arrived after your reservation had ended, and by then the tickets were gone.',
    );
    expect(message.text).toContain('Your payment was refunded in full, and no tickets were issued.');
    expect(message.text).toContain(`http://localhost:3000/e/${slug}`);
    expect(message.attachments).toEqual([]);
  });
});

describe('the dev outbox', () => {
  it('lists the attachments, serves each, and shows inline images from its own copies', async () => {
    const { orderId, buyer, slug } = await paidOrder({ quantity: 1 });
    await sendOrderConfirmation(deps, orderId);
    const message = await t.lastMessageTo(buyer.email);

    const listing = (await t.app.inject({ method: 'GET', url: '/dev/outbox.json' })).json() as {
      messages: { id: string; attachments: { filename: string; contentType: string; url: string; size: number }[] }[];
    };
    const listed = listing.messages.find((candidate) => candidate.id === message.id)!;
    expect(listed.attachments.map(({ filename, contentType }) => ({ filename, contentType }))).toEqual([
      { filename: 'ticket-1-qr.png', contentType: 'image/png' },
      { filename: `${slug}-tickets.pdf`, contentType: 'application/pdf' },
    ]);
    expect(JSON.stringify(listed)).not.toContain('contentBase64');

    const pdf = await t.app.inject({ method: 'GET', url: listed.attachments[1]!.url });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toBe(`attachment; filename="${slug}-tickets.pdf"`);
    expect(pdf.rawPayload.length).toBe(listed.attachments[1]!.size);
    expect(await pdfPagesText(new Uint8Array(pdf.rawPayload))).toHaveLength(1);

    const html = (await t.app.inject({ method: 'GET', url: `/dev/outbox/${message.id}` })).body;
    expect(html).not.toContain('cid:');
    expect(html).toContain(`src="${listed.attachments[0]!.url}"`);
    const image = await t.app.inject({ method: 'GET', url: listed.attachments[0]!.url });
    expect(image.headers['content-type']).toBe('image/png');

    const page = (await t.app.inject({ method: 'GET', url: '/dev/outbox' })).body;
    expect(page).toContain(`href="${listed.attachments[1]!.url}" download="${slug}-tickets.pdf"`);
    expect((await t.app.inject({ method: 'GET', url: `/dev/outbox/${message.id}/attachments/9` })).statusCode).toBe(404);
  });
});
