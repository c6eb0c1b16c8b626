import { cancelOrder, createOrder } from '@admit/shared/orders';
import { callableErrorCodeOf } from '@admit/shared/callable';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { event } from '../events/schema';
import { callQuota } from '../../platform/quotas/schema';

// The quotas of orders.create (decision 0030), with the defaults of config.ts unless a group says
// otherwise: a buyer holds at most 20 places of an event in pending orders, and an account may try
// 30 orders, an address 300, in ten minutes.

type Person = Awaited<ReturnType<TestApp['signUp']>>;

let t: TestApp;
let owner: Person;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp('Olga Organizer');
});
afterEach(async () => {
  expect(await dataInvariantViolations(t.db)).toEqual([]);
});
afterAll(() => t?.close());

async function paidEvent(options: { capacity?: number; maxPerOrder?: number } = {}) {
  const capacity = options.capacity ?? 100;
  const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
    capacity,
    ticketTypes: [{ capacity, price: 2500, maxPerOrder: options.maxPerOrder ?? 10 }],
  });
  return { eventId, ticketTypeId: ticketTypeIds[0]! };
}

const order = (app: TestApp, cookie: string, eventId: string, ticketTypeId: string, quantity: number) =>
  app.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity }] }, cookie);

const heldOf = async (eventId: string) =>
  (await t.db.select({ held: event.held }).from(event).where(eq(event.id, eventId)))[0]!.held;

describe('places held by one buyer', () => {
  it('lets one account hold at most 20 places of a paid event in pending orders, so an honest buyer still finds tickets', async () => {
    const { eventId, ticketTypeId } = await paidEvent();
    const hoarder = await t.signUp('Hal Hoarder');

    const answers = [];
    for (let attempt = 0; attempt < 10; attempt += 1) answers.push(await order(t, hoarder.cookie, eventId, ticketTypeId, 10));

    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 429, 429, 429, 429, 429, 429, 429, 429]);
    expect(answers[2]!.body.error).toMatchObject({
      status: 'resource-exhausted',
      details: { reason: 'too-many-holds', limit: 20 },
    });
    const honest = await order(t, (await t.signUp('Hana Honest')).cookie, eventId, ticketTypeId, 4);
    expect(honest.status).toBe(200);
    expect(honest.body.result.status).toBe('pending');
    expect(await heldOf(eventId)).toBe(24);
  });

  it('holds the limit when one buyer sends ten orders at once', async () => {
    const { eventId, ticketTypeId } = await paidEvent();
    const hoarder = await t.signUp('Hal Hoarder');

    const answers = await Promise.all(Array.from({ length: 10 }, () => order(t, hoarder.cookie, eventId, ticketTypeId, 10)));

    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(2);
    for (const refused of answers.filter((answer) => answer.status !== 200))
      expect(refused.body.error.details).toEqual({ reason: 'too-many-holds', limit: 20 });
    expect(await heldOf(eventId)).toBe(20);
  });

  it('lets a single order be as large as its ticket type allows, but adds no hold to it past the limit', async () => {
    const { eventId, ticketTypeId } = await paidEvent({ maxPerOrder: 30 });
    const group = await t.signUp('Greta Group');

    expect((await order(t, group.cookie, eventId, ticketTypeId, 30)).status).toBe(200);
    expect((await order(t, group.cookie, eventId, ticketTypeId, 1)).body.error.details).toEqual({
      reason: 'too-many-holds',
      limit: 20,
    });
  });

  it('counts only holds that still run: a cancelled order lets the buyer order again', async () => {
    const { eventId, ticketTypeId } = await paidEvent();
    const buyer = await t.signUp('Bea Buyer');
    const first = await order(t, buyer.cookie, eventId, ticketTypeId, 10);
    expect((await order(t, buyer.cookie, eventId, ticketTypeId, 10)).status).toBe(200);
    expect((await order(t, buyer.cookie, eventId, ticketTypeId, 10)).status).toBe(429);

    expect((await t.call(cancelOrder, { orderId: first.body.result.orderId }, buyer.cookie)).status).toBe(200);

    expect((await order(t, buyer.cookie, eventId, ticketTypeId, 10)).status).toBe(200);
  });

  it('does not limit free tickets, which hold nothing', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 50 }] });
    const fan = await t.signUp('Finn Free');
    for (let attempt = 0; attempt < 3; attempt += 1)
      expect((await order(t, fan.cookie, eventId, ticketTypeIds[0]!, 10)).body.result.status).toBe('paid');
  });
});

