import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * How often one key (an account, a client address, an invitation's recipient, each under the
 * name of what it limits) has used a quota in its current window (decision 0030). One row
 * per key, counted by a conditional upsert (call-quota.ts), so that every server instance counts
 * in the same place.
 */
export const callQuota = pgTable('call_quota', {
  key: text('key').primaryKey(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
  used: integer('used').notNull(),
});
