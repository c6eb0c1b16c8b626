import { sql, type SQLWrapper } from 'drizzle-orm';

/**
 * The idempotency key of the refund that gives a cancelled event's order its money back: one per
 * order, so cancelling again, or the job tried again after a crash, finds the same refund and the
 * provider is asked once.
 */
export const cancellationRefundKey = (orderId: string) => `event-cancelled-${orderId}`;

/** The same key as an SQL expression of an order's id column (to join an order to its cancellation's refund). */
export const cancellationRefundKeyOf = (orderId: SQLWrapper) => sql<string>`'event-cancelled-' || ${orderId}`;
