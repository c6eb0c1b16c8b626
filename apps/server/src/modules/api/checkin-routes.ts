import { randomUUID } from 'node:crypto';
import { CheckInResource, CreateCheckInBody, CreateCheckInResult, ListQuery, listOf } from '@admit/shared/api-v1';
import { and, eq } from 'drizzle-orm';
import { applyScans, scannedTopic } from '../checkin/checkin.api';
import { checkIn } from '../checkin/schema';
import { defineRoute, NoQuery } from './api-route';
import { micros, pageConditions, pageOf, updatedAtOf } from './pages';
import { ApiProblem } from './problem';
import { EventPath, iso, eventOfKey } from './route-kit';

// The REST API's routes of check-ins: reading an event's, and scanning a ticket from another
// scanner through the check-in module's own scan: the first scan of a ticket admits it, everywhere
// (decision 0062).

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

export const listCheckIns = defineRoute({
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

export const createCheckIn = defineRoute({
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
