import { createOrder } from '@admit/shared/orders';
import { configureWaitlist, joinWaitlist } from '@admit/shared/waitlist';
import { asc, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { changeTicketTypeAs, createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { order } from '../orders/schema';
import { waitlistEntry } from './schema';

// A pre-sale list (decision 0064): people join for a ticket type not on sale yet, and when its
// sales start its places go to them in the order they joined, before the public.

let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await createTestApp({ env: { ORDER_ATTEMPTS_PER_ACCOUNT: '1000' } });
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(async () => {
  expect(await dataInvariantViolations(t.db)).toEqual([]);
});
afterAll(() => t?.close());

describe('a pre-sale waiting list', () => {
  it('takes people before sales start and offers them the places, in turn, when sales start', async () => {
    const owner = await t.signUp('Olga Organizer');
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      ticketTypes: [{ name: 'Early', capacity: 4, price: 0 }],
    });
    const ticketTypeId = ticketTypeIds[0]!;
    const type = { eventId, ticketTypeId };
    await changeTicketTypeAs(t, url, owner.cookie, type, { salesStartLocal: '2029-06-01T10:00' });
    await t.call(configureWaitlist, { eventId, enabled: true }, owner.cookie);
    const first = await t.signUp('Fay First');
    const join = (cookie: string, quantity: number) => t.call(joinWaitlist, { eventId, ticketTypeId, quantity }, cookie);
    // Without a pre-sale list, nobody waits for sales to start.
    expect((await join(first.cookie, 3)).body.error.details).toMatchObject({ reason: 'sales-not-started', ticketTypeId });

    await t.call(configureWaitlist, { eventId, enabled: true, presale: true }, owner.cookie);
    expect((await join(first.cookie, 3)).body.result).toMatchObject({ position: 1 });
    const second = await t.signUp('Sid Second');
    expect((await join(second.cookie, 2)).body.result).toMatchObject({ position: 2 });
    // Nothing is offered, and nothing sold, before sales start.
    await t.settleJobs();
    const entries = () =>
      t.db.select().from(waitlistEntry).where(eq(waitlistEntry.eventId, eventId)).orderBy(asc(waitlistEntry.joinedAt));
    expect((await entries()).map((entry) => entry.status)).toEqual(['waiting', 'waiting']);
    const early = await t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 1 }] }, owner.cookie);
    expect(early.body.error.details.reason).toBe('sales-not-started');

    // Sales start (moved to now): the first gets their three places; the second waits for two.
    await changeTicketTypeAs(t, url, owner.cookie, type, { salesStartLocal: '2020-01-01T10:00' });
    await t.settleJobs();
    const [offered, waiting] = await entries();
    expect(offered).toMatchObject({ status: 'offered', offeredQuantity: 3 });
    expect(waiting).toMatchObject({ status: 'waiting' });
    const [hold] = await t.db.select().from(order).where(eq(order.id, offered!.offerOrderId!));
    expect(hold).toMatchObject({ status: 'pending', buyerId: first.user.id });
    // One place is left, and someone waits for two: the public does not take it first.
    const late = await t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 1 }] }, owner.cookie);
    expect(late.body.error.status).toBe('resource-exhausted');
  });
});
