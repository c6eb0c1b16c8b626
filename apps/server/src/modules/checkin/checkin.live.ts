import { attendees, checkInCounts, recentScans, scannerKit } from '@admit/shared/checkin';
import { asc, desc, eq, sql } from 'drizzle-orm';
import { orgRoleOf } from '../../platform/auth/roles';
import { defineLiveQuery } from '../../platform/live/live-query';
import { checkInsTopic, eventTopic, requireDoorAccess } from './door-access';
import { ticketType } from '../events/schema';
import { ticket } from '../orders/schema';
import { checkIn } from './schema';

/** What a scanner keeps for its event (staff and above): the key that signs the event's ticket codes. */
export const scannerKitLive = defineLiveQuery(scannerKit, {
  auth: 'required',
  async load(params, ctx) {
    const found = await requireDoorAccess(ctx.db, ctx.user, params.eventId);
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

/** Every ticket of the event (staff and above): the list a scanner checks codes against, also offline. */
export const attendeesLive = defineLiveQuery(attendees, {
  auth: 'required',
  async load(params, ctx) {
    const found = await requireDoorAccess(ctx.db, ctx.user, params.eventId);
    const role = await orgRoleOf(ctx.db, ctx.user.id, found.organizationId);
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
      })
      .from(ticket)
      .innerJoin(ticketType, eq(ticketType.id, ticket.ticketTypeId))
      .where(eq(ticket.eventId, params.eventId))
      .orderBy(asc(ticket.holderName), asc(ticket.id));
    return rows.map((row) => ({
      ...row,
      holderEmail: seesEmails ? row.holderEmail : null,
      checkedInAt: row.checkedInAt?.toISOString() ?? null,
    }));
  },
  topics: (params) => [eventTopic(params.eventId), checkInsTopic(params.eventId)],
});

/** Checked in of valid tickets per ticket type (staff and above), for every door and the organizer. */
export const checkInCountsLive = defineLiveQuery(checkInCounts, {
  auth: 'required',
  async load(params, ctx) {
    await requireDoorAccess(ctx.db, ctx.user, params.eventId);
    return ctx.db
      .select({
        id: ticketType.id,
        name: ticketType.name,
        checkedIn: sql<number>`count(${ticket.id}) filter (where ${ticket.status} = 'valid' and ${ticket.checkedInAt} is not null)::int`,
        total: sql<number>`count(${ticket.id}) filter (where ${ticket.status} = 'valid')::int`,
      })
      .from(ticketType)
      .leftJoin(ticket, eq(ticket.ticketTypeId, ticketType.id))
      .where(eq(ticketType.eventId, params.eventId))
      .groupBy(ticketType.id, ticketType.name, ticketType.position)
      .orderBy(asc(ticketType.position), asc(ticketType.name));
  },
  topics: (params) => [eventTopic(params.eventId), checkInsTopic(params.eventId)],
});

/** The last 30 scans at all doors (staff and above), newest first. */
export const recentScansLive = defineLiveQuery(recentScans, {
  auth: 'required',
  async load(params, ctx) {
    await requireDoorAccess(ctx.db, ctx.user, params.eventId);
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
