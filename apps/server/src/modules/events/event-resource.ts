import type { EventResource } from '@admit/shared/api-resources';
import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
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
