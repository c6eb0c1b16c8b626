import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { user } from '../../platform/auth/schema';
import { event, eventChange } from '../events/schema';

/**
 * A message an event's admin sent to its ticket holders. `recipients` is fixed when it is sent (its
 * rows below); `sent` and `unreachable` count how far its jobs have come, `finishedAt` says they are done.
 */
export const attendeeMessage = pgTable(
  'attendee_message',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => event.id, { onDelete: 'cascade' }),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    audience: jsonb('audience').$type<{ ticketTypeIds: string[]; checkIn: 'any' | 'checked-in' | 'not-checked-in' }>().notNull(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    /** Made by the sending page once per draft: a send repeated is the same message. */
    idempotencyKey: text('idempotency_key').notNull(),
    /**
     * Set when this is the notice of a change of time or place: its email is Admit's, written in each
     * person's language from the change (subject and body here are the event's language's, for the list).
     */
    changeId: text('change_id').references(() => eventChange.id, { onDelete: 'cascade' }),
    recipients: integer('recipients').notNull(),
    sent: integer('sent').notNull().default(0),
    unreachable: integer('unreachable').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (table) => [
    index('attendee_message_event_idx').on(table.eventId, table.createdAt),
    uniqueIndex('attendee_message_idempotency_idx').on(table.eventId, table.idempotencyKey),
    // A change is told once, however often its admins ask.
    uniqueIndex('attendee_message_change_idx').on(table.changeId),
  ],
);

/**
 * One person a message goes to: one row per address (lower case), however many tickets it holds,
 * with the orders those tickets are in (their buyers read the message there). `batch` is the job
 * that sends to it; `status` is null until that job has sent the email or found no address for it.
 */
export const attendeeMessageRecipient = pgTable(
  'attendee_message_recipient',
  {
    messageId: text('message_id')
      .notNull()
      .references(() => attendeeMessage.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name').notNull(),
    locale: text('locale').notNull(),
    orderIds: text('order_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    batch: integer('batch').notNull(),
    status: text('status', { enum: ['sent', 'unreachable'] }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (table) => [
    primaryKey({ columns: [table.messageId, table.email] }),
    index('attendee_message_recipient_batch_idx').on(table.messageId, table.batch),
    // The order page's question: which messages reached this order's tickets?
    index('attendee_message_recipient_orders_idx').using('gin', table.orderIds),
  ],
);
