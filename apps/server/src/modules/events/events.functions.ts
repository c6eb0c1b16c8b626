import { randomUUID } from 'node:crypto';
import { zonedLocalToInstant } from '@admit/shared/dates';
import { addTicketType, createEvent, publishEvent } from '@admit/shared/events';
import { count, eq } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit/audit-log';
import { requireOrgRole } from '../../platform/auth/roles';
import { defineCallable } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { withFreshSlug } from '../../platform/slug';
import { setEmbedSitesCallable } from './embed-sites';
import { requireEventRole } from './event-access';
import { applyMove, eventChangesCallables } from './event-changes.functions';
import { setEventContentCallable } from './event-content.functions';
import { eventTopic, orgEventsTopic, publishedEventsTopic } from './topics';
import { event, ticketType } from './schema';

export const createEventCallable = defineCallable(createEvent, {
  auth: 'required',
  async handler(input, ctx) {
    await requireOrgRole(ctx.db, ctx.user, input.organizationId, 'admin');
    const eventId = randomUUID();
    const slug = await withFreshSlug(input.title, (slug) =>
      ctx.db.transaction(async (tx) => {
        await tx.insert(event).values({
          id: eventId,
          organizationId: input.organizationId,
          slug,
          title: input.title,
          description: input.description,
          venue: input.venue,
          contentLocale: input.contentLocale,
          timeZone: input.timeZone,
          startsAt: zonedLocalToInstant(input.startsAtLocal, input.timeZone),
          endsAt: zonedLocalToInstant(input.endsAtLocal, input.timeZone),
          capacity: input.capacity,
          maxPerBuyer: input.maxPerBuyer,
          currency: input.currency,
        });
        await recordAudit(tx, {
          organizationId: input.organizationId,
          eventId,
          actor: ctx.user,
          action: 'event.create',
          target: input.title,
        });
        return slug;
      }),
    );
    ctx.publish(orgEventsTopic(input.organizationId));
    return { eventId, slug };
  },
});

export const addTicketTypeCallable = defineCallable(addTicketType, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: found } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
    if (found.status === 'ended' || found.status === 'cancelled') {
      throw new CallableError('failed-precondition', `The event is ${found.status}`, {
        reason: 'event-closed',
        status: found.status,
      });
    }
    const ticketTypeId = randomUUID();
    const [{ existing }] = (await ctx.db
      .select({ existing: count() })
      .from(ticketType)
      .where(eq(ticketType.eventId, input.eventId))) as [{ existing: number }];
    await ctx.db.transaction(async (tx) => {
      await tx.insert(ticketType).values({
        id: ticketTypeId,
        eventId: input.eventId,
        name: input.name,
        capacity: input.capacity,
        maxPerOrder: input.maxPerOrder,
        maxPerBuyer: input.maxPerBuyer,
        price: input.price,
        salesStart: input.salesStartLocal ? zonedLocalToInstant(input.salesStartLocal, found.timeZone) : null,
        salesEnd: input.salesEndLocal ? zonedLocalToInstant(input.salesEndLocal, found.timeZone) : null,
        position: existing,
      });
      await recordAudit(tx, {
        organizationId: found.organizationId,
        eventId: found.id,
        actor: ctx.user,
        action: 'ticketType.add',
        target: input.name,
        details: { price: input.price, capacity: input.capacity },
      });
    });
    ctx.publish(eventTopic(input.eventId));
    return { ticketTypeId };
  },
});

/** Publishing is one of the event's moves (event-changes.functions.ts), kept as its own callable. */
export const publishEventCallable = defineCallable(publishEvent, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: found } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
    await ctx.db.transaction((tx) => applyMove(tx, ctx.user, input.eventId, 'publish'));
    ctx.publish(eventTopic(input.eventId), orgEventsTopic(found.organizationId), publishedEventsTopic);
    return { status: 'published' as const };
  },
});

export const eventsCallables = [
  createEventCallable,
  addTicketTypeCallable,
  publishEventCallable,
  ...eventChangesCallables,
  setEventContentCallable,
  setEmbedSitesCallable,
];
