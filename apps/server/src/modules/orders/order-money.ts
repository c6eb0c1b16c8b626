import type { OrderStatus } from '@admit/shared/orders';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database';
import type { Order } from './order-places';
import { emitOrderWebhook } from './order-resource';
import { order } from './schema';

/**
 * What the payments module may change on an order: its status with the money it was paid (the
 * provider's payment) or given back (the sum of its refunds). The orders module's front door for
 * them, called in the transaction of the settlement or refund that decides it (which holds the
 * order's lock); the order, as it is now. A change of the money given back is reported to the
 * organization's webhooks as `order.refunded`, whatever made it (a refund from Admit or from the
 * provider's dashboard, or one the provider refused and that was undone), except when the order is
 * cancelled by it (a late payment given back: the caller reports `order.cancelled`).
 */
export async function setOrderMoney(
  tx: Tx,
  orderId: string,
  change: { status: OrderStatus; paymentRef?: string; refundedAmount?: number },
): Promise<Order> {
  const [before] =
    change.refundedAmount === undefined
      ? []
      : await tx.select({ refundedAmount: order.refundedAmount }).from(order).where(eq(order.id, orderId));
  const [updated] = await tx.update(order).set(change).where(eq(order.id, orderId)).returning();
  if (!updated) throw new Error(`No order ${orderId}`);
  if (before && before.refundedAmount !== updated.refundedAmount && updated.status !== 'cancelled')
    await emitOrderWebhook(tx, { orderId, type: 'order.refunded' });
  return updated;
}
