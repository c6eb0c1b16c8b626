import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Emails and text messages sent by the embedded default, shown at /dev/outbox. */
export const outboxMessage = pgTable(
  'outbox_message',
  {
    id: text('id').primaryKey(),
    channel: text('channel', { enum: ['email', 'sms'] }).notNull(),
    to: text('to').notNull(),
    subject: text('subject').notNull().default(''),
    text: text('text').notNull(),
    html: text('html'),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [index('outbox_message_created_idx').on(table.createdAt)],
);
