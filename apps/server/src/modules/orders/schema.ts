import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { user } from '../../platform/auth/schema';
import { event, ticketType } from '../events/schema';

export const order = pgTable(
  'order',
  {
    id: text('id').primaryKey(),
    eventId: text('event_id')
      .notNull()
      .references(() => event.id, { onDelete: 'cascade' }),
    buyerId: text('buyer_id').references(() => user.id, { onDelete: 'set null' }),
    buyerName: text('buyer_name').notNull(),
    email: text('email').notNull(),
    status: text('status', {
      enum: ['pending', 'paid', 'expired', 'cancelled', 'refunded', 'partially_refunded'],
    }).notNull(),
    total: integer('total').notNull(),
    refundedAmount: integer('refunded_amount').notNull().default(0),
    currency: text('currency').notNull(),
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true }),
    paymentProvider: text('payment_provider'),
    paymentRef: text('payment_ref'),
    locale: text('locale'),
    idempotencyKey: text('idempotency_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [
    index('order_event_idx').on(table.eventId),
    index('order_buyer_idx').on(table.buyerId),
    uniqueIndex('order_buyer_idempotency_idx').on(table.buyerId, table.idempotencyKey),
    // The hold sweeper's question: which pending orders have run out?
    index('order_pending_hold_idx')
      .on(table.holdExpiresAt)
      .where(sql`${table.status} = 'pending'`),
  ],
);

export const orderLine = pgTable(
  'order_line',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => order.id, { onDelete: 'cascade' }),
    ticketTypeId: text('ticket_type_id')
      .notNull()
      .references(() => ticketType.id),
    quantity: integer('quantity').notNull(),
    unitPrice: integer('unit_price').notNull(),
  },
  (table) => [index('order_line_order_idx').on(table.orderId)],
);

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
    /** 128 random bits, base64url: what the QR code carries. */
    code: text('code').notNull().unique(),
    holderName: text('holder_name').notNull(),
    holderEmail: text('holder_email').notNull(),
    status: text('status', { enum: ['valid', 'void'] })
      .notNull()
      .default('valid'),
    checkedInAt: timestamp('checked_in_at', { withTimezone: true }),
    checkedInDevice: text('checked_in_device'),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [index('ticket_order_idx').on(table.orderId), index('ticket_event_idx').on(table.eventId)],
);
