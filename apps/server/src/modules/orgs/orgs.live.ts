import { myInvitations, myOrgs, orgInvitations, orgMembers } from '@admit/shared/orgs';
import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { invitation, member, organization } from '../../platform/auth/organization-schema';
import { requireOrgRole } from '../../platform/auth/roles';
import { user } from '../../platform/auth/schema';
import { picturesOf } from '../../platform/files/uploads';
import { defineLiveQuery } from '../../platform/live/live-query';
import { emailInvitationsTopic, orgInvitationsTopic, orgMembersTopic, userOrgsTopic } from './topics';

export const myOrgsLive = defineLiveQuery(myOrgs, {
  auth: 'required',
  async load(_params, ctx) {
    const rows = await ctx.db
      .select({
        id: organization.id,
        name: organization.name,
        slug: organization.slug,
        role: member.role,
        requireTwoFactor: organization.requireTwoFactor,
        logoFile: organization.logo,
      })
      .from(member)
      .innerJoin(organization, eq(organization.id, member.organizationId))
      .where(eq(member.userId, ctx.user.id))
      .orderBy(asc(organization.name));
    const logos = await picturesOf(
      ctx.db,
      rows.map((row) => row.logoFile),
    );
    return rows.map(({ logoFile, ...row }) => ({ ...row, logo: (logoFile && logos.get(logoFile)) || null }));
  },
  topics: (_params, _rows, ctx) => [userOrgsTopic(ctx.user!.id)],
});

const roleOrder = sql`case ${member.role} when 'owner' then 0 when 'admin' then 1 else 2 end`;

export const orgMembersLive = defineLiveQuery(orgMembers, {
  auth: 'required',
  async load(params, ctx) {
    const role = await requireOrgRole(ctx.db, ctx.user, params.organizationId, 'staff');
    // Door staff see who they work with, not how to reach them (staff see nothing else: docs/product.md).
    const seesEmails = role !== 'staff';
    const rows = await ctx.db
      .select({
        id: member.id,
        userId: member.userId,
        name: user.name,
        email: user.email,
        role: member.role,
        joinedAt: member.createdAt,
      })
      .from(member)
      .innerJoin(user, eq(user.id, member.userId))
      .where(eq(member.organizationId, params.organizationId))
      .orderBy(roleOrder, asc(user.name), asc(member.id));
    return rows.map((row) => ({ ...row, email: seesEmails ? row.email : null, joinedAt: row.joinedAt.toISOString() }));
  },
  // The caller's own role decides what they see, so their role changes (user:<id>:orgs) re-run it too.
  topics: (params, _rows, ctx) => [orgMembersTopic(params.organizationId), userOrgsTopic(ctx.user!.id)],
});

export const orgInvitationsLive = defineLiveQuery(orgInvitations, {
  auth: 'required',
  async load(params, ctx) {
    await requireOrgRole(ctx.db, ctx.user, params.organizationId, 'admin');
    const rows = await ctx.db
      .select({
        id: invitation.id,
        email: invitation.email,
        role: invitation.role,
        inviterName: user.name,
        expiresAt: invitation.expiresAt,
      })
      .from(invitation)
      .innerJoin(user, eq(user.id, invitation.inviterId))
      .where(and(eq(invitation.organizationId, params.organizationId), eq(invitation.status, 'pending')))
      .orderBy(asc(invitation.createdAt), asc(invitation.id));
    return rows.map((row) => ({ ...row, expiresAt: row.expiresAt.toISOString() }));
  },
  topics: (params, _rows, ctx) => [orgInvitationsTopic(params.organizationId), userOrgsTopic(ctx.user!.id)],
});

export const myInvitationsLive = defineLiveQuery(myInvitations, {
  auth: 'required',
  async load(_params, ctx) {
    // Only a verified address proves the invitation is theirs.
    if (!ctx.user.emailVerified) return [];
    const rows = await ctx.db
      .select({
        id: invitation.id,
        organizationId: invitation.organizationId,
        organizationName: organization.name,
        role: invitation.role,
        inviterName: user.name,
        expiresAt: invitation.expiresAt,
      })
      .from(invitation)
      .innerJoin(organization, eq(organization.id, invitation.organizationId))
      .innerJoin(user, eq(user.id, invitation.inviterId))
      .where(
        and(
          eq(invitation.email, ctx.user.email.toLowerCase()),
          eq(invitation.status, 'pending'),
          gt(invitation.expiresAt, sql`now()`),
        ),
      )
      .orderBy(asc(invitation.createdAt), asc(invitation.id));
    return rows.map((row) => ({ ...row, expiresAt: row.expiresAt.toISOString() }));
  },
  topics: (_params, _rows, ctx) => [emailInvitationsTopic(ctx.user!.email)],
});

export const orgsLiveQueries = [myOrgsLive, orgMembersLive, orgInvitationsLive, myInvitationsLive];
