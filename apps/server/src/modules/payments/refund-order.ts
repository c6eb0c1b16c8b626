import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { OrderStatus } from '@admit/shared/orders';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import { defineJob } from '../../platform/jobs/job-services';
import type { JobSender } from '../../platform/jobs/job-queue';
import { RefundRefused, type PaymentProvider, type RefundResult } from '../../platform/payments/payment-provider';
import { type Order, orderTopics, recordActivity, sendRefundNoticeJob, setOrderMoney } from '../orders/orders.api';
import { ticket } from '../tickets/schema';
import { reconcileRefunds } from './reconcile-refunds';
import {
  applyProviderState,
  lockOrder,
  restoreRefundedTickets,
  statusAfterRefunds,
  statusOf,
  voidRefundedTickets,
  type Refund,
  type RefundStatus,
} from './refund-state';
import { order, orderLine } from '../orders/schema';
import { refund } from './schema';
import { canReceiveMail } from '../../platform/mail/can-receive-mail';

// An admin's refunds (orders.refund): recorded first, then sent to the provider with the refund's
// own idempotency key. Decisions: docs/decisions/0021-refunds.md.

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
  jobs: JobSender;
}): Promise<RefundAnswer> {
  const { db, payments, jobs } = input;
  const recorded = await db.transaction(async (tx) => {
    const found = await lockOrder(tx, input.orderId);
    const [existing] = await tx.select().from(refund).where(eq(refund.idempotencyKey, input.idempotencyKey));
    if (existing) {
      if (existing.orderId !== found.id) throw keyUsedElsewhere();
      return { row: existing, order: found };
    }
    const recorded = await recordRefund(tx, found, input);
    // If this request cannot send it (the provider is down, the server stops), the job will.
    if (recorded.row.amount > 0)
      await jobs.enqueue(tx, sendRefundJob, { refundId: recorded.row.id }, { startAfter: new Date(Date.now() + 60_000) });
    return { ...recorded, created: true };
  });

  let { row } = recorded;
  let madeNow = 'created' in recorded && row.amount === 0;
  if (row.status === 'pending' && row.providerRef === null && row.amount > 0) {
    ({ row, applied: madeNow } = await sendRefund(db, payments, jobs, recorded.order, row));
  } else if (row.status === 'failed' && row.providerRef === null) {
    // Refused by the provider when first sent: answered then as now.
    throw refused();
  }
  const [now] = await db.select({ status: order.status }).from(order).where(eq(order.id, row.orderId));
  return { refundId: row.id, amount: row.amount, status: row.status, orderStatus: now!.status, madeNow };
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
  await voidRefundedTickets(tx, found.eventId, chosen);
  const refundedAmount = found.refundedAmount + amount;
  const updated = await setOrderMoney(tx, found.id, {
    refundedAmount,
    status: statusAfterRefunds(valid.length - chosen.length, refundedAmount, true),
  });
  await recordActivity(
    tx,
    found.id,
    'refund_requested',
    { amount, reason: input.reason, tickets: chosen.length, refundId: row!.id },
    input.actorId,
  );
  return { row: row!, order: updated };
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
 * Asks the provider for a recorded refund, with its idempotency key (a retry is the same refund).
 * Unreachable: the refund stays pending and PaymentProviderUnavailable goes up (`unavailable`);
 * sending it again later is safe. Refused: the refund is undone (see undoRefusedRefund).
 */
async function sendRefund(
  db: Db,
  payments: PaymentProvider,
  jobs: JobSender,
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
    // Made now: the buyer is told, once, after this commits.
    if (applied && (after!.status === 'succeeded' || after!.status === 'pending') && canReceiveMail(found.email))
      await jobs.enqueue(tx, sendRefundNoticeJob, { refundId: row.id });
    return { row: after!, applied };
  });
}

/**
 * Sends a recorded refund the provider never answered (it was unreachable, or the server stopped
 * between recording and sending), with its own key, so a retry is the same refund. Does nothing
 * when the request sent it meanwhile. Returns the order when its refunds changed; throws
 * PaymentProviderUnavailable while the provider stays unreachable (the job tries again later).
 */
export async function resendRefund(db: Db, payments: PaymentProvider, jobs: JobSender, refundId: string): Promise<Order | null> {
  const [row] = await db.select().from(refund).where(eq(refund.id, refundId));
  if (!row || row.status !== 'pending' || row.providerRef !== null || row.amount <= 0) return null;
  const [found] = await db.select().from(order).where(eq(order.id, row.orderId));
  if (!found?.paymentRef) return null;
  try {
    await sendRefund(db, payments, jobs, found, row);
  } catch (error) {
    // Refused: recorded by sendRefund, nothing more to try.
    if (!(error instanceof CallableError)) throw error;
  }
  return found;
}

/** Sends a refund that a request recorded but could not send (see resendRefund). Enqueued with the refund. */
export const sendRefundJob = defineJob({
  name: 'orders.sendRefund',
  data: z.object({ refundId: z.string() }),
  retryLimit: 12,
  retryDelaySeconds: 30,
  async handler({ refundId }, { services }) {
    const changed = await resendRefund(services.db, services.payments, services.jobs, refundId);
    if (changed) services.publish(...orderTopics(changed));
  },
});

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
    const restored = await restoreRefundedTickets(tx, found.eventId, marked.ticketIds);
    const refundedAmount = found.refundedAmount - marked.amount;
    await setOrderMoney(tx, found.id, { refundedAmount, status: await statusOf(tx, found.id, refundedAmount) });
    await recordActivity(tx, found.id, 'refund_failed', {
      amount: marked.amount,
      refundId: marked.id,
      providerReason,
      ticketsRestored: restored,
    });
  });
}
