import { sql } from 'drizzle-orm';
import { integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { user } from '../../platform/auth/schema';
import { event } from '../events/schema';

/**
 * An event's code: it shows and sells hidden ticket types to whoever has it (an access code),
 * takes a discount off its ticket types (a discount code), or both. Its uses are
 * not counted here: they are the places held or sold with it (order_line.code_id), so they come
 * back with the places when a hold ends or a ticket is refunded (decision 0047).
 */
export const eventCode = pgTable(
  'event_code',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => event.id, { onDelete: 'cascade' }),
    /** In capitals: buyers' codes are compared without case. */
    code: text('code').notNull(),
    ticketTypeIds: text('ticket_type_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Off each ticket it applies to: a percentage, or an amount in the event's currency's minor units (at most one). */
    discountPercent: integer('discount_percent'),
    discountAmount: integer('discount_amount'),
    /** Tickets it applies to an order must have for it to be used at all. */
    minQuantity: integer('min_quantity').notNull().default(1),
    maxUses: integer('max_uses'),
    maxPerBuyer: integer('max_per_buyer'),
    validFrom: timestamp('valid_from', { withTimezone: true }),
    validUntil: timestamp('valid_until', { withTimezone: true }),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    /** Set by a trigger on every change (the REST API's `updated_since`: decision 0062). */
    updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
  },
  // Also the index of an event's codes.
  (table) => [uniqueIndex('event_code_code_idx').on(table.eventId, table.code)],
);
