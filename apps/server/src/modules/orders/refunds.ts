import { randomUUID } from 'node:crypto';
import type { OrderStatus } from '@admit/shared/orders';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import {
  PaymentProviderUnavailable,
  RefundRefused,
  type PaymentProvider,
  type RefundResult,
} from '../../platform/payments/payment-provider';
import { event, ticketType } from '../events/schema';
import { orderTopics } from './checkout';
import { recordActivity } from './order-activity';
import { order, orderLine, refund, ticket } from './schema';

// Refunds: an admin's (orders.refund) and those found at the provider (reconcileRefunds, called by
// the Stripe webhook). Decisions: docs/decisions/0021-refunds.md.

type Order = typeof order.$inferSelect;
type Refund = typeof refund.$inferSelect;
type RefundStatus = Refund['status'];

/** The reason recorded for a refund that was made at the provider (Stripe's dashboard), not in Admit. */
export const providerRefundReason = 'Refunded in Stripe';

/** Failed and canceled refunds gave nothing back. */
const gaveMoneyBack = (status: RefundStatus) => status !== 'failed' && status !== 'canceled';
const isFinal = (status: RefundStatus) => status === 'succeeded' || status === 'failed' || status === 'canceled';
/** The statuses an order with tickets can have; refunds move it between these. */
const ticketedStatuses: readonly OrderStatus[] = ['paid', 'partially_refunded', 'refunded'];

export interface RefundAnswer {
  refundId: string;
  amount: number;
  status: RefundStatus;
  orderStatus: OrderStatus;
  /** This call made the refund (recorded a free one, or got the provider's answer): tell the buyer now. */
  madeNow: boolean;
}

/**
 * Gives money back for a whole order (no `ticketIds`: every ticket still valid) or for chosen
 * tickets, which become void and free their places. Recorded first, in one transaction, then sent
 * to the provider with the refund's idempotency key; the same key again answers with the same
 * refund, and re-sends it if the provider never answered. The caller checks the admin's role and
 * publishes the order's topics (also when this throws: the refund may be recorded by then).
 */
export async function refundOrder(input: {
  db: Db;
  payments: PaymentProvider;
  orderId: string;
  ticketIds?: string[];
  reason: string;
  idempotencyKey: string;
  actorId: string;
}): Promise<RefundAnswer> {
  const { db, payments } = input;
  const recorded = await db.transaction(async (tx) => {
    const found = await lockOrder(tx, input.orderId);
    const [existing] = await tx.select().from(refund).where(eq(refund.idempotencyKey, input.idempotencyKey));
    if (existing) {
      if (existing.orderId !== found.id) throw keyUsedElsewhere();
      return { row: existing, order: found };
    }
    return { ...(await recordRefund(tx, found, input)), created: true };
  });

  let { row } = recorded;
  let madeNow = 'created' in recorded && row.amount === 0;
  if (row.status === 'pending' && row.providerRef === null && row.amount > 0) {
    ({ row, applied: madeNow } = await sendRefund(db, payments, recorded.order, row));
  } else if (row.status === 'failed' && row.providerRef === null) {
    // Refused by the provider when first sent: answered then as now.
    throw refused();
  }
  const [now] = await db.select({ status: order.status }).from(order).where(eq(order.id, row.orderId));
  return { refundId: row.id, amount: row.amount, status: row.status, orderStatus: now!.status, madeNow };
}

async function lockOrder(tx: Tx, orderId: string): Promise<Order> {
  const [found] = await tx.select().from(order).where(eq(order.id, orderId)).for('update');
  if (!found) throw new CallableError('not-found', 'No such order');
  return found;
}

const refused = (providerReason?: string) =>
  new CallableError('failed-precondition', 'The payment provider refused the refund', {
    reason: 'refund-refused',
    ...(providerReason ? { providerReason } : {}),
  });

const keyUsedElsewhere = () =>
  new CallableError('invalid-argument', 'The refund is not valid', {
    fields: [{ path: 'idempotencyKey', message: 'This key belongs to another order’s refund', code: 'custom' }],
  });

