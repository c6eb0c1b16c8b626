import { heldTicket } from '@admit/shared/transfers';
import { myTickets, type MyTicketRow } from '@admit/shared/tickets';
import { and, asc, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import { defineLiveQuery } from '../../platform/live/live-query';
import { eventTopic, titlesAndVenues } from '../events/events.api';
import { event, ticketType } from '../events/schema';
import { order } from '../orders/schema';
import { ticket, ticketTransfer, transferSettings } from './schema';
import { resaleOfTickets } from './resale-state';
import { holdsTicket } from './ticket-access';
import { ticketTopic, userTicketsTopic } from './topics';
import { transferUntil } from './transfer-window';

const pending = alias(ticketTransfer, 'pending_transfer');
const received = alias(ticketTransfer, 'received_transfer');

/** Tickets as their holder sees them, with whether and until when each may be sent on (decision 0065). */
async function heldTicketRows(db: Db, where: SQL | undefined) {
  const rows = await db
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
      settings: { enabled: transferSettings.enabled, closesHoursBeforeStart: transferSettings.closesHoursBeforeStart },
      pendingId: pending.id,
      pendingTo: pending.toEmail,
      receivedFrom: received.fromName,
      // For the access check of one ticket (tickets.held).
      transferredFrom: ticket.transferredFrom,
      holderUserId: ticket.holderUserId,
      buyerId: order.buyerId,
    })
    .from(ticket)
    .innerJoin(order, eq(order.id, ticket.orderId))
    .innerJoin(event, eq(event.id, ticket.eventId))
    .innerJoin(ticketType, eq(ticketType.id, ticket.ticketTypeId))
    .leftJoin(transferSettings, eq(transferSettings.eventId, ticket.eventId))
    .leftJoin(pending, and(eq(pending.ticketId, ticket.id), eq(pending.status, 'pending')))
    .leftJoin(received, eq(received.newTicketId, ticket.id))
    .where(where)
    .orderBy(asc(event.startsAt), asc(ticket.createdAt), asc(ticket.id));
  const resales = await resaleOfTickets(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => {
    const { settings, pendingId, pendingTo, transferredFrom, holderUserId, buyerId, ...shown } = row;
    const until = transferUntil(
      row,
      { status: row.eventStatus, startsAt: row.startsAt },
      // Left joined: null when the event has no settings saved.
      settings,
    );
    return {
      shown: {
        ...shown,
        startsAt: row.startsAt.toISOString(),
        endsAt: row.endsAt.toISOString(),
        checkedInAt: row.checkedInAt?.toISOString() ?? null,
        transferUntil: until?.toISOString() ?? null,
        pendingTransfer: pendingId && pendingTo ? { id: pendingId, toEmail: pendingTo } : null,
        ...resales.get(row.id)!,
      } satisfies MyTicketRow,
      access: { ticket: { id: row.id, transferredFrom, holderUserId }, order: { id: row.orderId, buyerId } },
    };
  });
}

/**
 * The signed-in person's tickets: those of their orders they still hold, and those sent to them.
 * A ticket they gave away is gone from here (its order's page says to whom).
 */
export const myTicketsLive = defineLiveQuery(myTickets, {
  auth: 'required',
  async load(_params, ctx) {
    const rows = await heldTicketRows(
      ctx.db,
      and(
        or(and(eq(order.buyerId, ctx.user.id), isNull(ticket.transferredFrom)), eq(ticket.holderUserId, ctx.user.id)),
        isNull(ticket.replacedBy),
      ),
    );
    return rows.map((row) => row.shown);
  },
  // The buyer's tickets, and their events: an event's title, time or cancellation shows at once.
  topics: (_params, rows, ctx) => [userTicketsTopic(ctx.user!.id), ...new Set(rows.map((row) => eventTopic(row.eventId)))],
});

/**
 * One ticket, for whoever holds it (ticket-access.ts): a guest who was sent it opens it by the
 * token of its own link. Anyone else gets `not-found`, as for a ticket that does not exist.
 */
export const heldTicketLive = defineLiveQuery(heldTicket, {
  auth: 'optional',
  async load(params, ctx) {
    const [row] = await heldTicketRows(ctx.db, eq(ticket.id, params.ticketId));
    const caller = {
      userId: ctx.user?.id ?? null,
      accessToken: params.accessToken,
      // Only the ticket's own link opens this page (a buyer's order link opens their order's page).
      orderTokenOpens: () => false,
    };
    if (!row || !ctx.config || !holdsTicket(ctx.config, caller, row.access))
      throw new CallableError('not-found', 'No such ticket');
    return [row.shown];
  },
  topics: (params, rows) => [ticketTopic(params.ticketId), ...rows.map((row) => eventTopic(row.eventId))],
});

export const ticketsLiveQueries = [myTicketsLive, heldTicketLive];
