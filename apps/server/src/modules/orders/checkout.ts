import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/database';
import type { PaymentIntentState, PaymentProvider } from '../../platform/payments/payment-provider';
import { event, ticketType } from '../events/schema';
import { recordActivity } from './order-activity';
import { newTicketCode } from './ticket-code';
import { order, orderLine, refund, ticket } from './schema';

type Order = typeof order.$inferSelect;

/** The change topics an order's state touches (counts, the organizer's list, the buyer's views). */
export function orderTopics(found: { id: string; eventId: string; buyerId: string | null }, organizationId?: string) {
  const topics = [`event:${found.eventId}`, `event:${found.eventId}:orders`, `order:${found.id}`];
  if (found.buyerId) topics.push(`user:${found.buyerId}:tickets`);
  if (organizationId) topics.push(`org:${organizationId}:events`);
  return topics;
}

async function linesOf(tx: Tx | Db, orderId: string) {
  return tx.select().from(orderLine).where(eq(orderLine.orderId, orderId)).orderBy(asc(orderLine.ticketTypeId));
}

/**
 * Moves an order's places between `held` and `sold` (or gives them back) on the event row and on
 * each ticket type, in the same lock order as orders.create (event first, types by id).
 */
async function shiftCapacity(tx: Tx, found: Order, change: { held: number; sold: number }) {
  const lines = await linesOf(tx, found.id);
  const quantity = lines.reduce((sum, line) => sum + line.quantity, 0);
  await tx
    .update(event)
    .set({ held: sql`${event.held} + ${change.held * quantity}`, sold: sql`${event.sold} + ${change.sold * quantity}` })
    .where(eq(event.id, found.eventId));
  for (const line of lines) {
    await tx
      .update(ticketType)
      .set({
        held: sql`${ticketType.held} + ${change.held * line.quantity}`,
        sold: sql`${ticketType.sold} + ${change.sold * line.quantity}`,
      })
      .where(eq(ticketType.id, line.ticketTypeId));
  }
  return lines;
}

/**
 * Takes places again for an order whose hold has gone (its payment came late): only if they are
 * still free, with the same conditional updates as orders.create. False when any is gone.
 */
async function retakeCapacity(tx: Tx, found: Order): Promise<boolean> {
  const lines = await linesOf(tx, found.id);
  const quantity = lines.reduce((sum, line) => sum + line.quantity, 0);
  const onEvent = await tx
    .update(event)
    .set({ sold: sql`${event.sold} + ${quantity}` })
    .where(and(eq(event.id, found.eventId), sql`${event.sold} + ${event.held} + ${quantity} <= ${event.capacity}`))
    .returning({ id: event.id });
  if (onEvent.length === 0) return false;
  for (const line of lines) {
    const taken = await tx
      .update(ticketType)
      .set({ sold: sql`${ticketType.sold} + ${line.quantity}` })
      .where(
        and(
          eq(ticketType.id, line.ticketTypeId),
          sql`${ticketType.sold} + ${ticketType.held} + ${line.quantity} <= ${ticketType.capacity}`,
        ),
      )
      .returning({ id: ticketType.id });
    // Throwing rolls back the event's update too; the caller turns it into a refund.
    if (taken.length === 0) throw new PlacesGone();
  }
  return true;
}

class PlacesGone extends Error {}

const lateRefundReason = 'The payment came after the hold had ended and the tickets were gone';
/** One refund per late order, whoever sends it (webhook, return page, a retry after a crash). */
const lateRefundKey = (orderId: string) => `late-${orderId}`;

async function issueTickets(tx: Tx, found: Order) {
  const lines = await linesOf(tx, found.id);
  const [signing] = await tx.select({ checkinKey: event.checkinKey }).from(event).where(eq(event.id, found.eventId));
  await tx.insert(ticket).values(
    lines.flatMap((line) =>
      Array.from({ length: line.quantity }, () => ({
        id: randomUUID(),
        orderId: found.id,
        ticketTypeId: line.ticketTypeId,
        eventId: found.eventId,
        code: newTicketCode(signing!.checkinKey),
        holderName: found.buyerName,
        holderEmail: found.email,
      })),
    ),
  );
}

/**
 * Ends the holds of pending orders whose time is up (all events, or one): each order once, by a
 * conditional update on its status, so the sweeper, a read and a late payment never release twice.
 * Returns the orders it expired.
 */
