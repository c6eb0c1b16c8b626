import { randomUUID } from 'node:crypto';
import { scanTicket } from '@admit/shared/checkin';
import { createOrder } from '@admit/shared/orders';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublishedEvent } from '../../testing/fixtures';
import { watch } from '../../testing/live-watch';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { doorQuestionsTopic } from '../questions/questions.api';
import { ticket } from '../tickets/schema';

// The door's attendee list can hold tens of thousands of tickets. After its first snapshot, an
// order or a scan must cost the rows it touched, not the whole list again: a change reads only the
// tickets it names. Shown here by a row changed behind the server's back (no change announced),
// which a whole re-read would pick up and a read of the named rows does not.

let t: TestApp;
let url: string;
let owner: Awaited<ReturnType<TestApp['signUp']>>;
let buyer: Awaited<ReturnType<TestApp['signUp']>>;

beforeAll(async () => {
  t = await createTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await t.signUp('Olga Owner');
  buyer = await t.signUp('Bea Buyer');
});
afterAll(() => t?.close());

/**
 * The orders made before the list is watched announce their tickets too; on PostgreSQL the
 * announcement can come after the watch began, and would rightly read those orders' tickets again.
 * Waiting a moment lets them pass first.
 */
const announcementsDelivered = () => new Promise((resolve) => setTimeout(resolve, 500));

describe("the door's attendee list", () => {
  it('reads only the new order’s tickets when an order is made, not the whole list again', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 100 }] });
    const buy = (quantity: number) =>
      t.call(createOrder, { eventId, lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity }] }, buyer.cookie);
    await buy(5);
    await announcementsDelivered();
    const list = await watch(url, 'checkin.attendees', { eventId }, owner.cookie);
    try {
      expect(list.rows()).toHaveLength(5);
      const [unannounced] = list.rows();
      await t.db.update(ticket).set({ holderName: 'Changed Unannounced' }).where(eq(ticket.id, unannounced.id));

      const { body } = await buy(2);
      const newTickets = await t.db.select({ id: ticket.id }).from(ticket).where(eq(ticket.orderId, body.result.orderId));

      await expect.poll(() => list.rows().length).toBe(7);
      expect(list.rows().map((row) => row.id)).toEqual(expect.arrayContaining(newTickets.map((one) => one.id)));
      // The list was not read again as a whole: the row changed without an announcement is as it was.
      expect(list.rows().find((row) => row.id === unannounced.id)?.holderName).toBe('Bea Buyer');
    } finally {
      list.close();
    }
  });

  it('reads only the scanned ticket when a ticket is scanned', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 100 }] });
    await t.call(createOrder, { eventId, lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 3 }] }, buyer.cookie);
    await announcementsDelivered();
    const list = await watch(url, 'checkin.attendees', { eventId }, owner.cookie);
    try {
      const [scanned, unannounced] = list.rows();
      await t.db.update(ticket).set({ holderName: 'Changed Unannounced' }).where(eq(ticket.id, unannounced.id));
      const answer = await t.call(
        scanTicket,
        { eventId, code: scanned.code, device: 'Door 1', scannedAt: new Date().toISOString(), idempotencyKey: randomUUID() },
        owner.cookie,
      );
      expect(answer.body.result.result).toBe('accepted');

      await expect.poll(() => list.rows().find((row) => row.id === scanned.id)?.checkedInDevice).toBe('Door 1');
      expect(list.rows().find((row) => row.id === unannounced.id)?.holderName).toBe('Bea Buyer');
    } finally {
      list.close();
    }
  });

  it('tells both devices of one person of a scan after they read the whole list together', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 100 }] });
    await t.call(createOrder, { eventId, lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 3 }] }, buyer.cookie);
    await announcementsDelivered();
    const doors = [
      await watch(url, 'checkin.attendees', { eventId }, owner.cookie),
      await watch(url, 'checkin.attendees', { eventId }, owner.cookie),
    ];
    try {
      // A change that names no rows: both devices read the whole list again, in one shared read.
      const [scanned, renamed] = doors[0]!.rows();
      await t.db.update(ticket).set({ holderName: 'Read Again' }).where(eq(ticket.id, renamed.id));
      await t.db.execute(sql`select pg_notify('admit_changes', ${doorQuestionsTopic(eventId)})`);
      for (const door of doors)
        await expect.poll(() => door.rows().find((row) => row.id === renamed.id)?.holderName).toBe('Read Again');

      const answer = await t.call(
        scanTicket,
        { eventId, code: scanned.code, device: 'Door 1', scannedAt: new Date().toISOString(), idempotencyKey: randomUUID() },
        owner.cookie,
      );
      expect(answer.body.result.result).toBe('accepted');
      for (const door of doors)
        await expect.poll(() => door.rows().find((row) => row.id === scanned.id)?.checkedInDevice).toBe('Door 1');
    } finally {
      for (const door of doors) door.close();
    }
  });
});
