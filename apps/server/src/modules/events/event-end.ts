import { cancelEvent, cancellable, deleteEvent } from '@admit/shared/event-changes';
import { and, count, eq, inArray } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit/audit-log';
import { defineCallable } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import type { AdmitJob } from '../../platform/jobs/job-services';
import { order } from '../orders/schema';
import { event } from './schema';
import { requireEventRole } from './event-access';
import { emitEventWebhook } from './event-resource';
import { eventOrdersTopic, eventTopic, orgEventsTopic, publishedEventsTopic } from './topics';

// Cancelling an event: the event is marked cancelled at once (nothing more is sold, the public page
// says so), and in the same transaction a job is enqueued that goes through its orders (the
// payments module's cancel-event-orders.ts). Deleting: only a draft that never had an order.
// Decisions: docs/decisions/0036-event-lifecycle.md, 0054-crashed-jobs-resume.md,
// 0059-module-seams.md.

/** The job that ends a cancelled event's orders, given by app.ts. */
export type EndEventOrders = AdmitJob<{ eventId: string; message: string; actorId: string }>;

const cancelEventCallable = (endOrders: EndEventOrders) =>
  defineCallable(cancelEvent, {
    auth: 'required',
    async handler(input, ctx) {
      const { event: checked } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
      const ordersToRefund = await ctx.db.transaction(async (tx) => {
        const [found] = await tx.select().from(event).where(eq(event.id, input.eventId)).for('update');
        if (!found) throw new CallableError('not-found', 'No such event');
        // Cancelling again starts the work again: anything it left (an outage) is done now, once.
        if (found.status !== 'cancelled') {
          if (!cancellable(found.status))
            throw new CallableError('failed-precondition', `The event is ${found.status}: it cannot be cancelled`, {
              reason: 'not-cancellable',
              status: found.status,
            });
          await tx.update(event).set({ status: 'cancelled' }).where(eq(event.id, found.id));
          await recordAudit(tx, {
            organizationId: found.organizationId,
            eventId: found.id,
            actor: ctx.user,
            action: 'event.cancel',
            target: found.title,
            details: { from: found.status, message: input.message },
          });
          await emitEventWebhook(tx, { organizationId: found.organizationId, eventId: found.id, type: 'event.cancelled' });
        }
        await ctx.jobs.enqueue(
          tx,
          endOrders,
          { eventId: found.id, message: input.message, actorId: ctx.user.id },
          { singletonKey: `cancel-event:${found.id}` },
        );
        const [{ paid }] = (await tx
          .select({ paid: count() })
          .from(order)
          .where(and(eq(order.eventId, found.id), inArray(order.status, ['paid', 'partially_refunded'])))) as [{ paid: number }];
        return paid;
      });
      ctx.publish(
        eventTopic(checked.id),
        orgEventsTopic(checked.organizationId),
        publishedEventsTopic,
        eventOrdersTopic(checked.id),
      );
      return { status: 'cancelled' as const, ordersToRefund };
    },
  });

/** A draft that never had an order: gone, with its ticket types; the audit log keeps that it was. */
const deleteEventCallable = defineCallable(deleteEvent, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: checked } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
    await ctx.db.transaction(async (tx) => {
      const [found] = await tx.select().from(event).where(eq(event.id, input.eventId)).for('update');
      if (!found) throw new CallableError('not-found', 'No such event');
      if (found.status !== 'draft')
        throw new CallableError('failed-precondition', `The event is ${found.status}: only a draft can be deleted`, {
          reason: 'move-not-allowed',
          status: found.status,
          move: 'delete',
        });
      const [{ orders }] = (await tx.select({ orders: count() }).from(order).where(eq(order.eventId, found.id))) as [
        { orders: number },
      ];
      if (orders > 0)
        throw new CallableError('failed-precondition', 'This event has orders: it cannot be deleted', {
          reason: 'event-has-orders',
        });
      await tx.delete(event).where(eq(event.id, found.id));
      await recordAudit(tx, {
        organizationId: found.organizationId,
        eventId: found.id,
        actor: ctx.user,
        action: 'event.delete',
        target: found.title,
      });
    });
    ctx.publish(eventTopic(checked.id), orgEventsTopic(checked.organizationId));
    return { organizationId: checked.organizationId };
  },
});

/**
 * Cancelling and deleting an event. What becomes of a cancelled event's orders (holds end, paid
 * orders are refunded, each person is told once) is the payments module's job, which app.ts hands
 * in: the events module sits below orders and payments and does not import them.
 */
export const eventEndCallables = (endOrders: EndEventOrders) => [cancelEventCallable(endOrders), deleteEventCallable];
