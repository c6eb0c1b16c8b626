import { AttendeeResource, ListQuery, listOf } from '@admit/shared/api-v1';
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { event, ticketType } from '../events/schema';
import { eventQuestion } from '../questions/schema';
import { ticketResources } from '../tickets/tickets.api';
import { ticket } from '../tickets/schema';
import { defineRoute, NoQuery, PathId } from './api-route';
import { micros, pageConditions, pageOf, updatedAtOf } from './pages';
import { notFound } from './problem';
import { ApiTicket, EventPath, iso, eventOfKey, built } from './route-kit';

// The REST API's routes of tickets: an event's tickets, one ticket, and its attendees with their
// answers (decision 0062).

export const listTickets = defineRoute({
  method: 'GET',
  path: '/events/{event_id}/tickets',
  operationId: 'listTickets',
  summary: "An event's tickets (valid and void), with their holders and answers",
  tag: 'Tickets',
  scopes: ['read'],
  params: EventPath,
  query: ListQuery,
  response: listOf(ApiTicket, 'TicketList'),
  async handler({ params, query }, ctx) {
    const found = await eventOfKey(ctx, params.event_id);
    const page = pageConditions(query, ticket);
    const rows = await ctx.db
      .select({ id: ticket.id, micros: micros(ticket.updatedAt) })
      .from(ticket)
      .where(and(eq(ticket.eventId, found.id), page.where))
      .orderBy(...page.orderBy)
      .limit(page.limit);
    const { rows: items, ...rest } = pageOf(rows, query);
    return { data: await built(ctx.db, items, ticketResources), ...rest };
  },
});

export const getTicket = defineRoute({
  method: 'GET',
  path: '/tickets/{ticket_id}',
  operationId: 'getTicket',
  summary: 'One ticket',
  tag: 'Tickets',
  scopes: ['read'],
  params: z.strictObject({ ticket_id: PathId }),
  query: NoQuery,
  response: ApiTicket,
  async handler({ params }, ctx) {
    const [row] = await ctx.db
      .select({ id: ticket.id, micros: micros(ticket.updatedAt) })
      .from(ticket)
      .innerJoin(event, eq(event.id, ticket.eventId))
      .where(and(eq(ticket.id, params.ticket_id), eq(event.organizationId, ctx.key.organizationId)));
    if (!row) throw notFound('ticket');
    const [resource] = await built(ctx.db, [row], ticketResources);
    return resource!;
  },
});

export const listAttendees = defineRoute({
  method: 'GET',
  path: '/events/{event_id}/attendees',
  operationId: 'listAttendees',
  summary: "An event's attendees: its valid tickets' holders, their answers and whether they are in",
  tag: 'Tickets',
  scopes: ['read'],
  params: EventPath,
  query: ListQuery,
  response: listOf(AttendeeResource, 'AttendeeList'),
  async handler({ params, query }, ctx) {
    const found = await eventOfKey(ctx, params.event_id);
    const page = pageConditions(query, ticket);
    const rows = await ctx.db
      .select({ ticket, id: ticket.id, micros: micros(ticket.updatedAt), ticketTypeName: ticketType.name })
      .from(ticket)
      .innerJoin(ticketType, eq(ticketType.id, ticket.ticketTypeId))
      .where(and(eq(ticket.eventId, found.id), eq(ticket.status, 'valid'), page.where))
      .orderBy(...page.orderBy)
      .limit(page.limit);
    const { rows: items, ...rest } = pageOf(rows, query);
    const questions = await ctx.db
      .select({ id: eventQuestion.id, label: eventQuestion.label })
      .from(eventQuestion)
      .where(eq(eventQuestion.eventId, found.id))
      .orderBy(asc(eventQuestion.position));
    return {
      data: items.map((row) => ({
        id: row.ticket.id,
        object: 'attendee' as const,
        event_id: row.ticket.eventId,
        order_id: row.ticket.orderId,
        ticket_type_id: row.ticket.ticketTypeId,
        ticket_type_name: row.ticketTypeName,
        name: row.ticket.holderName,
        email: row.ticket.holderEmail,
        answers: questions.flatMap((question) => {
          const value = row.ticket.answers[question.id];
          return value === undefined ? [] : [{ question_id: question.id, label: question.label, value }];
        }),
        checked_in_at: iso(row.ticket.checkedInAt),
        time_zone: found.timeZone,
        updated_at: updatedAtOf(row),
      })),
      ...rest,
    };
  },
});
