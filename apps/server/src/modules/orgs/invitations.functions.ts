import { randomUUID } from 'node:crypto';
import { acceptInvitation, declineInvitation, inviteMember, revokeInvitation } from '@admit/shared/orgs';
import { and, eq, sql } from 'drizzle-orm';
import type { SessionUser } from '../../platform/auth/auth';
import { invitation, member } from '../../platform/auth/organization-schema';
import { requireOrgRole } from '../../platform/auth/roles';
import { user } from '../../platform/auth/schema';
import type { Db, Tx } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import { defineCallable } from '../../platform/http/callable';
import { sendInvitationJob } from './invitation-email';
import { countInvitation } from './invitation-quotas';
import { emailInvitationsTopic, orgInvitationsTopic, orgMembersTopic, userOrgsTopic } from './topics';

const invitationLifetimeMs = 7 * 24 * 60 * 60 * 1000;

async function findInvitation(db: Db, invitationId: string) {
  const [found] = await db.select().from(invitation).where(eq(invitation.id, invitationId));
  if (!found) throw new CallableError('not-found', 'No such invitation');
  return found;
}

/**
 * The invitation, when it is addressed to the caller's verified email and still open. Someone else's
 * invitation is `not-found`, so that its id reveals nothing.
 */
async function requireOpenInvitationFor(db: Db, caller: SessionUser, invitationId: string) {
  const found = await findInvitation(db, invitationId);
  if (found.email !== caller.email.toLowerCase()) throw new CallableError('not-found', 'No such invitation');
  if (!caller.emailVerified) throw new CallableError('failed-precondition', 'Verify your email first', { reason: 'unverified' });
  if (found.status !== 'pending')
    throw new CallableError('failed-precondition', `The invitation was ${found.status}`, { reason: found.status });
  if (found.expiresAt.getTime() <= Date.now())
    throw new CallableError('failed-precondition', 'The invitation has expired', { reason: 'expired' });
  return found;
}

/** Moves a pending invitation on; the condition makes a concurrent answer or revoke lose cleanly. */
async function closeInvitation(db: Tx, invitationId: string, status: 'accepted' | 'declined' | 'revoked') {
  const [closed] = await db
    .update(invitation)
    .set({ status })
    .where(and(eq(invitation.id, invitationId), eq(invitation.status, 'pending')))
    .returning({ id: invitation.id });
  if (!closed) throw new CallableError('aborted', 'The invitation changed meanwhile; try again');
}

export const inviteMemberCallable = defineCallable(inviteMember, {
  auth: 'required',
  async handler(input, ctx) {
    await requireOrgRole(ctx.db, ctx.user, input.organizationId, 'admin');
    const email = input.email.toLowerCase();
    const invitationId = randomUUID();
    const expiresAt = new Date(Date.now() + invitationLifetimeMs);
    await ctx.db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: member.id })
        .from(member)
        .innerJoin(user, eq(user.id, member.userId))
        .where(and(eq(member.organizationId, input.organizationId), sql`lower(${user.email}) = ${email}`));
      if (existing) throw new CallableError('already-exists', 'That person is already a member', { reason: 'member' });
      await countInvitation(tx, ctx, email);
      // The partial unique index allows one pending invitation per email: a second is `already-exists`.
      await tx.insert(invitation).values({
        id: invitationId,
        organizationId: input.organizationId,
        email,
        role: input.role,
        inviterId: ctx.user.id,
        expiresAt,
      });
      // Emailed by a job once this commits; the invitee also sees it on signing in.
      await ctx.jobs.enqueue(tx, sendInvitationJob, { invitationId, locale: ctx.locale });
    });
    ctx.publish(orgInvitationsTopic(input.organizationId), emailInvitationsTopic(email));
    return { invitationId, expiresAt: expiresAt.toISOString() };
  },
});

export const acceptInvitationCallable = defineCallable(acceptInvitation, {
  auth: 'required',
  async handler(input, ctx) {
    const found = await requireOpenInvitationFor(ctx.db, ctx.user, input.invitationId);
    await ctx.db.transaction(async (tx) => {
      await closeInvitation(tx, found.id, 'accepted');
      // Already a member (invited twice, or added meanwhile): the unique index answers `already-exists`.
      await tx
        .insert(member)
        .values({ id: randomUUID(), organizationId: found.organizationId, userId: ctx.user.id, role: found.role });
    });
    ctx.publish(
      orgMembersTopic(found.organizationId),
      orgInvitationsTopic(found.organizationId),
      userOrgsTopic(ctx.user.id),
      emailInvitationsTopic(found.email),
    );
    return { status: 'accepted' as const, organizationId: found.organizationId };
  },
});

export const declineInvitationCallable = defineCallable(declineInvitation, {
  auth: 'required',
  async handler(input, ctx) {
    const found = await requireOpenInvitationFor(ctx.db, ctx.user, input.invitationId);
    await ctx.db.transaction((tx) => closeInvitation(tx, found.id, 'declined'));
    ctx.publish(orgInvitationsTopic(found.organizationId), emailInvitationsTopic(found.email));
    return { status: 'declined' as const };
  },
});

export const revokeInvitationCallable = defineCallable(revokeInvitation, {
  auth: 'required',
  async handler(input, ctx) {
    const found = await findInvitation(ctx.db, input.invitationId);
    await requireOrgRole(ctx.db, ctx.user, found.organizationId, 'admin');
    if (found.status !== 'pending')
      throw new CallableError('failed-precondition', `The invitation was ${found.status}`, { reason: found.status });
    await ctx.db.transaction((tx) => closeInvitation(tx, found.id, 'revoked'));
    ctx.publish(orgInvitationsTopic(found.organizationId), emailInvitationsTopic(found.email));
    return { status: 'revoked' as const };
  },
});

export const invitationCallables = [
  inviteMemberCallable,
  acceptInvitationCallable,
  declineInvitationCallable,
  revokeInvitationCallable,
];
