import { eventMessages, messageRecipients, messageRecipientsShown, orderMessages } from '@admit/shared/attendee-messages';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { organization } from '../../platform/auth/organization-schema';
import { user } from '../../platform/auth/schema';
import { CallableError } from '../../platform/http/callable-error';
import { defineLiveQuery } from '../../platform/live/live-query';
import { requireEventRole } from '../events/events.api';
import { event, eventChange } from '../events/schema';
import { order } from '../orders/schema';
import { attendeeMessage, attendeeMessageRecipient } from './schema';
import { eventMessagesTopic } from './topics';

/** An event's messages, newest first, with how far each has been sent (its admins). */
export const eventMessagesLive = defineLiveQuery(eventMessages, {
  auth: 'required',
  async load(params, ctx) {
    await requireEventRole(ctx.db, ctx.user, params.eventId, 'admin');
    const rows = await ctx.db
      .select({ message: attendeeMessage, authorName: user.name })
      .from(attendeeMessage)
      .leftJoin(user, eq(user.id, attendeeMessage.createdBy))
      .where(eq(attendeeMessage.eventId, params.eventId))
      .orderBy(desc(attendeeMessage.createdAt), desc(attendeeMessage.id))
      .limit(100);
    return rows.map(({ message, authorName }) => ({
      id: message.id,
      subject: message.subject,
      body: message.body,
      audience: message.audience,
      authorName,
      recipients: message.recipients,
      sent: message.sent,
      unreachable: message.unreachable,
      createdAt: message.createdAt.toISOString(),
      finishedAt: message.finishedAt?.toISOString() ?? null,
    }));
  },
  topics: (params) => [eventMessagesTopic(params.eventId)],
});

/** Who a message went to, and when (its event's admins): the record, by address. */
export const messageRecipientsLive = defineLiveQuery(messageRecipients, {
  auth: 'required',
  async load(params, ctx) {
    await requireEventRole(ctx.db, ctx.user, params.eventId, 'admin');
    const rows = await ctx.db
      .select({ recipient: attendeeMessageRecipient })
      .from(attendeeMessageRecipient)
      .innerJoin(attendeeMessage, eq(attendeeMessage.id, attendeeMessageRecipient.messageId))
      .where(and(eq(attendeeMessage.id, params.messageId), eq(attendeeMessage.eventId, params.eventId)))
      .orderBy(asc(attendeeMessageRecipient.email))
      .limit(messageRecipientsShown);
    return rows.map(({ recipient }) => ({
      id: recipient.email,
      name: recipient.name,
      email: recipient.email,
      locale: recipient.locale,
      status: recipient.status ?? ('waiting' as const),
      sentAt: recipient.sentAt?.toISOString() ?? null,
    }));
  },
  topics: (params) => [eventMessagesTopic(params.eventId)],
});

/** The messages that reached the tickets of one's own order, newest first (its buyer). */
export const orderMessagesLive = defineLiveQuery(orderMessages, {
  auth: 'required',
  async load(params, ctx) {
    const [mine] = await ctx.db
      .select({ id: order.id })
      .from(order)
      .where(and(eq(order.id, params.orderId), eq(order.eventId, params.eventId), eq(order.buyerId, ctx.user.id)));
    if (!mine) throw new CallableError('not-found', 'No such order');
    const rows = await ctx.db
      .select({
        id: attendeeMessage.id,
        subject: attendeeMessage.subject,
        body: attendeeMessage.body,
        organizationName: organization.name,
        createdAt: attendeeMessage.createdAt,
        timeZone: event.timeZone,
        before: eventChange.before,
        after: eventChange.after,
      })
      .from(attendeeMessage)
      .innerJoin(event, eq(event.id, attendeeMessage.eventId))
      .innerJoin(organization, eq(organization.id, event.organizationId))
      .leftJoin(eventChange, eq(eventChange.id, attendeeMessage.changeId))
      .where(
        and(
          eq(attendeeMessage.eventId, params.eventId),
          sql`exists (select 1 from ${attendeeMessageRecipient}
            where ${attendeeMessageRecipient.messageId} = ${attendeeMessage.id}
              and ${attendeeMessageRecipient.orderIds} @> array[${params.orderId}]::text[])`,
        ),
      )
      .orderBy(desc(attendeeMessage.createdAt), desc(attendeeMessage.id))
      .limit(50);
    return rows.map(({ timeZone, before, after, ...row }) => ({
      ...row,
      createdAt: row.createdAt.toISOString(),
      change: before && after ? { before, after, timeZone } : null,
    }));
  },
  topics: (params) => [eventMessagesTopic(params.eventId)],
});

export const messagesLiveQueries = [eventMessagesLive, messageRecipientsLive, orderMessagesLive];
