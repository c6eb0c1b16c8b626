import { randomUUID } from 'node:crypto';
import { EventResource, OrderResource, TicketResource } from '@admit/shared/api-resources';
import {
  AttendeeResource,
  CheckInResource,
  CodeResource,
  CreateCheckInBody,
  CreateCheckInResult,
  ListQuery,
  PaymentResource,
  QuestionResource,
  TicketTypeResource,
  listOf,
} from '@admit/shared/api-v1';
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../platform/db/database';
import { applyScans, scannedTopic } from '../checkin/checkin.api';
import { checkIn } from '../checkin/schema';
import { eventCode } from '../codes/schema';
import { eventResource } from '../events/events.api';
import { event, ticketType } from '../events/schema';
import { orderResources } from '../orders/orders.api';
import { order } from '../orders/schema';
import { refund } from '../payments/schema';
import { eventQuestion } from '../questions/schema';
import { ticketResources } from '../tickets/tickets.api';
import { ticket } from '../tickets/schema';
import { defineRoute, NoQuery, PathId, type ApiContext } from './api-route';
import { micros, pageConditions, pageOf, updatedAtOf } from './pages';
import { ApiProblem, notFound } from './problem';

// The REST API's routes: thin doors onto the modules (decision 0062). Reads go through the owning
// modules' resource builders or their tables; the one write, a check-in, through the check-in
// module's own scan (the first scan of a ticket admits it, everywhere).

const Updated = { updated_at: z.iso.datetime() };
const ApiEvent = EventResource.extend(Updated).meta({ id: 'Event' });
const ApiOrder = OrderResource.extend(Updated).meta({ id: 'Order' });
const ApiTicket = TicketResource.extend(Updated).meta({ id: 'Ticket' });
const EventPath = z.strictObject({ event_id: PathId });
const iso = (time: Date | null) => time?.toISOString() ?? null;

/** The key's organization's event, or not-found (another organization's events do not exist for it). */
async function eventOfKey(ctx: ApiContext, eventId: string) {
  const [found] = await ctx.db
    .select({ id: event.id, timeZone: event.timeZone, currency: event.currency })
    .from(event)
    .where(and(eq(event.id, eventId), eq(event.organizationId, ctx.key.organizationId)));
  if (!found) throw notFound('event');
  return found;
}

/** The rows' resources from their module's builder, each with its row's updated_at beside it. */
async function built<R extends { id: string }>(
  db: Db,
  rows: { id: string; micros: string }[],
  build: (db: Db, ids: string[]) => Promise<R[]>,
) {
  const changed = new Map(rows.map((row) => [row.id, updatedAtOf(row)]));
  return (
    await build(
      db,
      rows.map((row) => row.id),
    )
  ).map((resource) => ({ ...resource, updated_at: changed.get(resource.id)! }));
}

/** The events' resources, one by one (a page of an organization's events is short). */
const eventResources = async (db: Db, ids: string[]) =>
  (await Promise.all(ids.map((id) => eventResource(db, id)))).filter((found) => found !== null);

