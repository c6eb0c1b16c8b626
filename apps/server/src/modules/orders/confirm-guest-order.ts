import { and, eq, gt, sql } from 'drizzle-orm';
import type { CallContext } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { event } from '../events/schema';
import type { SoldListing } from '../tickets/tickets.api';
import { releaseHold } from './holds';
import { tokenOpens } from './order-access';
import { recordActivity } from './order-activity';
import { enqueueConfirmation } from './order-emails';
import type { Order } from './order-places';
import { completeHold, sellersTopics } from './resale-orders';
import { order } from './schema';
import { emitOrderWebhook } from './order-resource';
import { orderTopics } from './topics';

/**
 * A guest opened the link emailed for their free places (decision 0060): the address is theirs, so
 * the held places become tickets, emailed as any free order's. Once: opened again, it answers what
 * the order is now. A hold that ended is released as an unpaid one is, and answers `expired`.
 */
export async function confirmGuestOrder(ctx: CallContext, input: { orderId: string; accessToken: string }) {
  if (!tokenOpens(ctx.config, input.orderId, input.accessToken)) throw new CallableError('not-found', 'No such order');
  // Only a guest's free places wait for their link; an order to pay is confirmed by its payment.
  return confirmFreeHold(ctx, input.orderId, { buyerId: null, by: 'email' });
}

/**
 * Free places held for someone become their tickets, emailed as any free order's: a guest's whose
 * link was opened (`buyerId` null), or a waiting-list offer its person accepted (decision 0064).
 * Once: asked again, it answers what the order is now. A hold that ended is released as an unpaid
 * one is, and answers `expired`.
 */
export async function confirmFreeHold(
  ctx: Pick<CallContext, 'db' | 'jobs' | 'publish'>,
  orderId: string,
  holder: { buyerId: string | null; by: 'email' | 'waitlist' | 'resale' },
) {
  const confirmed = await ctx.db.transaction(async (tx): Promise<(Order & { sold: SoldListing[] }) | null> => {
    const [found] = await tx.select().from(order).where(eq(order.id, orderId)).for('update');
    if (!found) throw new CallableError('not-found', 'No such order');
    if (found.status !== 'pending' || found.total !== 0 || found.buyerId !== holder.buyerId) return null;
    const [confirmable] = await tx
      .update(order)
      .set({ status: 'paid' })
      .where(and(eq(order.id, found.id), eq(order.status, 'pending'), gt(order.holdExpiresAt, sql`now()`)))
      .returning();
    if (!confirmable) return null;
    const [signing] = await tx
      .select({ id: event.id, checkinKey: event.checkinKey, organizationId: event.organizationId })
      .from(event)
      .where(eq(event.id, found.eventId));
    const sold = await completeHold(tx, found, signing!);
    if (!sold) {
      // Tickets offered back that went meanwhile (refunded to their seller): nothing to give.
      await tx.update(order).set({ status: 'cancelled' }).where(eq(order.id, found.id));
      await recordActivity(tx, found.id, 'cancelled', { reason: 'resale-gone' });
      await emitOrderWebhook(tx, { organizationId: signing!.organizationId, orderId: found.id, type: 'order.cancelled' });
      return { ...confirmable, status: 'cancelled' as const, sold: [] };
    }
    await recordActivity(tx, found.id, 'confirmed', { by: holder.by });
    // Complete now: its tickets are issued (the webhook's `order.paid`, as a paid order's).
    await emitOrderWebhook(tx, { organizationId: signing!.organizationId, orderId: found.id, type: 'order.paid' });
    await enqueueConfirmation(ctx.jobs, tx, { orderId: found.id, email: found.email });
    return { ...confirmable, sold };
  });
  if (confirmed) {
    ctx.publish(...orderTopics(confirmed), ...sellersTopics(confirmed.sold));
    return { status: confirmed.status };
  }
  // Not confirmed: a hold that ran out ends now (its job may not have run yet); otherwise as it is.
  const released = await releaseHold(ctx.db, orderId, 'expired', { onlyIfDue: true });
  if (released) ctx.publish(...orderTopics(released));
  const [now] = await ctx.db.select({ status: order.status }).from(order).where(eq(order.id, orderId));
  return { status: now!.status };
}
