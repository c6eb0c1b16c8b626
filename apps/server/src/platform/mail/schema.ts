import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** An email's attachment as the dev outbox keeps it (small files: QR codes, a ticket PDF). */
export interface StoredAttachment {
  filename: string;
  contentType: string;
  /** The Content-ID the HTML refers to as `cid:…`, for inline images. */
  cid: string | null;
  contentBase64: string;
}

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
    attachments: jsonb('attachments').$type<StoredAttachment[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [index('outbox_message_created_idx').on(table.createdAt)],
);

/**
 * The emails sent with an idempotency key (a job's email, which may run again after a crash): a
 * key is sent once. With the dev outbox the key and the message are written in one transaction;
 * with SMTP the key is written right after the server accepted the message, which also carries the
 * key as its Message-ID, so a mail system that sees it twice can tell.
 */
export const sentEmail = pgTable('sent_email', {
  key: text('key').primaryKey(),
  to: text('to').notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true }).defaultNow().notNull(),
});
