import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database';
import { countResale, wakeWaitlist } from '../events/events.api';
import { order } from '../orders/schema';
import { ticketResale, ticket } from './schema';
import { newTicketCode } from './ticket-code';
import { emitTicketWebhook } from './ticket-resource';

// A ticket offered back, through its life (decision 0066): listed, held by a buyer's order, sold (the
// ticket issued anew to the buyer, the old one void) or given back to the list when that hold ends;
// withdrawn by its holder, or ended when the ticket became void another way. Each change is written
// here, once, with the type's count of listed tickets (`resale_listed`) in the same transaction.

export type Listing = typeof ticketResale.$inferSelect;

/** A sold listing: the seller's order and what it is owed (`price - fee`, refunded by the payments module). */
export interface SoldListing {
  resaleId: string;
  eventId: string;
  /** The seller's order (and its buyer, whose My tickets changes), and its ticket that turned void. */
  orderId: string;
  sellerId: string | null;
  ticketId: string;
  newTicketId: string;
  price: number;
  fee: number;
}

/**
 * Offers a valid ticket back, in the caller's transaction (which holds the ticket's row lock): it
 * is counted on its type, and the waiting list, if any, is woken to offer it.
 */
export async function listForResale(
  tx: Tx,
  input: { ticket: { id: string; eventId: string; ticketTypeId: string; orderId: string }; price: number; fee: number },
): Promise<string> {
  const id = randomUUID();
  await tx.insert(ticketResale).values({
    id,
    eventId: input.ticket.eventId,
    ticketTypeId: input.ticket.ticketTypeId,
    ticketId: input.ticket.id,
    orderId: input.ticket.orderId,
    price: input.price,
    fee: input.fee,
  });
  await countResale(tx, input.ticket.ticketTypeId, 1);
  await wakeWaitlist(tx, input.ticket.eventId);
  return id;
}

/** The ticket's open offer (listed or held), if any. */
export async function openListingOf(tx: Tx, ticketId: string): Promise<Listing | undefined> {
  const [found] = await tx
    .select()
    .from(ticketResale)
    .where(and(eq(ticketResale.ticketId, ticketId), inArray(ticketResale.status, ['listed', 'held'])));
  return found;
}

/** Takes a listed offer back (withdrawn by its holder); false when it is not listed (held by a buyer, or gone). */
export async function withdrawListing(tx: Tx, listing: Listing): Promise<boolean> {
  const [withdrawn] = await tx
    .update(ticketResale)
    .set({ status: 'withdrawn', endedAt: sql`now()` })
    .where(and(eq(ticketResale.id, listing.id), eq(ticketResale.status, 'listed')))
    .returning({ id: ticketResale.id });
  if (withdrawn) await countResale(tx, listing.ticketTypeId, -1);
  return withdrawn !== undefined;
}

/**
 * The listed tickets of a type a buyer's order takes (oldest offers first), all at one price: the
 * oldest offer's. Rows another transaction is taking are skipped, not waited for. Null, with
 * nothing taken, when fewer than `quantity` are listed at that price.
 */
export async function holdListings(
  tx: Tx,
  input: { ticketTypeId: string; quantity: number; saleOrderId: string; notOfOrders?: readonly string[] },
): Promise<{ price: number; listings: Listing[] } | null> {
  const listed = and(
    eq(ticketResale.ticketTypeId, input.ticketTypeId),
    eq(ticketResale.status, 'listed'),
    input.notOfOrders?.length ? notInArray(ticketResale.orderId, [...input.notOfOrders]) : undefined,
  );
  const inLine = [asc(ticketResale.listedAt), asc(ticketResale.id)];
  const [first] = await tx
    .select({ price: ticketResale.price })
    .from(ticketResale)
    .where(listed)
    .orderBy(...inLine)
    .limit(1);
  if (!first) return null;
  const rows = await tx
    .select({ id: ticketResale.id })
    .from(ticketResale)
    .where(and(listed, eq(ticketResale.price, first.price)))
    .orderBy(...inLine)
    .limit(input.quantity)
    .for('update', { skipLocked: true });
  if (rows.length < input.quantity) return null;
  const listings = await tx
    .update(ticketResale)
    .set({ status: 'held', saleOrderId: input.saleOrderId })
    .where(
      and(
        inArray(
          ticketResale.id,
          rows.map((row) => row.id),
        ),
        eq(ticketResale.status, 'listed'),
      ),
    )
    .returning();
  await countResale(tx, input.ticketTypeId, -listings.length);
  return { price: first.price, listings };
}

/**
 * A sale order's hold ended unpaid: its listings are listed again (first in line, as offered) and the
 * waiting list, if any, woken. Listings that ended meanwhile stay ended.
 */
