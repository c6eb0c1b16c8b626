import { randomUUID } from 'node:crypto';
import type { Tx } from '../../platform/db/database';
import type { JobSender } from '../../platform/jobs/job-queue';
import { recordActivity, setOrderMoney } from '../orders/orders.api';
import type { SoldListing } from '../tickets/tickets.api';
import { sendRefundJob } from './refund-order';
import { lockOrder, statusOf } from './refund-state';
import { refund } from './schema';

/** The reason a resold ticket's refund gives: its seller's refund notice and the organizer's timeline show it. */
export const resaleRefundReason = 'Your ticket was resold';

/**
 * Refunds each seller of tickets a completed order bought (decision 0066), in that order's
 * transaction: never a refund without the sale, nor a sale without its refund. The price they paid
 * less the fee they were shown, never more than is left of their payment; recorded with one key per
 * sold ticket and sent by the refund job, as any refund whose first try may not come back. Its
 * `ticketIds` stay empty: the ticket was not refunded but sold, and a refused refund must not make
 * it valid again.
 */
export async function refundSellers(tx: Tx, jobs: JobSender, sold: readonly SoldListing[]): Promise<void> {
  for (const one of sold) {
    const found = await lockOrder(tx, one.orderId);
    const amount = Math.max(0, Math.min(one.price - one.fee, found.total - found.refundedAmount));
    const refundId = randomUUID();
    await tx.insert(refund).values({
      id: refundId,
      orderId: found.id,
      amount,
      reason: resaleRefundReason,
      // Nothing to pay back (a free ticket, or a fee as large as its price): done here.
      status: amount === 0 ? 'succeeded' : 'pending',
      idempotencyKey: `resale-${one.resaleId}`,
      ticketIds: [],
    });
    const refundedAmount = found.refundedAmount + amount;
    await setOrderMoney(tx, found.id, { refundedAmount, status: await statusOf(tx, found.id, refundedAmount) });
    await recordActivity(tx, found.id, 'refund_requested', { amount, reason: resaleRefundReason, tickets: 1, refundId });
    if (amount > 0) await jobs.enqueue(tx, sendRefundJob, { refundId });
  }
}
