import type { OrgRole } from '@admit/shared/orgs';
import { eq } from 'drizzle-orm';
import type { SessionUser } from '../../platform/auth/auth';
import { orgRoleOf, requireOrgRole } from '../../platform/auth/roles';
import type { Db } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import { event } from './schema';

export type EventRecord = typeof event.$inferSelect;

/** The event, or `not-found`. */
export async function findEvent(db: Db, eventId: string): Promise<EventRecord> {
  const [found] = eventId.length <= 64 ? await db.select().from(event).where(eq(event.id, eventId)) : [];
  if (!found) throw new CallableError('not-found', 'No such event');
  return found;
}

/**
 * The one guard for "this event, at least this role": the event and the caller's role in its
 * organization. Someone outside the organization gets `not-found`, as for an event that does not
 * exist; below the role, `permission-denied` (requireOrgRole).
 */
export async function requireEventRole(
  db: Db,
  user: SessionUser,
  eventId: string,
  minimum: OrgRole,
): Promise<{ event: EventRecord; role: OrgRole }> {
  const found = await findEvent(db, eventId);
  const role = await requireOrgRole(db, user, found.organizationId, minimum);
  return { event: found, role };
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
