import { randomUUID } from 'node:crypto';
import { managedTicketTypes, updateEvent } from '@admit/shared/event-changes';
import { managedEvent, publicEvent, ticketAvailability } from '@admit/shared/events';
import { confirmPayment, createOrder, refundOrder, startPayment } from '@admit/shared/orders';
import { sandboxConfirm } from '@admit/shared/payments';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTicketTypeAs, changeTicketTypeAs, createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { watch } from '../../testing/live-watch';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { ticket } from '../tickets/schema';
import { releaseExpiredHolds } from './holds';
import { order } from './schema';

// A ticket type's limit per buyer (issue: against scalpers): what one person may have of it across
// all their orders, paid and held, however many orders they send and however fast.

type Person = Awaited<ReturnType<TestApp['signUp']>>;

let t: TestApp;
let url: string;
let owner: Person;

beforeAll(async () => {
  // One person sends many orders here: their attempts are not what is tested.
  t = await createTestApp({ env: { ORDER_ATTEMPTS_PER_ACCOUNT: '1000' } });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await t.signUp('Olga Owner');
});
afterAll(() => t?.close());

const order$ = (cookie: string, eventId: string, ticketTypeId: string, quantity: number) =>
  t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity }] }, cookie);

/** Sets a ticket type's limit per buyer through the callable its editor uses, keeping everything else. */
const setLimit = (eventId: string, ticketTypeId: string, maxPerBuyer: number | null) =>
  changeTicketTypeAs(t, url, owner.cookie, { eventId, ticketTypeId }, { maxPerBuyer });

async function limitedEvent(limit: number, price = 0) {
  const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
    capacity: 500,
    ticketTypes: [{ name: 'Standing', capacity: 400 }],
  });
  const limitedId = await addTicketTypeAs(t, owner.cookie, eventId, { name: 'Front row', capacity: 100, price });
  await setLimit(eventId, limitedId, limit);
  return { eventId, limitedId, freeId: ticketTypeIds[0]! };
}

const validTicketsOf = (buyerId: string, ticketTypeId: string) =>
  t.db
    .select({ id: ticket.id })
    .from(ticket)
    .innerJoin(order, eq(order.id, ticket.orderId))
    .where(and(eq(order.buyerId, buyerId), eq(ticket.ticketTypeId, ticketTypeId), eq(ticket.status, 'valid')));

describe('a limit per buyer on an event, all its types together', () => {
  it('refuses an order that would go past it, whatever the types, and is shown with the event', async () => {
    const { eventId, limitedId, freeId } = await limitedEvent(100);
    const managed = await watch(url, managedEvent.name, { eventId }, owner.cookie);
    const found = managed.rows()[0];
    managed.close();
    const { status } = await t.call(
      updateEvent,
      {
        eventId,
        title: found.title,
        description: found.description,
        venue: found.venue,
        timeZone: found.timeZone,
        startsAtLocal: '2030-01-10T19:00',
        endsAtLocal: '2030-01-10T23:00',
        capacity: found.capacity,
        maxPerBuyer: 4,
        currency: found.currency,
      },
      owner.cookie,
    );
    expect(status).toBe(200);
    const page = await watch(url, publicEvent.name, { slug: found.slug });
    expect(page.rows()[0].maxPerBuyer).toBe(4);
    page.close();

    const buyer = await t.signUp('Eve Eventful');
    expect((await order$(buyer.cookie, eventId, freeId, 3)).status).toBe(200);
    const refused = await order$(buyer.cookie, eventId, limitedId, 2);
    expect(refused.body.error.details).toEqual({ reason: 'buyer-limit', ticketTypeId: null, limit: 4, have: 3 });
    expect((await order$(buyer.cookie, eventId, limitedId, 1)).status).toBe(200);
    const answers = await Promise.all(Array.from({ length: 5 }, () => order$(buyer.cookie, eventId, freeId, 1)));
    expect(answers.every((answer) => answer.body.error?.details?.reason === 'buyer-limit')).toBe(true);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });
});

