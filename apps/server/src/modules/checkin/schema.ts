import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { event } from '../events/schema';
import { ticket } from '../tickets/schema';

/**
 * Every scan at the door: the first scan of a ticket is `accepted`, a later one `duplicate`; a void
 * ticket's scan is `void`, a code that matches no ticket `unknown` (so `ticketId` is null). The
 * scanner writes it and the check-in log export reads it. `idempotencyKey` is made on the device: a
 * replayed offline scan is applied once.
 */
export const checkIn = pgTable(
  'check_in',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => event.id, { onDelete: 'cascade' }),
    ticketId: text('ticket_id').references(() => ticket.id, { onDelete: 'cascade' }),
    device: text('device').notNull(),
    scannedAt: timestamp('scanned_at', { withTimezone: true }).notNull(),
    result: text('result', { enum: ['accepted', 'duplicate', 'void', 'unknown'] }).notNull(),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    /** An admission taken back at the door (within a minute): the ticket can be admitted again. */
    undoneAt: timestamp('undone_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    /** Set by a trigger on every change (the REST API's `updated_since`: decision 0062). */
    updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [
    index('check_in_event_updated_idx').on(table.eventId, table.updatedAt, table.id),
    index('check_in_event_idx').on(table.eventId, table.scannedAt),
    // A ticket has at most one accepted check-in (one that was not undone): docs/contracts.md.
    uniqueIndex('check_in_one_accepted_idx')
      .on(table.ticketId)
      .where(sql`${table.result} = 'accepted' and ${table.undoneAt} is null`),
  ],
);
