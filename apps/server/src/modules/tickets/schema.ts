import type { Answers } from '@admit/shared/questions';
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { user } from '../../platform/auth/schema';
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
    /**
     * The ticket this one was issued in place of, when its holder sent it on (decision 0065): it is
     * then its holder's, not its buyer's, to see, send or rename. The money stays with the order.
     */
    transferredFrom: text('transferred_from'),
    /** The ticket issued in place of this one (now void) when it was sent on. */
    replacedBy: text('replaced_by'),
    /** The signed-in person who accepted it, when it came by a transfer (a guest holds it by its link). */
    holderUserId: text('holder_user_id').references(() => user.id, { onDelete: 'set null' }),
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
    // My tickets: what was sent to a signed-in person.
    index('ticket_holder_user_idx')
      .on(table.holderUserId)
      .where(sql`${table.holderUserId} is not null`),
  ],
);

/** Whether an event's tickets may be sent on, and until how many hours before it starts (decision 0065). No row: open until the start. */
export const transferSettings = pgTable('transfer_settings', {
  eventId: text('event_id')
    .primaryKey()
    .references(() => event.id, { onDelete: 'cascade' }),
  enabled: boolean('enabled').notNull().default(true),
  closesHoursBeforeStart: integer('closes_hours_before_start').notNull().default(0),
  /** Whether holders may offer tickets back for resale at face value (decision 0066), until transfers close. */
  resaleEnabled: boolean('resale_enabled').notNull().default(false),
  /** Kept from each resold ticket's refund, in minor units of the event's currency. */
  resaleFee: integer('resale_fee').notNull().default(0),
  updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
});

/**
 * A ticket sent by its holder to an address: `pending` until the recipient accepts (the ticket is
 * then issued anew to them: `newTicketId`) or declines, or the sender or an admin withdraws it.
 * At most one pending transfer per ticket.
 */
export const ticketTransfer = pgTable(
  'ticket_transfer',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => event.id, { onDelete: 'cascade' }),
    ticketId: text('ticket_id')
      .notNull()
      .references(() => ticket.id, { onDelete: 'cascade' }),
    /** The ticket's order: its timeline tells of the transfer, and its money stays where it was. */
    orderId: text('order_id')
      .notNull()
      .references(() => order.id, { onDelete: 'cascade' }),
    fromName: text('from_name').notNull(),
    fromEmail: text('from_email').notNull(),
    fromUserId: text('from_user_id').references(() => user.id, { onDelete: 'set null' }),
    toEmail: text('to_email').notNull(),
    /** The recipient's name, once accepted. */
    toName: text('to_name'),
    status: text('status', { enum: ['pending', 'accepted', 'cancelled', 'declined'] })
      .notNull()
      .default('pending'),
    /** The sender's language: the recipient's email is written in it. */
    locale: text('locale'),
    newTicketId: text('new_ticket_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (table) => [
    uniqueIndex('ticket_transfer_pending_idx')
      .on(table.ticketId)
      .where(sql`${table.status} = 'pending'`),
    index('ticket_transfer_event_idx').on(table.eventId, table.createdAt),
  ],
);

/**
 * A ticket its holder offers back (decision 0066): `listed` while nobody holds it (counted on its
 * type's `resale_listed`), `held` by a buyer's pending order (`saleOrderId`), `sold` once that order
 * is complete (the ticket void, `newTicketId` issued in its place, the seller refunded `price - fee`
 * by a job enqueued with the sale), `withdrawn` by its holder, or `ended` when its ticket became
 * void otherwise (a refund). The ticket stays valid, and its holder's, until it is sold.
 */
export const ticketResale = pgTable(
  'ticket_resale',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => event.id, { onDelete: 'cascade' }),
    ticketTypeId: text('ticket_type_id')
      .notNull()
      .references(() => ticketType.id),
    ticketId: text('ticket_id')
      .notNull()
      .references(() => ticket.id, { onDelete: 'cascade' }),
    /** The seller's order: its payment is refunded when the ticket sells. */
    orderId: text('order_id')
      .notNull()
      .references(() => order.id, { onDelete: 'cascade' }),
    /** What the seller paid for the ticket, and what the next buyer pays. */
    price: integer('price').notNull(),
    /** The organizer's fee when it was offered, kept from the seller's refund. */
    fee: integer('fee').notNull(),
    status: text('status', { enum: ['listed', 'held', 'sold', 'withdrawn', 'ended'] })
      .notNull()
      .default('listed'),
    saleOrderId: text('sale_order_id').references(() => order.id, { onDelete: 'set null' }),
    newTicketId: text('new_ticket_id'),
    listedAt: timestamp('listed_at', { withTimezone: true }).defaultNow().notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (table) => [
    // One offer at a time per ticket.
    uniqueIndex('ticket_resale_open_idx')
      .on(table.ticketId)
      .where(sql`${table.status} in ('listed', 'held')`),
    // The queue: a type's offered tickets, first offered first sold.
    index('ticket_resale_queue_idx')
      .on(table.ticketTypeId, table.listedAt, table.id)
      .where(sql`${table.status} = 'listed'`),
    index('ticket_resale_sale_order_idx')
      .on(table.saleOrderId)
      .where(sql`${table.saleOrderId} is not null`),
    index('ticket_resale_event_idx').on(table.eventId, table.listedAt),
  ],
);
