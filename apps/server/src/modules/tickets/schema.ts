import type { Answers } from '@admit/shared/questions';
import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { event, ticketType } from '../events/schema';
import { order } from '../orders/schema';

export const ticket = pgTable(
  'ticket',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => order.id, { onDelete: 'cascade' }),
    ticketTypeId: text('ticket_type_id')
      .notNull()
      .references(() => ticketType.id),
    eventId: text('event_id')
      .notNull()
      .references(() => event.id, { onDelete: 'cascade' }),
    /** Random and signed with the event's check-in key (ticket-code.ts): what the QR code carries. */
    code: text('code').notNull().unique(),
    holderName: text('holder_name').notNull(),
    holderEmail: text('holder_email').notNull(),
    status: text('status', { enum: ['valid', 'void'] })
      .notNull()
      .default('valid'),
    checkedInAt: timestamp('checked_in_at', { withTimezone: true }),
    checkedInDevice: text('checked_in_device'),
    /** Its attendee's answers to the event's questions, by question id (decision 0048). */
    answers: jsonb('answers')
      .$type<Answers>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    /** Set by a trigger on every change (the REST API's `updated_since`: decision 0062). */
    updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [
    index('ticket_event_updated_idx').on(table.eventId, table.updatedAt, table.id),
    index('ticket_order_idx').on(table.orderId),
    index('ticket_event_idx').on(table.eventId),
    // Exports read an event's tickets in pages of (created_at, id) (modules/exports).
    index('ticket_event_created_idx').on(table.eventId, table.createdAt, table.id),
    // The door's counts read the admitted tickets only (checkin.counts), however many were sold.
    index('ticket_admitted_idx')
      .on(table.ticketTypeId)
      .where(sql`${table.status} = 'valid' and ${table.checkedInAt} is not null`),
  ],
);
