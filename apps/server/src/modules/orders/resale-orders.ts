import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database';
import type { JobSender } from '../../platform/jobs/job-queue';
import { SoldOut, sellHeldPlaces } from '../events/events.api';
import { holdListings, issueTickets, sellListings, ticketTopic, type SoldListing } from '../tickets/tickets.api';
import { expireHoldJob } from './holds';
import { recordActivity } from './order-activity';
import { answersOf, placesOf, type Order } from './order-places';
import { emitOrderWebhook } from './order-resource';
import { ticket } from '../tickets/schema';
import { order, orderLine, ordersOf } from './schema';
import { orderTopics } from './topics';

// The orders side of resale at face value (decision 0066): a buyer's order of tickets offered back
// is a hold of those tickets (one line, at the price their sellers paid), paid or accepted as any
// hold. When it completes, each seller's ticket is issued anew to the buyer; the payments module
// then refunds each seller. Ended unpaid, its tickets are offered again.

export interface ResaleHold {
  event: { id: string; organizationId: string; currency: string };
  ticketTypeId: string;
  quantity: number;
  person: { id: string | null; name: string; email: string };
  locale: string | null;
  expiresAt: Date;
  /** Where the buyer came from: the public page, or their turn on the waiting list. */
  source: 'resale' | 'waitlist';
  idempotencyKey?: string | null;
}

/**
 * Holds `quantity` tickets of a type offered back (the oldest offers, at one price) for a buyer, in
 * the caller's transaction: a pending order, its end enqueued. A seller never buys their own
 * ticket back. Throws SoldOut (the caller's transaction rolls back) when too few are offered.
 */
export async function holdResale(tx: Tx, jobs: JobSender, hold: ResaleHold): Promise<{ orderId: string; total: number }> {
  const orderId = randomUUID();
  await tx.insert(order).values({
    id: orderId,
    eventId: hold.event.id,
    buyerId: hold.person.id,
    buyerName: hold.person.name,
    email: hold.person.email,
    status: 'pending',
    total: 0,
    currency: hold.event.currency,
    holdExpiresAt: hold.expiresAt,
    locale: hold.locale,
    idempotencyKey: hold.idempotencyKey ?? null,
  });
  const own = await tx
    .select({ id: order.id })
    .from(order)
    .where(and(eq(order.eventId, hold.event.id), ordersOf(hold.person)));
  const taken = await holdListings(tx, {
    ticketTypeId: hold.ticketTypeId,
    quantity: hold.quantity,
    saleOrderId: orderId,
    notOfOrders: own.map((one) => one.id),
  });
  if (!taken) throw new SoldOut({ requested: hold.quantity, remaining: 0 });
  const total = taken.price * hold.quantity;
  await tx.update(order).set({ total }).where(eq(order.id, orderId));
  await tx.insert(orderLine).values({
    id: randomUUID(),
    orderId,
    ticketTypeId: hold.ticketTypeId,
    quantity: hold.quantity,
    unitPrice: taken.price,
    resale: true,
  });
  await recordActivity(tx, orderId, 'created', { total, tickets: hold.quantity, source: hold.source });
  await emitOrderWebhook(tx, { organizationId: hold.event.organizationId, orderId, type: 'order.created' });
  await jobs.enqueue(tx, expireHoldJob, { orderId }, { startAfter: hold.expiresAt });
  return { orderId, total };
}

/** How many tickets offered back an order buys (0: an order of the event's own places). */
export async function resaleQuantityOf(tx: Tx, orderId: string): Promise<number> {
  const [line] = await tx
    .select({ quantity: orderLine.quantity })
    .from(orderLine)
    .where(and(eq(orderLine.orderId, orderId), eq(orderLine.resale, true)));
  return line?.quantity ?? 0;
}

/**
 * A pending hold completes (paid, or accepted when free), in the caller's transaction, which locked
 * the order: its places go from held to sold and its tickets are issued, or, for tickets offered
 * back, each seller's ticket is issued anew to the buyer (sellListings). Null, with nothing changed,
 * when a ticket offered back went meanwhile (its seller was refunded): the caller gives up the sale.
 * Returns the listings sold, whose sellers are owed their refunds.
 */
export async function completeHold(
  tx: Tx,
  found: Order,
  signing: { id: string; checkinKey: string },
): Promise<SoldListing[] | null> {
  if ((await resaleQuantityOf(tx, found.id)) > 0) {
    const sold = await sellListings(tx, {
      saleOrderId: found.id,
      event: signing,
      holder: { name: found.buyerName, email: found.email },
    });
    for (const one of sold ?? []) {
      await recordActivity(tx, one.orderId, 'ticket_resold', {
        ticket: one.ticketId.slice(0, 8),
        price: one.price,
        fee: one.fee,
        payout: one.price - one.fee,
      });
      // A seller left with no ticket has given its order back (the payments module refunds its money).
      const [left] = await tx
        .select({ count: sql<number>`count(*)::int` })
        .from(ticket)
        .where(and(eq(ticket.orderId, one.orderId), eq(ticket.status, 'valid')));
      if (Number(left?.count ?? 0) === 0) await tx.update(order).set({ status: 'refunded' }).where(eq(order.id, one.orderId));
    }
    return sold;
  }
  const lines = await placesOf(tx, found.id);
  await sellHeldPlaces(tx, { eventId: found.eventId, lines });
  await issueOrderTickets(tx, found, signing);
  return [];
}

/** Issues the tickets of an order's places, each with the answers given for its place when it was made. */
export async function issueOrderTickets(tx: Tx, found: Order, signing: { id: string; checkinKey: string }): Promise<void> {
  const lines = await placesOf(tx, found.id);
  const answers = await answersOf(tx, found.id);
  await issueTickets(tx, {
    orderId: found.id,
    event: signing,
    tickets: lines.map((line) => ({
      ...line,
      holderName: found.buyerName,
      holderEmail: found.email,
      answers: answers.get(line.ticketTypeId),
    })),
  });
}

/** The topics a sale changes for its sellers: their orders (and My tickets), and their old tickets' pages. */
export function sellersTopics(sold: readonly SoldListing[]): string[] {
  return sold.flatMap((one) => [
    ...orderTopics({ id: one.orderId, eventId: one.eventId, buyerId: one.sellerId }),
    ticketTopic(one.ticketId),
  ]);
}
