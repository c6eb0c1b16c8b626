import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { Config } from '../../platform/config';
import type { Tx } from '../../platform/db/database';
import type { JobSender } from '../../platform/jobs/job-queue';
import { defineJob } from '../../platform/jobs/job-services';
import { canReceiveMail } from '../../platform/mail/can-receive-mail';
import { takePlaces } from '../events/events.api';
import { composeWaitlistOffer } from './compose-order-email';
import { expireHoldJob } from './holds';
import { guestOrderUrl } from './order-access';
import { recordActivity } from './order-activity';
import { findOrderWithEvent, picturesFor, recipientOf, sendOnce, type OrderEmailDeps } from './order-emails';
import { ticketCountOf } from './order-places';
import { emitOrderWebhook } from './order-resource';
import { holdResale } from './resale-orders';
import { order, orderLine } from './schema';

// The orders side of a waiting list's offer (decision 0064): a hold made for the person whose turn
// it is, which they pay on the order's page as any hold, or accept when free (confirmFreeHold), and
// which ends at its time as any unpaid hold does, giving its places to the next person waiting.

export interface WaitlistHold {
  event: { id: string; organizationId: string; currency: string };
  ticketTypeId: string;
  /** The ticket type's price now, in minor units: what each ticket of the offer costs. */
  unitPrice: number;
  quantity: number;
  person: { id: string | null; name: string; email: string };
  locale: string | null;
  expiresAt: Date;
  /** Offer tickets their holders offer back instead of the type's own places (`unitPrice` is then theirs). */
  resale?: boolean;
}

/**
 * Holds `quantity` places of one ticket type for a person on its waiting list, in the caller's
 * transaction: a pending order at the type's price, its end enqueued, and the email that tells
 * them. Throws SoldOut (and the caller's transaction rolls back) when the places are not free.
 */
export async function holdForWaitlist(tx: Tx, jobs: JobSender, hold: WaitlistHold): Promise<{ orderId: string; total: number }> {
  // Tickets offered back, at the price their sellers paid (decision 0066).
  if (hold.resale) {
    const held = await holdResale(tx, jobs, { ...hold, source: 'waitlist' });
    await jobs.enqueue(tx, sendWaitlistOfferJob, { orderId: held.orderId });
    return held;
  }
  const lines = [{ ticketTypeId: hold.ticketTypeId, quantity: hold.quantity }];
  await takePlaces(tx, { eventId: hold.event.id, lines, as: 'held', eventStatuses: ['published'] });
  const orderId = randomUUID();
  const total = hold.unitPrice * hold.quantity;
  await tx.insert(order).values({
    id: orderId,
    eventId: hold.event.id,
    buyerId: hold.person.id,
    buyerName: hold.person.name,
    email: hold.person.email,
    status: 'pending',
    total,
    currency: hold.event.currency,
    holdExpiresAt: hold.expiresAt,
    locale: hold.locale,
  });
  await tx.insert(orderLine).values({ id: randomUUID(), orderId, ...lines[0]!, unitPrice: hold.unitPrice });
  await recordActivity(tx, orderId, 'created', { total, tickets: hold.quantity, source: 'waitlist' });
  await emitOrderWebhook(tx, { organizationId: hold.event.organizationId, orderId, type: 'order.created' });
  await jobs.enqueue(tx, expireHoldJob, { orderId }, { startAfter: hold.expiresAt });
  await jobs.enqueue(tx, sendWaitlistOfferJob, { orderId });
  return { orderId, total };
}

/**
 * Tells the person their places came free, until when they are held, and where to pay (the order's
 * page) or accept (the event's page, where their entry is). Once per offer; nothing once it ended.
 */
export async function sendWaitlistOffer(
  deps: OrderEmailDeps & { config: Pick<Config, 'AUTH_SECRET'> },
  orderId: string,
): Promise<boolean> {
  const found = await findOrderWithEvent(deps.db, orderId);
  if (found.order.status !== 'pending' || !found.order.holdExpiresAt || !canReceiveMail(found.order.email)) return false;
  // A guest's offer opens by its link: the order's page, where they pay, or which, when free, takes it.
  const page =
    found.order.buyerId === null
      ? guestOrderUrl(deps.config, deps.publicUrl, orderId)
      : found.order.total > 0
        ? `/orders/${encodeURIComponent(orderId)}`
        : `/e/${encodeURIComponent(found.event.slug)}`;
  const email = composeWaitlistOffer({
    ...recipientOf(found, deps.publicUrl),
    images: (await picturesFor(deps, found)).images,
    count: await ticketCountOf(deps.db, orderId),
    total: found.order.total,
    expiresAt: found.order.holdExpiresAt,
    url: new URL(page, deps.publicUrl).toString(),
  });
  return sendOnce(deps, orderId, email, `waitlist-offer:${orderId}`, { kind: 'waitlist-offer', to: found.order.email });
}

export const sendWaitlistOfferJob = defineJob({
  name: 'orders.sendWaitlistOffer',
  data: z.object({ orderId: z.string() }),
  async handler({ orderId }, { services }) {
    await sendWaitlistOffer(services, orderId);
  },
});
