import { bigint, date, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { event } from '../events/schema';

/**
 * One beacon from a public page, kept until the retention period ends (ANALYTICS_RETENTION_DAYS).
 * `visitor` is a hash of the day's salt, the address and the browser: the same person on the same
 * day, never the address itself, and unlinkable to another day's once that salt is deleted.
 */
export const analyticsEvent = pgTable(
  'analytics_event',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    eventId: text('event_id')
      .notNull()
      .references(() => event.id, { onDelete: 'cascade' }),
    step: text('step', { enum: ['view', 'tickets', 'checkout', 'paid'] }).notNull(),
    visitor: text('visitor').notNull(),
    /** Another site's host the visitor came from, or ''. */
    referrerHost: text('referrer_host').notNull().default(''),
    utmSource: text('utm_source').notNull().default(''),
    utmMedium: text('utm_medium').notNull().default(''),
    utmCampaign: text('utm_campaign').notNull().default(''),
    /** The order a checkout or paid beacon names ('' for the other steps): only a real one counts. */
    orderId: text('order_id').notNull().default(''),
    at: timestamp('at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [index('analytics_event_event_idx').on(table.eventId, table.at), index('analytics_event_at_idx').on(table.at)],
);

/**
 * What the dashboard reads: per event, day (in the event's time zone), funnel step and source
 * (the host or `utm_source` of the visitor's first view that day, '' = direct) with its campaign,
 * how many beacons (`hits`) and distinct visitors. Written by the aggregation job from the raw
 * rows, and kept after those are deleted.
 */
export const analyticsDaily = pgTable(
  'analytics_daily',
  {
    eventId: text('event_id')
      .notNull()
      .references(() => event.id, { onDelete: 'cascade' }),
    day: date('day').notNull(),
    step: text('step', { enum: ['view', 'tickets', 'checkout', 'paid'] }).notNull(),
    source: text('source').notNull(),
    campaign: text('campaign').notNull(),
    hits: integer('hits').notNull(),
    visitors: integer('visitors').notNull(),
  },
  (table) => [primaryKey({ columns: [table.eventId, table.day, table.step, table.source, table.campaign] })],
);

/** The secret mixed into each UTC day's visitor hashes; deleted the day after (aggregate.ts). */
export const analyticsSalt = pgTable('analytics_salt', {
  day: date('day').primaryKey(),
  salt: text('salt').notNull(),
});

/** One row: up to when the aggregation job has counted the raw rows (it counts again a margin before). */
export const analyticsProgress = pgTable('analytics_progress', {
  id: integer('id').primaryKey(),
  countedUntil: timestamp('counted_until', { withTimezone: true }).notNull(),
});
