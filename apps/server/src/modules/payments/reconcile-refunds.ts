import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import type { PaymentProvider } from '../../platform/payments/payment-provider';
import { event } from '../events/schema';
import { orderTopics, recordActivity, setOrderMoney } from '../orders/orders.api';
import { ticket } from '../tickets/schema';
import {
  applyProviderState,
  gaveMoneyBack,
  lockOrder,
  providerRefundReason,
  statusOf,
  ticketedStatuses,
  voidRefundedTickets,
  type Refund,
} from './refund-state';
import { order } from '../orders/schema';
import { refund } from './schema';

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
        await voidRefundedTickets(tx, found.eventId, valid);
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
      await setOrderMoney(tx, found.id, { refundedAmount, status });
      changed = true;
    }
    const [{ organizationId } = { organizationId: undefined }] = await tx
      .select({ organizationId: event.organizationId })
      .from(event)
      .where(eq(event.id, found.eventId));
    return { orderId: found.id, changed, topics: orderTopics(found, organizationId) };
  });
}