const listEvents = defineRoute({
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

const getEvent = defineRoute({
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

const listTicketTypes = defineRoute({
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

const listOrders = defineRoute({
  method: 'GET',
  path: '/events/{event_id}/orders',
  operationId: 'listOrders',
  summary: "An event's orders with their lines",
  tag: 'Orders',
  scopes: ['read'],
  params: EventPath,
  query: ListQuery,
  response: listOf(ApiOrder, 'OrderList'),
  async handler({ params, query }, ctx) {
    const found = await eventOfKey(ctx, params.event_id);
    const page = pageConditions(query, order);
    const rows = await ctx.db
      .select({ id: order.id, micros: micros(order.updatedAt) })
      .from(order)
      .where(and(eq(order.eventId, found.id), page.where))
      .orderBy(...page.orderBy)
      .limit(page.limit);
    const { rows: items, ...rest } = pageOf(rows, query);
    return { data: await built(ctx.db, items, orderResources), ...rest };
  },
});

/** The key's organization's order, or not-found. */
async function orderOfKey(ctx: ApiContext, orderId: string) {
  const [found] = await ctx.db
    .select({ order, micros: micros(order.updatedAt), timeZone: event.timeZone })
    .from(order)
    .innerJoin(event, eq(event.id, order.eventId))
    .where(and(eq(order.id, orderId), eq(event.organizationId, ctx.key.organizationId)));
  if (!found) throw notFound('order');
  return found;
}

const OrderPath = z.strictObject({ order_id: PathId });
const getOrder = defineRoute({
  method: 'GET',
  path: '/orders/{order_id}',
  operationId: 'getOrder',
  summary: 'One order with its lines',
  tag: 'Orders',
  scopes: ['read'],
  params: OrderPath,
  query: NoQuery,
  response: ApiOrder,
  async handler({ params }, ctx) {
    const found = await orderOfKey(ctx, params.order_id);
    const [resource] = await built(ctx.db, [{ id: found.order.id, micros: found.micros }], orderResources);
    return resource!;
  },
});

const getPayment = defineRoute({
  method: 'GET',
  path: '/orders/{order_id}/payment',
  operationId: 'getOrderPayment',
  summary: 'What was paid for an order, and its refunds',
  tag: 'Orders',
  scopes: ['read'],
  params: OrderPath,
  query: NoQuery,
  response: PaymentResource,
  async handler({ params }, ctx) {
    const { order: found, micros: changed, timeZone } = await orderOfKey(ctx, params.order_id);
    const refunds = await ctx.db.select().from(refund).where(eq(refund.orderId, found.id)).orderBy(asc(refund.createdAt));
    return {
      object: 'payment' as const,
      order_id: found.id,
      provider: found.paymentProvider,
      provider_ref: found.paymentRef,
      status: found.total === 0 && found.status === 'paid' ? ('none' as const) : found.status,
      amount: found.total,
      refunded_amount: found.refundedAmount,
      currency: found.currency,
      refunds: refunds.map((one) => ({
        id: one.id,
        amount: one.amount,
        status: one.status,
        reason: one.reason,
        created_at: one.createdAt.toISOString(),
      })),
      time_zone: timeZone,
      updated_at: updatedAtOf({ micros: changed }),
    };
  },
});

const listTickets = defineRoute({
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

const getTicket = defineRoute({
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

const listAttendees = defineRoute({
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

const checkInOf = (row: typeof checkIn.$inferSelect, micros: string, timeZone: string) => ({
  id: row.id,
  object: 'check_in' as const,
  event_id: row.eventId,
  ticket_id: row.ticketId,
  device: row.device,
  result: row.result,
  scanned_at: row.scannedAt.toISOString(),
  undone_at: iso(row.undoneAt),
  time_zone: timeZone,
  updated_at: updatedAtOf({ micros }),
});

const listCheckIns = defineRoute({
  method: 'GET',
  path: '/events/{event_id}/check_ins',
  operationId: 'listCheckIns',
  summary: "An event's scans at the door, whatever their result",
  tag: 'Check-ins',
  scopes: ['read', 'door'],
  params: EventPath,
  query: ListQuery,
  response: listOf(CheckInResource, 'CheckInList'),
  async handler({ params, query }, ctx) {
    const found = await eventOfKey(ctx, params.event_id);
    const page = pageConditions(query, checkIn);
    const rows = await ctx.db
      .select({ checkIn, id: checkIn.id, micros: micros(checkIn.updatedAt) })
      .from(checkIn)
      .where(and(eq(checkIn.eventId, found.id), page.where))
      .orderBy(...page.orderBy)
      .limit(page.limit);
    const { rows: items, ...rest } = pageOf(rows, query);
    return { data: items.map((row) => checkInOf(row.checkIn, row.micros, found.timeZone)), ...rest };
  },
});

const createCheckIn = defineRoute({
  method: 'POST',
  path: '/events/{event_id}/check_ins',
  operationId: 'createCheckIn',
  summary: 'Scans a ticket from another scanner',
  description:
    "The same rule as Admit's own scanner: the first scan of a valid ticket admits it (`accepted`); every later one, from any scanner, is a `duplicate` naming the first. Every scan is kept in the log. Send an `Idempotency-Key`: a scan sent again with it is applied once.",
  tag: 'Check-ins',
  scopes: ['write', 'door'],
  params: EventPath,
  query: NoQuery,
  body: CreateCheckInBody,
  response: CreateCheckInResult,
  status: 201,
  async handler({ params, body }, ctx) {
    const found = await eventOfKey(ctx, params.event_id);
    const [answer] = await applyScans(ctx.db, [
      {
        eventId: found.id,
        code: body.code,
        device: body.device,
        scannedAt: body.scanned_at ?? new Date().toISOString(),
        // The request's Idempotency-Key is kept by the API; each scan here is one scan.
        idempotencyKey: `api:${randomUUID()}`,
      },
    ]);
    ctx.publish(scannedTopic(found.id, [answer!]));
    const [row] = await ctx.db
      .select({ checkIn, micros: micros(checkIn.updatedAt) })
      .from(checkIn)
      .where(eq(checkIn.id, answer!.checkInId));
    if (!row) throw new ApiProblem(500, 'internal', 'The scan was not recorded');
    return { check_in: checkInOf(row.checkIn, row.micros, found.timeZone), first_check_in: answer!.firstCheckIn };
  },
});

const listCodes = defineRoute({
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

const listQuestions = defineRoute({
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

export const apiRoutes = [
  listEvents,
  getEvent,
  listTicketTypes,
  listOrders,
  getOrder,
  getPayment,
  listTickets,
  getTicket,
  listAttendees,
  listCheckIns,
  createCheckIn,
  listCodes,
  listQuestions,
];
