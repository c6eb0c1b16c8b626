// The organizations module's surface: what app.ts composes and other modules may call.
export { orgLogoSlot } from './org-logo';
export { orgsCallables } from './orgs.functions';
export { orgsLiveQueries } from './orgs.live';
export { emailInvitationsTopic, orgInvitationsTopic, orgMembersTopic, userOrgsTopic } from './topics';
export { sendInvitationJob } from './invitation-email';
