import { refundOrder as refundOrderContract } from '@admit/shared/orders';
import { eq } from 'drizzle-orm';
import { defineCallable } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { requireEventRole } from '../events/events.api';
import { orderTopics } from '../orders/orders.api';
import { refundOrder } from './refund-order';
import { order } from '../orders/schema';

/** An admin (or the owner) of the event's organization refunds an order, whole or by ticket. */
export const refundOrderCallable = defineCallable(refundOrderContract, {
  auth: 'required',
  async handler(input, ctx) {
    const [found] = await ctx.db
      .select({ id: order.id, eventId: order.eventId, buyerId: order.buyerId })
      .from(order)
      .where(eq(order.id, input.orderId));
    if (!found) throw new CallableError('not-found', 'No such order');
    const { event } = await requireEventRole(ctx.db, ctx.user, found.eventId, 'admin');
    // Published when the call ends, also when it fails: by then the refund may be recorded and the
    // tickets voided even though the provider could not be reached.
    ctx.publishCommitted(...orderTopics(found, event.organizationId));
    const answer = await refundOrder({
      db: ctx.db,
      payments: ctx.payments,
      orderId: found.id,
      ticketIds: input.ticketIds,
      reason: input.reason,
      idempotencyKey: input.idempotencyKey,
      actorId: ctx.user.id,
      // The buyer's email is a job enqueued where the refund is made (refund-order.ts).
      jobs: ctx.jobs,
    });
    return { refundId: answer.refundId, amount: answer.amount, status: answer.status, orderStatus: answer.orderStatus };
  },
});
