import { localizeEvent } from '@admit/shared/event-content';
import { defaultLocale, isLocale } from '@admit/shared/locales';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { z } from 'zod';
import { organization } from '../../platform/auth/organization-schema';
import { imageUrl, jpegVariantOf } from '../../platform/files/uploads';
import type { Tx } from '../../platform/db/database';
import type { JobSender } from '../../platform/jobs/job-queue';
import { defineJob, type JobServices } from '../../platform/jobs/job-services';
import { event, eventChange } from '../events/schema';
import { composeChangeNotice } from './compose-change-notice';
import { recipientsPerBatch } from './audience';
import { composeAttendeeMessage } from './compose-message';
import { attendeeMessage, attendeeMessageRecipient } from './schema';
import { eventMessagesTopic } from './topics';

/** The key the mailer sends a message to one person under: once, however often its job runs. */
export const attendeeMessageKey = (messageId: string, email: string) => `attendee-message:${messageId}:${email}`;

/**
 * Sends one batch of a message: each of its people not done yet gets the email in their language,
 * then is marked sent. A try cut short (a worker killed) is tried again: who was marked is skipped,
 * who was sent but not marked is not sent again (the mailer's key), and marked now.
 */
export async function sendMessageBatch(services: JobServices, input: { messageId: string; batch: number }) {
  const { db } = services;
  const [found] = await db
    .select({ message: attendeeMessage, event, organizer: organization.name, logoFile: organization.logo, change: eventChange })
    .from(attendeeMessage)
    .innerJoin(event, eq(event.id, attendeeMessage.eventId))
    .innerJoin(organization, eq(organization.id, event.organizationId))
    .leftJoin(eventChange, eq(eventChange.id, attendeeMessage.changeId))
    .where(eq(attendeeMessage.id, input.messageId));
  // The event was deleted since (with its messages): nothing left to send.
  if (!found) return;
  const people = await db
    .select()
    .from(attendeeMessageRecipient)
    .where(
      and(
        eq(attendeeMessageRecipient.messageId, input.messageId),
        eq(attendeeMessageRecipient.batch, input.batch),
        isNull(attendeeMessageRecipient.status),
      ),
    )
    .orderBy(asc(attendeeMessageRecipient.email));
  if (people.length > 0) {
    const logo = await jpegVariantOf(db, found.logoFile, 100);
    const logoImage = logo && {
      src: new URL(imageUrl(logo.key), services.publicUrl).toString(),
      width: logo.width,
      height: logo.height,
    };
    for (const person of people) {
      const locale = isLocale(person.locale) ? person.locale : defaultLocale;
      const shown = localizeEvent(found.event, locale);
      const email = found.change
        ? composeChangeNotice({
            to: person.email,
            locale,
            name: person.name,
            organizer: found.organizer,
            // The calendar file as the event is now: a later change's SEQUENCE wins over this one's.
            event: { ...found.event, ...shown, cancelled: found.event.status === 'cancelled' },
            change: found.change,
            publicUrl: services.publicUrl,
            logo: logoImage,
          })
        : composeAttendeeMessage({
            to: person.email,
            locale,
            name: person.name,
            subject: found.message.subject,
            body: found.message.body,
            organizer: found.organizer,
            event: { ...found.event, title: shown.title },
            publicUrl: services.publicUrl,
            logo: logoImage,
          });
      await services.mailer.send(email, { idempotencyKey: attendeeMessageKey(input.messageId, person.email) });
      await db
        .update(attendeeMessageRecipient)
        .set({ status: 'sent', sentAt: sql`now()` })
        .where(
          and(
            eq(attendeeMessageRecipient.messageId, input.messageId),
            eq(attendeeMessageRecipient.email, person.email),
            isNull(attendeeMessageRecipient.status),
          ),
        );
    }
  }
  await countProgress(services, input.messageId);
  services.publish(eventMessagesTopic(found.message.eventId));
}

/**
 * Counts what the message's batches have done, one batch at a time (the message's row locked
 * first, so each count sees every batch that finished before it); done when nobody waits.
 */
async function countProgress(services: JobServices, messageId: string) {
  await services.db.transaction(async (tx) => {
    await tx.select({ id: attendeeMessage.id }).from(attendeeMessage).where(eq(attendeeMessage.id, messageId)).for('update');
    const [counts] = await tx
      .select({
        sent: sql<number>`(count(*) filter (where ${attendeeMessageRecipient.status} = 'sent'))::int`,
        unreachable: sql<number>`(count(*) filter (where ${attendeeMessageRecipient.status} = 'unreachable'))::int`,
        waiting: sql<number>`(count(*) filter (where ${attendeeMessageRecipient.status} is null))::int`,
      })
      .from(attendeeMessageRecipient)
      .where(eq(attendeeMessageRecipient.messageId, messageId));
    await tx
      .update(attendeeMessage)
      .set({
        sent: Number(counts?.sent ?? 0),
        unreachable: Number(counts?.unreachable ?? 0),
        finishedAt: Number(counts?.waiting ?? 0) === 0 ? sql`coalesce(${attendeeMessage.finishedAt}, now())` : null,
      })
      .where(eq(attendeeMessage.id, messageId));
  });
}

export const sendMessageBatchJob = defineJob({
  name: 'messages.sendBatch',
  data: z.object({ messageId: z.string(), batch: z.number().int().nonnegative() }),
  retryLimit: 10,
  retryDelaySeconds: 5,
  // Ten emails take a second or two, even through a slow mail relay: a try still running after
  // half a minute has died with its worker, and is tried again by another.
  expireInSeconds: 30,
  async handler(data, { services }) {
    await sendMessageBatch(services, data);
  },
});

/**
 * A message whose recipients are fixed: their counts on its row (finished at once when nobody can be
 * reached) and one `messages.sendBatch` job per batch, in the transaction that wrote it. Attendee
 * messages and change notices are queued alike.
 */
export async function queueMessageBatches(
  tx: Tx,
  jobs: JobSender,
  messageId: string,
  counts: { recipients: number; unreachable: number },
): Promise<void> {
  const waiting = counts.recipients - counts.unreachable;
  await tx
    .update(attendeeMessage)
    .set({
      recipients: counts.recipients,
      unreachable: counts.unreachable,
      ...(waiting === 0 ? { finishedAt: new Date() } : {}),
    })
    .where(eq(attendeeMessage.id, messageId));
  const batches = Math.ceil(counts.recipients / recipientsPerBatch);
  await jobs.enqueueMany(
    tx,
    sendMessageBatchJob,
    Array.from({ length: batches }, (_, batch) => ({ messageId, batch })),
  );
}
