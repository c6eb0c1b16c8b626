import { randomUUID } from 'node:crypto';
import { scanTicket } from '@admit/shared/checkin';
import { createOrder, refundOrder } from '@admit/shared/orders';
import { configureTransfers, resellTicket, transferTicket, withdrawResale } from '@admit/shared/transfers';
import { configureWaitlist, joinWaitlist } from '@admit/shared/waitlist';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ticketType } from '../events/schema';
import { order, orderActivity } from '../orders/schema';
import { refund } from '../payments/schema';
import { waitlistEntry } from '../waitlist/schema';
import { createPublishedEvent, payWithTestCard } from '../../testing/fixtures';
import { dataInvariantViolations } from '../../testing/invariants';
import { watch } from '../../testing/live-watch';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { ticket, ticketResale } from './schema';

// Resale at face value (decision 0066): a holder offers a ticket back; once its type's own places
// are gone, the next person waiting or buying pays what the seller paid, the ticket is issued anew to
// them, and the seller is refunded the price less the organizer's fee.

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

/** A paid event (€15.00 a ticket, a €2.00 resale fee) whose only two places a seller bought. */
async function soldOutEvent(options: { waitlist?: boolean } = {}) {
  const owner = await t.signUp('Olga Organizer');
  const { eventId, slug, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
    ticketTypes: [{ name: 'Standing', capacity: 2, price: 1500 }],
  });
  const ticketTypeId = ticketTypeIds[0]!;
  await t.call(configureTransfers, { eventId, enabled: true, resaleEnabled: true, resaleFee: 200 }, owner.cookie);
  if (options.waitlist) await t.call(configureWaitlist, { eventId, enabled: true }, owner.cookie);
  const seller = await t.signUp('Sam Seller');
  const placed = await t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 2 }] }, seller.cookie);
  const orderId = placed.body.result.orderId as string;
  expect(await payWithTestCard(t, seller.cookie, orderId)).toBe('paid');
  const [first] = await t.db.select().from(ticket).where(eq(ticket.orderId, orderId)).orderBy(ticket.createdAt);
  return { owner, seller, eventId, slug, ticketTypeId, orderId, ticket: first! };
}

const resell = (ticketId: string, cookie: string, fee = 200) => t.call(resellTicket, { ticketId, fee }, cookie);
const buyOne = (eventId: string, ticketTypeId: string, cookie: string) =>
  t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 1 }] }, cookie);
const listingOf = async (ticketId: string) =>
  (await t.db.select().from(ticketResale).where(eq(ticketResale.ticketId, ticketId)).orderBy(ticketResale.listedAt)).at(-1);

