import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { event } from '../events/schema';
import { ticket } from '../orders/schema';

/**
 * Every scan at the door, as DESIGN §4 describes it: the first scan of a ticket is `accepted`, a
 * later one `duplicate`; a void ticket's scan is `void`, a code that matches no ticket `unknown`
 * (so `ticketId` is null). Created with the check-in log export (issue 6); the scanner (issue 5)
 * writes it. `idempotencyKey` is made on the device: a replayed offline scan is applied once.
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
  },
  (table) => [
    index('check_in_event_idx').on(table.eventId, table.scannedAt),
    // DESIGN §4: a ticket has at most one accepted check-in (one that was not undone).
    uniqueIndex('check_in_one_accepted_idx')
      .on(table.ticketId)
      .where(sql`${table.result} = 'accepted' and ${table.undoneAt} is null`),
  ],
);
