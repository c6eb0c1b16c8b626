import { eq } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit/audit-log';
import type { PictureSlot } from '../../platform/files/uploads';
import { requireEventRole } from './event-access';
import { event } from './schema';
import { eventTopic, orgEventsTopic, publishedEventsTopic } from './topics';

/** An event's cover picture (`PUT`/`DELETE /files/events/:id/cover`): its admins change it, at any status but cancelled. */
export const eventCoverSlot: PictureSlot = {
  path: '/files/events/:id/cover',
  purpose: 'event-cover',
  async authorize(db, user, id) {
    const { event: found } = await requireEventRole(db, user, id, 'admin');
    return { organizationId: found.organizationId };
  },
  async attach(tx, id, fileId, user) {
    const [found] = await tx.select().from(event).where(eq(event.id, id)).for('update');
    await tx.update(event).set({ coverFile: fileId }).where(eq(event.id, id));
    await recordAudit(tx, {
      organizationId: found!.organizationId,
      eventId: id,
      actor: user,
      action: fileId ? 'event.cover' : 'event.removeCover',
      target: found!.title,
    });
    return found!.coverFile;
  },
  topics: (_db, id, organizationId) => [eventTopic(id), orgEventsTopic(organizationId), publishedEventsTopic],
};
