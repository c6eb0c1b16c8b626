import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrder } from '@admit/shared/orders';
import { createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { recentSaleInfo } from '../events/events.api';
import { event, ticketType } from '../events/schema';
import { ticket } from '../tickets/schema';
import { quotaKey } from '../../platform/quotas/call-quota';
import { placeFreeOrders, type FreeOrderRequest } from './place-order';
import { order, orderActivity, orderLine } from './schema';

// Free orders made in one statement, one or many at a time: each whole or not at all, in the order
// they came, never more places than there are.

let t: TestApp;
let owner: Awaited<ReturnType<TestApp['signUp']>>;
let buyers: Awaited<ReturnType<TestApp['signUp']>>[];

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp('Olga Organizer');
  buyers = [await t.signUp('Bea Buyer'), await t.signUp('Ben Buyer'), await t.signUp('Bo Buyer')];
});
afterAll(() => t?.close());

const request = (
  quantity: number,
  options: { buyer?: number; key?: string | null; accountLimit?: number } = {},
): FreeOrderRequest => {
  const buyer = buyers[options.buyer ?? 0]!;
  return {
    buyer: buyer.user,
    locale: 'en',
    idempotencyKey: options.key ?? null,
    quantity,
    quotas: [
      {
        key: quotaKey('test:account', `${buyer.user.id}:${options.accountLimit ?? 100}`),
        limit: options.accountLimit ?? 100,
        windowSeconds: 600,
      },
      { key: quotaKey('test:address', '203.0.113.7'), limit: 100_000, windowSeconds: 600 },
    ],
  };
};

async function place(eventId: string, ticketTypeId: string, requests: FreeOrderRequest[]) {
  const sale = (await recentSaleInfo(t.db, eventId))!;
  return placeFreeOrders({ db: t.db, sale, ticketTypeId, requests });
}

async function counts(eventId: string, ticketTypeId: string) {
  const [e] = await t.db.select({ sold: event.sold }).from(event).where(eq(event.id, eventId));
  const [tt] = await t.db.select({ sold: ticketType.sold }).from(ticketType).where(eq(ticketType.id, ticketTypeId));
  const tickets = await t.db.select({ id: ticket.id }).from(ticket).where(eq(ticket.eventId, eventId));
  return { event: e!.sold, ticketType: tt!.sold, tickets: tickets.length };
}

describe('free orders made in one statement', () => {
  it('take the places and write each order, its line, its timeline, its tickets and its email job', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 10 }] });
    const [outcome] = await place(eventId, ticketTypeIds[0]!, [request(3, { key: 'one-statement-1' })]);

    const orderId = outcome!.orderId!;
    expect(orderId).toEqual(expect.any(String));
    expect(await counts(eventId, ticketTypeIds[0]!)).toEqual({ event: 3, ticketType: 3, tickets: 3 });
    const [made] = await t.db.select().from(order).where(eq(order.id, orderId));
    expect(made).toMatchObject({ status: 'paid', total: 0, buyerId: buyers[0]!.user.id, idempotencyKey: 'one-statement-1' });
    expect(await t.db.select().from(orderLine).where(eq(orderLine.orderId, orderId))).toMatchObject([
      { quantity: 3, unitPrice: 0 },
    ]);
    expect(await t.db.select().from(orderActivity).where(eq(orderActivity.orderId, orderId))).toMatchObject([
      { kind: 'created' },
    ]);
    await t.settleJobs();
    expect((await t.lastMessageTo(buyers[0]!.email)).subject).toBe('Your tickets for Jazz night');
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('give the places to the orders in the order they came, each whole or not at all', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      capacity: 6,
      ticketTypes: [{ capacity: 10 }],
    });
    const outcomes = await place(eventId, ticketTypeIds[0]!, [
      request(2, { buyer: 0 }),
      request(3, { buyer: 1 }),
      request(2, { buyer: 2 }),
      request(1, { buyer: 0 }),
    ]);
    // 2 + 3 fit in the event's 6; the third order's 2 do not, and neither does the fourth once the third has not.
    expect(outcomes.map((one) => one.orderId !== null)).toEqual([true, true, false, false]);
    // The third hears at once that one place is left; the fourth, which one place would fit, takes
    // the general path (it would get that place there).
    expect(outcomes.map((one) => one.soldOut)).toEqual([null, null, { requested: 2, remaining: 1 }, null]);
    expect(await counts(eventId, ticketTypeIds[0]!)).toEqual({ event: 5, ticketType: 5, tickets: 5 });
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('tell a buyer sold out with what is left of the ticket type, but not while a hold that may end takes places', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      capacity: 20,
      ticketTypes: [{ capacity: 2 }, { capacity: 5, price: 1200 }],
    });
    const [free, paid] = ticketTypeIds as [string, string];
    const outcomes = await place(eventId, free, [request(2), request(1, { buyer: 1 })]);
    expect(outcomes.map((one) => one.soldOut)).toEqual([null, { ticketTypeId: free, requested: 1, remaining: 0 }]);

    // A paid order holds a place of the event: an ended hold could give places back, so the general
    // path answers (it releases ended holds before it says sold out).
    const held = await t.call(createOrder, { eventId, lines: [{ ticketTypeId: paid, quantity: 1 }] }, buyers[2]!.cookie);
    expect(held.body.result.status).toBe('pending');
    const [afterHold] = await place(eventId, free, [request(1, { buyer: 1 })]);
    expect(afterHold).toEqual({ orderId: null, withinQuota: true, soldOut: null });
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('make nothing for the ticket type of another price than the one read, and take no place', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 5 }] });
    const sale = (await recentSaleInfo(t.db, eventId))!;
    await t.db.update(ticketType).set({ price: 500 }).where(eq(ticketType.id, ticketTypeIds[0]!));
    const outcomes = await placeFreeOrders({ db: t.db, sale, ticketTypeId: ticketTypeIds[0]!, requests: [request(1)] });
    expect(outcomes).toEqual([{ orderId: null, withinQuota: true, soldOut: null }]);
    expect(await counts(eventId, ticketTypeIds[0]!)).toEqual({ event: 0, ticketType: 0, tickets: 0 });
  });

  it('make nothing for a key that made an order before, nor for a buyer over a quota, and the others all the same', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 50 }] });
    expect((await place(eventId, ticketTypeIds[0]!, [request(1, { key: 'made-before' })]))[0]!.orderId).not.toBeNull();
    const outcomes = await place(eventId, ticketTypeIds[0]!, [
      request(1, { key: 'made-before' }),
      request(1, { buyer: 1, accountLimit: 2 }),
      request(1, { buyer: 1, accountLimit: 2 }),
      request(1, { buyer: 1, accountLimit: 2 }),
      request(1, { buyer: 2 }),
    ]);
    expect(outcomes.map((one) => one.orderId !== null)).toEqual([false, true, true, false, true]);
    expect(await counts(eventId, ticketTypeIds[0]!)).toEqual({ event: 4, ticketType: 4, tickets: 4 });
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });
});
