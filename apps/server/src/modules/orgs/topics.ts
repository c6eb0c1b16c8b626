// Change topics of the orgs module: a publish re-runs the live queries that depend on it.
export const orgMembersTopic = (organizationId: string) => `org:${organizationId}:members`;
export const orgInvitationsTopic = (organizationId: string) => `org:${organizationId}:invitations`;
/** The organizations a person belongs to, and their role in each (`orgs.mine`). */
export const userOrgsTopic = (userId: string) => `user:${userId}:orgs`;
/** Pending invitations addressed to an email (`orgs.myInvitations`); the invitee may not have an account yet. */
export const emailInvitationsTopic = (email: string) => `email:${email.toLowerCase()}:invitations`;
