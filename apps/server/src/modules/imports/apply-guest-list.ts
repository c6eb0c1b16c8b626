import { randomUUID } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { ApplyImportInput, type ImportCapacity } from '@admit/shared/csv';
import type { z } from 'zod';
import type { Tx } from '../../platform/db/database';
import type { AuthedCallContext } from '../../platform/http/callable';
import { topicWithKeys } from '../../platform/live/topic-keys';
import { eventTopic, orgEventsTopic, SoldOut, type EventRecord } from '../events/events.api';
import { countGuestMail, requireGuestMailAllowance } from '../messages/messages.api';
import { createGuestOrders, eventOrdersTopic } from '../orders/orders.api';
import { eventTicketsTopic } from '../tickets/tickets.api';
import {
  checkRows,
  importedKeys,
  placesLeft,
  requireImportableEvent,
  requireRowsWithinLimit,
  ticketTypesOf,
  type KeyedRow,
} from './import-rows';
import { importRow } from './schema';

type ValidRow = KeyedRow & { key: string; ticketTypeId: string };

/**
 * Tickets written in one transaction. A chunk may ask for 1,000 rows of up to 1,000 tickets; in one
 * transaction, 100,000 of them held the embedded database (and with it every other request) for
 * 13–17 s. A piece of 500 takes well under a tenth of a second, and other requests run between
 * pieces (decision 0030).
 */
export const importPieceTickets = 500;

/**
 * Writes complimentary orders for the valid rows of one chunk of a guest list. A row already
 * imported (by this file before, or by an import running at the same moment) creates nothing, so
 * importing the same file again adds only what is new. The rows are written in pieces, each its own
 * transaction, and other requests are served between them. Guests are emailed their tickets after
 * the answer when asked.
 */
