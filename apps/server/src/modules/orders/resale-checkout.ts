import { eq } from 'drizzle-orm';
import type { CallContext } from '../../platform/http/callable';
import { type EventRecord, SoldOut } from '../events/events.api';
import { ticketType } from '../events/schema';
import { confirmFreeHold } from './confirm-guest-order';
import { releaseExpiredHolds } from './holds';
import { orderAccessToken } from './order-access';
import { sendGuestLinkJob } from './order-emails';
import { requireHoldWithinLimit, requireWithinBuyerLimits, type Buyer } from './order-quotas';
import { holdResale } from './resale-orders';
import { orderTopics } from './topics';

/**
 * A buyer's order of a type whose own places are gone, served from the tickets its holders offer
 * back (decision 0066): one line, at the price their sellers paid, held as any order to pay is, or
 * complete at once when free and the buyer is signed in (a guest's free tickets wait for their
 * emailed link). Null when too few are offered, or people on the type's waiting list come first:
 * the caller answers sold out as before.
 */
export async function orderFromResale(
  ctx: CallContext,
  input: {
    buyer: Buyer;
    event: EventRecord;
    line: { ticketTypeId: string; quantity: number };
    idempotencyKey: string | null;
  },
) {
  const { buyer, event: found, line } = input;
  const typeNow = async () => (await ctx.db.select().from(ticketType).where(eq(ticketType.id, line.ticketTypeId)))[0];
  let type = await typeNow();
  // Holds of tickets offered back that ended but whose jobs have not run yet give them back first.
  if (type && type.resaleListed < line.quantity) {
    const expired = await releaseExpiredHolds(ctx.db, found.id);
    for (const released of expired) ctx.publish(...orderTopics(released));
    if (expired.length > 0) type = await typeNow();
  }
  if (!type || type.waitlistWaiting > 0 || type.resaleListed < line.quantity) return null;
  const holdExpiresAt = new Date(Date.now() + found.holdMinutes * 60_000);
  const held = await ctx.db
    .transaction(async (tx) => {
      const held = await holdResale(tx, ctx.jobs, {
        event: found,
        ticketTypeId: type.id,
        quantity: line.quantity,
        person: buyer,
        locale: ctx.locale,
        expiresAt: holdExpiresAt,
        source: 'resale',
        idempotencyKey: input.idempotencyKey,
      });
      await requireHoldWithinLimit(tx, {
        buyer,
        eventId: found.id,
        quantity: line.quantity,
        limit: ctx.config.ORDER_MAX_HELD_PLACES,
      });
      await requireWithinBuyerLimits(tx, {
        buyerId: buyer.id,
        email: buyer.email,
        event: found,
        lines: [line],
        types: new Map([[type.id, type]]),
      });
      if (held.total === 0 && buyer.id === null) await ctx.jobs.enqueue(tx, sendGuestLinkJob, { orderId: held.orderId });
      return held;
    })
    .catch((error: unknown) => {
      if (error instanceof SoldOut) return null;
      throw error;
    });
  if (!held) return null;
  ctx.publish(...orderTopics({ id: held.orderId, eventId: found.id, buyerId: buyer.id }, found.organizationId));
  const free = held.total === 0 && buyer.id !== null;
  const status = free ? (await confirmFreeHold(ctx, held.orderId, { buyerId: buyer.id, by: 'resale' })).status : 'pending';
  return {
    orderId: held.orderId,
    status,
    ticketCount: status === 'paid' ? line.quantity : 0,
    total: held.total,
    holdExpiresAt: status === 'pending' ? holdExpiresAt.toISOString() : null,
    ...(buyer.id === null && held.total > 0 ? { accessToken: orderAccessToken(ctx.config, held.orderId) } : {}),
  };
}
