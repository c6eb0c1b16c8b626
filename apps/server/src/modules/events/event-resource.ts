import type { EventResource } from '@admit/shared/api-resources';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/database';
import { emitWebhook } from '../webhooks/webhooks.api';
import { event } from './schema';

/** An event as the REST API and the webhooks show it (decision 0063); null when there is no such event. */
export async function eventResource(db: Db, eventId: string): Promise<EventResource | null> {
  const [e] = await db.select().from(event).where(eq(event.id, eventId));
  if (!e) return null;
  return {
    object: 'event',
    id: e.id,
    organization_id: e.organizationId,
    slug: e.slug,
    title: e.title,
    description: e.description,
    venue: e.venue,
    status: e.status,
    starts_at: e.startsAt.toISOString(),
    ends_at: e.endsAt.toISOString(),
    time_zone: e.timeZone,
    currency: e.currency,
    capacity: e.capacity,
    sold: e.sold,
    created_at: e.createdAt.toISOString(),
  };
}

/**
 * Reports a change of an event to its organization's webhooks, in the transaction `tx` that makes it
 * (an outbox, decision 0063), with the event as it is after the change.
 */
export async function emitEventWebhook(
  tx: Tx,
  input: { organizationId: string; eventId: string; type: 'event.updated' | 'event.cancelled' },
): Promise<void> {
  await emitWebhook(tx, {
    organizationId: input.organizationId,
    type: input.type,
    objectId: input.eventId,
    payload: () => eventResource(tx, input.eventId),
  });
}
