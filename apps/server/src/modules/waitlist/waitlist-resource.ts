import type { WaitlistEntryResource } from '@admit/shared/api-resources';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/database';
import { event } from '../events/schema';
import { order } from '../orders/schema';
import { emitWebhook } from '../webhooks/webhooks.api';
import { waitlistEntry } from './schema';

/** A waiting-list entry as the webhooks show it; null when there is no such entry. */
export async function waitlistEntryResource(db: Db | Tx, entryId: string): Promise<WaitlistEntryResource | null> {
  const [found] = await db
    .select({ entry: waitlistEntry, organizationId: event.organizationId, holdExpiresAt: order.holdExpiresAt })
    .from(waitlistEntry)
    .innerJoin(event, eq(event.id, waitlistEntry.eventId))
    .leftJoin(order, eq(order.id, waitlistEntry.offerOrderId))
    .where(eq(waitlistEntry.id, entryId));
  if (!found) return null;
  const { entry } = found;
  return {
    object: 'waitlist_entry',
    id: entry.id,
    organization_id: found.organizationId,
    event_id: entry.eventId,
    ticket_type_id: entry.ticketTypeId,
    name: entry.name,
    email: entry.email,
    quantity: entry.quantity,
    status: entry.status,
    joined_at: entry.joinedAt.toISOString(),
    offer: entry.offerOrderId
      ? {
          order_id: entry.offerOrderId,
          quantity: entry.offeredQuantity ?? entry.quantity,
          hold_expires_at: found.holdExpiresAt?.toISOString() ?? null,
        }
      : null,
  };
}

/** Reports a change of an entry to its organization's webhooks, in the transaction that makes it (decision 0063). */
export async function emitWaitlistWebhook(
  tx: Tx,
  input: { organizationId: string; entryId: string; type: 'waitlist.offered' },
): Promise<void> {
  await emitWebhook(tx, {
    organizationId: input.organizationId,
    type: input.type,
    objectId: input.entryId,
    payload: () => waitlistEntryResource(tx, input.entryId),
  });
}
