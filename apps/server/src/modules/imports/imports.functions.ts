import { createHash, randomUUID } from 'node:crypto';
import {
  applyImport,
  checkImportRow,
  completeImportReport,
  importRowIdentity,
  prepareImport,
  validateImport,
  type CheckedImportRow,
  type ImportCapacity,
  type ImportRowReport,
} from '@admit/shared/csv';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { requireOrgRole } from '../../platform/auth/roles';
import { defineCallable, type AuthedCallContext, type CallContext } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { event, ticketType } from '../events/schema';
import { order, orderActivity, orderLine, ticket } from '../orders/schema';
import { importRow } from './schema';

// Guest-list import (issue 6, docs/decisions/0023). The browser parses the file and sends its rows
// in chunks: `imports.validate` reports on every row before anything is written, `imports.apply`
// writes complimentary orders for the valid ones. Both check each row again here: the browser's
// word is never enough.

/** A row's key as stored: a hash of what identifies it, so that emails are not kept twice. */
const rowKeyOf = (eventId: string, identity: string) =>
  createHash('sha256').update(`${eventId}\n${identity}`).digest('base64url');

/** What the imports need of other modules, given by app.ts (modules share only their schemas). */
export interface ImportsDeps {
  /** A new ticket code, signed with the event's check-in key (modules/orders/ticket-code.ts). */
  newTicketCode(checkinKey: string): string;
  /** Emails a paid order's tickets to its buyer (modules/orders/order-emails.ts). */
  sendTickets(ctx: CallContext, orderId: string): Promise<unknown>;
}

type EventRecord = typeof event.$inferSelect;

/** Guests can be added until the event is over; never to a cancelled or ended one. Admins only. */
async function requireImportableEvent(ctx: AuthedCallContext, eventId: string): Promise<EventRecord> {
  const [found] = await ctx.db.select().from(event).where(eq(event.id, eventId));
  if (!found) throw new CallableError('not-found', 'No such event');
  await requireOrgRole(ctx.db, ctx.user, found.organizationId, 'admin');
  if (found.status === 'cancelled' || found.status === 'ended')
    throw new CallableError('failed-precondition', 'Guests cannot be added to this event', { status: found.status });
  return found;
}

async function ticketTypesOf(db: Db, eventId: string) {
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
async function importedKeys(db: Db, eventId: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ rowKey: importRow.rowKey })
    .from(importRow)
    .where(and(eq(importRow.eventId, eventId), inArray(importRow.rowKey, keys)));
  return new Set(rows.map((row) => row.rowKey));
}

interface KeyedRow extends CheckedImportRow {
  key: string | null;
}