describe('order attempts per account', () => {
  it("refuses an account's 31st order within ten minutes, saying how long to wait, and still serves other accounts", async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      capacity: 500,
      ticketTypes: [{ capacity: 500 }],
    });
    const eager = await t.signUp('Ed Eager');

    const statuses = [];
    for (let attempt = 0; attempt < 30; attempt += 1)
      statuses.push((await order(t, eager.cookie, eventId, ticketTypeIds[0]!, 1)).status);
    const refused = await order(t, eager.cookie, eventId, ticketTypeIds[0]!, 1);

    expect(statuses.every((status) => status === 200)).toBe(true);
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatchObject({ status: 'resource-exhausted', details: { reason: 'too-many-orders' } });
    expect(refused.body.error.details.retryAfterSeconds).toBeGreaterThan(0);
    expect(refused.body.error.details.retryAfterSeconds).toBeLessThanOrEqual(600);
    expect((await order(t, (await t.signUp('Olly Other')).cookie, eventId, ticketTypeIds[0]!, 1)).status).toBe(200);
  });

  it('counts an order sent again with its idempotency key once', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 50 }] });
    const retrier = await t.signUp('Rita Retry');
    const input = { eventId, lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 1 }], idempotencyKey: 'tap-twice-0001' };

    for (let attempt = 0; attempt < 40; attempt += 1) expect((await t.call(createOrder, input, retrier.cookie)).status).toBe(200);
  });

  it('counts again from zero once the window has passed', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      capacity: 500,
      ticketTypes: [{ capacity: 500 }],
    });
    const eager = await t.signUp('Eve Eager');
    for (let attempt = 0; attempt < 30; attempt += 1) await order(t, eager.cookie, eventId, ticketTypeIds[0]!, 1);
    expect((await order(t, eager.cookie, eventId, ticketTypeIds[0]!, 1)).status).toBe(429);

    // Every window of this database began more than ten minutes ago.
    await t.db.update(callQuota).set({ windowStart: sql`now() - interval '11 minutes'` });

    expect((await order(t, eager.cookie, eventId, ticketTypeIds[0]!, 1)).status).toBe(200);
  });
});

describe('order attempts per client address', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ env: { ORDER_ATTEMPTS_PER_ADDRESS: '3' } });
  });
  afterAll(() => limited?.close());

  /** orders.create as sent from `address`, as a browser there would send it. */
  async function orderFrom(address: string, cookie: string, eventId: string, ticketTypeId: string) {
    const response = await limited.app.inject({
      method: 'POST',
      url: `/fn/${createOrder.name}`,
      remoteAddress: address,
      headers: { 'content-type': 'application/json', cookie },
      payload: JSON.stringify({ data: { eventId, lines: [{ ticketTypeId, quantity: 1 }] } }),
    });
    const body = response.json() as { error?: { status: string; details?: unknown } };
    return {
      status: response.statusCode,
      code: body.error && callableErrorCodeOf(body.error.status),
      details: body.error?.details,
    };
  }

  it('refuses the fourth order from one address whichever accounts send them, and serves other addresses', async () => {
    const organizer = await limited.signUp('Olga Organizer');
    const { eventId, ticketTypeIds } = await createPublishedEvent(limited, organizer.cookie, { ticketTypes: [{ capacity: 50 }] });
    const people = await Promise.all(['Ann', 'Ben', 'Cem', 'Dan'].map((name) => limited.signUp(name)));

    const answers = [];
    for (const person of people) answers.push(await orderFrom('203.0.113.7', person.cookie, eventId, ticketTypeIds[0]!));

    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 429]);
    expect(answers[3]).toMatchObject({ code: 'resource-exhausted', details: { reason: 'too-many-orders' } });
    expect((await orderFrom('198.51.100.9', people[3]!.cookie, eventId, ticketTypeIds[0]!)).status).toBe(200);
  });
});
