import { eq } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit/audit-log';
import { member, organization } from '../../platform/auth/organization-schema';
import { requireOrgRole } from '../../platform/auth/roles';
import type { PictureSlot } from '../../platform/files/uploads';
import { eventTopic, orgEventsTopic } from '../events/events.api';
import { event } from '../events/schema';
import { userOrgsTopic } from './topics';

/** An organization's logo (`PUT`/`DELETE /files/orgs/:id/logo`): its admins change it. */
export const orgLogoSlot: PictureSlot = {
  path: '/files/orgs/:id/logo',
  purpose: 'org-logo',
  async authorize(db, user, id) {
    await requireOrgRole(db, user, id, 'admin');
    return { organizationId: id };
  },
  async attach(tx, id, fileId, user) {
    const [found] = await tx.select().from(organization).where(eq(organization.id, id)).for('update');
    await tx.update(organization).set({ logo: fileId }).where(eq(organization.id, id));
    await recordAudit(tx, {
      organizationId: id,
      actor: user,
      action: fileId ? 'org.logo' : 'org.removeLogo',
      target: found!.name,
    });
    return found!.logo;
  },
  // Shown on the members' lists of organizations and on every public page of its events.
  async topics(db, id) {
    const members = await db.select({ userId: member.userId }).from(member).where(eq(member.organizationId, id));
    const events = await db.select({ id: event.id }).from(event).where(eq(event.organizationId, id));
    return [orgEventsTopic(id), ...members.map((one) => userOrgsTopic(one.userId)), ...events.map((one) => eventTopic(one.id))];
  },
};
