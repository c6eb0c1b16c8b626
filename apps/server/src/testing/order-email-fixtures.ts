import type { CallableContract } from '@admit/shared/callable';
import type { Locale } from '@admit/shared/locales';
import { confirmPayment, createOrder, startPayment } from '@admit/shared/orders';
import { sandboxConfirm } from '@admit/shared/payments';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect } from 'vitest';
import type { z } from 'zod';
import { event } from '../modules/events/schema';
import type { OrderEmailDeps } from '../modules/orders/order-emails';
import { ticket } from '../modules/tickets/schema';
import { createMailer } from '../platform/mail/mailer';
import { sentEmail } from '../platform/mail/schema';
import { createPublishedEvent } from './fixtures';
import { createTestApp, type TestApp } from './test-app';

/**
 * The app the order emails' tests share (one per test file: its beforeAll makes it, its afterAll
 * closes it), an organizer, the emails' dependencies, and the orders they write about.
 */
export function orderEmailTestApp() {
  const app = {} as { t: TestApp; owner: Awaited<ReturnType<TestApp['signUp']>>; deps: OrderEmailDeps };
  beforeAll(async () => {
    app.t = await createTestApp();
    app.owner = await app.t.signUp('Olga Organizer');
    app.deps = {
      db: app.t.db,
      mailer: createMailer({ db: app.t.db, from: 'Admit <no-reply@admit.local>' }),
      publicUrl: 'http://localhost:3000',
    };
  });
  afterAll(() => app.t?.close());

  async function expectOk<C extends CallableContract>(
    contract: C,
    data: z.input<C['input']>,
    cookie: string,
  ): Promise<z.output<C['output']>> {
    const { status, body } = await app.t.call(contract, data, cookie);
    if (status !== 200) throw new Error(`${contract.name} failed: ${status} ${JSON.stringify(body)}`);
    return body.result;
  }

  /** An event priced in `currency`, with one ticket type. */
  async function pricedEvent(options: { currency?: string; price?: number; capacity?: number } = {}) {
    const capacity = options.capacity ?? 20;
    const created = await createPublishedEvent(app.t, app.owner.cookie, {
      capacity,
      ticketTypes: [{ name: 'Standing', capacity, price: options.price ?? 2500 }],
    });
    await app.t.db
      .update(event)
      .set({ currency: options.currency ?? 'EUR' })
      .where(eq(event.id, created.eventId));
    return { ...created, ticketTypeId: created.ticketTypeIds[0]! };
  }

  /** Pays a pending order the way the browser does: start, the sandbox card form with 4242, confirm. */
  async function payFor(cookie: string, orderId: string) {
    const { clientSecret } = await expectOk(startPayment, { orderId }, cookie);
    await expectOk(sandboxConfirm, { clientSecret, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' }, cookie);
    return expectOk(confirmPayment, { orderId }, cookie);
  }

  /** A buyer (in their language) with a paid order of `quantity` tickets. */
  async function paidOrder(
    options: {
      locale?: Locale;
      currency?: string;
      price?: number;
      quantity?: number;
      buyerName?: string;
      keepWorkersConfirmation?: boolean;
    } = {},
  ) {
    const created = await pricedEvent(options);
    const buyer = await app.t.signUp(options.buyerName ?? 'Bob Buyer');
    const cookie = `${buyer.cookie}; admit.locale=${options.locale ?? 'en'}`;
    const { orderId } = await expectOk(
      createOrder,
      { eventId: created.eventId, lines: [{ ticketTypeId: created.ticketTypeId, quantity: options.quantity ?? 2 }] },
      cookie,
    );
    expect((await payFor(cookie, orderId)).status).toBe('paid');
    // The workers send the confirmation too. It is out before a test renders its own (a late one
    // would land after the test's and be read in its place), and its once-only key is cleared so
    // that the test's render is sent.
    await app.t.settleJobs();
    if (!options.keepWorkersConfirmation)
      await app.t.db.delete(sentEmail).where(eq(sentEmail.key, `order-confirmation:${orderId}`));
    const tickets = await app.t.db.select().from(ticket).where(eq(ticket.orderId, orderId)).orderBy(asc(ticket.createdAt));
    return { ...created, buyer, cookie, orderId, tickets };
  }

  const pdfOf = (message: Awaited<ReturnType<TestApp['lastMessageTo']>>) => {
    const attachment = message.attachments.find((candidate) => candidate.contentType === 'application/pdf');
    if (!attachment) throw new Error('no PDF attached');
    return { ...attachment, bytes: new Uint8Array(Buffer.from(attachment.contentBase64, 'base64')) };
  };

  return { app, expectOk, pricedEvent, payFor, paidOrder, pdfOf };
}
