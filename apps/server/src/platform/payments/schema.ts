import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Payments of the sandbox provider (the embedded default: test payments, no money moves). */
export const sandboxPayment = pgTable('sandbox_payment', {
  id: text('id').primaryKey(),
  orderId: text('order_id').notNull().unique(),
  clientSecret: text('client_secret').notNull().unique(),
  amount: integer('amount').notNull(),
  currency: text('currency').notNull(),
  status: text('status', {
    enum: ['requires_payment_method', 'requires_action', 'processing', 'succeeded', 'canceled'],
  }).notNull(),
  refunded: integer('refunded').notNull().default(0),
  /** Cards declined so far (the test card 4000 0000 0000 0002), each one line of the order's timeline. */
  declines: integer('declines').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
});

/** Provider webhook events already handled: a redelivered event changes nothing. */
export const paymentEvent = pgTable('payment_event', {
  /** The provider's event id (Stripe: `evt_…`). */
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  /** The order the event was about, when it named one. */
  orderId: text('order_id'),
  receivedAt: timestamp('received_at', { withTimezone: true }).defaultNow().notNull(),
});
