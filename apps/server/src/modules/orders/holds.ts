import { and, eq, lt } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../platform/db/database';
import { defineJob } from '../../platform/jobs/job-services';
import { releasePlaces } from '../events/events.api';
import { releaseListings } from '../tickets/tickets.api';
import { recordActivity } from './order-activity';
import { placesOf, type Order } from './order-places';
import { order } from './schema';
import { orderTopics } from './topics';
import { emitOrderWebhook } from './order-resource';

/**
 * Ends the holds of pending orders whose time is up (all events, or one): each order once, by a
 * conditional update on its status, so the sweeper, a read and a late payment never release twice.
 * Returns the orders it expired.
 */
export async function releaseExpiredHolds(db: Db, eventId?: string): Promise<Order[]> {
  const due = await db
    .select({ id: order.id })
    .from(order)
    .where(
      and(eq(order.status, 'pending'), lt(order.holdExpiresAt, new Date()), eventId ? eq(order.eventId, eventId) : undefined),
    )
    .limit(500);
  const expired: Order[] = [];
  for (const { id } of due) {
    const released = await releaseHold(db, id, 'expired', { onlyIfDue: true });
    if (released) expired.push(released);
  }
  return expired;
}

/** Releases one pending order's hold (expired, or cancelled by the buyer); null if it was not pending. */
export async function releaseHold(
  db: Db,
  orderId: string,
  status: 'expired' | 'cancelled',
  options: { onlyIfDue?: boolean } = {},
): Promise<Order | null> {
  return db.transaction(async (tx) => {
    const [released] = await tx
      .update(order)
      .set({ status })
      .where(
        and(
          eq(order.id, orderId),
          eq(order.status, 'pending'),
          options.onlyIfDue ? lt(order.holdExpiresAt, new Date()) : undefined,
        ),
      )
      .returning();
    if (!released) return null;
    await releasePlaces(tx, { eventId: released.eventId, lines: await placesOf(tx, released.id), from: 'held' });
    // Tickets offered back that it held are offered again (decision 0066).
    await releaseListings(tx, released.id);
    await recordActivity(tx, released.id, status);
    await emitOrderWebhook(tx, { orderId: released.id, type: 'order.cancelled' });
    return released;
  });
}

/** Ends a pending order's hold at its time, giving its places back to everyone. Enqueued with the order. */
export const expireHoldJob = defineJob({
  name: 'orders.expireHold',
  data: z.object({ orderId: z.string() }),
  concurrency: 4,
  async handler({ orderId }, { services }) {
    const released = await releaseHold(services.db, orderId, 'expired', { onlyIfDue: true });
    if (released) services.publish(...orderTopics(released));
  },
});
