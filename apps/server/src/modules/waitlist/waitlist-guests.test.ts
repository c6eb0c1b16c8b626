import { randomUUID } from 'node:crypto';
import { confirmGuestOrder, createOrder, refundOrder } from '@admit/shared/orders';
import {
  acceptWaitlistOffer,
  configureWaitlist,
  confirmWaitlistEntry,
  joinWaitlist,
  leaveWaitlist,
} from '@admit/shared/waitlist';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublishedEvent } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { watch } from '../../testing/live-watch';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { order } from '../orders/schema';
import { waitlistEntry } from './schema';

// A guest on a waiting list (decision 0064): they join with a name and an address, take their place
// once they open the link emailed there, and take an offer by the links of its email, as a guest's
// order is opened (decision 0060).

let t: TestApp;
let url: string;

beforeAll(async () => {
  t = await createTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t?.close());

/** The entry link in the newest email to the address. */
async function entryLinkIn(address: string) {
  await t.settleJobs();
  const message = await t.lastMessageTo(address);
  const found = message.text.match(/\/waitlist\/([^?\s]+)\?token=([A-Za-z0-9_-]+)/);
  if (!found) throw new Error(`no waiting-list link in ${message.text}`);
  return { entryId: decodeURIComponent(found[1]!), token: found[2]! };
}

describe('a guest on the waiting list', () => {
  it('takes a place once the emailed link is opened, and takes a free offer by its token', async () => {
    const owner = await t.signUp('Olga Organizer');
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 1 }] });
    const ticketTypeId = ticketTypeIds[0]!;
    await t.call(configureWaitlist, { eventId, enabled: true }, owner.cookie);
    const sold = await t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 1 }] }, owner.cookie);

    const email = `gwen-${randomUUID().slice(0, 8)}@example.test`;
    const joined = await t.call(joinWaitlist, { eventId, ticketTypeId, quantity: 1, guest: { name: 'Gwen Guest', email } });
    expect(joined.body.result).toEqual({ entryId: expect.any(String), position: null });
    // Nobody is told an address is on the list; nobody waits until the link is opened.
    const list = await watch(url, 'waitlist.forEvent', { eventId }, owner.cookie);
    try {
      expect(list.rows()).toEqual([]);
      const link = await entryLinkIn(email);
      expect(link.entryId).toBe(joined.body.result.entryId);
      expect((await t.lastMessageTo(email)).subject).toMatch(/^Confirm your place on the waiting list/);
      const wrong = await t.call(confirmWaitlistEntry, { entryId: link.entryId, token: link.token.replace(/^./, 'x') });
      expect(wrong.body.error.status).toBe('not-found');
      expect((await t.call(confirmWaitlistEntry, link)).body.result).toEqual({ status: 'waiting', position: 1 });
      expect((await t.call(confirmWaitlistEntry, link)).body.result).toEqual({ status: 'waiting', position: 1 });
      await expect.poll(() => list.rows().map((row) => [row.name, row.status])).toEqual([['Gwen Guest', 'waiting']]);

      const mine = await watch(url, 'waitlist.guestEntry', link);
      try {
        expect(mine.rows()).toMatchObject([{ status: 'waiting', position: 1, ticketTypeName: 'Standing', offer: null }]);
        await t.call(
          refundOrder,
          { orderId: sold.body.result.orderId, reason: 'Cannot come', idempotencyKey: randomUUID() },
          owner.cookie,
        );
        await expect.poll(() => mine.rows()[0]?.status).toBe('offered');
        const offer = mine.rows()[0]!.offer;
        expect(offer).toMatchObject({ quantity: 1, total: 0, accessToken: expect.any(String) });
        const [held] = await t.db.select().from(order).where(eq(order.id, offer.orderId));
        expect(held).toMatchObject({ status: 'pending', buyerId: null, email, buyerName: 'Gwen Guest' });
        // The offer's email opens the order by its token.
        await t.settleJobs();
        const offerMail = await t.lastMessageTo(email);
        expect(offerMail.subject).toMatch(/^Places came free for /);
        expect(offerMail.text).toContain(`/orders/${offer.orderId}?token=${offer.accessToken}`);

        // Someone without the token cannot take it; Gwen can.
        expect((await t.call(acceptWaitlistOffer, { entryId: link.entryId })).body.error.status).toBe('unauthenticated');
        expect((await t.call(acceptWaitlistOffer, link)).body.result).toEqual({ orderId: offer.orderId, status: 'paid' });
        await expect.poll(() => mine.rows()[0]?.status).toBe('accepted');
        // The order's link, opened later, finds it done.
        expect((await t.call(confirmGuestOrder, { orderId: offer.orderId, accessToken: offer.accessToken })).body.result).toEqual(
          { status: 'paid' },
        );
      } finally {
        mine.close();
      }
    } finally {
      list.close();
    }
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });

  it('leaves by its link, confirmed or not', async () => {
    const owner = await t.signUp('Olga Organizer');
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 1 }] });
    const ticketTypeId = ticketTypeIds[0]!;
    await t.call(configureWaitlist, { eventId, enabled: true }, owner.cookie);
    await t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 1 }] }, owner.cookie);
    const email = `lee-${randomUUID().slice(0, 8)}@example.test`;
    await t.call(joinWaitlist, { eventId, ticketTypeId, quantity: 1, guest: { name: 'Lee Leaving', email } });
    const link = await entryLinkIn(email);
    await t.call(confirmWaitlistEntry, link);
    expect((await t.call(leaveWaitlist, link)).body.result).toEqual({ status: 'left' });
    const [entry] = await t.db.select().from(waitlistEntry).where(eq(waitlistEntry.id, link.entryId));
    expect(entry).toMatchObject({ status: 'left' });
    // Without a session or a token: sign in first.
    expect((await t.call(leaveWaitlist, { entryId: link.entryId })).body.error.status).toBe('unauthenticated');
    expect(await dataInvariantViolations(t.db)).toEqual([]);
  });
});
