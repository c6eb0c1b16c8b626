import { myTickets } from '@admit/shared/tickets';
import { asc, eq, sql } from 'drizzle-orm';
import { defineLiveQuery } from '../../platform/live/live-query';
import { eventTopic, titlesAndVenues } from '../events/events.api';
import { event, ticketType } from '../events/schema';
import { order } from '../orders/schema';
import { ticket } from './schema';
import { userTicketsTopic } from './topics';

export const myTicketsLive = defineLiveQuery(myTickets, {
  auth: 'required',
  async load(_params, ctx) {
    const rows = await ctx.db
      .select({
        id: ticket.id,
        code: ticket.code,
        status: ticket.status,
        holderName: ticket.holderName,
        ticketTypeName: ticketType.name,
        orderId: ticket.orderId,
        freeOrder: sql<boolean>`${order.total} = 0`,
        eventId: event.id,
        eventSlug: event.slug,
        eventTitle: event.title,
        eventStatus: event.status,
        venue: event.venue,
        contentLocale: event.contentLocale,
        eventTranslations: titlesAndVenues,
        ticketTypeNameTranslations: ticketType.nameTranslations,
        timeZone: event.timeZone,
        startsAt: event.startsAt,
        endsAt: event.endsAt,
        checkedInAt: ticket.checkedInAt,
      })
      .from(ticket)
      .innerJoin(order, eq(order.id, ticket.orderId))
      .innerJoin(event, eq(event.id, ticket.eventId))
      .innerJoin(ticketType, eq(ticketType.id, ticket.ticketTypeId))
      .where(eq(order.buyerId, ctx.user.id))
      .orderBy(asc(event.startsAt), asc(ticket.createdAt), asc(ticket.id));
    return rows.map((row) => ({
      ...row,
      startsAt: row.startsAt.toISOString(),
      endsAt: row.endsAt.toISOString(),
      checkedInAt: row.checkedInAt?.toISOString() ?? null,
    }));
  },
  // The buyer's tickets, and their events: an event's title, time or cancellation shows at once.
  topics: (_params, rows, ctx) => [userTicketsTopic(ctx.user!.id), ...new Set(rows.map((row) => eventTopic(row.eventId)))],
});

export const ticketsLiveQueries = [myTicketsLive];
