import { randomUUID } from 'node:crypto';
import { createOrder } from '@admit/shared/orders';
import { eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addTicketTypeAs, createEventAs, createOrgAs, createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { event, ticketType } from '../events/schema';
import { order, orderLine } from './schema';
import { ticket } from '../tickets/schema';

// The specification of ordering: validation, prices, capacity, idempotency and the concurrency
// cases, kept in one file because they share their buyers and events.

type Person = Awaited<ReturnType<TestApp['signUp']>>;
type Line = { ticketTypeId: string; quantity: number };

let t: TestApp;
let owner: Person;
let buyer: Person;
let otherBuyer: Person;
/** Buyers for the concurrency tests, signed up once: sign-up hashes a password and takes a while. */
let crowd: Person[];
const crowdSize = 20;

beforeAll(async () => {
  // Hundreds of orders from one address in seconds, far past what one person may send (the
  // quotas themselves are tested in order-quotas.test.ts).
  t = await createTestApp({ env: { ORDER_ATTEMPTS_PER_ACCOUNT: '10000', ORDER_ATTEMPTS_PER_ADDRESS: '10000' } });
  owner = await t.signUp('Olivia Owner');
  buyer = await t.signUp('Bob Buyer');
  otherBuyer = await t.signUp('Carla Buyer');
  crowd = [];
  for (let start = 0; start < crowdSize; start += 5) {
    crowd.push(...(await Promise.all(Array.from({ length: 5 }, (_, index) => t.signUp(`Crowd Buyer ${start + index}`)))));
  }
});
afterAll(() => t?.close());

const placeOrder = (cookie: string, eventId: string, lines: Line[], idempotencyKey?: string) =>
  t.call(createOrder, { eventId, lines, ...(idempotencyKey ? { idempotencyKey } : {}) }, cookie);

async function soldOf(ticketTypeId: string) {
  const [row] = await t.db
    .select({ sold: ticketType.sold, held: ticketType.held })
    .from(ticketType)
    .where(eq(ticketType.id, ticketTypeId));
  return row!;
}

async function ticketsOfOrder(orderId: string) {
  return t.db.select().from(ticket).where(eq(ticket.orderId, orderId));
}

describe('orders.create', () => {
  it('creates a paid order with one ticket per place, each with its own signed base64url code', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 10 }] });
    const { status, body } = await placeOrder(buyer.cookie, eventId, [{ ticketTypeId: ticketTypeIds[0]!, quantity: 3 }]);

    expect(status).toBe(200);
    expect(body.result).toEqual({ orderId: expect.any(String), status: 'paid', ticketCount: 3, total: 0, holdExpiresAt: null });
    const tickets = await ticketsOfOrder(body.result.orderId);
    expect(tickets).toHaveLength(3);
    for (const issued of tickets) {
      expect(issued.code).toMatch(/^[A-Za-z0-9_-]{28}$/);
      // 96 random bits and a 72-bit signature (modules/orders/ticket-code.ts).
      expect(Buffer.from(issued.code, 'base64url')).toHaveLength(21);
      expect(issued).toMatchObject({
        status: 'valid',
        eventId,
        ticketTypeId: ticketTypeIds[0],
        holderName: 'Bob Buyer',
        holderEmail: buyer.email,
      });
    }
    expect(new Set(tickets.map((issued) => issued.code)).size).toBe(3);
    const [placed] = await t.db.select().from(order).where(eq(order.id, body.result.orderId));
    expect(placed).toMatchObject({ buyerId: buyer.user.id, status: 'paid', total: 0, eventId });
    const lines = await t.db.select().from(orderLine).where(eq(orderLine.orderId, body.result.orderId));
    expect(lines).toEqual([expect.objectContaining({ ticketTypeId: ticketTypeIds[0], quantity: 3, unitPrice: 0 })]);
    expect(await soldOf(ticketTypeIds[0]!)).toEqual({ sold: 3, held: 0 });
  });

  it('gives each of 100 tickets in one order a code of its own', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      ticketTypes: [{ capacity: 100, maxPerOrder: 100 }],
    });
    const { status, body } = await placeOrder(buyer.cookie, eventId, [{ ticketTypeId: ticketTypeIds[0]!, quantity: 100 }]);
    expect(status).toBe(200);
    const codes = (await ticketsOfOrder(body.result.orderId)).map((issued) => issued.code);
    expect(codes).toHaveLength(100);
    expect(new Set(codes).size).toBe(100);
  });

  it('refuses more than the per-order limit, naming the quantity of the line that exceeds it', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      ticketTypes: [
        { name: 'Seated', capacity: 20, maxPerOrder: 4 },
        { name: 'Standing', capacity: 20, maxPerOrder: 4 },
      ],
    });
    const { status, body } = await placeOrder(buyer.cookie, eventId, [
      { ticketTypeId: ticketTypeIds[0]!, quantity: 4 },
      { ticketTypeId: ticketTypeIds[1]!, quantity: 5 },
    ]);

    expect(status).toBe(400);
    expect(body.error.status).toBe('invalid-argument');
    expect(body.error.details.fields).toEqual([expect.objectContaining({ path: 'lines.1.quantity' })]);
    expect(await soldOf(ticketTypeIds[0]!)).toEqual({ sold: 0, held: 0 });
    expect(await soldOf(ticketTypeIds[1]!)).toEqual({ sold: 0, held: 0 });
  });

  it('refuses a ticket type of another event as invalid-argument on its line', async () => {
    const first = await createPublishedEvent(t, owner.cookie);
    const second = await createPublishedEvent(t, owner.cookie, { organizationId: first.organizationId });
    const { status, body } = await placeOrder(buyer.cookie, first.eventId, [
      { ticketTypeId: second.ticketTypeIds[0]!, quantity: 1 },
    ]);

    expect(status).toBe(400);
    expect(body.error.status).toBe('invalid-argument');
    expect(body.error.details.fields).toEqual([expect.objectContaining({ path: 'lines.0.ticketTypeId' })]);
    expect(await soldOf(second.ticketTypeIds[0]!)).toEqual({ sold: 0, held: 0 });
  });

  it('answers not-found for an event that is still a draft', async () => {
    const { organizationId } = await createOrgAs(t, owner.cookie);
    const { eventId } = await createEventAs(t, owner.cookie, organizationId);
    const ticketTypeId = await addTicketTypeAs(t, owner.cookie, eventId, { capacity: 10 });

    const { status, body } = await placeOrder(buyer.cookie, eventId, [{ ticketTypeId, quantity: 1 }]);

    expect(status).toBe(404);
    expect(body.error.status).toBe('not-found');
    expect(await soldOf(ticketTypeId)).toEqual({ sold: 0, held: 0 });
  });

  it('answers not-found for an event that does not exist', async () => {
    const { status, body } = await placeOrder(buyer.cookie, randomUUID(), [{ ticketTypeId: randomUUID(), quantity: 1 }]);
    expect(status).toBe(404);
    expect(body.error.status).toBe('not-found');
  });

  it('answers failed-precondition once sales are closed', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie);
    await t.db.update(event).set({ status: 'sales_closed' }).where(eq(event.id, eventId));

    const { status, body } = await placeOrder(buyer.cookie, eventId, [{ ticketTypeId: ticketTypeIds[0]!, quantity: 1 }]);

    expect(status).toBe(400);
    expect(body.error).toMatchObject({ status: 'failed-precondition', details: { status: 'sales_closed' } });
  });

  it('answers unauthenticated to someone signed out', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie);
    const { status, body } = await t.call(createOrder, {
      eventId,
      lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 1 }],
    });
    expect(status).toBe(401);
    expect(body.error.status).toBe('unauthenticated');
    expect(await soldOf(ticketTypeIds[0]!)).toEqual({ sold: 0, held: 0 });
  });

  it('refuses the 51st ticket when 50 are sold, saying how many were asked for and how many remain', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      ticketTypes: [{ capacity: 50, maxPerOrder: 50 }],
    });
    const ticketTypeId = ticketTypeIds[0]!;
    expect((await placeOrder(buyer.cookie, eventId, [{ ticketTypeId, quantity: 48 }])).status).toBe(200);

    const tooMany = await placeOrder(otherBuyer.cookie, eventId, [{ ticketTypeId, quantity: 3 }]);
    expect(tooMany.status).toBe(429);
    expect(tooMany.body.error).toMatchObject({
      status: 'resource-exhausted',
      details: { ticketTypeId, requested: 3, remaining: 2 },
    });

    expect((await placeOrder(otherBuyer.cookie, eventId, [{ ticketTypeId, quantity: 2 }])).status).toBe(200);
    const soldOut = await placeOrder(otherBuyer.cookie, eventId, [{ ticketTypeId, quantity: 1 }]);
    expect(soldOut.status).toBe(429);
    expect(soldOut.body.error).toMatchObject({
      status: 'resource-exhausted',
      details: { ticketTypeId, requested: 1, remaining: 0 },
    });
    expect(await soldOf(ticketTypeId)).toEqual({ sold: 50, held: 0 });
  });

  it('enforces the event-wide capacity that two ticket types share', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      capacity: 5,
      ticketTypes: [
        { name: 'Early', capacity: 4 },
        { name: 'Regular', capacity: 4 },
      ],
    });
    const [early, regular] = ticketTypeIds as [string, string];
    expect((await placeOrder(buyer.cookie, eventId, [{ ticketTypeId: early, quantity: 4 }])).status).toBe(200);

    const overEvent = await placeOrder(otherBuyer.cookie, eventId, [{ ticketTypeId: regular, quantity: 2 }]);
    expect(overEvent.status).toBe(429);
    expect(overEvent.body.error.status).toBe('resource-exhausted');
    // The event as a whole ran out, not the ticket type: no ticketTypeId in the details.
    expect(overEvent.body.error.details).toEqual({ requested: 2, remaining: 1 });

    expect((await placeOrder(otherBuyer.cookie, eventId, [{ ticketTypeId: regular, quantity: 1 }])).status).toBe(200);
    expect((await placeOrder(otherBuyer.cookie, eventId, [{ ticketTypeId: regular, quantity: 1 }])).status).toBe(429);
    const [counters] = await t.db.select({ sold: event.sold }).from(event).where(eq(event.id, eventId));
    expect(counters!.sold).toBe(5);
    expect(await soldOf(regular)).toEqual({ sold: 1, held: 0 });
  });

  it('refuses a whole order when one of its lines does not fit, selling none of the others', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      ticketTypes: [
        { name: 'Plenty', capacity: 50 },
        { name: 'Scarce', capacity: 1 },
      ],
    });
    const [plenty, scarce] = ticketTypeIds as [string, string];
    const { status, body } = await placeOrder(buyer.cookie, eventId, [
      { ticketTypeId: plenty, quantity: 3 },
      { ticketTypeId: scarce, quantity: 2 },
    ]);
    expect(status).toBe(429);
    expect(body.error.details).toEqual({ ticketTypeId: scarce, requested: 2, remaining: 1 });
    expect(await soldOf(plenty)).toEqual({ sold: 0, held: 0 });
    const [counters] = await t.db.select({ sold: event.sold }).from(event).where(eq(event.id, eventId));
    expect(counters!.sold).toBe(0);
  });

  describe('idempotency', () => {
    it('creates one order when the same key is sent twice in a row', async () => {
      const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 10 }] });
      const lines = [{ ticketTypeId: ticketTypeIds[0]!, quantity: 2 }];
      const key = `key-${randomUUID()}`;

      const first = await placeOrder(buyer.cookie, eventId, lines, key);
      const second = await placeOrder(buyer.cookie, eventId, lines, key);

      expect(first.status).toBe(200);
      expect(second.status).toBe(200);
      expect(second.body.result).toEqual(first.body.result);
      expect(await t.db.select().from(order).where(eq(order.eventId, eventId))).toHaveLength(1);
      expect(await soldOf(ticketTypeIds[0]!)).toEqual({ sold: 2, held: 0 });
    });

    it('creates one order when the same key is sent several times at once', async () => {
      const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 10 }] });
      const lines = [{ ticketTypeId: ticketTypeIds[0]!, quantity: 2 }];
      const key = `key-${randomUUID()}`;

      const answers = await Promise.all(Array.from({ length: 8 }, () => placeOrder(buyer.cookie, eventId, lines, key)));

      expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(200));
      expect(new Set(answers.map((answer) => answer.body.result.orderId)).size).toBe(1);
      expect(answers.every((answer) => answer.body.result.ticketCount === 2)).toBe(true);
      const orders = await t.db.select().from(order).where(eq(order.eventId, eventId));
      expect(orders).toHaveLength(1);
      expect(await ticketsOfOrder(orders[0]!.id)).toHaveLength(2);
      expect(await soldOf(ticketTypeIds[0]!)).toEqual({ sold: 2, held: 0 });
    });

    it('keeps the keys of different buyers apart', async () => {
      const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 10 }] });
      const lines = [{ ticketTypeId: ticketTypeIds[0]!, quantity: 1 }];
      const key = `key-${randomUUID()}`;

      const mine = await placeOrder(buyer.cookie, eventId, lines, key);
      const theirs = await placeOrder(otherBuyer.cookie, eventId, lines, key);

      expect(mine.status).toBe(200);
      expect(theirs.status).toBe(200);
      expect(theirs.body.result.orderId).not.toBe(mine.body.result.orderId);
      expect(await soldOf(ticketTypeIds[0]!)).toEqual({ sold: 2, held: 0 });
    });
  });

  describe('hostile input', () => {
    let eventId: string;
    let ticketTypeId: string;
    beforeAll(async () => {
      const created = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 10, maxPerOrder: 10 }] });
      eventId = created.eventId;
      ticketTypeId = created.ticketTypeIds[0]!;
    });

    const huge = 'x'.repeat(200_000);
    const line = (quantity: unknown) => ({ ticketTypeId, quantity });
    const cases: [string, () => unknown][] = [
      ['a zero quantity', () => ({ eventId, lines: [line(0)] })],
      ['a negative quantity', () => ({ eventId, lines: [line(-3)] })],
      ['a fractional quantity', () => ({ eventId, lines: [line(1.5)] })],
      ['a quantity given as a string', () => ({ eventId, lines: [line('2')] })],
      ['a null quantity', () => ({ eventId, lines: [line(null)] })],
      ['an astronomically large quantity', () => ({ eventId, lines: [line(1e300)] })],
      ['a quantity just past an int32', () => ({ eventId, lines: [line(2 ** 31)] })],
      ['a missing quantity', () => ({ eventId, lines: [{ ticketTypeId }] })],
      ['an event id that is a number', () => ({ eventId: 42, lines: [line(1)] })],
      ['an event id that is an object', () => ({ eventId: { $ne: null }, lines: [line(1)] })],
      ['an event id of 200,000 characters', () => ({ eventId: huge, lines: [line(1)] })],
      ['a ticket type id of 200,000 characters', () => ({ eventId, lines: [{ ticketTypeId: huge, quantity: 1 }] })],
      ['an idempotency key of 200,000 characters', () => ({ eventId, lines: [line(1)], idempotencyKey: huge })],
      ['an idempotency key that is too short', () => ({ eventId, lines: [line(1)], idempotencyKey: 'abc' })],
      ['lines that are not a list', () => ({ eventId, lines: line(1) })],
      ['no lines', () => ({ eventId, lines: [] })],
      ['too many lines', () => ({ eventId, lines: Array.from({ length: 21 }, () => line(1)) })],
      ['the same ticket type on two lines', () => ({ eventId, lines: [line(1), line(1)] })],
      ['an unknown field', () => ({ eventId, lines: [line(1)], total: 0 })],
      ['an unknown field on a line', () => ({ eventId, lines: [{ ...line(1), price: 0 }] })],
      [
        'a __proto__ field',
        () =>
          JSON.parse(
            `{"eventId":"${eventId}","lines":[{"ticketTypeId":"${ticketTypeId}","quantity":1}],"__proto__":{"admin":true}}`,
          ),
      ],
      ['data that is null', () => null],
      ['data that is a list', () => [eventId]],
      ['data that is a string', () => eventId],
    ];

    it.each(cases)('answers %s with invalid-argument, never a 500', async (_name, data) => {
      const { status, body } = await t.callWithAnyInput(createOrder, data(), buyer.cookie);
      expect(status).toBe(400);
      expect(body.error.status).toBe('invalid-argument');
    });

    it('has sold nothing to any of the hostile requests', async () => {
      expect(await soldOf(ticketTypeId)).toEqual({ sold: 0, held: 0 });
    });
  });
});

