import { randomUUID } from 'node:crypto';
import { confirmPayment, createOrder, startPayment } from '@admit/shared/orders';
import { createWebhook } from '@admit/shared/webhooks';
import { asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { outboxMessage } from '../../platform/mail/schema';
import { paymentEvent } from '../../platform/payments/schema';
import { createStripeProvider } from '../../platform/payments/stripe-provider';
import { createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { signedWebhook, startStripeStandIn, type StripeStandIn } from '../../testing/stripe-stand-in';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { event, ticketType } from '../events/schema';
import { releaseExpiredHolds } from '../orders/orders.api';
import { order, orderActivity } from '../orders/schema';
import { refund } from './schema';
import { webhookMessage } from '../webhooks/schema';
import { ticket } from '../tickets/schema';

const webhookSecret = 'whsec_webhook_test';
let standIn: StripeStandIn;
let t: TestApp;

const stripeApp = () =>
  createTestApp({
    payments: createStripeProvider({
      secretKey: 'sk_test_stand_in',
      publishableKey: 'pk_test_stand_in',
      webhookSecret,
      apiBase: standIn.apiBase,
    }),
  });

beforeAll(async () => {
  standIn = await startStripeStandIn();
  t = await stripeApp();
});
afterEach(async () => {
  expect(await dataInvariantViolations(t.db)).toEqual([]);
});
afterAll(async () => {
  await t?.close();
  await standIn?.close();
});

/** One buyer's pending order with a payment started at Stripe (the buyer is at the payment step). */
async function orderAtPaymentStep(app: TestApp, options: { capacity?: number; quantity?: number } = {}) {
  const owner = await app.signUp('Olga Organizer');
  const buyer = await app.signUp('Bea Buyer');
  const capacity = options.capacity ?? 10;
  const created = await createPublishedEvent(app, owner.cookie, { capacity, ticketTypes: [{ capacity, price: 1500 }] });
  const ticketTypeId = created.ticketTypeIds[0]!;
  const placed = await app.call(
    createOrder,
    { eventId: created.eventId, lines: [{ ticketTypeId, quantity: options.quantity ?? 2 }] },
    buyer.cookie,
  );
  expect(placed.status).toBe(200);
  const orderId = placed.body.result.orderId;
  const started = await app.call(startPayment, { orderId }, buyer.cookie);
  expect(started.status).toBe(200);
  const intentId = (await orderOf(app, orderId)).paymentRef!;
  return { owner, buyer, orderId, intentId, eventId: created.eventId, ticketTypeId, organizationId: created.organizationId };
}

const orderOf = async (app: TestApp, orderId: string) => (await app.db.select().from(order).where(eq(order.id, orderId)))[0]!;

/** A Stripe event as Stripe sends it (only the fields our route reads matter; the rest is shape). */
function stripeEvent(type: string, object: Record<string, unknown>) {
  return {
    id: `evt_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    api_version: '2026-10-28.endive',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}
const intentEvent = (type: string, intentId: string) => stripeEvent(type, { id: intentId, object: 'payment_intent' });

async function deliver(app: TestApp, payload: object, secret = webhookSecret) {
  const { body, signature } = signedWebhook(payload, secret);
  return app.app.inject({
    method: 'POST',
    url: '/webhooks/stripe',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload: body,
  });
}

describe('the Stripe webhook', () => {
  it('completes an order whose buyer closed the browser after paying: paid, with its tickets', async () => {
    const { orderId, intentId, eventId } = await orderAtPaymentStep(t);
    standIn.succeed(intentId);

    const response = await deliver(t, intentEvent('payment_intent.succeeded', intentId));

    expect(response.statusCode).toBe(200);
    expect(await orderOf(t, orderId)).toMatchObject({ status: 'paid' });
    expect(await t.db.select().from(ticket).where(eq(ticket.orderId, orderId))).toHaveLength(2);
    const [counts] = await t.db.select({ sold: event.sold, held: event.held }).from(event).where(eq(event.id, eventId));
    expect(counts).toEqual({ sold: 2, held: 0 });
  });

  it('reads the payment from Stripe instead of believing the body: a "succeeded" event for an unpaid intent changes nothing', async () => {
    const { orderId, intentId } = await orderAtPaymentStep(t);

    const response = await deliver(t, intentEvent('payment_intent.succeeded', intentId));

    expect(response.statusCode).toBe(200);
    expect(await orderOf(t, orderId)).toMatchObject({ status: 'pending' });
  });

  it.each([
    ['no signature', (body: string) => ({ body, headers: {} })],
    [
      'a signature made with another secret',
      (body: string) => ({ body, headers: { 'stripe-signature': signedWebhook(JSON.parse(body), 'whsec_other').signature } }),
    ],
    [
      'a body changed after signing',
      (body: string) => ({
        body: body.replace('"livemode":false', '"livemode":true'),
        headers: { 'stripe-signature': signedWebhook(JSON.parse(body), webhookSecret).signature },
      }),
    ],
    ['a malformed signature header', (body: string) => ({ body, headers: { 'stripe-signature': 't=abc,v1=zzz' } })],
    [
      'a body that is not JSON',
      () => ({ body: '{not json', headers: { 'stripe-signature': signedWebhook({}, webhookSecret).signature } }),
    ],
  ])('answers 400 to %s and changes nothing', async (_case, make) => {
    const { orderId, intentId } = await orderAtPaymentStep(t);
    standIn.succeed(intentId);
    const payload = intentEvent('payment_intent.succeeded', intentId);
    const { body, headers } = make(JSON.stringify(payload));

    const response = await t.app.inject({
      method: 'POST',
      url: '/webhooks/stripe',
      headers: { 'content-type': 'application/json', ...headers },
      payload: body,
    });

    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { status: 'INVALID_ARGUMENT' } });
    expect(await orderOf(t, orderId)).toMatchObject({ status: 'pending' });
    expect(await t.db.select().from(paymentEvent).where(eq(paymentEvent.id, payload.id))).toEqual([]);
  });

  it('applies an event delivered twice once: one stored event, one timeline line, the same tickets', async () => {
    const { orderId, intentId } = await orderAtPaymentStep(t);
    standIn.succeed(intentId);
    const payload = intentEvent('payment_intent.succeeded', intentId);

    const first = await deliver(t, payload);
    const second = await deliver(t, payload);

    expect(first.json()).toEqual({ received: true });
    expect(second.json()).toEqual({ received: true, duplicate: true });
    expect(await t.db.select().from(paymentEvent).where(eq(paymentEvent.id, payload.id))).toEqual([
      expect.objectContaining({ type: 'payment_intent.succeeded', orderId }),
    ]);
    const webhookLines = await t.db.select().from(orderActivity).where(eq(orderActivity.orderId, orderId));
    expect(webhookLines.filter((line) => line.kind === 'webhook')).toHaveLength(1);
    expect(await t.db.select().from(ticket).where(eq(ticket.orderId, orderId))).toHaveLength(2);
  });

  it('emails the tickets once, whether the webhook or the return page completes the order, however often each comes', async () => {
    const { buyer, orderId, intentId } = await orderAtPaymentStep(t);
    standIn.succeed(intentId);
    const payload = intentEvent('payment_intent.succeeded', intentId);

    await deliver(t, payload);
    await deliver(t, { ...payload, id: `${payload.id}_again` });
    expect((await t.call(confirmPayment, { orderId }, buyer.cookie)).status).toBe(200);
    await t.settleJobs();

    const emails = await t.db.select().from(outboxMessage).where(eq(outboxMessage.to, buyer.email));
    const confirmations = emails.filter((email) => email.subject.startsWith('Your tickets for'));
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]!.attachments?.some((attachment) => attachment.contentType === 'application/pdf')).toBe(true);
  });

  it('records a refund made in Stripe’s dashboard from its charge.refunded event: tickets void, places free, reported', async () => {
    const { orderId, intentId, eventId, owner, organizationId } = await orderAtPaymentStep(t);
    const endpoint = await t.call(
      createWebhook,
      { organizationId, url: 'http://127.0.0.1:9/hooks', eventTypes: ['order.refunded'] },
      owner.cookie,
    );
    expect(endpoint.status).toBe(200);
    standIn.succeed(intentId);
    await deliver(t, intentEvent('payment_intent.succeeded', intentId));
    standIn.refundInDashboard(intentId);

    const response = await deliver(
      t,
      stripeEvent('charge.refunded', { id: `ch_${intentId}`, object: 'charge', payment_intent: intentId }),
    );

    expect(response.statusCode).toBe(200);
    expect(await orderOf(t, orderId)).toMatchObject({ status: 'refunded', refundedAmount: 3000 });
    const tickets = await t.db.select().from(ticket).where(eq(ticket.orderId, orderId));
    expect(tickets.map((one) => one.status)).toEqual(['void', 'void']);
    const [counts] = await t.db.select({ sold: event.sold, held: event.held }).from(event).where(eq(event.id, eventId));
    expect(counts).toEqual({ sold: 0, held: 0 });
    // The organization's webhooks hear of it as of a refund made in Admit, with the order as it is now.
    const reported = await t.db.select().from(webhookMessage).where(eq(webhookMessage.objectId, orderId));
    expect(reported.map((message) => [message.type, (message.payload as { refunded_amount: number }).refunded_amount])).toEqual([
      ['order.refunded', 3000],
    ]);
  });

  it('puts a declined payment on the timeline and keeps the hold for another card', async () => {
    const { orderId, intentId, eventId } = await orderAtPaymentStep(t);
    standIn.fail(intentId);

    await deliver(t, {
      ...intentEvent('payment_intent.payment_failed', intentId),
      data: {
        object: {
          id: intentId,
          object: 'payment_intent',
          last_payment_error: { code: 'card_declined', message: 'Your card was declined.' },
        },
      },
    });

    expect(await orderOf(t, orderId)).toMatchObject({ status: 'pending' });
    const lines = await t.db.select().from(orderActivity).where(eq(orderActivity.orderId, orderId));
    expect(lines.find((line) => line.kind === 'payment_failed')?.detail).toEqual({
      code: 'card_declined',
      message: 'Your card was declined.',
    });
    const [counts] = await t.db.select({ held: event.held }).from(event).where(eq(event.id, eventId));
    expect(counts!.held).toBe(2);
  });

  it('answers 200 to events about payments that are not ours, and stores them', async () => {
    const payload = intentEvent('payment_intent.succeeded', 'pi_not_ours');

    const response = await deliver(t, payload);

    expect(response.statusCode).toBe(200);
    expect(await t.db.select().from(paymentEvent).where(eq(paymentEvent.id, payload.id))).toHaveLength(1);
  });

  it('answers 503 and stores nothing while Stripe cannot be reached, so that Stripe delivers again', async () => {
    const { orderId, intentId } = await orderAtPaymentStep(t);
    standIn.succeed(intentId);
    const payload = intentEvent('payment_intent.succeeded', intentId);

    standIn.setDown(true, 'error');
    const refused = await deliver(t, payload);
    standIn.setDown(false);
    const storedWhileDown = await t.db.select().from(paymentEvent).where(eq(paymentEvent.id, payload.id));
    const again = await deliver(t, payload);

    expect(refused.statusCode).toBe(503);
    expect(storedWhileDown).toEqual([]);
    expect(again.statusCode).toBe(200);
    expect(await orderOf(t, orderId)).toMatchObject({ status: 'paid' });
  });
});

describe('replaying every webhook of a run twice, in shuffled order', () => {
  /**
   * A run with the cases that matter: a plain payment, a payment declined and then made with another
   * card, and a payment that came after its hold expired and its place was taken (refunded). Returns
   * the events Stripe sent, in the order it sent them.
   */
  async function run(app: TestApp, deliverAsItHappens: boolean) {
    const sent: object[] = [];
    const send = async (payload: object) => {
      sent.push(payload);
      if (deliverAsItHappens) expect((await deliver(app, payload)).statusCode).toBe(200);
    };

    const plain = await orderAtPaymentStep(app);
    standIn.succeed(plain.intentId);
    await send(intentEvent('payment_intent.succeeded', plain.intentId));

    const retried = await orderAtPaymentStep(app);
    standIn.fail(retried.intentId);
    await send(intentEvent('payment_intent.payment_failed', retried.intentId));
    standIn.succeed(retried.intentId);
    await send(intentEvent('payment_intent.succeeded', retried.intentId));

    const late = await orderAtPaymentStep(app, { capacity: 1, quantity: 1 });
    await app.db
      .update(order)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(order.id, late.orderId));
    await releaseExpiredHolds(app.db);
    const rival = await app.signUp('Rita Rival');
    const taken = await app.call(
      createOrder,
      { eventId: late.eventId, lines: [{ ticketTypeId: late.ticketTypeId, quantity: 1 }] },
      rival.cookie,
    );
    expect(taken.status).toBe(200);
    standIn.succeed(late.intentId);
    await send(intentEvent('payment_intent.succeeded', late.intentId));

    // Paid, then refunded in Stripe's dashboard: in full for one order, 15.00 of 30.00 for another.
    const refundedWhole = await orderAtPaymentStep(app);
    standIn.succeed(refundedWhole.intentId);
    await send(intentEvent('payment_intent.succeeded', refundedWhole.intentId));
    const wholeRefund = standIn.refundInDashboard(refundedWhole.intentId);
    await send(
      stripeEvent('charge.refunded', {
        id: `ch_${refundedWhole.intentId}`,
        object: 'charge',
        payment_intent: refundedWhole.intentId,
      }),
    );
    await send(stripeEvent('refund.updated', { id: wholeRefund.id, object: 'refund', payment_intent: refundedWhole.intentId }));
    const refundedPart = await orderAtPaymentStep(app);
    standIn.succeed(refundedPart.intentId);
    await send(intentEvent('payment_intent.succeeded', refundedPart.intentId));
    const partRefund = standIn.refundInDashboard(refundedPart.intentId, 1500);
    await send(stripeEvent('refund.created', { id: partRefund.id, object: 'refund', payment_intent: refundedPart.intentId }));

    const cases = [plain, retried, late, refundedWhole, refundedPart];
    return { sent, orders: cases.map((one) => one.orderId), events: cases.map((one) => one.eventId) };
  }

  /** What a person could see of the run: each order's state, tickets, refunds, and the events' counts. */
  async function outcome(app: TestApp, orders: string[], events: string[]) {
    return {
      orders: await Promise.all(
        orders.map(async (id) => {
          const found = await orderOf(app, id);
          const tickets = await app.db.select().from(ticket).where(eq(ticket.orderId, id));
          const refunds = await app.db.select().from(refund).where(eq(refund.orderId, id));
          return {
            status: found.status,
            refundedAmount: found.refundedAmount,
            tickets: tickets.map((one) => one.status).sort(),
            refunds: refunds.map((one) => ({ amount: one.amount, status: one.status })),
          };
        }),
      ),
      events: await Promise.all(
        events.map(async (id) => {
          const [counts] = await app.db.select({ sold: event.sold, held: event.held }).from(event).where(eq(event.id, id));
          const types = await app.db
            .select({ sold: ticketType.sold, held: ticketType.held })
            .from(ticketType)
            .where(eq(ticketType.eventId, id))
            .orderBy(asc(ticketType.id));
          return { ...counts, types };
        }),
      ),
    };
  }

  it('ends in the same state as delivering each once, in order', async () => {
    const once = await run(t, true);
    const expected = await outcome(t, once.orders, once.events);
    expect(expected.orders.map((one) => one.status)).toEqual(['paid', 'paid', 'cancelled', 'refunded', 'partially_refunded']);
    expect(expected.orders.map((one) => one.refundedAmount)).toEqual([0, 0, 1500, 3000, 1500]);
    expect(expected.orders[3]!.tickets).toEqual(['void', 'void']);

    const replayApp = await stripeApp();
    try {
      const replay = await run(replayApp, false);
      const twice = [...replay.sent, ...replay.sent];
      // Fisher–Yates with Math.random: a different order every run; the outcome must not depend on it.
      for (let i = twice.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1));
        [twice[i], twice[j]] = [twice[j]!, twice[i]!];
      }
      for (const payload of twice) expect((await deliver(replayApp, payload)).statusCode).toBe(200);

      expect(await outcome(replayApp, replay.orders, replay.events)).toEqual(expected);
      expect(await replayApp.db.select().from(paymentEvent)).toHaveLength(replay.sent.length);
      expect(await dataInvariantViolations(replayApp.db)).toEqual([]);
    } finally {
      await replayApp.close();
    }
  });
});
