import { sendChangeNotice } from '@admit/shared/attendee-messages';
import { isLocale } from '@admit/shared/locales';
import { and, eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { recordAudit } from '../../platform/audit/audit-log';
import { defineCallable } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { requireEventRole } from '../events/events.api';
import { eventChange } from '../events/schema';
import { fixRecipients } from './audience';
import { changeLines, changeNoticeSubject } from './compose-change-notice';
import { countGuestMail } from './guest-mail';
import { attendeeMessage } from './schema';
import { queueMessageBatches } from './send-message';
import { eventMessagesTopic } from './topics';

/**
 * Tells everyone holding a valid ticket of the event that its time or place changed: a message like
 * an organizer's (its people fixed now, ten to a job, once per address), whose email Admit writes
 * from the change in each person's language. Once per change: the unique index on the message's
 * change answers a repeated or simultaneous ask with the notice already sent. Not counted against
 * the hourly limit on messages (each change is told at most once), but its emails to guests who
 * never bought count as any message's do.
 */
export const sendChangeNoticeCallable = defineCallable(sendChangeNotice, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: found } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
    const [change] = await ctx.db
      .select()
      .from(eventChange)
      .where(and(eq(eventChange.id, input.changeId), eq(eventChange.eventId, found.id)));
    if (!change) throw new CallableError('not-found', 'No such change to this event');
    const sentBefore = async () => {
      const [existing] = await ctx.db
        .select({ messageId: attendeeMessage.id, recipients: attendeeMessage.recipients })
        .from(attendeeMessage)
        .where(eq(attendeeMessage.changeId, change.id));
      return existing;
    };
    const existing = await sentBefore();
    if (existing) return existing;
    if (found.status === 'cancelled')
      throw new CallableError('failed-precondition', 'The event is cancelled', { reason: 'event-closed', status: 'cancelled' });
    const locale = isLocale(found.contentLocale) ? found.contentLocale : 'en';
    const send = ctx.db.transaction(async (tx) => {
      const id = randomUUID();
      await tx.insert(attendeeMessage).values({
        id,
        eventId: found.id,
        // What the event's admins read in their list of messages, in the event's language.
        subject: changeNoticeSubject(locale, found.title),
        body: changeLines(locale, change, found.timeZone).join('\n'),
        audience: { ticketTypeIds: [], checkIn: 'any' },
        createdBy: ctx.user.id,
        idempotencyKey: `change:${change.id}`,
        changeId: change.id,
        recipients: 0,
      });
      const counts = await fixRecipients(tx, {
        id,
        eventId: found.id,
        audience: { ticketTypeIds: [], checkIn: 'any' },
        fallbackLocale: found.contentLocale,
      });
      if (counts.recipients === 0)
        throw new CallableError('failed-precondition', 'Nobody holds a valid ticket', { reason: 'no-recipients' });
      // A venue changed back and forth is another way to write to a typed-in guest list: counted the same.
      await countGuestMail({
        db: tx,
        config: ctx.config,
        userId: ctx.user.id,
        organizationId: found.organizationId,
        emails: counts.guests,
      });
      await queueMessageBatches(tx, ctx.jobs, id, counts);
      await recordAudit(tx, {
        organizationId: found.organizationId,
        eventId: found.id,
        actor: ctx.user,
        action: 'event.changeNotice',
        target: found.title,
        details: { recipients: counts.recipients, sequence: change.sequence },
      });
      return { messageId: id, recipients: counts.recipients };
    });
    const result = await send.catch(async (error: unknown) => {
      // Asked twice at the same moment: the unique index let one through; answer with it.
      const again = (error as { cause?: { code?: string } }).cause?.code === '23505' ? await sentBefore() : undefined;
      if (again) return again;
      throw error;
    });
    ctx.publish(eventMessagesTopic(found.id));
    return result;
  },
});