/** Inside the order's lock: checks the tickets, records the refund, voids them and frees their places. */
async function recordRefund(
  tx: Tx,
  found: Order,
  input: { ticketIds?: string[]; reason: string; idempotencyKey: string; actorId: string },
): Promise<{ row: Refund; order: Order }> {
  if (found.status !== 'paid' && found.status !== 'partially_refunded') {
    throw new CallableError(
      'failed-precondition',
      found.status === 'refunded' ? 'This order is already refunded' : 'Only a paid order can be refunded',
      { reason: 'not-refundable', status: found.status },
    );
  }
  const tickets = await tx
    .select({ id: ticket.id, ticketTypeId: ticket.ticketTypeId, status: ticket.status })
    .from(ticket)
    .where(eq(ticket.orderId, found.id))
    .orderBy(asc(ticket.id));
  const valid = tickets.filter((one) => one.status === 'valid');
  const chosen = input.ticketIds ? chosenTickets(tickets, input.ticketIds) : valid;
  if (chosen.length === 0)
    throw new CallableError('failed-precondition', 'Nothing is left to refund', { reason: 'nothing-to-refund' });

  // The price of each ticket is what its order line charged; never more than what is left of the
  // payment (a refund made in Stripe's dashboard may already have given part of it back).
  const lines = await tx.select().from(orderLine).where(eq(orderLine.orderId, found.id));
  const priceOf = new Map(lines.map((line) => [line.ticketTypeId, line.unitPrice]));
  const price = chosen.reduce((sum, one) => sum + (priceOf.get(one.ticketTypeId) ?? 0), 0);
  const amount = Math.max(0, Math.min(price, found.total - found.refundedAmount));

  const [row] = await tx
    .insert(refund)
    .values({
      id: randomUUID(),
      orderId: found.id,
      amount,
      reason: input.reason,
      // Nothing to pay back (free tickets): done here, the provider is not asked.
      status: amount === 0 ? 'succeeded' : 'pending',
      idempotencyKey: input.idempotencyKey,
      ticketIds: chosen.map((one) => one.id),
      createdBy: input.actorId,
    })
    .returning();
  await voidTickets(tx, found.eventId, chosen);
  const refundedAmount = found.refundedAmount + amount;
  const [updated] = await tx
    .update(order)
    .set({ refundedAmount, status: statusAfterRefunds(valid.length - chosen.length, refundedAmount, true) })
    .where(eq(order.id, found.id))
    .returning();
  await recordActivity(
    tx,
    found.id,
    'refund_requested',
    { amount, reason: input.reason, tickets: chosen.length, refundId: row!.id },
    input.actorId,
  );
  return { row: row!, order: updated! };
}

type TicketRef = { id: string; ticketTypeId: string; status: 'valid' | 'void' };

/** The tickets asked for, each a valid ticket of this order, once; otherwise invalid-argument naming each field. */
function chosenTickets(tickets: TicketRef[], ticketIds: string[]): TicketRef[] {
  const byId = new Map(tickets.map((one) => [one.id, one]));
  const seen = new Set<string>();
  const fields: { path: string; message: string; code: string }[] = [];
  const chosen: TicketRef[] = [];
  ticketIds.forEach((id, index) => {
    const found = byId.get(id);
    const path = `ticketIds.${index}`;
    if (!found) fields.push({ path, message: 'No such ticket in this order', code: 'not_found' });
    else if (found.status !== 'valid') fields.push({ path, message: 'This ticket is already void', code: 'invalid_value' });
    else if (seen.has(id)) fields.push({ path, message: 'This ticket is listed twice', code: 'duplicate' });
    else chosen.push(found);
    seen.add(id);
  });
  if (fields.length > 0) throw new CallableError('invalid-argument', 'The refund is not valid', { fields });
  return chosen;
}

/**
 * What an order with tickets is after refunds: refunded when no ticket is left valid, partly
 * refunded when money went back or a ticket was voided, otherwise still paid.
 */
function statusAfterRefunds(validTickets: number, refundedAmount: number, someVoid: boolean): OrderStatus {
  if (validTickets === 0) return 'refunded';
  if (refundedAmount > 0 || someVoid) return 'partially_refunded';
  return 'paid';
}

