import { asc, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/database';
import type { PlaceLine } from '../events/events.api';
import { order, orderLine } from './schema';

export type Order = typeof order.$inferSelect;

/** The places an order takes: the quantity of each of its lines. */
export async function placesOf(tx: Tx | Db, orderId: string): Promise<PlaceLine[]> {
  return tx
    .select({ ticketTypeId: orderLine.ticketTypeId, quantity: orderLine.quantity })
    .from(orderLine)
    .where(eq(orderLine.orderId, orderId))
    .orderBy(asc(orderLine.ticketTypeId));
}