export async function releaseExpiredHolds(db: Db, eventId?: string): Promise<Order[]> {
  const due = await db
    .select({ id: order.id })
    .from(order)
    .where(
      and(eq(order.status, 'pending'), lt(order.holdExpiresAt, new Date()), eventId ? eq(order.eventId, eventId) : undefined),
    )
    .limit(500);
  const expired: Order[] = [];
  for (const { id } of due) {
    const released = await releaseHold(db, id, 'expired', { onlyIfDue: true });
    if (released) expired.push(released);
  }
  return expired;
}

/** Releases one pending order's hold (expired, or cancelled by the buyer); null if it was not pending. */
export async function releaseHold(
  db: Db,
  orderId: string,
  status: 'expired' | 'cancelled',
  options: { onlyIfDue?: boolean } = {},
): Promise<Order | null> {
  return db.transaction(async (tx) => {
    const [released] = await tx
      .update(order)
      .set({ status })
      .where(
        and(
          eq(order.id, orderId),
          eq(order.status, 'pending'),
          options.onlyIfDue ? lt(order.holdExpiresAt, new Date()) : undefined,
        ),
      )
      .returning();
    if (!released) return null;
    await shiftCapacity(tx, released, { held: -1, sold: 0 });
    await recordActivity(tx, released.id, status);
    return released;
  });
}

export type Settlement =
  | { outcome: 'paid'; order: Order }
  | { outcome: 'already-settled'; order: Order }
  | { outcome: 'not-succeeded'; order: Order }
  | { outcome: 'refunded-late'; order: Order }
  | { outcome: 'mismatch'; order: Order };

/**
 * Completes an order from its payment as the provider reports it (from the webhook or from the
 * return page; either may come first, both may come twice). The order row is locked, so one
 * settles it and the others see it settled. A payment that arrives after its hold ended is honoured
 * when the places are still free, otherwise refunded in full and the order cancelled.
 */
export async function settlePayment(db: Db, payments: PaymentProvider, orderId: string, payment: PaymentIntentState) {
  const settlement = await db.transaction(async (tx): Promise<Settlement> => {
    const [found] = await tx.select().from(order).where(eq(order.id, orderId)).for('update');
    if (!found) throw new Error(`No order ${orderId}`);
    if (!['pending', 'expired', 'cancelled'].includes(found.status) || found.refundedAmount > 0)
      return { outcome: 'already-settled', order: found };
    if (payment.status !== 'succeeded') return { outcome: 'not-succeeded', order: found };
    if (payment.amount !== found.total || payment.currency.toLowerCase() !== found.currency.toLowerCase())
      return { outcome: 'mismatch', order: found };

    if (found.status === 'pending') {
      await shiftCapacity(tx, found, { held: -1, sold: 1 });
    } else {
      const retaken = await tx
        .transaction(async (savepoint) => retakeCapacity(savepoint, found))
        .catch((error: unknown) => {
          if (error instanceof PlacesGone) return false;
          throw error;
        });
      if (!retaken) {
        const [cancelled] = await tx
          .update(order)
          .set({ status: 'cancelled', refundedAmount: found.total })
          .where(eq(order.id, found.id))
          .returning();
        await tx.insert(refund).values({
          id: randomUUID(),
          orderId: found.id,
          amount: found.total,
          reason: lateRefundReason,
          status: 'pending',
          idempotencyKey: lateRefundKey(found.id),
        });
        await recordActivity(tx, found.id, 'late_payment_refunded', { amount: found.total, paymentRef: payment.ref });
        return { outcome: 'refunded-late', order: cancelled! };
      }
    }
    const [paid] = await tx
      .update(order)
      .set({ status: 'paid', paymentRef: payment.ref })
      .where(eq(order.id, found.id))
      .returning();
    await issueTickets(tx, paid!);
    await recordActivity(tx, found.id, 'paid', {
      amount: payment.amount,
      paymentRef: payment.ref,
      late: found.status !== 'pending',
    });
    return { outcome: 'paid', order: paid! };
  });
  // Recorded first (the refund row, in the transaction), then asked of the provider with one key
  // per order: a retry after a crash between the two sends the same refund, never a second one.
  if (settlement.outcome === 'refunded-late' || settlement.outcome === 'already-settled') {
    const key = lateRefundKey(settlement.order.id);
    const [unsent] = await db
      .select()
      .from(refund)
      .where(and(eq(refund.idempotencyKey, key), isNull(refund.providerRef)));
    if (unsent) {
      const given = await payments.refund({
        paymentRef: payment.ref,
        amount: unsent.amount,
        idempotencyKey: key,
        reason: unsent.reason,
      });
      await db.update(refund).set({ status: given.status, providerRef: given.ref }).where(eq(refund.id, unsent.id));
    }
  }
  return settlement;
}
