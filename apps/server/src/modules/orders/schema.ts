import type { Answers } from '@admit/shared/questions';
import { eq, or, sql, type SQL } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { user } from '../../platform/auth/schema';
import { eventCode } from '../codes/schema';
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
    /** Set by a trigger on every change (the REST API's `updated_since`: decision 0062). */
    updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [
    index('order_event_updated_idx').on(table.eventId, table.updatedAt, table.id),
    index('order_event_idx').on(table.eventId),
    // Exports read an event's orders in pages of (created_at, id) (modules/exports).
    index('order_event_created_idx').on(table.eventId, table.createdAt, table.id),
    index('order_buyer_idx').on(table.buyerId),
    // A buyer's orders by their address too (ordersOf): their holds and their limits per buyer.
    index('order_email_lower_idx').on(sql`lower(${table.email})`),
    uniqueIndex('order_buyer_idempotency_idx').on(table.buyerId, table.idempotencyKey),
    // A guest's orders, by the address they gave: their key made one order (decision 0060), and a
    // person who signs in with the address is given them (order-access.ts).
    uniqueIndex('order_guest_idempotency_idx')
      .on(table.email, table.idempotencyKey)
      .where(sql`${table.buyerId} is null`),
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
    /** What each ticket of the line costs the buyer: its type's price then, less `discount`. */
    unitPrice: integer('unit_price').notNull(),
    /** Taken off each ticket's price by the line's code (0 without one). */
    discount: integer('discount').notNull().default(0),
    /** The code this line's places were taken with: they are its uses while held or sold. */
    codeId: text('code_id').references(() => eventCode.id),
    /**
     * Whether the line buys tickets offered back (decision 0066): those `ticket_resale` rows whose
     * `sale_order_id` is the order, all at the one price their sellers paid. It takes no place (the
     * sellers' tickets have them), so placesOf leaves it out.
     */
    resale: boolean('resale').notNull().default(false),
    /** Each ticket's answers to the event's questions while the places are held: the tickets take them when issued. */
    answers: jsonb('answers')
      .$type<Answers[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
  },
  (table) => [
    index('order_line_order_idx').on(table.orderId),
    index('order_line_code_idx')
      .on(table.codeId)
      .where(sql`${table.codeId} is not null`),
  ],
);

/**
 * What happened to an order, in order: the organizer's payment timeline. Written in the same
 * transaction as the change it records.
 */
export const orderActivity = pgTable(
  'order_activity',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => order.id, { onDelete: 'cascade' }),
    kind: text('kind', {
      enum: [
        'created',
        'payment_started',
        'payment_failed',
        'paid',
        'confirmed',
        'expired',
        'cancelled',
        'late_payment_refunded',
        'refund_requested',
        'refund_succeeded',
        'refund_failed',
        'webhook',
        'email_sent',
        'holder_changed',
        'answers_changed',
        'transfer_sent',
        'transfer_cancelled',
        'ticket_transferred',
        'resale_listed',
        'resale_withdrawn',
        'ticket_resold',
      ],
    }).notNull(),
    /** Small facts for the timeline (amount, provider status, event type, reason). */
    detail: jsonb('detail').$type<Record<string, string | number | boolean | null>>().notNull().default({}),
    /** The person who did it, when a person did. */
    actorId: text('actor_id').references(() => user.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [index('order_activity_order_idx').on(table.orderId, table.at)],
);

/**
 * The orders of a buyer (`id` null for a guest): theirs, and any made with their address (a
 * guest's, or theirs before they signed in). Limits per buyer count these (decision 0060).
 */
export function ordersOf(buyer: { id: string | null; email: string }): SQL {
  const byAddress = sql`lower(${order.email}) = ${buyer.email.toLowerCase()}`;
  return buyer.id ? or(eq(order.buyerId, buyer.id), byAddress)! : byAddress;
}