/** Counts per ticket type, in id order: the order in which ticket type rows are locked everywhere. */
function countsByType(tickets: { ticketTypeId: string }[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const one of tickets) counts.set(one.ticketTypeId, (counts.get(one.ticketTypeId) ?? 0) + 1);
  return [...counts].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Voids valid tickets and gives their places back: the event row first, then ticket types by id. */
async function voidTickets(tx: Tx, eventId: string, tickets: { id: string; ticketTypeId: string }[]) {
  if (tickets.length === 0) return;
  const voided = await tx
    .update(ticket)
    .set({ status: 'void' })
    .where(
      and(
        inArray(
          ticket.id,
          tickets.map((one) => one.id),
        ),
        eq(ticket.status, 'valid'),
      ),
    )
    .returning({ id: ticket.id });
  // The order row is locked, so only something outside refunds could have voided one meanwhile.
  if (voided.length !== tickets.length) throw new CallableError('aborted', 'A ticket changed meanwhile; try again');
  await tx
    .update(event)
    .set({ sold: sql`${event.sold} - ${tickets.length}` })
    .where(eq(event.id, eventId));
  for (const [ticketTypeId, count] of countsByType(tickets)) {
    await tx
      .update(ticketType)
      .set({ sold: sql`${ticketType.sold} - ${count}` })
      .where(eq(ticketType.id, ticketTypeId));
  }
}

class PlacesGone extends Error {}

/**
 * Makes a refused refund's tickets valid again, taking their places back only if they are still
 * free (the same conditional updates as orders.create). False, with nothing changed, when any is gone.
 */
async function restoreTickets(tx: Tx, eventId: string, ticketIds: string[]): Promise<boolean> {
  if (ticketIds.length === 0) return true;
  const tickets = await tx
    .select({ id: ticket.id, ticketTypeId: ticket.ticketTypeId })
    .from(ticket)
    .where(and(inArray(ticket.id, ticketIds), eq(ticket.status, 'void')));
  return tx
    .transaction(async (savepoint) => {
      const onEvent = await savepoint
        .update(event)
        .set({ sold: sql`${event.sold} + ${tickets.length}` })
        .where(and(eq(event.id, eventId), sql`${event.sold} + ${event.held} + ${tickets.length} <= ${event.capacity}`))
        .returning({ id: event.id });
      if (onEvent.length === 0) throw new PlacesGone();
      for (const [ticketTypeId, count] of countsByType(tickets)) {
        const taken = await savepoint
          .update(ticketType)
          .set({ sold: sql`${ticketType.sold} + ${count}` })
          .where(
            and(
              eq(ticketType.id, ticketTypeId),
              sql`${ticketType.sold} + ${ticketType.held} + ${count} <= ${ticketType.capacity}`,
            ),
          )
          .returning({ id: ticketType.id });
        if (taken.length === 0) throw new PlacesGone();
      }
      await savepoint
        .update(ticket)
        .set({ status: 'valid' })
        .where(
          inArray(
            ticket.id,
            tickets.map((one) => one.id),
          ),
        );
      return true;
    })
    .catch((error: unknown) => {
      if (error instanceof PlacesGone) return false;
      throw error;
    });
}

/**
 * Asks the provider for a recorded refund, with its idempotency key (a retry is the same refund).
 * Unreachable: the refund stays pending and PaymentProviderUnavailable goes up (`unavailable`);
 * sending it again later is safe. Refused: the refund is undone (see undoRefusedRefund).
 */
async function sendRefund(
  db: Db,
  payments: PaymentProvider,
  found: Order,
  row: Refund,
): Promise<{ row: Refund; applied: boolean }> {
  if (!found.paymentRef) throw new Error(`Order ${found.id} has money to refund but no payment`);
  let given: RefundResult;
  try {
    given = await payments.refund({
      paymentRef: found.paymentRef,
      amount: row.amount,
      idempotencyKey: row.idempotencyKey,
      reason: row.reason,
    });
  } catch (error) {
    if (error instanceof RefundRefused) {
      await undoRefusedRefund(db, row, error.reason);
      // Usually the money went back another way (Stripe's dashboard) and its webhook has not come
      // yet: read the provider's refunds now, so the order shows them and a new try is right.
      await reconcileRefunds(db, payments, found.paymentRef).catch(() => null);
      throw refused(error.reason);
    }
    throw error;
  }
  return db.transaction(async (tx) => {
    await lockOrder(tx, found.id);
    const [current] = await tx.select().from(refund).where(eq(refund.id, row.id));
    // Reconciliation (a webhook) may have matched it by its key meanwhile: its state is newer.
    const applied = current!.providerRef === null;
    if (applied) await applyProviderState(tx, current!, given);
    const [after] = await tx.select().from(refund).where(eq(refund.id, row.id));
    return { row: after!, applied };
  });
}

/**
 * Sends again the refunds recorded but never answered by the provider (it was unreachable, or the
 * server stopped in between), with their own keys, so a retry is the same refund. Run by the
 * sweeper: otherwise such a refund would wait for an admin to retry with the same key, which the
 * refund dialog (a new key each time) never does. Only refunds older than a minute, so that one
 * being sent right now is left to its request. Returns the orders whose refunds changed.
 */
export async function resendUnsentRefunds(db: Db, payments: PaymentProvider): Promise<Order[]> {
  const unsent = await db
    .select()
    .from(refund)
    .where(
      and(
        eq(refund.status, 'pending'),
        sql`${refund.providerRef} is null`,
        sql`${refund.amount} > 0`,
        sql`${refund.createdAt} < now() - interval '1 minute'`,
      ),
    )
    .limit(50);
  const changed: Order[] = [];
  for (const row of unsent) {
    const [found] = await db.select().from(order).where(eq(order.id, row.orderId));
    if (!found?.paymentRef) continue;
    try {
      await sendRefund(db, payments, found, row);
      changed.push(found);
    } catch (error) {
      // Still unreachable: the next sweep tries again. Refused: recorded by sendRefund.
      if (error instanceof CallableError) changed.push(found);
      else if (!(error instanceof PaymentProviderUnavailable)) throw error;
    }
  }
  return changed;
}

/**
 * The provider refused (already refunded, more than what is left, disputed): the refund is marked
 * failed, the money is no longer counted as given back, and its tickets become valid again if
 * their places are still free (they were freed a moment ago; if someone took them meanwhile the
 * tickets stay void, and the timeline says so).
 */
async function undoRefusedRefund(db: Db, row: Refund, providerReason: string) {
  await db.transaction(async (tx) => {
    const found = await lockOrder(tx, row.orderId);
    const [marked] = await tx
      .update(refund)
      .set({ status: 'failed' })
      .where(and(eq(refund.id, row.id), eq(refund.status, 'pending'), sql`${refund.providerRef} is null`))
      .returning();
    if (!marked) return;
    const restored = await restoreTickets(tx, found.eventId, marked.ticketIds);
    const refundedAmount = found.refundedAmount - marked.amount;
    await tx
      .update(order)
      .set({ refundedAmount, status: await statusOf(tx, found.id, refundedAmount) })
      .where(eq(order.id, found.id));
    await recordActivity(tx, found.id, 'refund_failed', {
      amount: marked.amount,
      refundId: marked.id,
      providerReason,
      ticketsRestored: restored,
    });
  });
}

/** The order's status from its tickets and what was refunded (for an order that has tickets). */
async function statusOf(tx: Tx, orderId: string, refundedAmount: number): Promise<OrderStatus> {
  const tickets = await tx.select({ status: ticket.status }).from(ticket).where(eq(ticket.orderId, orderId));
  const validTickets = tickets.filter((one) => one.status === 'valid').length;
  return statusAfterRefunds(validTickets, refundedAmount, validTickets < tickets.length);
}

/**
 * Takes the provider's id and status for one of our refunds; a final status is never moved back to
 * a non-final one (an older answer arriving late). Adds a timeline line when the outcome changes.
 * True when anything changed.
 */
async function applyProviderState(tx: Tx, row: Refund, given: RefundResult): Promise<boolean> {
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

/**
 * Brings an order's refunds in line with the provider's (after `charge.refunded`, `refund.created`
 * or `refund.updated`; the webhook is only the trigger, the refunds are read again). Refunds made
 * in Stripe's dashboard are recorded; known ones take the provider's status; the order's refunded
 * amount becomes the sum of the refunds that gave money back. When a refund made outside Admit
 * completes the total, the tickets still valid are voided and their places freed; a partial one
 * leaves the tickets valid (Admit cannot know which tickets it was for). Null for an unknown payment.
 */
export async function reconcileRefunds(
  db: Db,
  payments: PaymentProvider,
  paymentRef: string,
): Promise<{ orderId: string; changed: boolean; topics: string[] } | null> {
  const [known] = await db.select({ id: order.id }).from(order).where(eq(order.paymentRef, paymentRef));
  if (!known) return null;
  const listed = await payments.listRefunds(paymentRef);
  return db.transaction(async (tx) => {
    const found = await lockOrder(tx, known.id);
    const recorded = await tx.select().from(refund).where(eq(refund.orderId, found.id));
    let changed = false;
    const madeElsewhere: Refund[] = [];
    // Oldest first, so that the timeline reads in the order things happened.
    for (const given of [...listed].reverse()) {
      const mine =
        recorded.find((row) => row.providerRef === given.ref) ??
        (given.key ? recorded.find((row) => row.idempotencyKey === given.key && row.providerRef === null) : undefined);
      if (mine) {
        if (await applyProviderState(tx, mine, given)) changed = true;
        continue;
      }
      const [row] = await tx
        .insert(refund)
        .values({
          id: randomUUID(),
          orderId: found.id,
          amount: given.amount,
          reason: providerRefundReason,
          status: given.status,
          providerRef: given.ref,
          // Unique like every key; a refund made elsewhere never reaches our own refund calls.
          idempotencyKey: `provider:${given.ref}`,
          createdBy: null,
        })
        .returning();
      madeElsewhere.push(row!);
      changed = true;
    }

    const refunds = await tx.select().from(refund).where(eq(refund.orderId, found.id));
    const refundedAmount = refunds.filter((row) => gaveMoneyBack(row.status)).reduce((sum, row) => sum + row.amount, 0);
    let status = found.status;
    let voided: string[] = [];
    if (ticketedStatuses.includes(found.status)) {
      if (madeElsewhere.length > 0 && found.total > 0 && refundedAmount >= found.total) {
        const valid = await tx
          .select({ id: ticket.id, ticketTypeId: ticket.ticketTypeId })
          .from(ticket)
          .where(and(eq(ticket.orderId, found.id), eq(ticket.status, 'valid')))
          .orderBy(asc(ticket.id));
        await voidTickets(tx, found.eventId, valid);
        voided = valid.map((one) => one.id);
        if (voided.length > 0)
          await tx
            .update(refund)
            .set({ ticketIds: voided })
            .where(eq(refund.id, madeElsewhere.at(-1)!.id));
      }
      status = await statusOf(tx, found.id, refundedAmount);
    }
    for (const row of madeElsewhere) {
      const tickets = row === madeElsewhere.at(-1) ? voided.length : 0;
      const kind =
        row.status === 'succeeded' ? 'refund_succeeded' : gaveMoneyBack(row.status) ? 'refund_requested' : 'refund_failed';
      await recordActivity(tx, found.id, kind, {
        amount: row.amount,
        reason: providerRefundReason,
        tickets,
        refundId: row.id,
        source: 'provider',
      });
    }
    if (refundedAmount !== found.refundedAmount || status !== found.status) {
      await tx.update(order).set({ refundedAmount, status }).where(eq(order.id, found.id));
      changed = true;
    }
    const [{ organizationId } = { organizationId: undefined }] = await tx
      .select({ organizationId: event.organizationId })
      .from(event)
      .where(eq(event.id, found.eventId));
    return { orderId: found.id, changed, topics: orderTopics(found, organizationId) };
  });
}