describe('orders.create under concurrency', () => {
  /** `count` orders for one place each, spread over the crowd, all sent at once. */
  async function burst(eventId: string, count: number, lineOf: (index: number) => Line) {
    const answers = await Promise.all(
      Array.from({ length: count }, (_, index) =>
        placeOrder(crowd[index % crowd.length]!.cookie, eventId, [lineOf(index)], `burst-${randomUUID()}`),
      ),
    );
    const byStatus = new Map<number, number>();
    for (const answer of answers) byStatus.set(answer.status, (byStatus.get(answer.status) ?? 0) + 1);
    return { answers, byStatus };
  }

  it('sells exactly 50 tickets when 200 orders for 50 places arrive at once, and tells the rest it is sold out', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      capacity: 500,
      ticketTypes: [{ capacity: 50 }],
    });
    const ticketTypeId = ticketTypeIds[0]!;

    const { answers, byStatus } = await burst(eventId, 200, () => ({ ticketTypeId, quantity: 1 }));

    expect(Object.fromEntries(byStatus)).toEqual({ 200: 50, 429: 150 });
    for (const refused of answers.filter((answer) => answer.status === 429)) {
      expect(refused.body.error).toMatchObject({ status: 'resource-exhausted', details: { requested: 1, remaining: 0 } });
    }
    const orderIds = answers.filter((answer) => answer.status === 200).map((answer) => answer.body.result.orderId);
    expect(new Set(orderIds).size).toBe(50);
    expect(await t.db.select().from(ticket).where(eq(ticket.ticketTypeId, ticketTypeId))).toHaveLength(50);
    expect(await soldOf(ticketTypeId)).toEqual({ sold: 50, held: 0 });
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('keeps an event-wide capacity of 30 when 100 orders for two ticket types of 25 arrive at once', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      capacity: 30,
      ticketTypes: [
        { name: 'Early', capacity: 25 },
        { name: 'Regular', capacity: 25 },
      ],
    });

    const { byStatus } = await burst(eventId, 100, (index) => ({ ticketTypeId: ticketTypeIds[index % 2]!, quantity: 1 }));

    expect(Object.fromEntries(byStatus)).toEqual({ 200: 30, 429: 70 });
    const [counters] = await t.db.select({ sold: event.sold, held: event.held }).from(event).where(eq(event.id, eventId));
    expect(counters).toEqual({ sold: 30, held: 0 });
    expect(await t.db.select().from(ticket).where(inArray(ticket.ticketTypeId, ticketTypeIds))).toHaveLength(30);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });
});

