import { eq } from 'drizzle-orm';
import type { SessionUser } from '../../platform/auth/auth';
import { orgRoleOf, requireOrgRole } from '../../platform/auth/roles';
import type { Db } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import type { OrgRole } from '@admit/shared/orgs';
import { event } from './schema';

export type EventRecord = typeof event.$inferSelect;

export async function findEvent(db: Db, eventId: string): Promise<EventRecord> {
  const [found] = await db.select().from(event).where(eq(event.id, eventId));
  if (!found) throw new CallableError('not-found', 'No such event');
  return found;
}

/** The event, when the user holds at least `minimum` in its organization. */
export async function requireEventRole(db: Db, user: SessionUser, eventId: string, minimum: OrgRole): Promise<EventRecord> {
  const found = await findEvent(db, eventId);
  await requireOrgRole(db, user, found.organizationId, minimum);
  return found;
}

/** Anyone may see an event once it is published; a draft only its organization's members. */
export async function canSeeEvent(
  db: Db,
  user: SessionUser | null,
  found: Pick<EventRecord, 'status' | 'organizationId'>,
): Promise<boolean> {
  if (found.status !== 'draft') return true;
  return user !== null && (await orgRoleOf(db, user.id, found.organizationId)) !== null;
}

export const eventTopic = (eventId: string) => `event:${eventId}`;
export const orgEventsTopic = (organizationId: string) => `org:${organizationId}:events`;
export const publishedEventsTopic = 'events:published';
