import { refundOrder as refundOrderContract } from '@admit/shared/orders';
import { eq } from 'drizzle-orm';
import { requireOrgRole } from '../../platform/auth/roles';
import { defineCallable } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { event } from '../events/schema';
import { orderTopics } from './checkout';
import { sendRefundNotice } from './order-emails';
import { refundOrder } from './refunds';
import { order } from './schema';

/** An admin (or the owner) of the event's organization refunds an order, whole or by ticket. */
export const refundOrderCallable = defineCallable(refundOrderContract, {
  auth: 'required',
  async handler(input, ctx) {
    const [found] = await ctx.db
      .select({ id: order.id, eventId: order.eventId, buyerId: order.buyerId, organizationId: event.organizationId })
      .from(order)
      .innerJoin(event, eq(event.id, order.eventId))
      .where(eq(order.id, input.orderId));
    if (!found) throw new CallableError('not-found', 'No such order');
    await requireOrgRole(ctx.db, ctx.user, found.organizationId, 'admin');
    // Published when the call ends, also when it fails: by then the refund may be recorded and the
    // tickets voided even though the provider could not be reached.
    ctx.publishCommitted(...orderTopics(found, found.organizationId));
    const answer = await refundOrder({
      db: ctx.db,
      payments: ctx.payments,
      orderId: found.id,
      ticketIds: input.ticketIds,
      reason: input.reason,
      idempotencyKey: input.idempotencyKey,
      actorId: ctx.user.id,
    });
    // Once per refund, after it committed; a mail server being down never fails the refund.
    if (answer.madeNow && answer.amount > 0 && (answer.status === 'succeeded' || answer.status === 'pending')) {
      await sendRefundNotice(
        { db: ctx.db, mailer: ctx.mailer, publicUrl: ctx.publicUrl, publish: ctx.publish },
        answer.refundId,
      ).catch((error: unknown) => ctx.log.error({ err: error, refundId: answer.refundId }, 'refund notice could not be sent'));
    }
    return { refundId: answer.refundId, amount: answer.amount, status: answer.status, orderStatus: answer.orderStatus };
  },
});

export const refundsCallables = [refundOrderCallable];
