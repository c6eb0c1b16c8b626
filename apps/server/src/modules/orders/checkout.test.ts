import { cancelOrder, confirmPayment, createOrder, startPayment } from '@admit/shared/orders';
import { sandboxAuthenticate, sandboxConfirm } from '@admit/shared/payments';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sandboxPayment } from '../../platform/payments/schema';
import { createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { event, ticketType } from '../events/schema';
import { releaseExpiredHolds } from './holds';
import { order, orderActivity } from './schema';
import { ticket } from '../tickets/schema';

let t: TestApp;
let owner: Awaited<ReturnType<TestApp['signUp']>>;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp('Olga Organizer');
});
afterEach(async () => {
  expect(await dataInvariantViolations(t.db)).toEqual([]);
});
afterAll(() => t?.close());

async function paidEvent(capacity = 5, price = 2500) {
  const created = await createPublishedEvent(t, owner.cookie, { capacity, ticketTypes: [{ capacity, price }] });
  return { eventId: created.eventId, ticketTypeId: created.ticketTypeIds[0]! };
}

async function order2(cookie: string, eventId: string, ticketTypeId: string, quantity = 2) {
  return t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity }] }, cookie);
}

async function pay(cookie: string, orderId: string, cardNumber = '4242 4242 4242 4242') {
  const started = await t.call(startPayment, { orderId }, cookie);
  expect(started.status).toBe(200);
  const confirmed = await t.call(
    sandboxConfirm,
    { clientSecret: started.body.result.clientSecret, cardNumber, expiry: '12/34', cvc: '123' },
    cookie,
  );
  return { started: started.body.result, sandbox: confirmed.body.result.status };
}

const counts = async (eventId: string) => {
  const [row] = await t.db.select({ sold: event.sold, held: event.held }).from(event).where(eq(event.id, eventId));
  return row!;
};
const ticketsOf = (orderId: string) => t.db.select().from(ticket).where(eq(ticket.orderId, orderId));
const orderRow = async (orderId: string) => (await t.db.select().from(order).where(eq(order.id, orderId)))[0]!;
const expireHold = (orderId: string) =>
  t.db
    .update(order)
    .set({ holdExpiresAt: new Date(Date.now() - 1000) })
    .where(eq(order.id, orderId));

