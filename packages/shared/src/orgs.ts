import { z } from 'zod';
import { defineCallableContract } from './callable';
import { defineLiveQueryContract } from './live';
import { Picture } from './files';

export const OrgRole = z.enum(['owner', 'admin', 'staff']);
export type OrgRole = z.infer<typeof OrgRole>;

export const CreateOrgInput = z.strictObject({
  name: z.string().trim().min(2).max(100),
});
export const CreateOrgOutput = z.object({ organizationId: z.string(), slug: z.string() });
export const createOrg = defineCallableContract('orgs.create', CreateOrgInput, CreateOrgOutput);

export const MyOrgRow = z.object({
  id: z.string(),
  name: z.string(),
  slug: z.string(),
  role: OrgRole,
  /** Members need a second factor to do anything in the organization. */
  requireTwoFactor: z.boolean(),
  logo: Picture.nullable(),
});
export type MyOrgRow = z.infer<typeof MyOrgRow>;
export const myOrgs = defineLiveQueryContract('orgs.mine', z.strictObject({}), MyOrgRow);

const Id = z.string().min(1).max(64);

/** The roles an invitation may offer: ownership moves only by transfer. */
export const InvitedRole = z.enum(['admin', 'staff']);
export type InvitedRole = z.infer<typeof InvitedRole>;
export const InvitationStatus = z.enum(['pending', 'accepted', 'declined', 'revoked']);

export const InviteMemberInput = z.strictObject({
  organizationId: Id,
  email: z.email().max(254),
  role: InvitedRole,
});
export type InviteMemberInput = z.input<typeof InviteMemberInput>;
export const InviteMemberOutput = z.object({ invitationId: z.string(), expiresAt: z.string() });
export const inviteMember = defineCallableContract('orgs.invite', InviteMemberInput, InviteMemberOutput);

export const InvitationInput = z.strictObject({ invitationId: Id });
export const InvitationOutput = z.object({ status: InvitationStatus });
export const acceptInvitation = defineCallableContract(
  'orgs.acceptInvitation',
  InvitationInput,
  z.object({ status: InvitationStatus, organizationId: z.string() }),
);
export const declineInvitation = defineCallableContract('orgs.declineInvitation', InvitationInput, InvitationOutput);
export const revokeInvitation = defineCallableContract('orgs.revokeInvitation', InvitationInput, InvitationOutput);

export const ChangeRoleInput = z.strictObject({ organizationId: Id, userId: Id, role: InvitedRole });
export const ChangeRoleOutput = z.object({ role: OrgRole });
export const changeMemberRole = defineCallableContract('orgs.changeRole', ChangeRoleInput, ChangeRoleOutput);

export const MemberInput = z.strictObject({ organizationId: Id, userId: Id });
export const removeMember = defineCallableContract('orgs.removeMember', MemberInput, z.object({ removed: z.boolean() }));
export const transferOwnership = defineCallableContract('orgs.transferOwnership', MemberInput, z.object({ ownerId: z.string() }));

export const SetRequireTwoFactorInput = z.strictObject({ organizationId: Id, required: z.boolean() });
export const SetRequireTwoFactorOutput = z.object({ required: z.boolean() });
export const setRequireTwoFactor = defineCallableContract(
  'orgs.setRequireTwoFactor',
  SetRequireTwoFactorInput,
  SetRequireTwoFactorOutput,
);

/** A member as the organization's members see them; `email` only for admins and the owner. */
export const MemberRow = z.object({
  id: z.string(),
  userId: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  role: OrgRole,
  joinedAt: z.string(),
});
export type MemberRow = z.infer<typeof MemberRow>;
export const orgMembers = defineLiveQueryContract('orgs.members', z.strictObject({ organizationId: Id }), MemberRow);

export const InvitationRow = z.object({
  id: z.string(),
  email: z.string(),
  role: InvitedRole,
  inviterName: z.string(),
  expiresAt: z.string(),
});
export type InvitationRow = z.infer<typeof InvitationRow>;
export const orgInvitations = defineLiveQueryContract('orgs.invitations', z.strictObject({ organizationId: Id }), InvitationRow);

/** A pending invitation addressed to the signed-in person's email. */
export const MyInvitationRow = z.object({
  id: z.string(),
  organizationId: z.string(),
  organizationName: z.string(),
  role: InvitedRole,
  inviterName: z.string(),
  expiresAt: z.string(),
});
export type MyInvitationRow = z.infer<typeof MyInvitationRow>;
export const myInvitations = defineLiveQueryContract('orgs.myInvitations', z.strictObject({}), MyInvitationRow);

/** Why something in an organization cannot be done: the `reason` in an error's details. */
export const orgFailures = [
  /** The organization requires a second factor and the caller has none. */
  z.object({ reason: z.literal('two-factor-required') }),
  /** The owner turns the requirement on without a second factor of their own. */
  z.object({ reason: z.literal('owner-two-factor-off') }),
  /** The owner's role cannot be changed or removed (ownership is transferred instead). */
  z.object({ reason: z.literal('owner') }),
  z.object({ reason: z.literal('self') }),
  /** Already a member (`already-exists`). */
  z.object({ reason: z.literal('member') }),
  /** An invitation is accepted only from a verified address. */
  z.object({ reason: z.literal('unverified') }),
  z.object({ reason: z.literal('expired') }),
  z.object({ reason: z.literal('accepted') }),
  z.object({ reason: z.literal('declined') }),
  z.object({ reason: z.literal('revoked') }),
  /** `resource-exhausted`: too many invitations from this account, or to this address; try again after the wait. */
  z.object({ reason: z.literal('too-many-invitations'), retryAfterSeconds: z.number() }),
] as const;
