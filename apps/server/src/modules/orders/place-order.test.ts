import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCode } from '@admit/shared/codes';
import { createOrder } from '@admit/shared/orders';
import { createQuestion, type Answers } from '@admit/shared/questions';
import { createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { recentSaleInfo } from '../events/events.api';
import { recentQuestionSet } from '../questions/questions.api';
import { event, ticketType } from '../events/schema';
import { ticket } from '../tickets/schema';
import { consumeQuota, quotaKey } from '../../platform/quotas/call-quota';
import { wrongCodesQuota, type EventCode } from '../codes/codes.api';
import { eventCode } from '../codes/schema';
import { placeOrders, type OrderRequest } from './place-order';
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
  options: { buyer?: number; key?: string | null; accountLimit?: number; answers?: Answers[] } = {},
): OrderRequest => {
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
    answers: options.answers ?? [],
    // Filled in by place(): the version of the event's questions as read then.
    questionsVersion: '',
    codeQuota: null,
  };
};

async function place(
  eventId: string,
  ticketTypeId: string,
  requests: OrderRequest[],
  { heldPlacesLimit = 20, code = null }: { heldPlacesLimit?: number; code?: EventCode | null } = {},
) {
  const sale = (await recentSaleInfo(t.db, eventId))!;
  const price = sale.ticketTypes.get(ticketTypeId)!.price;
  const { version } = await recentQuestionSet(t.db, eventId);
  const read = requests.map((one) => ({ ...one, questionsVersion: one.questionsVersion || version }));
  return placeOrders({ db: t.db, sale, ticketTypeId, price, code, heldPlacesLimit, requests: read });
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

  it('tell a buyer sold out with what is left of the ticket type, but not while a hold that ended takes places', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      capacity: 20,
      ticketTypes: [{ capacity: 2 }, { capacity: 5, price: 1200 }],
    });
    const [free, paid] = ticketTypeIds as [string, string];
    const outcomes = await place(eventId, free, [request(2), request(1, { buyer: 1 })]);
    expect(outcomes.map((one) => one.soldOut)).toEqual([null, { ticketTypeId: free, requested: 1, remaining: 0 }]);

    // A hold still running gives nothing back: the answer stays.
    const held = await t.call(createOrder, { eventId, lines: [{ ticketTypeId: paid, quantity: 1 }] }, buyers[2]!.cookie);
    expect(held.body.result.status).toBe('pending');
    const [whileHeld] = await place(eventId, free, [request(1, { buyer: 1 })]);
    expect(whileHeld!.soldOut).toEqual({ ticketTypeId: free, requested: 1, remaining: 0 });

    // A hold that ended, whose job has not run yet, could give places back: the general path answers
    // (it releases ended holds before it says sold out).
    await t.db
      .update(order)
      .set({ holdExpiresAt: new Date(Date.now() - 1_000) })
      .where(eq(order.id, held.body.result.orderId));
    const [afterHold] = await place(eventId, free, [request(1, { buyer: 1 })]);
    expect(afterHold).toEqual({ orderId: null, total: 0, holdExpiresAt: null, withinQuota: true, soldOut: null });
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('make nothing for the ticket type of another price than the one read, and take no place', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 5 }] });
    const sale = (await recentSaleInfo(t.db, eventId))!;
    await t.db.update(ticketType).set({ price: 500 }).where(eq(ticketType.id, ticketTypeIds[0]!));
    const { version } = await recentQuestionSet(t.db, eventId);
    const outcomes = await placeOrders({
      db: t.db,
      sale,
      ticketTypeId: ticketTypeIds[0]!,
      price: 0,
      code: null,
      heldPlacesLimit: 20,
      requests: [{ ...request(1), questionsVersion: version }],
    });
    expect(outcomes).toEqual([{ orderId: null, total: 0, holdExpiresAt: null, withinQuota: true, soldOut: null }]);
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

  it('keep the answers of each ticket, in the order given, and make nothing once the questions changed', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 10 }] });
    const made = await t.call(createQuestion, { eventId, kind: 'text', label: 'Company', required: true }, owner.cookie);
    const questionId = made.body.result.questionId as string;
    const [outcome] = await place(eventId, ticketTypeIds[0]!, [
      request(2, { answers: [{ [questionId]: 'Acme' }, { [questionId]: 'Globex' }] }),
    ]);
    const orderId = outcome!.orderId!;
    expect(await t.db.select({ answers: orderLine.answers }).from(orderLine).where(eq(orderLine.orderId, orderId))).toEqual([
      { answers: [{ [questionId]: 'Acme' }, { [questionId]: 'Globex' }] },
    ]);
    const tickets = await t.db
      .select({ answers: ticket.answers })
      .from(ticket)
      .where(eq(ticket.orderId, orderId))
      .orderBy(asc(ticket.createdAt));
    expect(tickets.map((one) => one.answers)).toEqual([{ [questionId]: 'Acme' }, { [questionId]: 'Globex' }]);

    // Answers checked against the questions as read before one more was added: nothing is made,
    // and the general path checks them against the questions as they are.
    const { version } = await recentQuestionSet(t.db, eventId);
    await t.call(createQuestion, { eventId, kind: 'text', label: 'Diet', required: true }, owner.cookie);
    const [stale] = await place(eventId, ticketTypeIds[0]!, [
      { ...request(1, { answers: [{ [questionId]: 'Initech' }] }), questionsVersion: version },
    ]);
    expect(stale).toMatchObject({ orderId: null, soldOut: null });
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });
});