export async function releaseListings(tx: Tx, saleOrderId: string): Promise<void> {
  const released = await tx
    .update(ticketResale)
    .set({ status: 'listed', saleOrderId: null })
    .where(and(eq(ticketResale.saleOrderId, saleOrderId), eq(ticketResale.status, 'held')))
    .returning();
  for (const listing of released) await countResale(tx, listing.ticketTypeId, 1);
  if (released[0]) await wakeWaitlist(tx, released[0].eventId);
}

/**
 * Whether a sale order still holds all the listings it bought. A hold that ended gave them back to
 * the list, to be bought by others: a payment that comes after it is refunded, never matched again.
 */
export async function keepListings(tx: Tx, saleOrderId: string, quantity: number): Promise<boolean> {
  const held = await tx
    .select({ id: ticketResale.id })
    .from(ticketResale)
    .where(and(eq(ticketResale.saleOrderId, saleOrderId), eq(ticketResale.status, 'held')));
  return held.length === quantity;
}

/**
 * Completes a sale order's listings, in the caller's transaction: each seller's ticket turns void,
 * replaced by a new ticket (a new code, the buyer's name) in the buyer's order, and the listing is
 * sold. The sellers' orders and tickets are locked first (as a refund locks them), then checked:
 * null, with nothing changed, when any is no longer held or valid.
 */
export async function sellListings(
  tx: Tx,
  input: { saleOrderId: string; event: { id: string; checkinKey: string }; holder: { name: string; email: string } },
): Promise<SoldListing[] | null> {
  // In the order a refund takes its locks (its order, then its tickets): the sellers' orders first.
  const sellers = tx
    .select({ id: ticketResale.orderId })
    .from(ticketResale)
    .where(and(eq(ticketResale.saleOrderId, input.saleOrderId), eq(ticketResale.status, 'held')));
  await tx.select({ id: order.id }).from(order).where(inArray(order.id, sellers)).orderBy(asc(order.id)).for('update');
  const ticketIds = tx
    .select({ id: ticketResale.ticketId })
    .from(ticketResale)
    .where(and(eq(ticketResale.saleOrderId, input.saleOrderId), eq(ticketResale.status, 'held')));
  const old = await tx.select().from(ticket).where(inArray(ticket.id, ticketIds)).orderBy(asc(ticket.id)).for('update');
  const listings = await tx
    .select({ listing: ticketResale, sellerId: order.buyerId })
    .from(ticketResale)
    .innerJoin(order, eq(order.id, ticketResale.orderId))
    .where(and(eq(ticketResale.saleOrderId, input.saleOrderId), eq(ticketResale.status, 'held')))
    .for('update', { of: ticketResale });
  const oldById = new Map(old.map((one) => [one.id, one]));
  if (listings.length === 0 || listings.some(({ listing }) => oldById.get(listing.ticketId)?.status !== 'valid')) return null;
  const sold: SoldListing[] = [];
  for (const { listing, sellerId } of listings) {
    const newTicketId = randomUUID();
    await tx.insert(ticket).values({
      id: newTicketId,
      orderId: input.saleOrderId,
      ticketTypeId: listing.ticketTypeId,
      eventId: listing.eventId,
      code: newTicketCode(input.event.checkinKey),
      holderName: input.holder.name,
      holderEmail: input.holder.email,
    });
    await tx.update(ticket).set({ status: 'void', replacedBy: newTicketId }).where(eq(ticket.id, listing.ticketId));
    await tx
      .update(ticketResale)
      .set({ status: 'sold', newTicketId, endedAt: sql`now()` })
      .where(eq(ticketResale.id, listing.id));
    await emitTicketWebhook(tx, { ticketId: listing.ticketId, type: 'ticket.resold' });
    const { id: resaleId, eventId, orderId, ticketId, price, fee } = listing;
    sold.push({ resaleId, eventId, orderId, sellerId, ticketId, newTicketId, price, fee });
  }
  return sold;
}

/**
 * Tickets that turned void another way (a refund, a cancelled event) end their offers: a listed one
 * leaves its type's count; a held one leaves its buyer's order unable to complete, which then
 * refunds the buyer's late payment as it does for places that went.
 */
export async function endListingsOf(tx: Tx, ticketIds: readonly string[]): Promise<void> {
  if (ticketIds.length === 0) return;
  const ended = await tx
    .update(ticketResale)
    .set({ status: 'ended', endedAt: sql`now()` })
    .where(and(inArray(ticketResale.ticketId, [...ticketIds]), inArray(ticketResale.status, ['listed', 'held'])))
    .returning();
  for (const listing of ended) if (listing.saleOrderId === null) await countResale(tx, listing.ticketTypeId, -1);
}
