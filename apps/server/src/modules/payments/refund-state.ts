import type { OrderStatus } from '@admit/shared/orders';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import type { RefundResult } from '../../platform/payments/payment-provider';
import { releasePlaces, tryTakePlaces, type PlaceLine } from '../events/events.api';
import { type Order, recordActivity } from '../orders/orders.api';
import { ticket } from '../tickets/schema';
import { revalidateTickets, voidTickets } from '../tickets/tickets.api';
import { isCodeLimit, takeCodeUses } from '../codes/codes.api';
import { order, orderLine } from '../orders/schema';
import { refund } from './schema';

// What admin refunds (refund-order.ts) and the provider's refunds (reconcile-refunds.ts) share:
// the state of a refund and of its order, and what a refund does to tickets and places.

export type Refund = typeof refund.$inferSelect;
export type RefundStatus = Refund['status'];

/** The reason recorded for a refund that was made at the provider (Stripe's dashboard), not in Admit. */
export const providerRefundReason = 'Refunded in Stripe';

/** Failed and canceled refunds gave nothing back. */
export const gaveMoneyBack = (status: RefundStatus) => status !== 'failed' && status !== 'canceled';
export const isFinal = (status: RefundStatus) => status === 'succeeded' || status === 'failed' || status === 'canceled';
/** The statuses an order with tickets can have; refunds move it between these. */
export const ticketedStatuses: readonly OrderStatus[] = ['paid', 'partially_refunded', 'refunded'];

/** The order, locked until the transaction ends: refunds of one order happen one at a time. */
export async function lockOrder(tx: Tx, orderId: string): Promise<Order> {
  const [found] = await tx.select().from(order).where(eq(order.id, orderId)).for('update');
  if (!found) throw new CallableError('not-found', 'No such order');
  return found;
}

/**
 * What an order with tickets is after refunds: refunded when no ticket is left valid, partly
 * refunded when money went back or a ticket was voided, otherwise still paid.
 */
export function statusAfterRefunds(validTickets: number, refundedAmount: number, someVoid: boolean): OrderStatus {
  if (validTickets === 0) return 'refunded';
  if (refundedAmount > 0 || someVoid) return 'partially_refunded';
  return 'paid';
}

/** The order's status from its tickets and what was refunded (for an order that has tickets). */
export async function statusOf(tx: Tx, orderId: string, refundedAmount: number): Promise<OrderStatus> {
  // A ticket sent on counts once: the void one its transfer replaced is not a refund (decision 0065).
  const tickets = await tx
    .select({ status: ticket.status })
    .from(ticket)
    .where(and(eq(ticket.orderId, orderId), isNull(ticket.replacedBy)));
  const validTickets = tickets.filter((one) => one.status === 'valid').length;
  return statusAfterRefunds(validTickets, refundedAmount, validTickets < tickets.length);
}

/**
 * Takes the provider's id and status for one of our refunds; a final status is never moved back to
 * a non-final one (an older answer arriving late). Adds a timeline line when the outcome changes.
 * True when anything changed.
 */
export async function applyProviderState(tx: Tx, row: Refund, given: RefundResult): Promise<boolean> {
  const status = isFinal(row.status) && !isFinal(given.status) ? row.status : given.status;
  if (row.providerRef === given.ref && row.status === status) return false;
  await tx.update(refund).set({ providerRef: given.ref, status }).where(eq(refund.id, row.id));
  if (status !== row.status) await recordOutcome(tx, row.orderId, { ...row, status });
  return true;
}

async function recordOutcome(tx: Tx, orderId: string, row: Pick<Refund, 'id' | 'amount' | 'status'>) {
  if (row.status === 'succeeded') await recordActivity(tx, orderId, 'refund_succeeded', { amount: row.amount, refundId: row.id });
  else if (!gaveMoneyBack(row.status))
    await recordActivity(tx, orderId, 'refund_failed', { amount: row.amount, refundId: row.id, providerStatus: row.status });
}

/** The places of some tickets: how many of each ticket type. */
function placesOfTickets(tickets: readonly { ticketTypeId: string }[]): PlaceLine[] {
  const counts = new Map<string, number>();
  for (const one of tickets) counts.set(one.ticketTypeId, (counts.get(one.ticketTypeId) ?? 0) + 1);
  return [...counts].map(([ticketTypeId, quantity]) => ({ ticketTypeId, quantity }));
}

/** Voids valid tickets of a refunded order and gives their places back to everyone. */
export async function voidRefundedTickets(tx: Tx, eventId: string, tickets: readonly { id: string; ticketTypeId: string }[]) {
  if (tickets.length === 0) return;
  await voidTickets(
    tx,
    tickets.map((one) => one.id),
  );
  await releasePlaces(tx, { eventId, lines: placesOfTickets(tickets), from: 'sold' });
}

/**
 * Makes a refused refund's tickets valid again, taking their places back only if they are still
 * free, and their code's uses only if its limits have room (decision 0047). False, with nothing
 * changed, when any is gone.
 */
export async function restoreRefundedTickets(tx: Tx, eventId: string, ticketIds: readonly string[]): Promise<boolean> {
  if (ticketIds.length === 0) return true;
  const tickets = await tx
    .select({
      id: ticket.id,
      ticketTypeId: ticket.ticketTypeId,
      codeId: orderLine.codeId,
      buyerId: order.buyerId,
      email: order.email,
    })
    .from(ticket)
    .innerJoin(order, eq(order.id, ticket.orderId))
    .innerJoin(orderLine, and(eq(orderLine.orderId, ticket.orderId), eq(orderLine.ticketTypeId, ticket.ticketTypeId)))
    .where(and(inArray(ticket.id, [...ticketIds]), eq(ticket.status, 'void')));
  const taken = await tx
    .transaction(async (savepoint) => {
      if (!(await tryTakePlaces(savepoint, { eventId, lines: placesOfTickets(tickets), as: 'sold' }))) return false;
      const perCode = new Map<string, number>();
      for (const one of tickets) if (one.codeId) perCode.set(one.codeId, (perCode.get(one.codeId) ?? 0) + 1);
      for (const [codeId, quantity] of perCode)
        await takeCodeUses(savepoint, {
          codeId,
          buyer: { id: tickets[0]!.buyerId, email: tickets[0]!.email },
          quantity,
          as: 'again',
        });
      return true;
    })
    .catch((error: unknown) => {
      if (isCodeLimit(error)) return false;
      throw error;
    });
  if (!taken) return false;
  await revalidateTickets(
    tx,
    tickets.map((one) => one.id),
  );
  return true;
}
