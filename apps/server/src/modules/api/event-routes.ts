import { CodeResource, ListQuery, QuestionResource, TicketTypeResource, listOf } from '@admit/shared/api-v1';
import { and, eq } from 'drizzle-orm';
import { eventCode } from '../codes/schema';
import { event, ticketType } from '../events/schema';
import { eventQuestion } from '../questions/schema';
import { defineRoute, NoQuery } from './api-route';
import { micros, pageConditions, pageOf, updatedAtOf } from './pages';
import { ApiEvent, EventPath, iso, eventOfKey, built, eventResources } from './route-kit';

// The REST API's routes of an organization's events: the events, their ticket types, codes and
// questions (decision 0062).

export const listEvents = defineRoute({
  method: 'GET',
  path: '/events',
  operationId: 'listEvents',
  summary: "The organization's events",
  tag: 'Events',
  scopes: ['read', 'door'],
  params: NoQuery,
  query: ListQuery,
  response: listOf(ApiEvent, 'EventList'),
  async handler({ query }, ctx) {
    const page = pageConditions(query, event);
    const rows = await ctx.db
      .select({ id: event.id, micros: micros(event.updatedAt) })
      .from(event)
      .where(and(eq(event.organizationId, ctx.key.organizationId), page.where))
      .orderBy(...page.orderBy)
      .limit(page.limit);
    const { rows: items, ...rest } = pageOf(rows, query);
    return { data: await built(ctx.db, items, eventResources), ...rest };
  },
});

export const getEvent = defineRoute({
  method: 'GET',
  path: '/events/{event_id}',
  operationId: 'getEvent',
  summary: 'One event',
  tag: 'Events',
  scopes: ['read', 'door'],
  params: EventPath,
  query: NoQuery,
  response: ApiEvent,
  async handler({ params }, ctx) {
    await eventOfKey(ctx, params.event_id);
    const [row] = await ctx.db
      .select({ id: event.id, micros: micros(event.updatedAt) })
      .from(event)
      .where(eq(event.id, params.event_id));
    const [found] = await built(ctx.db, [row!], eventResources);
    return found!;
  },
});

export const listTicketTypes = defineRoute({
  method: 'GET',
  path: '/events/{event_id}/ticket_types',
  operationId: 'listTicketTypes',
  summary: "An event's ticket types, with their prices and what is sold",
  tag: 'Events',
  scopes: ['read'],
  params: EventPath,
  query: ListQuery,
  response: listOf(TicketTypeResource, 'TicketTypeList'),
  async handler({ params, query }, ctx) {
    const found = await eventOfKey(ctx, params.event_id);
    const page = pageConditions(query, ticketType);
    const rows = await ctx.db
      .select({ type: ticketType, id: ticketType.id, micros: micros(ticketType.updatedAt) })
      .from(ticketType)
      .where(and(eq(ticketType.eventId, found.id), page.where))
      .orderBy(...page.orderBy)
      .limit(page.limit);
    const { rows: items, ...rest } = pageOf(rows, query);
    return {
      data: items.map(({ type, ...row }) => ({
        id: type.id,
        object: 'ticket_type' as const,
        event_id: type.eventId,
        name: type.name,
        price: type.price,
        currency: found.currency,
        capacity: type.capacity,
        sold: type.sold,
        held: type.held,
        max_per_order: type.maxPerOrder,
        max_per_buyer: type.maxPerBuyer,
        sales_start: iso(type.salesStart),
        sales_end: iso(type.salesEnd),
        hidden: type.hidden,
        position: type.position,
        time_zone: found.timeZone,
        updated_at: updatedAtOf(row),
      })),
      ...rest,
    };
  },
});

export const listCodes = defineRoute({
  method: 'GET',
  path: '/events/{event_id}/codes',
  operationId: 'listCodes',
  summary: "An event's discount and access codes",
  tag: 'Events',
  scopes: ['read'],
  params: EventPath,
  query: ListQuery,
  response: listOf(CodeResource, 'CodeList'),
  async handler({ params, query }, ctx) {
    const found = await eventOfKey(ctx, params.event_id);
    const page = pageConditions(query, eventCode);
    const rows = await ctx.db
      .select({ code: eventCode, id: eventCode.id, micros: micros(eventCode.updatedAt) })
      .from(eventCode)
      .where(and(eq(eventCode.eventId, found.id), page.where))
      .orderBy(...page.orderBy)
      .limit(page.limit);
    const { rows: items, ...rest } = pageOf(rows, query);
    return {
      data: items.map(({ code, ...row }) => ({
        id: code.id,
        object: 'code' as const,
        event_id: code.eventId,
        code: code.code,
        ticket_type_ids: code.ticketTypeIds,
        discount_percent: code.discountPercent,
        discount_amount: code.discountAmount,
        currency: found.currency,
        min_quantity: code.minQuantity,
        max_uses: code.maxUses,
        max_per_buyer: code.maxPerBuyer,
        valid_from: iso(code.validFrom),
        valid_until: iso(code.validUntil),
        created_at: code.createdAt.toISOString(),
        time_zone: found.timeZone,
        updated_at: updatedAtOf(row),
      })),
      ...rest,
    };
  },
});

export const listQuestions = defineRoute({
  method: 'GET',
  path: '/events/{event_id}/questions',
  operationId: 'listQuestions',
  summary: 'The questions an event asks each attendee',
  tag: 'Events',
  scopes: ['read'],
  params: EventPath,
  query: ListQuery,
  response: listOf(QuestionResource, 'QuestionList'),
  async handler({ params, query }, ctx) {
    const found = await eventOfKey(ctx, params.event_id);
    const page = pageConditions(query, eventQuestion);
    const rows = await ctx.db
      .select({ question: eventQuestion, id: eventQuestion.id, micros: micros(eventQuestion.updatedAt) })
      .from(eventQuestion)
      .where(and(eq(eventQuestion.eventId, found.id), page.where))
      .orderBy(...page.orderBy)
      .limit(page.limit);
    const { rows: items, ...rest } = pageOf(rows, query);
    return {
      data: items.map(({ question, ...row }) => ({
        id: question.id,
        object: 'question' as const,
        event_id: question.eventId,
        position: question.position,
        kind: question.kind,
        label: question.label,
        help: question.help,
        required: question.required,
        options: question.options,
        ticket_type_ids: question.ticketTypeIds,
        on_scanner: question.onScanner,
        updated_at: updatedAtOf(row),
      })),
      ...rest,
    };
  },
});