describe('a paid order', () => {
  it("holds its places for the event's hold time, at the server's prices, with no tickets yet", async () => {
    const buyer = await t.signUp();
    const { eventId, ticketTypeId } = await paidEvent();
    const { status, body } = await order2(buyer.cookie, eventId, ticketTypeId);

    expect(status).toBe(200);
    expect(body.result).toMatchObject({ status: 'pending', total: 5000, ticketCount: 0 });
    const holdMs = new Date(body.result.holdExpiresAt!).getTime() - Date.now();
    expect(holdMs).toBeGreaterThan(9 * 60_000);
    expect(holdMs).toBeLessThanOrEqual(10 * 60_000);
    expect(await counts(eventId)).toEqual({ sold: 0, held: 2 });
    expect(await ticketsOf(body.result.orderId)).toHaveLength(0);
  });

  it('refuses a price or total sent by the browser', async () => {
    const buyer = await t.signUp();
    const { eventId, ticketTypeId } = await paidEvent();
    const { status, body } = await t.callWithAnyInput(
      createOrder,
      { eventId, lines: [{ ticketTypeId, quantity: 1, unitPrice: 1 }], total: 1 },
      buyer.cookie,
    );
    expect(status).toBe(400);
    expect(body.error.status).toBe('invalid-argument');
  });

  it('is paid with the test card 4242, and confirming it again changes nothing', async () => {
    const buyer = await t.signUp();
    const { eventId, ticketTypeId } = await paidEvent();
    const { orderId } = (await order2(buyer.cookie, eventId, ticketTypeId)).body.result;
    const { started, sandbox } = await pay(buyer.cookie, orderId);
    expect(started).toMatchObject({ provider: 'sandbox', amount: 5000 });
    expect(sandbox).toBe('succeeded');

    for (let time = 0; time < 2; time++) {
      const confirmed = await t.call(confirmPayment, { orderId }, buyer.cookie);
      expect(confirmed.body.result.status).toBe('paid');
    }
    expect(await ticketsOf(orderId)).toHaveLength(2);
    expect(await counts(eventId)).toEqual({ sold: 2, held: 0 });
  });

  it('keeps its hold when the card is declined, and can be paid with another card', async () => {
    const buyer = await t.signUp();
    const { eventId, ticketTypeId } = await paidEvent();
    const { orderId } = (await order2(buyer.cookie, eventId, ticketTypeId)).body.result;
    expect((await pay(buyer.cookie, orderId, '4000 0000 0000 0002')).sandbox).toBe('declined');
    expect((await t.call(confirmPayment, { orderId }, buyer.cookie)).body.result.status).toBe('pending');
    expect(await counts(eventId)).toEqual({ sold: 0, held: 2 });

    await pay(buyer.cookie, orderId);
    expect((await t.call(confirmPayment, { orderId }, buyer.cookie)).body.result.status).toBe('paid');
  });

  it('puts each declined try on the order’s timeline once, however often the payment is read back', async () => {
    const buyer = await t.signUp();
    const { eventId, ticketTypeId } = await paidEvent();
    const { orderId } = (await order2(buyer.cookie, eventId, ticketTypeId)).body.result;
    const declinedLines = async () =>
      (await t.db.select().from(orderActivity).where(eq(orderActivity.orderId, orderId))).filter(
        (line) => line.kind === 'payment_failed',
      );

    await pay(buyer.cookie, orderId, '4000 0000 0000 0002');
    await t.call(confirmPayment, { orderId }, buyer.cookie);
    await t.call(confirmPayment, { orderId }, buyer.cookie);
    expect(await declinedLines()).toMatchObject([{ detail: { code: 'card_declined' } }]);

    await pay(buyer.cookie, orderId, '4000 0000 0000 0002');
    await pay(buyer.cookie, orderId);
    expect((await t.call(confirmPayment, { orderId }, buyer.cookie)).body.result.status).toBe('paid');
    expect(await declinedLines()).toHaveLength(2);
  });

  it('asks for a confirmation step with the test card 3155, and is paid once the person approves', async () => {
    const buyer = await t.signUp();
    const { eventId, ticketTypeId } = await paidEvent();
    const { orderId } = (await order2(buyer.cookie, eventId, ticketTypeId)).body.result;
    const { started, sandbox } = await pay(buyer.cookie, orderId, '4000002500003155');
    expect(sandbox).toBe('requires_action');
    expect((await t.call(confirmPayment, { orderId }, buyer.cookie)).body.result.status).toBe('pending');

    const approved = await t.call(sandboxAuthenticate, { clientSecret: started.clientSecret, approve: true }, buyer.cookie);
    expect(approved.body.result.status).toBe('succeeded');
    expect((await t.call(confirmPayment, { orderId }, buyer.cookie)).body.result.status).toBe('paid');
  });

  it('is not-found for anyone but its buyer, so an order id reveals nothing', async () => {
    const buyer = await t.signUp();
    const stranger = await t.signUp();
    const { eventId, ticketTypeId } = await paidEvent();
    const { orderId } = (await order2(buyer.cookie, eventId, ticketTypeId)).body.result;
    for (const contract of [startPayment, confirmPayment, cancelOrder]) {
      const { status, body } = await t.call(contract, { orderId }, stranger.cookie);
      expect([contract.name, status, body.error.status]).toEqual([contract.name, 404, 'not-found']);
    }
  });

  it('gives its places back at once when the buyer leaves', async () => {
    const buyer = await t.signUp();
    const { eventId, ticketTypeId } = await paidEvent();
    const { orderId } = (await order2(buyer.cookie, eventId, ticketTypeId)).body.result;
    const left = await t.call(cancelOrder, { orderId }, buyer.cookie);
    expect(left.body.result.status).toBe('cancelled');
    expect(await counts(eventId)).toEqual({ sold: 0, held: 0 });
    const again = await t.call(startPayment, { orderId }, buyer.cookie);
    expect(again.body.error).toMatchObject({ status: 'failed-precondition', details: { reason: 'not-pending' } });
  });
});