describe('orders to pay made in one statement', () => {
  it('hold the places and write each pending order, its total, its line, its timeline and the job that ends it', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      ticketTypes: [{ capacity: 10, price: 1500 }],
    });
    const [outcome] = await place(eventId, ticketTypeIds[0]!, [request(2, { key: 'hold-in-one-statement' })]);

    const orderId = outcome!.orderId!;
    expect(outcome).toMatchObject({ total: 3000, soldOut: null });
    const [made] = await t.db.select().from(order).where(eq(order.id, orderId));
    expect(made).toMatchObject({ status: 'pending', total: 3000, buyerId: buyers[0]!.user.id });
    expect(made!.holdExpiresAt!.toISOString()).toBe(outcome!.holdExpiresAt);
    // The event's hold time: 10 minutes from now.
    expect(made!.holdExpiresAt!.getTime() - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(await t.db.select().from(orderLine).where(eq(orderLine.orderId, orderId))).toMatchObject([
      { quantity: 2, unitPrice: 1500 },
    ]);
    expect(await t.db.select().from(orderActivity).where(eq(orderActivity.orderId, orderId))).toMatchObject([
      { kind: 'created', detail: { total: 3000, tickets: 2 } },
    ]);
    const [places] = await t.db.select({ held: event.held, sold: event.sold }).from(event).where(eq(event.id, eventId));
    expect(places).toEqual({ held: 2, sold: 0 });
    expect((await counts(eventId, ticketTypeIds[0]!)).tickets).toBe(0);
    const { rows } = await t.database.execute(
      `select start_after from pgboss.job where name = 'orders.expireHold' and data->>'orderId' = $1`,
      [orderId],
    );
    expect(rows.map((row) => new Date((row as { start_after: string }).start_after).toISOString())).toEqual([
      outcome!.holdExpiresAt,
    ]);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('let a buyer hold at most the limit, counting the holds they had and those earlier in the batch', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      ticketTypes: [{ capacity: 50, price: 1000 }],
    });
    const type = ticketTypeIds[0]!;
    expect((await place(eventId, type, [request(2)], { heldPlacesLimit: 3 }))[0]!.orderId).not.toBeNull();
    const outcomes = await place(eventId, type, [request(1), request(1), request(5, { buyer: 1 }), request(1, { buyer: 1 })], {
      heldPlacesLimit: 3,
    });
    // Bea held 2: one more makes 3, a fourth is over; Ben held none, so his first hold may be of 5,
    // but not the next one.
    expect(outcomes.map((one) => one.orderId !== null)).toEqual([true, false, true, false]);
    // Refused over the limit, not for want of places: the general path says so.
    expect(outcomes.map((one) => one.soldOut)).toEqual([null, null, null, null]);
    const [places] = await t.db.select({ held: ticketType.held }).from(ticketType).where(eq(ticketType.id, type));
    expect(places!.held).toBe(8);
  });

  it('hold no more places than there are when buyers race for the last ones, and tell the others sold out', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      ticketTypes: [{ capacity: 5, price: 2500 }],
    });
    const racers = await Promise.all(Array.from({ length: 12 }, (_, index) => t.signUp(`Racer ${index + 1}`)));
    const answers = await Promise.all(
      racers.map((racer) =>
        t.call(createOrder, { eventId, lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 1 }] }, racer.cookie),
      ),
    );
    const statuses: string[] = answers.map((answer) => answer.body.result?.status ?? answer.body.error?.status);
    expect(statuses.filter((status) => status === 'pending')).toHaveLength(5);
    expect(statuses.filter((status) => status === 'resource-exhausted')).toHaveLength(7);
    const [places] = await t.db.select({ held: event.held, sold: event.sold }).from(event).where(eq(event.id, eventId));
    expect(places).toEqual({ held: 5, sold: 0 });
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });
});