export async function applyGuestList({ ctx, input }: { ctx: AuthedCallContext; input: z.output<typeof ApplyImportInput> }) {
  const found = await requireImportableEvent(ctx, input.eventId);
  requireRowsWithinLimit(ctx.config.IMPORT_MAX_ROWS, input.rows);
  const types = await ticketTypesOf(ctx.db, found.id);
  const checked = checkRows(found.id, input.rows, types, input.defaultTicketTypeId);
  const valid = checked.filter((row): row is ValidRow => row.errors.length === 0);

  // Claimed in key order, so that two imports of overlapping files lock the same keys in the same
  // order and wait for each other instead of deadlocking; the same key twice in one chunk is one row.
  const byKey = new Map<string, ValidRow>();
  for (const row of valid) if (!byKey.has(row.key)) byKey.set(row.key, row);
  const candidates = [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
  const orderIdOfKey = new Map(candidates.map((row) => [row.key, randomUUID()]));
  const done = await importedKeys(
    ctx.db,
    found.id,
    candidates.map((row) => row.key),
  );
  const fresh = candidates.filter((row) => !done.has(row.key));
  requirePlacesFor(placesLeft(found, types), fresh);
  // Guests typed in never bought anything: emailing them is limited, and refused before any row is
  // written when the chunk's emails do not fit (each piece counts its own as it commits).
  const emails = input.sendEmails ? fresh.filter(hasEmail).length : 0;
  if (emails > 0) await requireGuestMailAllowance({ ...senderOf(ctx, found), emails });

  const created: ValidRow[] = [];
  // Each piece enqueues its guests' emails with their orders, so they go out only for what committed.
  for (const piece of piecesOf(candidates)) {
    // The caller left or the deadline passed: what is committed stays, and a retry skips it.
    if (ctx.signal.aborted) throw ctx.signal.reason;
    const rows = await ctx.db.transaction((tx) => applyPiece(tx, ctx, found, piece, orderIdOfKey, input.sendEmails));
    created.push(...rows);
    // Published even if a later piece fails: this one is committed.
    if (rows.length > 0)
      ctx.publishCommitted(
        eventTopic(found.id),
        eventOrdersTopic(found.id),
        orgEventsTopic(found.organizationId),
        topicWithKeys(
          eventTicketsTopic(found.id),
          rows.map((row) => orderIdOfKey.get(row.key)!),
        ),
      );
    // Lets the requests that arrived meanwhile in before the next piece takes the database.
    await nextTurn();
  }

  const createdKeys = new Set(created.map((row) => row.key));
  const seen = new Set<string>();
  const results = checked.map((row) => {
    if (row.errors.length > 0) return { line: row.line, status: 'invalid' as const, orderId: null, errors: row.errors };
    const key = row.key!;
    const first = !seen.has(key);
    seen.add(key);
    if (first && createdKeys.has(key))
      return { line: row.line, status: 'created' as const, orderId: orderIdOfKey.get(key)!, errors: [] };
    return { line: row.line, status: 'skipped' as const, orderId: null, errors: [] };
  });
  return {
    rows: results,
    created: created.length,
    tickets: created.reduce((sum, row) => sum + row.quantity, 0),
    skipped: results.filter((row) => row.status === 'skipped').length,
    invalid: results.filter((row) => row.status === 'invalid').length,
  };
}

/** A guest with an address: the others (plus-ones) get their tickets from whoever brings them. */
const hasEmail = (row: { email: string }) => row.email !== '';

const senderOf = (ctx: AuthedCallContext, found: EventRecord) => ({
  db: ctx.db,
  config: ctx.config,
  userId: ctx.user.id,
  organizationId: found.organizationId,
});

/** Consecutive rows of at most importPieceTickets tickets (a larger row is a piece of its own). */
function* piecesOf(rows: readonly ValidRow[]): Generator<ValidRow[]> {
  let piece: ValidRow[] = [];
  let tickets = 0;
  for (const row of rows) {
    if (piece.length > 0 && tickets + row.quantity > importPieceTickets) {
      yield piece;
      piece = [];
      tickets = 0;
    }
    piece.push(row);
    tickets += row.quantity;
  }
  if (piece.length > 0) yield piece;
}

/**
 * One piece in one transaction: its keys are claimed and its orders written together, so a piece
 * that rolls back claims nothing. The primary key on (event, key) is the idempotency: a key
 * claimed by an earlier or a concurrent import is not returned, and that row creates nothing.
 */
async function applyPiece(
  tx: Tx,
  ctx: AuthedCallContext,
  found: EventRecord,
  piece: readonly ValidRow[],
  orderIdOfKey: ReadonlyMap<string, string>,
  sendEmails: boolean | undefined,
): Promise<ValidRow[]> {
  const claimed = await tx
    .insert(importRow)
    .values(
      piece.map((row) => ({
        eventId: found.id,
        rowKey: row.key,
        orderId: orderIdOfKey.get(row.key)!,
        note: row.note || null,
        importedBy: ctx.user.id,
      })),
    )
    .onConflictDoNothing()
    .returning({ rowKey: importRow.rowKey });
  const claimedKeys = new Set(claimed.map((row) => row.rowKey));
  const rows = piece.filter((row) => claimedKeys.has(row.key));
  if (sendEmails) await countGuestMail({ ...senderOf(ctx, found), db: tx, emails: rows.filter(hasEmail).length });
  await createGuestOrders(tx, {
    event: found,
    guests: rows.map((row) => ({
      orderId: orderIdOfKey.get(row.key)!,
      name: row.name || row.email,
      email: row.email,
      ticketTypeId: row.ticketTypeId,
      quantity: row.quantity,
      note: row.note || null,
    })),
    actorId: ctx.user.id,
    locale: ctx.locale,
    emailTickets: sendEmails ? ctx.jobs : undefined,
  });
  return rows;
}

/**
 * Refuses the call before anything is written when its new rows do not fit in the places left, with
 * the answer takePlaces gives (the event first, then its ticket types by id): the pieces commit one
 * by one, and a chunk that cannot fit should leave nothing behind. Places that buyers take after
 * this read still fail the piece that no longer fits, and the rest of the call, by the conditional
 * updates; the pieces before it stay, and the same chunk sent again skips them.
 */
function requirePlacesFor(capacity: ImportCapacity, rows: readonly { ticketTypeId: string; quantity: number }[]): void {
  const byType = new Map<string, number>();
  for (const row of rows) byType.set(row.ticketTypeId, (byType.get(row.ticketTypeId) ?? 0) + row.quantity);
  const requested = rows.reduce((sum, row) => sum + row.quantity, 0);
  if (requested > capacity.event) throw new SoldOut({ requested, remaining: capacity.event });
  for (const [ticketTypeId, quantity] of [...byType].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const remaining = capacity.ticketTypes.find((type) => type.id === ticketTypeId)?.remaining ?? 0;
    if (quantity > remaining) throw new SoldOut({ ticketTypeId, requested: quantity, remaining });
  }
}
