import type { OrderResource } from '@admit/shared/api-resources';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { event, ticketType } from '../events/schema';
import { order, orderLine } from './schema';

/**
 * An order with its lines as the REST API and the webhooks show it (decision 0063); null when there
 * is no such order. Reads through `db`, which may be the transaction that just changed it.
 */
export async function orderResource(db: Db, orderId: string): Promise<OrderResource | null> {
  return (await orderResources(db, [orderId]))[0] ?? null;
}

/** Many orders at once (a page of the REST API's lists) in two queries, in the order of `orderIds`; missing ones left out. */
export async function orderResources(db: Db, orderIds: readonly string[]): Promise<OrderResource[]> {
  if (orderIds.length === 0) return [];
  const rows = await db
    .select({ order, organizationId: event.organizationId, timeZone: event.timeZone })
    .from(order)
    .innerJoin(event, eq(event.id, order.eventId))
    .where(inArray(order.id, [...orderIds]));
  const lines = await db
    .select({ line: orderLine, ticketTypeName: ticketType.name })
    .from(orderLine)
    .innerJoin(ticketType, eq(ticketType.id, orderLine.ticketTypeId))
    .where(inArray(orderLine.orderId, [...orderIds]))
    .orderBy(asc(ticketType.position), asc(orderLine.id));
  const byId = new Map(rows.map((row) => [row.order.id, row]));
  return orderIds.flatMap((orderId) => {
    const row = byId.get(orderId);
    if (!row) return [];
    const { order: o } = row;
    return [
      {
        object: 'order' as const,
        id: o.id,
        organization_id: row.organizationId,
        event_id: o.eventId,
        status: o.status,
        buyer_name: o.buyerName,
        email: o.email,
        total: o.total,
        refunded_amount: o.refundedAmount,
        currency: o.currency,
        lines: lines
          .filter(({ line }) => line.orderId === orderId)
          .map(({ line, ticketTypeName }) => ({
            id: line.id,
            ticket_type_id: line.ticketTypeId,
            ticket_type_name: ticketTypeName,
            quantity: line.quantity,
            unit_price: line.unitPrice,
            discount: line.discount,
            code_id: line.codeId,
          })),
        hold_expires_at: o.holdExpiresAt?.toISOString() ?? null,
        created_at: o.createdAt.toISOString(),
        time_zone: row.timeZone,
      },
    ];
  });
}
