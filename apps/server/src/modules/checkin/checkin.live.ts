import { attendees, checkInCounts, recentScans, scannerKit } from '@admit/shared/checkin';
import { and, asc, desc, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import { defineLiveQuery, type AuthedLiveContext } from '../../platform/live/live-query';
import { eventTopic, requireEventRole } from '../events/events.api';
import { ticketType } from '../events/schema';
import { ticket } from '../tickets/schema';
import { eventTicketsTopic } from '../tickets/tickets.api';
import { doorQuestionsTopic } from '../questions/questions.api';
import { doorAnswersOf } from './door-answers';
import { checkIn } from './schema';
import { checkInsTopic } from './topics';

/** What a scanner keeps for its event (staff and above): the key that signs the event's ticket codes. */
export const scannerKitLive = defineLiveQuery(scannerKit, {
  auth: 'required',
  async load(params, ctx) {
    const { event: found } = await requireEventRole(ctx.db, ctx.user, params.eventId, 'staff');
    return [
      {
        id: found.id,
        title: found.title,
        timeZone: found.timeZone,
        startsAt: found.startsAt.toISOString(),
        checkinKey: found.checkinKey,
      },
    ];
  },
  topics: (params) => [eventTopic(params.eventId)],
});

/** An event's tickets as the door's list shows them; `where` narrows them (all of them, or some orders' or tickets'). */
async function attendeeRows(ctx: AuthedLiveContext, eventId: string, where?: SQL) {
  const { role } = await requireEventRole(ctx.db, ctx.user, eventId, 'staff');
  const seesEmails = role === 'admin' || role === 'owner';
  const rows = await ctx.db
    .select({
      id: ticket.id,
      code: ticket.code,
      holderName: ticket.holderName,
      holderEmail: ticket.holderEmail,
      ticketTypeName: ticketType.name,
      status: ticket.status,
      checkedInAt: ticket.checkedInAt,
      checkedInDevice: ticket.checkedInDevice,
      answers: ticket.answers,
    })
    .from(ticket)
    .innerJoin(ticketType, eq(ticketType.id, ticket.ticketTypeId))
    .where(and(eq(ticket.eventId, eventId), where))
    .orderBy(asc(ticket.holderName), asc(ticket.id));
  // As they are: rows sent with a mark since taken off would stay on the devices.
  const doorAnswers = await doorAnswersOf(ctx.db, eventId, { fresh: true });
  return rows.map(({ answers, ...row }) => ({
    ...row,
    doorAnswers: doorAnswers(answers),
    holderEmail: seesEmails ? row.holderEmail : null,
    checkedInAt: row.checkedInAt?.toISOString() ?? null,
  }));
}

/**
 * Every ticket of the event (staff and above): the list a scanner checks codes against, also
 * offline. Up to tens of thousands of rows: after the first snapshot, an order or a scan reads
 * only its own tickets (the topics name their orders and tickets; see platform/live/topic-keys.ts).
 */
export const attendeesLive = defineLiveQuery(attendees, {
  auth: 'required',
  load: (params, ctx) => attendeeRows(ctx, params.eventId),
  // A question marked for the door, or no longer (or one so marked changed): every ticket's answers shown change.
  topics: (params) => [eventTicketsTopic(params.eventId), checkInsTopic(params.eventId), doorQuestionsTopic(params.eventId)],
  keyed: {
    topics: (params) => [eventTicketsTopic(params.eventId), checkInsTopic(params.eventId)],
    load(params, keys, ctx) {
      const orderIds = keys.get(eventTicketsTopic(params.eventId)) ?? [];
      const ticketIds = keys.get(checkInsTopic(params.eventId)) ?? [];
      return attendeeRows(
        ctx,
        params.eventId,
        or(
          orderIds.length > 0 ? inArray(ticket.orderId, [...orderIds]) : undefined,
          ticketIds.length > 0 ? inArray(ticket.id, [...ticketIds]) : undefined,
        ) ?? sql`false`,
      );
    },
  },
});

/**
 * Checked in of valid tickets per ticket type (staff and above), for every door and the organizer.
 * The valid tickets of a type are its sold places; the checked-in ones are read through a partial
 * index, so a change costs the admissions, not the tickets, however many there are.
 */
export const checkInCountsLive = defineLiveQuery(checkInCounts, {
  auth: 'required',
  async load(params, ctx) {
    await requireEventRole(ctx.db, ctx.user, params.eventId, 'staff');
    return ctx.db
      .select({
        id: ticketType.id,
        name: ticketType.name,
        // Qualified by hand: in a one-table select Drizzle leaves column names bare, and a bare "id"
        // inside the subquery would mean the ticket's own.
        checkedIn: sql<number>`(select count(*)::int from "ticket" t where t.ticket_type_id = "ticket_type"."id" and t.status = 'valid' and t.checked_in_at is not null)`,
        total: ticketType.sold,
      })
      .from(ticketType)
      .where(eq(ticketType.eventId, params.eventId))
      .orderBy(asc(ticketType.position), asc(ticketType.name));
  },
  topics: (params) => [eventTopic(params.eventId), checkInsTopic(params.eventId)],
});

/** The last 30 scans at all doors (staff and above), newest first. */
export const recentScansLive = defineLiveQuery(recentScans, {
  auth: 'required',
  async load(params, ctx) {
    await requireEventRole(ctx.db, ctx.user, params.eventId, 'staff');
    const rows = await ctx.db
      .select({
        id: checkIn.id,
        result: checkIn.result,
        device: checkIn.device,
        scannedAt: checkIn.scannedAt,
        undoneAt: checkIn.undoneAt,
        holderName: ticket.holderName,
        ticketTypeName: ticketType.name,
      })
      .from(checkIn)
      .leftJoin(ticket, eq(ticket.id, checkIn.ticketId))
      .leftJoin(ticketType, eq(ticketType.id, ticket.ticketTypeId))
      .where(eq(checkIn.eventId, params.eventId))
      .orderBy(desc(checkIn.createdAt), desc(checkIn.id))
      .limit(30);
    return rows.map(({ undoneAt, ...row }) => ({ ...row, scannedAt: row.scannedAt.toISOString(), undone: undoneAt !== null }));
  },
  topics: (params) => [checkInsTopic(params.eventId)],
});

export const checkinLiveQueries = [scannerKitLive, attendeesLive, checkInCountsLive, recentScansLive];
