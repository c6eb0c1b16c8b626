import { addTicketType } from '@admit/shared/events';
import { createOrder } from '@admit/shared/orders';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublishedEvent } from '../../testing/fixtures';
import { watch } from '../../testing/live-watch';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { ticketType } from './schema';

// The count of places left on the public page and in the event list is what a buyer can take.

let t: TestApp;
let url: string;
let owner: Awaited<ReturnType<TestApp['signUp']>>;

beforeAll(async () => {
  t = await createTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await t.signUp('Olga Organizer');
});
afterAll(() => t?.close());

describe('the places left of a public event', () => {
  it('are what its ticket types have left when they add up to less than the event, and follow orders live', async () => {
    const { eventId, slug, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      capacity: 100,
      ticketTypes: [{ capacity: 30 }, { capacity: 40 }],
    });
    const page = await watch(url, 'events.public', { slug });
    const list = await watch(url, 'events.published', {});
    try {
      expect(page.rows()).toMatchObject([{ remaining: 70 }]);
      expect(list.rows().find((row) => row.id === eventId)).toMatchObject({ remaining: 70 });

      const buyer = await t.signUp('Bea Buyer');
      await t.call(createOrder, { eventId, lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 5 }] }, buyer.cookie);
      await expect.poll(() => page.rows()[0]?.remaining).toBe(65);

      // A type hidden, or whose sales ended, sells nothing more: its places are not counted.
      await t.db.update(ticketType).set({ hidden: true }).where(eq(ticketType.id, ticketTypeIds[1]!));
      await t.call(addTicketType, { eventId, name: 'Late', capacity: 10, maxPerOrder: 10, price: 0 }, owner.cookie);
      await expect.poll(() => page.rows()[0]?.remaining).toBe(35);
    } finally {
      page.close();
      list.close();
    }
  });

  it('are the event’s own places left when its ticket types have more between them', async () => {
    const { slug } = await createPublishedEvent(t, owner.cookie, {
      capacity: 20,
      ticketTypes: [{ capacity: 15 }, { capacity: 15 }],
    });
    const page = await watch(url, 'events.public', { slug });
    try {
      expect(page.rows()).toMatchObject([{ remaining: 20 }]);
    } finally {
      page.close();
    }
  });
});
