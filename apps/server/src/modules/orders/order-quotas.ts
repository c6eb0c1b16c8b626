import { and, eq, gt, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database';
import type { CallContext } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { consumeQuotas, quotaKey, type Quota } from '../../platform/quotas/call-quota';
import { ticket } from '../tickets/schema';
import { order, orderLine, ordersOf } from './schema';

// What one account may ask of orders.create (decision 0030), so that one buyer cannot hold
// an event's places or flood the server while others wait.

/**
 * Who orders: a signed-in person (`id`), or a guest (`id` null) known by the address they gave. A
 * person's limits count the orders guests made with their address too (decision 0060).
 */
export interface Buyer {
  id: string | null;
  name: string;
  email: string;
}

/**
 * The quotas an order attempt counts in: its account's (a guest's address, under the same limit)
 * and its client address's.
 */
export function orderAttemptQuotas(ctx: CallContext, buyer: Pick<Buyer, 'id' | 'email'>): Quota[] {
  const { ORDER_ATTEMPTS_WINDOW_SECONDS: windowSeconds, ORDER_ATTEMPTS_PER_ACCOUNT, ORDER_ATTEMPTS_PER_ADDRESS } = ctx.config;
  return [
    buyer.id
      ? { key: quotaKey('orders.create:account', buyer.id), limit: ORDER_ATTEMPTS_PER_ACCOUNT, windowSeconds }
      : { key: quotaKey('orders.create:email', buyer.email.toLowerCase()), limit: ORDER_ATTEMPTS_PER_ACCOUNT, windowSeconds },
    { key: quotaKey('orders.create:address', ctx.clientAddress), limit: ORDER_ATTEMPTS_PER_ADDRESS, windowSeconds },
  ];
}

/**
 * Counts an order attempt against the caller's account (or a guest's address) and client address;
 * refuses it when either has used up its window (ORDER_ATTEMPTS_*), saying how long to wait.
 */
export async function countOrderAttempt(ctx: CallContext, buyer: Pick<Buyer, 'id' | 'email'>): Promise<void> {
  const wait = await consumeQuotas(ctx.db, orderAttemptQuotas(ctx, buyer));
  if (wait !== null)
    throw new CallableError('resource-exhausted', `Too many orders; try again in ${wait} s`, {
      reason: 'too-many-orders',
      retryAfterSeconds: wait,
    });
}

/**
 * Refuses a pending order that would leave its buyer holding more than `limit` places of the event
 * in pending orders whose hold still runs. An order on its own may be as large as its ticket types
 * allow: the limit is on adding holds to holds. Called after the order's places were taken: that
 * update locked the event row, so the same buyer's orders arriving at once wait for each other
 * here and each counts the holds of those that committed before it.
 */
export async function requireHoldWithinLimit(
  tx: Tx,
  input: { buyer: Pick<Buyer, 'id' | 'email'>; eventId: string; quantity: number; limit: number },
): Promise<void> {
  const [row] = await tx
    .select({ held: sql<number>`coalesce(sum(${orderLine.quantity}), 0)::int` })
    .from(order)
    .innerJoin(orderLine, eq(orderLine.orderId, order.id))
    .where(
      and(
        ordersOf(input.buyer),
        eq(order.eventId, input.eventId),
        eq(order.status, 'pending'),
        gt(order.holdExpiresAt, sql`now()`),
      ),
    );
  const held = row?.held ?? 0;
  if (held > 0 && held + input.quantity > input.limit)
    throw new CallableError('resource-exhausted', `At most ${input.limit} places may be held at a time`, {
      reason: 'too-many-holds',
      limit: input.limit,
    });
}

/**
 * Refuses an order that would give its buyer more tickets than a limit per buyer allows: the
 * event's (all its types together) or a ticket type's. What counts: the buyer's valid tickets and
 * the places of their pending orders, before this order is written; a guest's and a person's
 * orders under the same address count together.
 * Called after the order's places were taken: that update locked the event's row and the types',
 * so the same buyer's orders arriving at once wait for each other, and these statements, begun
 * after the lock, see those that committed before. (A check inside the statement that takes the
 * places would read the buyer's orders as they were when it began, before it waited: decision 0046.)
 */
export async function requireWithinBuyerLimits(
  tx: Tx,
  input: {
    /** A guest's id is null; a late payment's order may have no email (then the id alone counts). */
    buyerId: string | null;
    email?: string;
    event: { id: string; maxPerBuyer: number | null };
    lines: readonly { ticketTypeId: string; quantity: number }[];
    types: ReadonlyMap<string, { id: string; maxPerBuyer: number | null }>;
  },
): Promise<void> {
  const limited = input.lines.filter((line) => input.types.get(line.ticketTypeId)?.maxPerBuyer != null);
  if (limited.length === 0 && input.event.maxPerBuyer === null) return;
  const theirs = input.email ? ordersOf({ id: input.buyerId, email: input.email }) : eq(order.buyerId, input.buyerId ?? '');
  const valid = await tx
    .select({ ticketTypeId: ticket.ticketTypeId, count: sql<number>`count(*)::int` })
    .from(ticket)
    .innerJoin(order, eq(order.id, ticket.orderId))
    .where(and(theirs, eq(order.eventId, input.event.id), eq(ticket.status, 'valid')))
    .groupBy(ticket.ticketTypeId);
  const held = await tx
    .select({ ticketTypeId: orderLine.ticketTypeId, count: sql<number>`sum(${orderLine.quantity})::int` })
    .from(orderLine)
    .innerJoin(order, eq(order.id, orderLine.orderId))
    .where(
      and(
        theirs,
        eq(order.eventId, input.event.id),
        // Also a hold that ended a moment ago and that its job has not released yet: it can still be paid.
        eq(order.status, 'pending'),
      ),
    )
    .groupBy(orderLine.ticketTypeId);
  const haveOf = (id?: string) =>
    [...valid, ...held]
      .filter((row) => id === undefined || row.ticketTypeId === id)
      .reduce((sum, row) => sum + Number(row.count), 0);
  const refuse = (limit: number, have: number, ticketTypeId: string | null) =>
    new CallableError('failed-precondition', `At most ${limit} tickets per buyer`, {
      reason: 'buyer-limit',
      ticketTypeId,
      limit,
      have,
    });
  if (input.event.maxPerBuyer !== null) {
    const have = haveOf();
    const quantity = input.lines.reduce((sum, line) => sum + line.quantity, 0);
    if (have + quantity > input.event.maxPerBuyer) throw refuse(input.event.maxPerBuyer, have, null);
  }
  for (const line of limited) {
    const limit = input.types.get(line.ticketTypeId)!.maxPerBuyer!;
    const have = haveOf(line.ticketTypeId);
    if (have + line.quantity > limit) throw refuse(limit, have, line.ticketTypeId);
  }
}
