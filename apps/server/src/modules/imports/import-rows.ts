import { createHash } from 'node:crypto';
import { checkImportRow, importRowIdentity, type CheckedImportRow, type ImportCapacity } from '@admit/shared/csv';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import type { AuthedCallContext } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { requireEventRole, type EventRecord } from '../events/events.api';
import { ticketType } from '../events/schema';
import { importRow } from './schema';

// What validating and applying a guest list share. The browser parses the file and sends its rows
// in chunks; each row is checked again here: the browser's word is never enough.

/** A row's key as stored: a hash of what identifies it, so that emails are not kept twice. */
const rowKeyOf = (eventId: string, identity: string) =>
  createHash('sha256').update(`${eventId}\n${identity}`).digest('base64url');

/** Guests can be added until the event is over; never to a cancelled or ended one. Admins only. */
export async function requireImportableEvent(ctx: AuthedCallContext, eventId: string): Promise<EventRecord> {
  const { event: found } = await requireEventRole(ctx.db, ctx.user, eventId, 'admin');
  if (found.status === 'cancelled' || found.status === 'ended')
    throw new CallableError('failed-precondition', 'Guests cannot be added to this event', {
      reason: 'event-closed',
      status: found.status,
    });
  return found;
}

/**
 * IMPORT_MAX_ROWS holds on the server too, not only in the browser: a call carries at most that
 * many rows, and none from beyond it in its file (`line` 1 is the header, so the last row allowed
 * is line IMPORT_MAX_ROWS + 1). Over it the call is `invalid-argument`, naming the first row out.
 */
export function requireRowsWithinLimit(maxRows: number, rows: readonly { line: number }[]): void {
  const message = `A guest list has at most ${maxRows} rows`;
  const beyond = rows.findIndex((row) => row.line > maxRows + 1);
  const fields =
    rows.length > maxRows
      ? [{ path: 'rows', message, code: 'too_big' }]
      : beyond >= 0
        ? [{ path: `rows.${beyond}.line`, message, code: 'too_big' }]
        : [];
  if (fields.length > 0) throw new CallableError('invalid-argument', message, { fields });
}

/** The places left on the event and on each of its ticket types, as read now. */
export function placesLeft(
  found: Pick<EventRecord, 'capacity' | 'sold' | 'held'>,
  types: readonly { id: string; name: string; capacity: number; sold: number; held: number }[],
): ImportCapacity {
  return {
    event: Math.max(0, found.capacity - found.sold - found.held),
    ticketTypes: types.map((type) => ({
      id: type.id,
      name: type.name,
      remaining: Math.max(0, type.capacity - type.sold - type.held),
    })),
  };
}

export async function ticketTypesOf(db: Db, eventId: string) {
  return db
    .select({
      id: ticketType.id,
      name: ticketType.name,
      capacity: ticketType.capacity,
      sold: ticketType.sold,
      held: ticketType.held,
    })
    .from(ticketType)
    .where(eq(ticketType.eventId, eventId))
    .orderBy(asc(ticketType.position), asc(ticketType.id));
}

/** The keys among `keys` already imported into the event. */
export async function importedKeys(db: Db, eventId: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ rowKey: importRow.rowKey })
    .from(importRow)
    .where(and(eq(importRow.eventId, eventId), inArray(importRow.rowKey, keys)));
  return new Set(rows.map((row) => row.rowKey));
}

export interface KeyedRow extends CheckedImportRow {
  key: string | null;
}

/** Each row checked (shared rules, also run in the browser) and keyed for idempotency. */
export function checkRows(
  eventId: string,
  rows: Parameters<typeof checkImportRow>[0][],
  types: { id: string; name: string }[],
  defaultTicketTypeId?: string,
): KeyedRow[] {
  return rows.map((row) => {
    const checked = checkImportRow(row, types, defaultTicketTypeId);
    const identity = importRowIdentity(checked);
    return { ...checked, key: identity === null ? null : rowKeyOf(eventId, identity) };
  });
}