describe('an expired hold', () => {
  it('never blocks the next buyer: it is released when they order', async () => {
    const [first, second] = [await t.signUp(), await t.signUp()];
    const { eventId, ticketTypeId } = await paidEvent(2);
    const { orderId } = (await order2(first.cookie, eventId, ticketTypeId)).body.result;
    expect((await order2(second.cookie, eventId, ticketTypeId)).body.error.status).toBe('resource-exhausted');

    await expireHold(orderId);
    const next = await order2(second.cookie, eventId, ticketTypeId);
    expect(next.body.result.status).toBe('pending');
    expect((await orderRow(orderId)).status).toBe('expired');
    expect(await counts(eventId)).toEqual({ sold: 0, held: 2 });
  });

  it('is released by the sweeper once, however often it runs', async () => {
    const buyer = await t.signUp();
    const { eventId, ticketTypeId } = await paidEvent();
    const { orderId } = (await order2(buyer.cookie, eventId, ticketTypeId)).body.result;
    await expireHold(orderId);
    const [a, b] = await Promise.all([releaseExpiredHolds(t.db, eventId), releaseExpiredHolds(t.db, eventId)]);
    expect([...a, ...b].map((released) => released.id)).toEqual([orderId]);
    expect(await counts(eventId)).toEqual({ sold: 0, held: 0 });
  });

  it('still becomes a paid order when its payment succeeds late and the places are free', async () => {
    const buyer = await t.signUp();
    const { eventId, ticketTypeId } = await paidEvent();
    const { orderId } = (await order2(buyer.cookie, eventId, ticketTypeId)).body.result;
    const { started } = await pay(buyer.cookie, orderId);
    expect(started.amount).toBe(5000);
    await expireHold(orderId);
    await releaseExpiredHolds(t.db, eventId);

    const confirmed = await t.call(confirmPayment, { orderId }, buyer.cookie);
    expect(confirmed.body.result.status).toBe('paid');
    expect(await ticketsOf(orderId)).toHaveLength(2);
    expect(await counts(eventId)).toEqual({ sold: 2, held: 0 });
  });

  it('is refunded in full when its payment succeeds late and the places are gone', async () => {
    const [late, other] = [await t.signUp(), await t.signUp()];
    const { eventId, ticketTypeId } = await paidEvent(2);
    const { orderId } = (await order2(late.cookie, eventId, ticketTypeId)).body.result;
    await pay(late.cookie, orderId);
    await expireHold(orderId);
    const taken = (await order2(other.cookie, eventId, ticketTypeId)).body.result.orderId;
    await pay(other.cookie, taken);
    await t.call(confirmPayment, { orderId: taken }, other.cookie);

    const confirmed = await t.call(confirmPayment, { orderId }, late.cookie);
    expect(confirmed.body.result.status).toBe('cancelled');
    expect(await orderRow(orderId)).toMatchObject({ status: 'cancelled', refundedAmount: 5000 });
    const [payment] = await t.db.select().from(sandboxPayment).where(eq(sandboxPayment.orderId, orderId));
    expect(payment!.refunded).toBe(5000);
    expect(await ticketsOf(orderId)).toHaveLength(0);
    expect(await counts(eventId)).toEqual({ sold: 2, held: 0 });
  });
});

describe('sales windows', () => {
  it('refuses tickets before sales start and after they end', async () => {
    const buyer = await t.signUp();
    const { eventId, ticketTypeId } = await paidEvent();
    await t.db
      .update(ticketType)
      .set({ salesStart: new Date(Date.now() + 3_600_000) })
      .where(eq(ticketType.id, ticketTypeId));
    expect((await order2(buyer.cookie, eventId, ticketTypeId)).body.error).toMatchObject({
      status: 'failed-precondition',
      details: { reason: 'sales-not-started' },
    });
    await t.db
      .update(ticketType)
      .set({ salesStart: null, salesEnd: new Date(Date.now() - 1000) })
      .where(eq(ticketType.id, ticketTypeId));
    expect((await order2(buyer.cookie, eventId, ticketTypeId)).body.error).toMatchObject({
      status: 'failed-precondition',
      details: { reason: 'sales-ended' },
    });
  });
});
