import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from '../../platform/auth/schema';
import { order } from '../orders/schema';

/**
 * Money given back on a paid order: by an admin (whole order or chosen tickets), for a payment
 * that came after its places were gone, or in the provider's dashboard (found by reconciliation).
 * `idempotencyKey` is what the provider gets, so a retried refund is the same refund.
 */
export const refund = pgTable(
  'refund',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => order.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed', 'canceled', 'requires_action'] }).notNull(),
    /** The provider's refund id (Stripe: `re_…`), once it has one. */
    providerRef: text('provider_ref').unique(),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    /** The tickets this refund voided (empty for a refund of money only, e.g. one made in Stripe). */
    ticketIds: text('ticket_ids')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** The admin who asked for it; null when it came from the provider or from a late payment. */
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [index('refund_order_idx').on(table.orderId)],
);
