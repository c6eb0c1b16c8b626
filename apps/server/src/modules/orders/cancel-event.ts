import { cancelEvent, cancellable, deleteEvent } from '@admit/shared/event-changes';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { recordAudit } from '../../platform/audit/audit-log';
import type { Db } from '../../platform/db/database';
import { defineCallable } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { defineJob, type JobServices } from '../../platform/jobs/job-services';
import { PaymentProviderUnavailable } from '../../platform/payments/payment-provider';
import { emitEventWebhook, eventTopic, orgEventsTopic, publishedEventsTopic, requireEventRole } from '../events/events.api';
import { event } from '../events/schema';
import { releaseHold } from './holds';
import { sendEventCancelledNoticeJob } from './order-emails';
import { refundOrder } from './refund-order';
import { cancellationRefundKey } from './refund-keys';
import { order, refund } from './schema';
import { eventOrdersTopic, orderTopics } from './topics';

// Cancelling an event: the event is marked cancelled at once (nothing more is sold, the public page
// says so), then a job goes through its orders: pending ones lose their hold, paid ones are
// refunded in full with one key per order (refund-keys.ts), and each person (an email address) is
// emailed once, in their language, about all their orders. Tried again after a crash or an outage,
// it does each order's part once; a crash is noticed within seconds (decision 0054). Decisions:
// docs/decisions/0036-event-lifecycle.md, 0054-crashed-jobs-resume.md.

const reasonOf = (message: string) => message || 'The event was cancelled';

export const cancelEventCallable = defineCallable(cancelEvent, {
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
        cancelEventOrdersJob,
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

/** How many orders of a page a pass cancels at a time. */
const ordersAtOnce = 4;

/** `work` for each item, at most `limit` at a time; the results in the items' order. */
async function inParallel<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** A person whose orders a pass is at, and whether any of them is one their notice tells of. */
type Person = { email: string; told: boolean };

/**
 * One pass through a cancelled event's orders, person by person (by email address, then id).
 * Pending: the hold ends. Paid: refunded in full (an order refunded in part gets the rest), its
 * tickets void; a refund the provider could not take now stays recorded and its own job sends it
 * later. Once all of a person's orders are done, they get one notice of all of them, also when the
 * orders were refunded in an earlier pass (the email is sent once, by its key).
 */
export async function cancelEventOrders(services: JobServices, input: { eventId: string; message: string; actorId: string }) {
  const { db } = services;
  const emailKey = sql<string>`lower(${order.email})`;
  let after = { email: '', id: '' };
  // The person whose orders the last page ended in: told once their last order is done.
  let person = null as Person | null;
  const tell = async (person: Person | null) => {
    if (person?.told)
      await services.jobs.enqueue(
        db,
        sendEventCancelledNoticeJob,
        { eventId: input.eventId, email: person.email, message: input.message },
        { singletonKey: `event-cancelled:${input.eventId}:${person.email}` },
      );
  };
  for (;;) {
    const page = await db
      .select({ id: order.id, status: order.status, email: emailKey })
      .from(order)
      .where(
        and(
          eq(order.eventId, input.eventId),
          sql`(${emailKey}, ${order.id}) > (${after.email}, ${after.id})`,
          inArray(order.status, ['pending', 'paid', 'partially_refunded', 'refunded']),
        ),
      )
      .orderBy(asc(emailKey), asc(order.id))
      .limit(50);
    if (page.length === 0) break;
    const last = page.at(-1)!;
    after = { email: last.email, id: last.id };
    // A few orders at a time: each is its own refund with its own lock, and most of a refund's
    // time is the provider's answer.
    const told = await inParallel(page, ordersAtOnce, (one) => cancelOrder(services, one, input));
    for (const [index, one] of page.entries()) {
      if (person?.email !== one.email) {
        await tell(person);
        person = { email: one.email, told: false };
      }
      if (told[index]) person.told = true;
    }
  }
  await tell(person);
}

/** One order's part of the cancellation; true when the buyer's notice tells of it. */
async function cancelOrder(
  services: JobServices,
  one: { id: string; status: string },
  input: { eventId: string; message: string; actorId: string },
): Promise<boolean> {
  const { db, jobs } = services;
  if (one.status === 'pending') {
    const released = await releaseHold(db, one.id, 'cancelled');
    if (released) services.publish(...orderTopics(released));
    return false;
  }
  const recordedBefore = await cancellationRefundOf(db, one.id);
  // Refunded already: by an admin before (nothing to add), or by an earlier pass whose refund may
  // still wait for the provider (sent again now, with its key).
  const unsent = recordedBefore?.status === 'pending' && recordedBefore.providerRef === null;
  if (one.status !== 'refunded' || unsent) {
    try {
      await refundOrder({
        db,
        payments: services.payments,
        jobs,
        orderId: one.id,
        reason: reasonOf(input.message),
        idempotencyKey: cancellationRefundKey(one.id),
        actorId: input.actorId,
      });
    } catch (error) {
      // Recorded, and its tickets void; its job sends it when the provider is back.
      if (!(error instanceof PaymentProviderUnavailable) && !(error instanceof CallableError)) throw error;
    }
    const [after] = await db.select().from(order).where(eq(order.id, one.id));
    if (after) services.publish(...orderTopics(after));
  }
  const recorded = await cancellationRefundOf(db, one.id);
  // Refused by the provider (the order stays paid, for the organizer to settle): not in the notice.
  return recorded !== undefined && recorded.status !== 'failed';
}

async function cancellationRefundOf(db: Db, orderId: string) {
  const [found] = await db
    .select({ status: refund.status, providerRef: refund.providerRef })
    .from(refund)
    .where(eq(refund.idempotencyKey, cancellationRefundKey(orderId)));
  return found;
}

export const cancelEventOrdersJob = defineJob({
  name: 'orders.cancelEventOrders',
  data: z.object({ eventId: z.string(), message: z.string().max(1_000), actorId: z.string() }),
  retryLimit: 20,
  // A provider that is down does not fail a pass (its refunds wait in their own jobs): a failed
  // try is the database's or a crash's, and the buyers' money should not wait long for it.
  retryDelaySeconds: 2,
  async handler(data, { services }) {
    await cancelEventOrders(services, data);
  },
});

/** A draft that never had an order: gone, with its ticket types; the audit log keeps that it was. */
export const deleteEventCallable = defineCallable(deleteEvent, {
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

export const eventEndCallables = [cancelEventCallable, deleteEventCallable];
