import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { user } from '../../platform/auth/schema';
import { event, ticketType } from '../events/schema';
import { order } from '../orders/schema';

/** An event's waiting list: on or off, for which ticket types, and how its offers work (decision 0064). */
export const waitlistSettings = pgTable('waitlist_settings', {
  eventId: text('event_id')
    .primaryKey()
    .references(() => event.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(false),
  /** The ticket types people may wait for; empty: all of the event's. */
  ticketTypeIds: text('ticket_type_ids')
    .array()
    .notNull()
    .default(sql`'{}'::text[]`),
  offerHours: integer('offer_hours').notNull().default(24),
  /** Whether the first entry may be offered fewer places than it asked for, instead of waiting for all of them. */
  partialOffers: boolean('partial_offers').notNull().default(false),
  /** Whether people may join before a type's sales start: its places are offered to them first when they do. */
  presale: boolean('presale').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
});

/**
 * One person waiting for tickets of one type, in the order they joined (joined_at, id): a guest's
 * is `unconfirmed` until they open the link emailed to them (joined_at is then set anew). `waiting`
 * entries count on their ticket type (`waitlist_waiting`); an `offered` one has its hold, an order
 * whose status says whether it was taken; `left`, `removed` and `closed` ones are kept for the
 * organizer's list and its export.
 */
export const waitlistEntry = pgTable(
  'waitlist_entry',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => event.id, { onDelete: 'cascade' }),
    ticketTypeId: text('ticket_type_id')
      .notNull()
      .references(() => ticketType.id, { onDelete: 'cascade' }),
    personId: text('person_id').references(() => user.id, { onDelete: 'set null' }),
    name: text('name').notNull(),
    email: text('email').notNull(),
    quantity: integer('quantity').notNull(),
    status: text('status', { enum: ['unconfirmed', 'waiting', 'offered', 'left', 'removed', 'closed'] })
      .notNull()
      .default('waiting'),
    locale: text('locale'),
    joinedAt: timestamp('joined_at', { withTimezone: true }).defaultNow().notNull(),
    offeredAt: timestamp('offered_at', { withTimezone: true }),
    /** The hold offered: paid or accepted, it became tickets; ended unpaid, the offer expired. */
    offerOrderId: text('offer_order_id').references(() => order.id, { onDelete: 'set null' }),
    offeredQuantity: integer('offered_quantity'),
    /** Offered out of turn by an admin (the person who did it). */
    offeredBy: text('offered_by').references(() => user.id, { onDelete: 'set null' }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (table) => [
    // The queue: each type's waiting entries in the order they joined.
    index('waitlist_entry_queue_idx')
      .on(table.ticketTypeId, table.joinedAt, table.id)
      .where(sql`${table.status} = 'waiting'`),
    index('waitlist_entry_event_idx').on(table.eventId, table.joinedAt, table.id),
    // One entry per person per ticket type while it waits (one holding an offer is refused by waitlist.join).
    uniqueIndex('waitlist_entry_person_idx')
      .on(table.ticketTypeId, sql`lower(${table.email})`)
      .where(sql`${table.status} = 'waiting'`),
  ],
);
