import { eq } from 'drizzle-orm';
import type { SessionUser } from '../../platform/auth/auth';
import { requireOrgRole } from '../../platform/auth/roles';
import type { Db } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import { event } from '../events/schema';

/** The event, when the person is staff or above in its organization (the door's role). */
export async function requireDoorAccess(db: Db, user: SessionUser, eventId: string) {
  const [found] = await db.select().from(event).where(eq(event.id, eventId));
  if (!found) throw new CallableError('not-found', 'No such event');
  await requireOrgRole(db, user, found.organizationId, 'staff');
  return found;
}

/** Published by every change to an event's tickets (orders, refunds, imports). */
export const eventTopic = (eventId: string) => `event:${eventId}`;
/** Published by every scan and undo at the event's doors. */
export const checkInsTopic = (eventId: string) => `event:${eventId}:checkins`;
