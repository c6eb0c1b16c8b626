import { changeMemberRole, removeMember, setRequireTwoFactor, transferOwnership } from '@admit/shared/orgs';
import { and, eq } from 'drizzle-orm';
import { member, organization } from '../../platform/auth/organization-schema';
import { user } from '../../platform/auth/schema';
import { requireOrgRole } from '../../platform/auth/roles';
import type { Db } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import { defineCallable } from '../../platform/http/callable';
import { orgMembersTopic, userOrgsTopic } from './topics';

async function findMember(db: Db, organizationId: string, userId: string) {
  const [found] = await db
    .select()
    .from(member)
    .where(and(eq(member.organizationId, organizationId), eq(member.userId, userId)));
  if (!found) throw new CallableError('not-found', 'No such member');
  return found;
}

export const changeMemberRoleCallable = defineCallable(changeMemberRole, {
  auth: 'required',
  async handler(input, ctx) {
    await requireOrgRole(ctx.db, ctx.user, input.organizationId, 'owner');
    const target = await findMember(ctx.db, input.organizationId, input.userId);
    if (target.role === 'owner')
      throw new CallableError('failed-precondition', 'The owner keeps their role; transfer ownership instead', {
        reason: 'owner',
      });
    await ctx.db.transaction(async (tx) => {
      // Conditional: a member made owner meanwhile (by a transfer) keeps that role.
      const [changed] = await tx
        .update(member)
        .set({ role: input.role })
        .where(and(eq(member.id, target.id), eq(member.role, target.role)))
        .returning({ id: member.id });
      if (!changed) throw new CallableError('aborted', 'The member changed meanwhile; try again');
    });
    ctx.publish(orgMembersTopic(input.organizationId), userOrgsTopic(input.userId));
    return { role: input.role };
  },
});

export const removeMemberCallable = defineCallable(removeMember, {
  auth: 'required',
  async handler(input, ctx) {
    const callerRole = await requireOrgRole(ctx.db, ctx.user, input.organizationId, 'staff');
    const target = await findMember(ctx.db, input.organizationId, input.userId);
    if (target.role === 'owner')
      throw new CallableError('failed-precondition', 'The owner cannot be removed; transfer ownership first', {
        reason: 'owner',
      });
    const leaving = target.userId === ctx.user.id;
    const allowed = leaving || callerRole === 'owner' || (callerRole === 'admin' && target.role === 'staff');
    if (!allowed)
      throw new CallableError('permission-denied', 'Your role cannot remove this member', {
        required: target.role === 'admin' ? 'owner' : 'admin',
        role: callerRole,
      });
    await ctx.db.transaction(async (tx) => {
      const [removed] = await tx
        .delete(member)
        .where(and(eq(member.id, target.id), eq(member.role, target.role)))
        .returning({ id: member.id });
      if (!removed) throw new CallableError('aborted', 'The member changed meanwhile; try again');
    });
    ctx.publish(orgMembersTopic(input.organizationId), userOrgsTopic(input.userId));
    return { removed: true };
  },
});

export const transferOwnershipCallable = defineCallable(transferOwnership, {
  auth: 'required',
  async handler(input, ctx) {
    await requireOrgRole(ctx.db, ctx.user, input.organizationId, 'owner');
    if (input.userId === ctx.user.id) throw new CallableError('failed-precondition', 'You already own it', { reason: 'self' });
    const target = await findMember(ctx.db, input.organizationId, input.userId);
    await ctx.db.transaction(async (tx) => {
      // Both conditional, in one transaction: two transfers at once cannot leave two owners or none.
      const [stepped] = await tx
        .update(member)
        .set({ role: 'admin' })
        .where(and(eq(member.organizationId, input.organizationId), eq(member.userId, ctx.user.id), eq(member.role, 'owner')))
        .returning({ id: member.id });
      if (!stepped) throw new CallableError('aborted', 'Ownership changed meanwhile; try again');
      const [promoted] = await tx
        .update(member)
        .set({ role: 'owner' })
        .where(eq(member.id, target.id))
        .returning({ id: member.id });
      if (!promoted) throw new CallableError('aborted', 'The member changed meanwhile; try again');
    });
    ctx.publish(orgMembersTopic(input.organizationId), userOrgsTopic(ctx.user.id), userOrgsTopic(input.userId));
    return { ownerId: input.userId };
  },
});

export const setRequireTwoFactorCallable = defineCallable(setRequireTwoFactor, {
  auth: 'required',
  async handler(input, ctx) {
    await requireOrgRole(ctx.db, ctx.user, input.organizationId, 'owner');
    if (input.required) {
      // The owner would otherwise lock themselves out with their first call.
      const [owner] = await ctx.db.select({ twoFactorEnabled: user.twoFactorEnabled }).from(user).where(eq(user.id, ctx.user.id));
      if (!owner?.twoFactorEnabled)
        throw new CallableError('failed-precondition', 'Turn on two-factor authentication for yourself first', {
          reason: 'owner-two-factor-off',
        });
    }
    await ctx.db.update(organization).set({ requireTwoFactor: input.required }).where(eq(organization.id, input.organizationId));
    // Every member's list of organizations shows the setting.
    const members = await ctx.db
      .select({ userId: member.userId })
      .from(member)
      .where(eq(member.organizationId, input.organizationId));
    ctx.publish(orgMembersTopic(input.organizationId), ...members.map((row) => userOrgsTopic(row.userId)));
    return { required: input.required };
  },
});

export const memberCallables = [
  changeMemberRoleCallable,
  removeMemberCallable,
  transferOwnershipCallable,
  setRequireTwoFactorCallable,
];
