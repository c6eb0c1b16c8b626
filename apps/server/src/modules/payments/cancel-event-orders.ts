import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import { defineJob, type JobServices } from '../../platform/jobs/job-services';
import { PaymentProviderUnavailable } from '../../platform/payments/payment-provider';
import { cancellationRefundKey, orderTopics, releaseHold, sendEventCancelledNoticeJob } from '../orders/orders.api';
import { order } from '../orders/schema';
import { refundOrder } from './refund-order';
import { refund } from './schema';
import { canReceiveMail } from '../../platform/mail/can-receive-mail';

// What becomes of a cancelled event's orders (the events module marks the event cancelled and
// enqueues this job in the same transaction): pending ones lose their hold, paid ones are
// refunded in full with one key per order (orders' refund-keys.ts), and each person (an email
// address) is emailed once, in their language, about all their orders. Tried again after a crash
// or an outage, it does each order's part once; a crash is noticed within seconds (decision 0054).
// Decisions: docs/decisions/0036-event-lifecycle.md, 0054-crashed-jobs-resume.md.

const reasonOf = (message: string) => message || 'The event was cancelled';

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
    if (person?.told && canReceiveMail(person.email))
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
