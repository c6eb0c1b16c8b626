import { guestMailAllowance, previewAttendeeMessage, sendAttendeeMessage } from '@admit/shared/attendee-messages';
import { localizeEvent } from '@admit/shared/event-content';
import { and, eq } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { recordAudit } from '../../platform/audit/audit-log';
import { organization } from '../../platform/auth/organization-schema';
import { defineCallable } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { requireEventRole } from '../events/events.api';
import { consumeQuotas, quotaKey } from '../../platform/quotas/call-quota';
import { sendChangeNoticeCallable } from './change-notice';
import { checkAudience, countAudience, fixRecipients } from './audience';
import { composeAttendeeMessage } from './compose-message';
import { countGuestMail, guestMailAllowanceOf } from './guest-mail';
import { attendeeMessage } from './schema';
import { queueMessageBatches } from './send-message';
import { eventMessagesTopic } from './topics';

/** How many messages an event's admins may send in an hour, together: a mistake repeated in a loop reaches nobody twenty times. */
const messagesPerEventPerHour = 10;

/** How many people a draft reaches now, and its email as the admin themself would get it. */
export const previewMessageCallable = defineCallable(previewAttendeeMessage, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: found } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
    await checkAudience(ctx.db, found.id, input.audience);
    const counts = await countAudience(ctx.db, found.id, input.audience);
    const [organizer] = await ctx.db
      .select({ name: organization.name })
      .from(organization)
      .where(eq(organization.id, found.organizationId));
    const email = composeAttendeeMessage({
      to: ctx.user.email,
      locale: ctx.locale,
      name: ctx.user.name,
      subject: input.subject,
      body: input.body,
      organizer: organizer?.name ?? '',
      event: { ...found, title: localizeEvent(found, ctx.locale).title },
      publicUrl: ctx.publicUrl,
    });
    return { ...counts, email: { subject: email.subject, html: email.html ?? '', text: email.text } };
  },
});

/**
 * Sends a message: its people are fixed now, in the same transaction as the message and its jobs
 * (one per ten people), so a message is either sent to all of them or, rolled back, to none.
 */
export const sendMessageCallable = defineCallable(sendAttendeeMessage, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: found } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
    const sentBefore = async () => {
      const [existing] = await ctx.db
        .select({ messageId: attendeeMessage.id, recipients: attendeeMessage.recipients })
        .from(attendeeMessage)
        .where(and(eq(attendeeMessage.eventId, found.id), eq(attendeeMessage.idempotencyKey, input.idempotencyKey)));
      return existing;
    };
    const existing = await sentBefore();
    if (existing) return existing;
    await checkAudience(ctx.db, found.id, input.audience);
    const send = ctx.db.transaction(async (tx) => {
      const id = randomUUID();
      await tx.insert(attendeeMessage).values({
        id,
        eventId: found.id,
        subject: input.subject,
        body: input.body,
        audience: input.audience,
        createdBy: ctx.user.id,
        idempotencyKey: input.idempotencyKey,
        recipients: 0,
      });
      const counts = await fixRecipients(tx, {
        id,
        eventId: found.id,
        audience: input.audience,
        fallbackLocale: found.contentLocale,
      });
      if (counts.recipients === 0)
        throw new CallableError('failed-precondition', 'No valid ticket matches this audience', { reason: 'no-recipients' });
      const wait = await consumeQuotas(tx, [
        { key: quotaKey('messages.send:event', found.id), limit: messagesPerEventPerHour, windowSeconds: 3_600 },
      ]);
      if (wait !== null)
        throw new CallableError('resource-exhausted', `Too many messages for this event; try again in ${wait} s`, {
          reason: 'too-many-messages',
          retryAfterSeconds: wait,
        });
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
        action: 'event.message',
        target: input.subject,
        details: { recipients: counts.recipients },
      });
      return { messageId: id, recipients: counts.recipients };
    });
    const result = await send.catch(async (error: unknown) => {
      // The same key sent twice at the same moment: the unique index let one through; answer with it.
      const again = (error as { cause?: { code?: string } }).cause?.code === '23505' ? await sentBefore() : undefined;
      if (again) return again;
      throw error;
    });
    ctx.publish(eventMessagesTopic(found.id));
    return result;
  },
});

/** How many more emails to guests who never bought a ticket the caller may send for the event's organization now. */
export const guestMailAllowanceCallable = defineCallable(guestMailAllowance, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: found } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
    return guestMailAllowanceOf({ db: ctx.db, config: ctx.config, userId: ctx.user.id, organizationId: found.organizationId });
  },
});

export const messagesCallables = [
  previewMessageCallable,
  sendMessageCallable,
  guestMailAllowanceCallable,
  sendChangeNoticeCallable,
];
