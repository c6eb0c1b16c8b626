import { randomUUID } from 'node:crypto';
import { failureOf } from '@admit/shared/failures';
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import type { JobSender } from '../../platform/jobs/job-queue';
import type { PaymentIntentState, PaymentProvider } from '../../platform/payments/payment-provider';
import { isCodeLimit, takeCodeUses } from '../codes/codes.api';
import { releasePlaces, tryTakePlaces } from '../events/events.api';
import { event, ticketType } from '../events/schema';
import {
  codeUsesOf,
  completeHold,
  issueOrderTickets,
  resaleQuantityOf,
  type Order,
  placesOf,
  recordActivity,
  requireWithinBuyerLimits,
  enqueueConfirmation,
  sendLatePaymentRefundNoticeJob,
  setOrderMoney,
} from '../orders/orders.api';
import { releaseListings, type SoldListing } from '../tickets/tickets.api';
import { refundSellers } from './resale-refunds';
import { sendRefundJob } from './refund-order';
import { emitOrderWebhook } from '../orders/orders.api';
import { order } from '../orders/schema';
import { refund } from './schema';
import { canReceiveMail } from '../../platform/mail/can-receive-mail';

export type Settlement =
  | { outcome: 'paid'; order: Order; sold: SoldListing[] }
  | { outcome: 'already-settled'; order: Order }
  | { outcome: 'not-succeeded'; order: Order }
  | { outcome: 'refunded-late'; order: Order }
  | { outcome: 'mismatch'; order: Order };

const lateRefundReason = 'The payment came after the hold had ended and the tickets were gone';

/**
 * A late payment's places, taken again while they are free, the buyer is still within the
 * event's and the types' limits per buyer (they may have ordered more meanwhile, decision 0046)
 * and its code's limits have room (decision 0047); false, with nothing changed, otherwise.
 */
async function takePlacesAgain(tx: Tx, found: Order, lines: Awaited<ReturnType<typeof placesOf>>): Promise<boolean> {
  return tx
    .transaction(async (savepoint) => {
      if (!(await tryTakePlaces(savepoint, { eventId: found.eventId, lines, as: 'sold' }))) return false;
      // Made while the code worked: its window may have ended since, its limits still hold.
      for (const use of await codeUsesOf(savepoint, found.id))
        await takeCodeUses(savepoint, { ...use, buyer: { id: found.buyerId, email: found.email }, as: 'again' });
      const [limits] = await savepoint.select({ maxPerBuyer: event.maxPerBuyer }).from(event).where(eq(event.id, found.eventId));
      const types = await savepoint
        .select({ id: ticketType.id, maxPerBuyer: ticketType.maxPerBuyer })
        .from(ticketType)
        .where(
          inArray(
            ticketType.id,
            lines.map((line) => line.ticketTypeId),
          ),
        );
      await requireWithinBuyerLimits(savepoint, {
        buyerId: found.buyerId,
        email: found.email,
        event: { id: found.eventId, maxPerBuyer: limits?.maxPerBuyer ?? null },
        lines,
        types: new Map(types.map((type) => [type.id, type])),
      });
      return true;
    })
    .catch((error: unknown) => {
      if (error instanceof CallableError && failureOf(error.details)?.reason === 'buyer-limit') return false;
      if (isCodeLimit(error)) return false;
      throw error;
    });
}
/** One refund per late order, whoever sends it (webhook, return page, a retry after a crash). */
const lateRefundKey = (orderId: string) => `late-${orderId}`;

/**
 * Completes an order from its payment as the provider reports it (from the webhook or from the
 * return page; either may come first, both may come twice). The order row is locked, so one
 * settles it and the others see it settled. A payment that arrives after its hold ended is honoured
 * when the places are still free, otherwise refunded in full and the order cancelled.
 */
export async function settlePayment(
  db: Db,
  payments: PaymentProvider,
  jobs: JobSender,
  orderId: string,
  payment: PaymentIntentState,
) {
  const settlement = await db.transaction(async (tx): Promise<Settlement> => {
    const [found] = await tx.select().from(order).where(eq(order.id, orderId)).for('update');
    if (!found) throw new Error(`No order ${orderId}`);
    if (!['pending', 'expired', 'cancelled'].includes(found.status) || found.refundedAmount > 0)
      return { outcome: 'already-settled', order: found };
    if (payment.status !== 'succeeded') return { outcome: 'not-succeeded', order: found };
    if (payment.amount !== found.total || payment.currency.toLowerCase() !== found.currency.toLowerCase())
      return { outcome: 'mismatch', order: found };

    const lines = await placesOf(tx, found.id);
    const [signing] = (await tx
      .select({ id: event.id, checkinKey: event.checkinKey, status: event.status, organizationId: event.organizationId })
      .from(event)
      .where(eq(event.id, found.eventId))) as [{ id: string; checkinKey: string; status: string; organizationId: string }];
    const { organizationId } = signing;
    // A cancelled event sells nothing, also to a buyer who paid while it was being cancelled.
    const cancelled = signing.status === 'cancelled';
    if (cancelled && found.status === 'pending') await releasePlaces(tx, { eventId: found.eventId, lines, from: 'held' });
    // Completed: its places sold and tickets issued, or the tickets offered back it bought issued to it
    // (null: one went meanwhile; a late payment's went back to the list with its hold: decision 0066).
    let sold: SoldListing[] | null = null;
    if (!cancelled && found.status === 'pending') sold = await completeHold(tx, found, signing);
    else if (!cancelled && (await resaleQuantityOf(tx, found.id)) === 0 && (await takePlacesAgain(tx, found, lines))) {
      await issueOrderTickets(tx, found, signing);
      sold = [];
    }
    if (sold === null) {
      if (found.status === 'pending') await releaseListings(tx, found.id);
      const cancelled = await setOrderMoney(tx, found.id, { status: 'cancelled', refundedAmount: found.total });
      const refundId = randomUUID();
      await tx.insert(refund).values({
        id: refundId,
        orderId: found.id,
        amount: found.total,
        reason: lateRefundReason,
        status: 'pending',
        idempotencyKey: lateRefundKey(found.id),
      });
      await recordActivity(tx, found.id, 'late_payment_refunded', { amount: found.total, paymentRef: payment.ref });
      if (canReceiveMail(found.email)) await jobs.enqueue(tx, sendLatePaymentRefundNoticeJob, { orderId: found.id });
      await emitOrderWebhook(tx, { organizationId, orderId: found.id, type: 'order.cancelled' });
      // Sent below; if that fails or the server stops first, the job sends it.
      await jobs.enqueue(tx, sendRefundJob, { refundId }, { startAfter: new Date(Date.now() + 60_000) });
      return { outcome: 'refunded-late', order: cancelled };
    }
    const paid = await setOrderMoney(tx, found.id, { status: 'paid', paymentRef: payment.ref });
    // Each seller of a ticket it bought gets the price back, less the organizer's fee.
    await refundSellers(tx, jobs, sold);
    await recordActivity(tx, found.id, 'paid', {
      amount: payment.amount,
      paymentRef: payment.ref,
      late: found.status !== 'pending',
    });
    await enqueueConfirmation(jobs, tx, { orderId: found.id, email: found.email });
    await emitOrderWebhook(tx, { organizationId, orderId: found.id, type: 'order.paid' });
    return { outcome: 'paid', order: paid, sold };
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
