import type { MyOrderRow } from '@admit/shared/orders';

/**
 * Whether the buyer (or the guest with the order's token) may still change its tickets' holder
 * names and answers: the order is paid (a part may be refunded) and its event has not started.
 */
export const ticketChangesOpen = (order: Pick<MyOrderRow, 'status' | 'answersUntil'>, now = Date.now()) =>
  (order.status === 'paid' || order.status === 'partially_refunded') && Date.parse(order.answersUntil) > now;