describe('offering a ticket back', () => {
  it('sells it to the next buyer at the price paid once sold out, voids the old code and refunds the seller less the fee', async () => {
    const { owner, seller, eventId, slug, ticketTypeId, orderId, ticket: sold } = await soldOutEvent();
    const mine = await watch(url, 'tickets.mine', {}, seller.cookie);
    const shop = await watch(url, 'events.availability', { eventId });
    const page = await watch(url, 'events.public', { slug });
    try {
      await expect
        .poll(() => mine.rows().find((row) => row.id === sold.id)?.resaleTerms)
        .toEqual({ price: 1500, fee: 200, payout: 1300, currency: 'EUR' });
      // Offered on terms the holder was not shown: refused with the fee that applies.
      const stale = await resell(sold.id, seller.cookie, 0);
      expect(stale.body.error).toMatchObject({
        status: 'failed-precondition',
        details: { reason: 'resale-fee-changed', fee: 200 },
      });
      const listed = await resell(sold.id, seller.cookie);
      expect(listed.status, JSON.stringify(listed.body)).toBe(200);
      await expect
        .poll(() => mine.rows().find((row) => row.id === sold.id)?.resale)
        .toMatchObject({ status: 'listed', payout: 1300 });
      await expect.poll(() => shop.rows()[0]).toMatchObject({ remaining: 0, resale: 1, resalePrice: 1500 });
      // Not sold out while a ticket is offered back.
      await expect.poll(() => page.rows()[0]).toMatchObject({ remaining: 0, resale: 1 });
      // Offered twice, or sent on while offered: refused. It stays valid at the door until it sells.
      expect((await resell(sold.id, seller.cookie)).body.error.details.reason).toBe('ticket-not-resellable');
      const sent = await t.call(transferTicket, { ticketId: sold.id, email: 'friend@example.test' }, seller.cookie);
      expect(sent.body.error.details.reason).toBe('ticket-not-transferable');

      const buyer = await t.signUp('Bo Buyer');
      const placed = await buyOne(eventId, ticketTypeId, buyer.cookie);
      expect(placed.body.result, JSON.stringify(placed.body)).toMatchObject({ status: 'pending', total: 1500 });
      await expect.poll(() => mine.rows().find((row) => row.id === sold.id)?.resale?.status).toBe('held');
      expect((await t.call(withdrawResale, { ticketId: sold.id }, seller.cookie)).body.error.details.reason).toBe('resale-held');
      expect(await payWithTestCard(t, buyer.cookie, placed.body.result.orderId)).toBe('paid');

      const [old] = await t.db.select().from(ticket).where(eq(ticket.id, sold.id));
      const [issued] = await t.db.select().from(ticket).where(eq(ticket.orderId, placed.body.result.orderId));
      expect(old).toMatchObject({ status: 'void', replacedBy: issued!.id });
      expect(issued).toMatchObject({ status: 'valid', holderName: 'Bo Buyer', ticketTypeId, transferredFrom: null });
      expect(issued!.code).not.toBe(old!.code);
      expect(await listingOf(sold.id)).toMatchObject({
        status: 'sold',
        newTicketId: issued!.id,
        saleOrderId: placed.body.result.orderId,
      });
      // The places did not move: one ticket went, one came.
      const [type] = await t.db.select().from(ticketType).where(eq(ticketType.id, ticketTypeId));
      expect(type).toMatchObject({ sold: 2, held: 0, resaleListed: 0 });

      await t.settleJobs();
      const [sellerOrder] = await t.db.select().from(order).where(eq(order.id, orderId));
      expect(sellerOrder).toMatchObject({ status: 'partially_refunded', refundedAmount: 1300 });
      const refunds = await t.db.select().from(refund).where(eq(refund.orderId, orderId));
      expect(refunds).toMatchObject([
        { amount: 1300, status: 'succeeded', idempotencyKey: `resale-${(await listingOf(sold.id))!.id}` },
      ]);
      expect((await t.lastMessageTo(seller.user.email)).text).toMatch(/13\.00/);
      const timeline = await t.db.select().from(orderActivity).where(eq(orderActivity.orderId, orderId));
      expect(timeline.map((line) => line.kind)).toEqual(
        expect.arrayContaining(['resale_listed', 'ticket_resold', 'refund_requested']),
      );
      await expect.poll(() => mine.rows().map((row) => row.id)).not.toContain(sold.id);
      const sellersOrder = await watch(url, 'orders.mine', { orderId }, seller.cookie);
      await expect
        .poll(() => sellersOrder.rows()[0]?.resold)
        .toEqual([{ ticketTypeId, payout: 1300, soldAt: expect.any(String) }]);
      sellersOrder.close();

      const scanned = async (code: string) =>
        (
          await t.call(
            scanTicket,
            { eventId, code, device: 'Door 1', scannedAt: new Date().toISOString(), idempotencyKey: randomUUID() },
            owner.cookie,
          )
        ).body.result.result;
      expect(await scanned(old!.code)).toBe('void');
      expect(await scanned(issued!.code)).toBe('accepted');
    } finally {
      mine.close();
      shop.close();
      page.close();
    }
  });

  it('is taken back while nobody buys it; a hold that ends offers it again; the public buys it only when sold out', async () => {
    const { seller, eventId, ticketTypeId, ticket: sold } = await soldOutEvent();
    expect((await resell(sold.id, seller.cookie)).status).toBe(200);
    expect((await t.call(withdrawResale, { ticketId: sold.id }, seller.cookie)).body.result).toEqual({ status: 'withdrawn' });
    const buyer = await t.signUp('Bo Buyer');
    expect((await buyOne(eventId, ticketTypeId, buyer.cookie)).body.error.status).toBe('resource-exhausted');

    expect((await resell(sold.id, seller.cookie)).status).toBe(200);
    const held = await buyOne(eventId, ticketTypeId, buyer.cookie);
    const heldId = held.body.result.orderId as string;
    // Its hold ends unpaid: the ticket is offered again, and still its seller's.
    await t.db
      .update(order)
      .set({ holdExpiresAt: new Date(Date.now() - 1_000) })
      .where(eq(order.id, heldId));
    const again = await buyOne(eventId, ticketTypeId, (await t.signUp('Cleo Second')).cookie);
    expect(again.body.result, JSON.stringify(again.body)).toMatchObject({ status: 'pending', total: 1500 });
    const [ended] = await t.db.select().from(order).where(eq(order.id, heldId));
    expect(ended!.status).toBe('expired');
    expect(await listingOf(sold.id)).toMatchObject({ status: 'held', saleOrderId: again.body.result.orderId });
    // A seller does not buy their own ticket back.
    await t.db
      .update(order)
      .set({ holdExpiresAt: new Date(Date.now() - 1_000) })
      .where(eq(order.id, again.body.result.orderId));
    expect((await buyOne(eventId, ticketTypeId, seller.cookie)).body.error.status).toBe('resource-exhausted');
    expect((await t.db.select().from(ticket).where(eq(ticket.id, sold.id)))[0]!.status).toBe('valid');
  });

  it('ends when its ticket is refunded, and a buyer who pays for it then is refunded in full', async () => {
    const { owner, seller, eventId, ticketTypeId, orderId, ticket: sold } = await soldOutEvent();
    expect((await resell(sold.id, seller.cookie)).status).toBe(200);
    const buyer = await t.signUp('Bo Buyer');
    const held = await buyOne(eventId, ticketTypeId, buyer.cookie);
    const refunded = await t.call(
      refundOrder,
      { orderId, ticketIds: [sold.id], reason: 'Cannot come', idempotencyKey: randomUUID() },
      owner.cookie,
    );
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    expect(await listingOf(sold.id)).toMatchObject({ status: 'ended' });
    expect(await payWithTestCard(t, buyer.cookie, held.body.result.orderId)).toBe('cancelled');
    const [buyerOrder] = await t.db.select().from(order).where(eq(order.id, held.body.result.orderId));
    expect(buyerOrder).toMatchObject({ status: 'cancelled', refundedAmount: 1500 });
    expect(await t.db.select().from(ticket).where(eq(ticket.orderId, held.body.result.orderId))).toEqual([]);
  });

  it('goes to the waiting list first, as an offer at the price its seller paid', async () => {
    const { seller, eventId, ticketTypeId, ticket: sold } = await soldOutEvent({ waitlist: true });
    const waiting = await t.signUp('Wanda Waiting');
    expect((await t.call(joinWaitlist, { eventId, ticketTypeId, quantity: 1 }, waiting.cookie)).status).toBe(200);
    expect((await resell(sold.id, seller.cookie)).status).toBe(200);
    await t.settleJobs();
    const [entry] = await t.db
      .select()
      .from(waitlistEntry)
      .where(and(eq(waitlistEntry.eventId, eventId), eq(waitlistEntry.personId, waiting.user.id)));
    expect(entry).toMatchObject({ status: 'offered', offeredQuantity: 1 });
    const [offer] = await t.db.select().from(order).where(eq(order.id, entry!.offerOrderId!));
    expect(offer).toMatchObject({ status: 'pending', total: 1500 });
    expect((await t.lastMessageTo(waiting.user.email)).subject).toMatch(/^Places came free/);
    expect(await payWithTestCard(t, waiting.cookie, offer!.id)).toBe('paid');
    expect(await listingOf(sold.id)).toMatchObject({ status: 'sold', saleOrderId: offer!.id });
  });

  it('is closed unless the organizer turned it on, and refused to anyone but the ticket’s buyer', async () => {
    const { owner, seller, eventId, ticket: sold } = await soldOutEvent();
    const stranger = await t.signUp('Stella Stranger');
    expect((await resell(sold.id, stranger.cookie)).body.error.status).toBe('not-found');
    await t.call(configureTransfers, { eventId, enabled: true, resaleEnabled: false }, owner.cookie);
    expect((await resell(sold.id, seller.cookie)).body.error.details.reason).toBe('resale-closed');
    expect((await t.call(resellTicket, { ticketId: sold.id, fee: -1 }, seller.cookie)).body.error.status).toBe(
      'invalid-argument',
    );
  });
});
