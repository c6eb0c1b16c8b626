import type { OrderStatus } from '@admit/shared/orders';
import { eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database';
import type { Order } from './order-places';
import { order } from './schema';

/**
 * What the payments module may change on an order: its status with the money it was paid (the
 * provider's payment) or given back (the sum of its refunds). The orders module's front door for
 * them, called in the transaction of the settlement or refund that decides it; the order, as it is now.
 */
export async function setOrderMoney(
  tx: Tx,
  orderId: string,
  change: { status: OrderStatus; paymentRef?: string; refundedAmount?: number },
): Promise<Order> {
  const [updated] = await tx.update(order).set(change).where(eq(order.id, orderId)).returning();
  if (!updated) throw new Error(`No order ${orderId}`);
  return updated;
}
