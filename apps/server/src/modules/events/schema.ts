import type { EventTranslations, NameTranslations } from '@admit/shared/event-content';
import { locales } from '@admit/shared/locales';
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { organization } from '../../platform/auth/organization-schema';
import { user } from '../../platform/auth/schema';

export const event = pgTable(
  'event',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull().unique(),
    title: text('title').notNull(),
    description: text('description').notNull().default(''),
    venue: text('venue').notNull(),
    /** The language title, description and venue (and the ticket types' names) are written in. */
    contentLocale: text('content_locale', { enum: locales }).notNull().default('en'),
    /** Title, description and venue in other languages: `{ "fr": { "title", "description", "venue" } }` (decision 0040). */
    translations: jsonb('translations').$type<EventTranslations>().notNull().default({}),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    timeZone: text('time_zone').notNull(),
    currency: text('currency').notNull().default('EUR'),
    capacity: integer('capacity').notNull(),
    /** How many valid or held tickets of the event (all types) one buyer may have across their orders; null: no limit. */
    maxPerBuyer: integer('max_per_buyer'),
    /** Tickets sold and held across all ticket types: the event-wide capacity is enforced on this row. */
    sold: integer('sold').notNull().default(0),
    held: integer('held').notNull().default(0),
    status: text('status', { enum: ['draft', 'published', 'sales_closed', 'ended', 'cancelled'] })
      .notNull()
      .default('draft'),
    coverFile: text('cover_file'),
    /**
     * The calendar entry's SEQUENCE: rises by one with each change of the event's time or place, so
     * a calendar that imports the file again (same UID) replaces the entry it has (RFC 5545).
     */
    calendarSequence: integer('calendar_sequence').notNull().default(0),
    /** How long a pending order holds its tickets while the buyer pays. */
    holdMinutes: integer('hold_minutes').notNull().default(10),
    /** The sites (origins) allowed to show this event's checkout in a frame: its `frame-ancestors` (decision 0061). */
    embedSites: text('embed_sites')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * Signs this event's ticket codes (HMAC-SHA256), and is handed to its staff's scanners so that a
     * device with no network can tell a genuine ticket bought after its last sync from a forged one.
     * Two random UUIDs' worth (244 bits) made by the database, also for events created before it.
     */
    checkinKey: text('checkin_key')
      .notNull()
      .default(sql`replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')`),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    /** Set by a trigger on every change (the REST API's `updated_since`: decision 0062). */
    updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [
    index('event_organization_idx').on(table.organizationId),
    check(
      'event_capacity_check',
      sql`${table.sold} >= 0 and ${table.held} >= 0 and ${table.sold} + ${table.held} <= ${table.capacity}`,
    ),
  ],
);

export const ticketType = pgTable(
  'ticket_type',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => event.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The name in the event's other languages: `{ "fr": "Debout" }` (decision 0040). */
    nameTranslations: jsonb('name_translations').$type<NameTranslations>().notNull().default({}),
    /** In minor units of the event's currency. */
    price: integer('price').notNull().default(0),
    capacity: integer('capacity').notNull(),
    sold: integer('sold').notNull().default(0),
    held: integer('held').notNull().default(0),
    maxPerOrder: integer('max_per_order').notNull().default(10),
    /** How many valid or held tickets of this type one buyer may have across all their orders; null: no limit. */
    maxPerBuyer: integer('max_per_buyer'),
    salesStart: timestamp('sales_start', { withTimezone: true }),
    salesEnd: timestamp('sales_end', { withTimezone: true }),
    hidden: boolean('hidden').notNull().default(false),
    position: integer('position').notNull().default(0),
    /**
     * People on the type's waiting list who have not been offered places yet (the waitlist module
     * keeps it). While above 0, places that come free go to them first: checkout sells none of the
     * type (places.ts), and each release wakes the job that offers them (decision 0064).
     */
    waitlistWaiting: integer('waitlist_waiting').notNull().default(0),
    /**
     * Tickets of the type their holders offer back that nobody holds yet (the tickets module keeps
     * it, decision 0066): once the type's own places are gone, buyers and the waiting list take these.
     */
    resaleListed: integer('resale_listed').notNull().default(0),
    /** Set by a trigger on every change (the REST API's `updated_since`: decision 0062). */
    updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [
    index('ticket_type_event_idx').on(table.eventId),
    // The database itself refuses to oversell, whatever the code above it does.
    check(
      'ticket_type_capacity_check',
      sql`${table.sold} >= 0 and ${table.held} >= 0 and ${table.sold} + ${table.held} <= ${table.capacity}`,
    ),
    check('ticket_type_waitlist_waiting_check', sql`${table.waitlistWaiting} >= 0`),
    check('ticket_type_resale_listed_check', sql`${table.resaleListed} >= 0`),
  ],
);

/** An event's time and place as they were before or after a change. */
export interface TimeAndPlace {
  startsAt: string;
  endsAt: string;
  venue: string;
}

/**
 * A change to the time or place of an event that buyers could already hold tickets for (any status
 * but draft): what it was, what it became, and the calendar SEQUENCE it gave the event. Its admins
 * may then tell the ticket holders about it, once (messages.sendChangeNotice).
 */
export const eventChange = pgTable(
  'event_change',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => event.id, { onDelete: 'cascade' }),
    before: jsonb('before').$type<TimeAndPlace>().notNull(),
    after: jsonb('after').$type<TimeAndPlace>().notNull(),
    sequence: integer('sequence').notNull(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [index('event_change_event_idx').on(table.eventId, table.createdAt)],
);
