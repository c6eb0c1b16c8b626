import { randomUUID } from 'node:crypto';
import { zonedLocalToInstant } from '@admit/shared/dates';
import { addTicketType, createEvent, publishEvent } from '@admit/shared/events';
import { and, count, eq } from 'drizzle-orm';
import { requireOrgRole } from '../../platform/auth/roles';
import { defineCallable } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { slugify } from '../../platform/slug';
import { requireEventRole } from './event-access';
import { eventTopic, orgEventsTopic, publishedEventsTopic } from './topics';
import { event, ticketType } from './schema';

export const createEventCallable = defineCallable(createEvent, {
  auth: 'required',
  async handler(input, ctx) {
    await requireOrgRole(ctx.db, ctx.user, input.organizationId, 'admin');
    const eventId = randomUUID();
    const slug = slugify(input.title);
    await ctx.db.insert(event).values({
      id: eventId,
      organizationId: input.organizationId,
      slug,
      title: input.title,
      description: input.description,
      venue: input.venue,
      timeZone: input.timeZone,
      startsAt: zonedLocalToInstant(input.startsAtLocal, input.timeZone),
      endsAt: zonedLocalToInstant(input.endsAtLocal, input.timeZone),
      capacity: input.capacity,
      currency: input.currency,
    });
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
    await ctx.db.insert(ticketType).values({
      id: ticketTypeId,
      eventId: input.eventId,
      name: input.name,
      capacity: input.capacity,
      maxPerOrder: input.maxPerOrder,
      price: input.price,
      salesStart: input.salesStartLocal ? zonedLocalToInstant(input.salesStartLocal, found.timeZone) : null,
      salesEnd: input.salesEndLocal ? zonedLocalToInstant(input.salesEndLocal, found.timeZone) : null,
      position: existing,
    });
    ctx.publish(eventTopic(input.eventId));
    return { ticketTypeId };
  },
});

export const publishEventCallable = defineCallable(publishEvent, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: found } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
    const [{ types }] = (await ctx.db
      .select({ types: count() })
      .from(ticketType)
      .where(eq(ticketType.eventId, input.eventId))) as [{ types: number }];
    if (types === 0)
      throw new CallableError('failed-precondition', 'Add a ticket type before publishing', { reason: 'no-ticket-types' });
    const published = await ctx.db
      .update(event)
      .set({ status: 'published' })
      .where(and(eq(event.id, input.eventId), eq(event.status, 'draft')))
      .returning({ status: event.status });
    if (published.length === 0) {
      throw new CallableError('failed-precondition', `The event is already ${found.status}`, {
        reason: 'not-draft',
        status: found.status,
      });
    }
    ctx.publish(eventTopic(input.eventId), orgEventsTopic(found.organizationId), publishedEventsTopic);
    return { status: 'published' as const };
  },
});

export const eventsCallables = [createEventCallable, addTicketTypeCallable, publishEventCallable];
