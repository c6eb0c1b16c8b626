import { createOrder } from '@admit/shared/orders';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { watch } from '../../testing/live-watch';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { event, ticketType } from '../events/schema';
import { order } from './schema';

// A pending order's hold ends at its time and its places go back to everyone, with nobody else
// ordering: a job enqueued with the order runs then. (The order path also releases ended holds
// when a buyer would otherwise hear "sold out": checkout.test.ts.)

let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await createTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t?.close());

describe('a hold', () => {
  it('ends at its time, gives its places back and tells the people watching, with nobody else ordering', async () => {
    const owner = await t.signUp('Olga Organizer');
    const buyer = await t.signUp('Bea Buyer');
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      ticketTypes: [{ capacity: 5, price: 1200 }],
    });
    const { body } = await t.call(
      createOrder,
      { eventId, lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 2 }] },
      buyer.cookie,
    );
    const { orderId, holdExpiresAt } = body.result;

    // The job waits for the hold's end, ten minutes from now.
    const job = async () =>
      (
        await t.database.execute(
          `select id, state, start_after from pgboss.job where name = 'orders.expireHold' and data->>'orderId' = $1`,
          [orderId],
        )
      ).rows[0] as { id: string; state: string; start_after: Date } | undefined;
    expect(new Date((await job())!.start_after).getTime()).toBeGreaterThanOrEqual(new Date(holdExpiresAt!).getTime());
    const availability = await watch(url, 'events.availability', { eventId });
    try {
      expect(availability.rows()).toMatchObject([{ remaining: 3 }]);

      // Ten minutes pass.
      await t.db
        .update(order)
        .set({ holdExpiresAt: new Date(Date.now() - 1_000) })
        .where(eq(order.id, orderId));
      await t.database.execute(`update pgboss.job set start_after = now() where id = $1`, [(await job())!.id]);

      await expect.poll(async () => (await t.db.select().from(order).where(eq(order.id, orderId)))[0]?.status).toBe('expired');
      await expect.poll(() => availability.rows()[0]?.remaining).toBe(5);
      const [counts] = await t.db
        .select({ eventHeld: event.held, typeHeld: ticketType.held })
        .from(ticketType)
        .innerJoin(event, eq(event.id, ticketType.eventId))
        .where(eq(ticketType.id, ticketTypeIds[0]!));
      expect(counts).toEqual({ eventHeld: 0, typeHeld: 0 });
      expect(await dataInvariantViolations(t.db)).toEqual([]);
    } finally {
      availability.close();
    }
  });
});