function checkRows(
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

const prepareImportCallable = defineCallable(prepareImport, {
  auth: 'required',
  async handler(input, ctx) {
    const found = await requireImportableEvent(ctx, input.eventId);
    const types = await ticketTypesOf(ctx.db, found.id);
    return {
      maxBytes: ctx.config.IMPORT_MAX_BYTES,
      maxRows: ctx.config.IMPORT_MAX_ROWS,
      currency: found.currency,
      ticketTypes: types.map(({ id, name }) => ({ id, name })),
    };
  },
});

const validateImportCallable = defineCallable(validateImport, {
  auth: 'required',
  async handler(input, ctx) {
    const found = await requireImportableEvent(ctx, input.eventId);
    const types = await ticketTypesOf(ctx.db, found.id);
    const checked = checkRows(found.id, input.rows, types, input.defaultTicketTypeId);
    const done = await importedKeys(
      ctx.db,
      found.id,
      checked.flatMap((row) => (row.key ? [row.key] : [])),
    );
    const capacity: ImportCapacity = {
      event: Math.max(0, found.capacity - found.sold - found.held),
      ticketTypes: types.map((type) => ({
        id: type.id,
        name: type.name,
        remaining: Math.max(0, type.capacity - type.sold - type.held),
      })),
    };
    const reports: ImportRowReport[] = checked.map((row) => ({
      line: row.line,
      status: row.errors.length > 0 ? 'error' : row.key && done.has(row.key) ? 'imported' : 'ok',
      errors: row.errors,
      key: row.key,
      ticketTypeId: row.ticketTypeId,
      quantity: row.quantity,
    }));
    return { rows: completeImportReport(reports, capacity), capacity };
  },
});

class CapacityExceeded extends CallableError {
  constructor(details: { ticketTypeId?: string; requested: number; remaining: number }) {
    super('resource-exhausted', `Only ${details.remaining} places left`, details);
  }
}

const applyImportCallable = (deps: ImportsDeps) =>
  defineCallable(applyImport, {
    auth: 'required',
    async handler(input, ctx) {
      const found = await requireImportableEvent(ctx, input.eventId);
      const types = await ticketTypesOf(ctx.db, found.id);
      const checked = checkRows(found.id, input.rows, types, input.defaultTicketTypeId);
      const valid = checked.filter((row): row is KeyedRow & { key: string; ticketTypeId: string } => row.errors.length === 0);

      // Claimed in key order, so that two imports of overlapping files lock the same keys in the same
      // order and wait for each other instead of deadlocking; the same key twice in one chunk is one row.
      const byKey = new Map<string, (typeof valid)[number]>();
      for (const row of valid) if (!byKey.has(row.key)) byKey.set(row.key, row);
      const candidates = [...byKey.values()].sort((a, b) => (a.key < b.key ? -1 : 1));
      const orderIdOfKey = new Map(candidates.map((row) => [row.key, randomUUID()]));

      const created = await ctx.db.transaction(async (tx) => {
        if (candidates.length === 0) return [];
        // The primary key on (event, key) is the idempotency: a key claimed by an earlier or a
        // concurrent import is not returned, and that row creates nothing.
        const claimed = await tx
          .insert(importRow)
          .values(
            candidates.map((row) => ({
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
        const rows = candidates.filter((row) => claimedKeys.has(row.key));
        if (rows.length === 0) return [];

        // The same conditional updates as orders.create, in its lock order (event, then ticket types
        // by id): a place is only taken while one is free, so an import never oversells.
        const quantity = rows.reduce((sum, row) => sum + row.quantity, 0);
        const reserved = await tx
          .update(event)
          .set({ sold: sql`${event.sold} + ${quantity}` })
          .where(
            and(
              eq(event.id, found.id),
              sql`${event.status} not in ('cancelled', 'ended')`,
              sql`${event.sold} + ${event.held} + ${quantity} <= ${event.capacity}`,
            ),
          )
          .returning({ id: event.id });
        if (reserved.length === 0) {
          const [now] = await tx.select().from(event).where(eq(event.id, found.id));
          throw new CapacityExceeded({ requested: quantity, remaining: Math.max(0, now!.capacity - now!.sold - now!.held) });
        }
        const perType = new Map<string, number>();
        for (const row of rows) perType.set(row.ticketTypeId, (perType.get(row.ticketTypeId) ?? 0) + row.quantity);
        for (const [ticketTypeId, requested] of [...perType].sort(([a], [b]) => (a < b ? -1 : 1))) {
          const taken = await tx
            .update(ticketType)
            .set({ sold: sql`${ticketType.sold} + ${requested}` })
            .where(
              and(
                eq(ticketType.id, ticketTypeId),
                sql`${ticketType.sold} + ${ticketType.held} + ${requested} <= ${ticketType.capacity}`,
              ),
            )
            .returning({ id: ticketType.id });
          if (taken.length === 0) {
            const [now] = await tx.select().from(ticketType).where(eq(ticketType.id, ticketTypeId));
            throw new CapacityExceeded({
              ticketTypeId,
              requested,
              remaining: Math.max(0, now!.capacity - now!.sold - now!.held),
            });
          }
        }

        await tx.insert(order).values(
          rows.map((row) => ({
            id: orderIdOfKey.get(row.key)!,
            eventId: found.id,
            buyerId: null,
            buyerName: row.name || row.email,
            email: row.email,
            status: 'paid' as const,
            total: 0,
            currency: found.currency,
            paymentProvider: 'import',
            locale: ctx.locale,
          })),
        );
        await tx.insert(orderLine).values(
          rows.map((row) => ({
            id: randomUUID(),
            orderId: orderIdOfKey.get(row.key)!,
            ticketTypeId: row.ticketTypeId,
            quantity: row.quantity,
            unitPrice: 0,
          })),
        );
        await tx.insert(orderActivity).values(
          rows.map((row) => ({
            id: randomUUID(),
            orderId: orderIdOfKey.get(row.key)!,
            kind: 'created' as const,
            detail: { total: 0, tickets: row.quantity, source: 'import', note: row.note || null },
            actorId: ctx.user.id,
          })),
        );
        const tickets = rows.flatMap((row) =>
          Array.from({ length: row.quantity }, () => ({
            id: randomUUID(),
            orderId: orderIdOfKey.get(row.key)!,
            ticketTypeId: row.ticketTypeId,
            eventId: found.id,
            code: deps.newTicketCode(found.checkinKey),
            holderName: row.name || row.email,
            holderEmail: row.email,
          })),
        );
        // In slices: one statement's parameters stay far below PostgreSQL's limit of 65,535.
        for (let start = 0; start < tickets.length; start += 5_000)
          await tx.insert(ticket).values(tickets.slice(start, start + 5_000));
        return rows;
      });

      const createdKeys = new Set(created.map((row) => row.key));
      // The event's counts and the organizer's lists; each new order's own topic has no watcher yet.
      if (created.length > 0) ctx.publish(`event:${found.id}`, `event:${found.id}:orders`, `org:${found.organizationId}:events`);
      if (input.sendEmails && created.length > 0) {
        const orderIds = created.map((row) => orderIdOfKey.get(row.key)!);
        // After the answer, one at a time: a long guest list must not hold the import up.
        void (async () => {
          for (const orderId of orderIds) {
            try {
              await deps.sendTickets(ctx, orderId);
            } catch (error) {
              ctx.log.error({ err: error, orderId }, 'sending an imported guest their tickets failed');
            }
          }
        })();
      }

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
    },
  });

export const importsCallables = (deps: ImportsDeps) => [prepareImportCallable, validateImportCallable, applyImportCallable(deps)];