describe('the data invariant check', () => {
  it('holds after everything this file did', async () => {
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('reports an oversold ticket type, a ticket without a paid order and a paid order missing a ticket', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 5 }] });
    const ticketTypeId = ticketTypeIds[0]!;
    const placed = await placeOrder(buyer.cookie, eventId, [{ ticketTypeId, quantity: 2 }]);
    expect(placed.status).toBe(200);
    const rolledBack = new Error('roll back the corruption');

    // Corrupt the data inside a transaction that is then rolled back, so the rest of the file is unaffected.
    await expect(
      t.db.transaction(async (tx) => {
        // The database's own check constraint refuses overselling; lift it to show the SQL check sees it too.
        await tx.execute(sql`alter table ticket_type drop constraint ticket_type_capacity_check`);
        await tx.update(ticketType).set({ sold: 6 }).where(eq(ticketType.id, ticketTypeId));
        await tx
          .delete(ticket)
          .where(eq(ticket.id, (await tx.select().from(ticket).where(eq(ticket.orderId, placed.body.result.orderId)))[0]!.id));
        const strayOrderId = randomUUID();
        await tx.insert(order).values({
          id: strayOrderId,
          eventId,
          buyerName: 'Nobody',
          email: 'nobody@example.test',
          status: 'pending',
          total: 0,
          currency: 'EUR',
        });
        await tx.insert(ticket).values({
          id: randomUUID(),
          orderId: strayOrderId,
          ticketTypeId,
          eventId,
          code: randomUUID(),
          holderName: 'Nobody',
          holderEmail: 'nobody@example.test',
        });

        const violations = await dataInvariantViolations(tx);
        const names = violations.map((violation) => violation.slice(0, violation.indexOf(':')));
        expect(names).toEqual(
          expect.arrayContaining([
            'ticket type sold + held exceeds its capacity (or a counter is negative)',
            "the event's counters differ from the sum of its ticket types'",
            'ticket type sold differs from its number of valid tickets',
            'paid order whose tickets differ from its order lines',
            'valid ticket without a paid order',
          ]),
        );
        throw rolledBack;
      }),
    ).rejects.toBe(rolledBack);
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });
});
