import type { OrgRole } from '@admit/shared/orgs';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { CallableError } from '../http/callable-error';
import { member, organization } from './organization-schema';
import { user } from './schema';
import type { SessionUser } from './auth';

const rank: Record<OrgRole, number> = { staff: 1, admin: 2, owner: 3 };

/** The caller's role in an organization, or null when they are not a member. */
export async function orgRoleOf(db: Db, userId: string, organizationId: string): Promise<OrgRole | null> {
  const [row] = await db
    .select({ role: member.role })
    .from(member)
    .where(and(eq(member.organizationId, organizationId), eq(member.userId, userId)));
  return row?.role ?? null;
}

/**
 * Throws unless the user holds at least `minimum` in the organization. Someone outside the
 * organization gets `not-found`, so that ids of other organizations reveal nothing.
 */
export async function requireOrgRole(db: Db, caller: SessionUser, organizationId: string, minimum: OrgRole): Promise<OrgRole> {
  const [row] = await db
    .select({ role: member.role, requireTwoFactor: organization.requireTwoFactor, twoFactorEnabled: user.twoFactorEnabled })
    .from(member)
    .innerJoin(organization, eq(organization.id, member.organizationId))
    .innerJoin(user, eq(user.id, member.userId))
    .where(and(eq(member.organizationId, organizationId), eq(member.userId, caller.id)));
  if (!row) throw new CallableError('not-found', 'No such organization');
  // Checked here, the one guard every organization's callable and live query passes.
  if (row.requireTwoFactor && !row.twoFactorEnabled)
    throw new CallableError('failed-precondition', 'This organization requires two-factor authentication', {
      reason: 'two-factor-required',
    });
  if (rank[row.role] < rank[minimum])
    throw new CallableError('permission-denied', `This needs the ${minimum} role`, { required: minimum, role: row.role });
  return row.role;
}