describe('a limit per buyer on a ticket type', () => {
  it('refuses an order that would go past it across orders, says how many they have, and leaves other types alone', async () => {
    const { eventId, limitedId, freeId } = await limitedEvent(3);
    const buyer = await t.signUp('Bea Buyer');
    expect((await order$(buyer.cookie, eventId, limitedId, 2)).status).toBe(200);

    const refused = await order$(buyer.cookie, eventId, limitedId, 2);
    expect(refused.status).toBe(400);
    expect(refused.body.error.status).toBe('failed-precondition');
    expect(refused.body.error.details).toEqual({ reason: 'buyer-limit', ticketTypeId: limitedId, limit: 3, have: 2 });

    expect((await order$(buyer.cookie, eventId, limitedId, 1)).status).toBe(200);
    expect((await order$(buyer.cookie, eventId, limitedId, 1)).body.error.details).toMatchObject({ limit: 3, have: 3 });
    // Another person has their own three; the type without a limit sells as before.
    const other = await t.signUp('Otto Other');
    expect((await order$(other.cookie, eventId, limitedId, 3)).status).toBe(200);
    expect((await order$(buyer.cookie, eventId, freeId, 10)).status).toBe(200);
    expect(await validTicketsOf(buyer.user.id, limitedId)).toHaveLength(3);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('counts places held in unpaid orders, and gives back what a refund voids', async () => {
    const paid = await limitedEvent(2, 1500);
    const buyer = await t.signUp('Hana Holder');
    const held = await order$(buyer.cookie, paid.eventId, paid.limitedId, 2);
    expect(held.body.result.status).toBe('pending');
    expect((await order$(buyer.cookie, paid.eventId, paid.limitedId, 1)).body.error.details).toMatchObject({
      reason: 'buyer-limit',
      have: 2,
    });

    const free = await limitedEvent(2);
    const first = await order$(buyer.cookie, free.eventId, free.limitedId, 2);
    expect((await order$(buyer.cookie, free.eventId, free.limitedId, 1)).status).toBe(400);
    const refund = await t.call(
      refundOrder,
      { orderId: first.body.result.orderId, reason: 'Changed plans', idempotencyKey: randomUUID() },
      owner.cookie,
    );
    expect(refund.status).toBe(200);
    expect((await order$(buyer.cookie, free.eventId, free.limitedId, 2)).status).toBe(200);
  });

  it('refunds a payment that comes after its hold ended when the buyer has reached the limit meanwhile', async () => {
    const { eventId, limitedId } = await limitedEvent(2, 1500);
    const buyer = await t.signUp('Lena Late');
    const pay = async (orderId: string) => {
      const started = await t.call(startPayment, { orderId }, buyer.cookie);
      await t.call(
        sandboxConfirm,
        { clientSecret: started.body.result.clientSecret, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' },
        buyer.cookie,
      );
      return (await t.call(confirmPayment, { orderId }, buyer.cookie)).body.result.status;
    };
    const late = (await order$(buyer.cookie, eventId, limitedId, 2)).body.result.orderId;
    const started = await t.call(startPayment, { orderId: late }, buyer.cookie);
    await t.call(
      sandboxConfirm,
      { clientSecret: started.body.result.clientSecret, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' },
      buyer.cookie,
    );
    // The hold runs out (and its job releases it) before the payment is confirmed; the buyer orders
    // two again and pays.
    await t.db
      .update(order)
      .set({ holdExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(order.id, late));
    await releaseExpiredHolds(t.db, eventId);
    const again = (await order$(buyer.cookie, eventId, limitedId, 2)).body.result.orderId;
    expect(await pay(again)).toBe('paid');

    const confirmed = await t.call(confirmPayment, { orderId: late }, buyer.cookie);
    expect(confirmed.body.result.status).toBe('cancelled');
    const [refunded] = await t.db.select().from(order).where(eq(order.id, late));
    expect(refunded).toMatchObject({ status: 'cancelled', refundedAmount: 3000 });
    expect(await validTicketsOf(buyer.user.id, limitedId)).toHaveLength(2);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('holds when one buyer sends twenty orders at once: exactly the limit is sold to them', async () => {
    const { eventId, limitedId } = await limitedEvent(5);
    const buyer = await t.signUp('Rushing Reseller');
    const answers = await Promise.all(Array.from({ length: 20 }, () => order$(buyer.cookie, eventId, limitedId, 1)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(5);
    expect(answers.filter((answer) => answer.body.error?.details?.reason === 'buyer-limit')).toHaveLength(15);
    expect(await validTicketsOf(buyer.user.id, limitedId)).toHaveLength(5);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('is shown to buyers with the ticket type, and lifted by setting it empty', async () => {
    const { eventId, limitedId } = await limitedEvent(4);
    const page = await watch(url, ticketAvailability.name, { eventId });
    expect(page.rows().find((row) => row.id === limitedId)?.maxPerBuyer).toBe(4);
    const managed = await watch(url, managedTicketTypes.name, { eventId }, owner.cookie);
    expect(managed.rows().find((row) => row.id === limitedId)?.maxPerBuyer).toBe(4);
    managed.close();
    await setLimit(eventId, limitedId, null);
    await expect.poll(() => page.rows().find((row) => row.id === limitedId)?.maxPerBuyer).toBeNull();
    page.close();
  });
});