describe('orders with a code made in one statement', () => {
  async function eventWithCode(code: Omit<Parameters<typeof t.call<typeof createCode>>[1], 'eventId'>, price = 2000) {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 20, price }] });
    const created = await t.call(createCode, { eventId, ...code }, owner.cookie);
    const [read] = await t.db.select().from(eventCode).where(eq(eventCode.id, created.body.result.codeId));
    return { eventId, type: ticketTypeIds[0]!, code: read! };
  }

  it('take its discount off each ticket, keep it on the line and the timeline, and give no more tickets than its uses', async () => {
    const { eventId, type, code } = await eventWithCode({ code: 'HALF', discount: { kind: 'percent', percent: 50 }, maxUses: 5 });
    const outcomes = await place(eventId, type, [request(2), request(2, { buyer: 1 }), request(2, { buyer: 2 })], { code });
    // 2 + 2 of the code's 5 uses; the third order's 2 do not fit, and the general path says why.
    expect(outcomes.map((one) => [one.orderId !== null, one.total, one.soldOut])).toEqual([
      [true, 2000, null],
      [true, 2000, null],
      [false, 0, null],
    ]);
    const orderId = outcomes[0]!.orderId!;
    expect(await t.db.select().from(orderLine).where(eq(orderLine.orderId, orderId))).toMatchObject([
      { quantity: 2, unitPrice: 1000, discount: 1000, codeId: code.id },
    ]);
    expect(await t.db.select().from(orderActivity).where(eq(orderActivity.orderId, orderId))).toMatchObject([
      { kind: 'created', detail: { total: 2000, tickets: 2, code: 'HALF' } },
    ]);
    const second = await t.call(
      createOrder,
      { eventId, code: 'half', lines: [{ ticketTypeId: type, quantity: 2 }] },
      buyers[2]!.cookie,
    );
    expect(second.body.error).toMatchObject({ status: 'failed-precondition', details: { reason: 'code-used-up', remaining: 1 } });
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('make nothing once the code changed since it was read, nor for an address that tried too many wrong codes', async () => {
    const { eventId, type, code } = await eventWithCode({ code: 'TENOFF', discount: { kind: 'amount', amount: 1000 } });
    await t.db.update(eventCode).set({ discountAmount: 500 }).where(eq(eventCode.id, code.id));
    const changed = await place(eventId, type, [request(1)], { code });
    expect(changed).toEqual([{ orderId: null, total: 0, holdExpiresAt: null, withinQuota: false, soldOut: null }]);

    const [now] = await t.db.select().from(eventCode).where(eq(eventCode.id, code.id));
    const guesser = wrongCodesQuota('198.51.100.9');
    while ((await consumeQuota(t.db, guesser)) === null);
    const outcomes = await place(
      eventId,
      type,
      [
        { ...request(1), codeQuota: guesser },
        { ...request(1, { buyer: 1 }), codeQuota: wrongCodesQuota('198.51.100.10') },
      ],
      {
        code: now!,
      },
    );
    expect(outcomes.map((one) => [one.orderId !== null, one.total])).toEqual([
      [false, 0],
      [true, 1500],
    ]);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('sell a hidden ticket type its code unlocks to exactly as many buyers as the code has uses, when they race for it', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 20 }] });
    const hidden = ticketTypeIds[0]!;
    await t.db.update(ticketType).set({ hidden: true }).where(eq(ticketType.id, hidden));
    await t.call(createCode, { eventId, code: 'CREW', ticketTypeIds: [hidden], maxUses: 5 }, owner.cookie);
    const racers = await Promise.all(Array.from({ length: 12 }, (_, index) => t.signUp(`Crew ${index + 1}`)));
    const answers = await Promise.all(
      racers.map((racer) =>
        t.call(createOrder, { eventId, code: 'crew', lines: [{ ticketTypeId: hidden, quantity: 1 }] }, racer.cookie),
      ),
    );
    const statuses: string[] = answers.map((answer) => answer.body.result?.status ?? answer.body.error?.details?.reason);
    expect(statuses.filter((status) => status === 'paid')).toHaveLength(5);
    expect(statuses.filter((status) => status === 'code-used-up')).toHaveLength(7);
    expect(await counts(eventId, hidden)).toEqual({ event: 5, ticketType: 5, tickets: 5 });
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });
});
