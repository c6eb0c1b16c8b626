import type { OrderResource } from '@admit/shared/api-resources';
import { asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/database';
import { event, ticketType } from '../events/schema';
import { emitWebhook } from '../webhooks/webhooks.api';
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

/**
 * Reports a change of an order to the organization's webhooks, in the transaction `tx` that makes
 * it (an outbox, decision 0063), with the order as it is after the change.
 */
export async function emitOrderWebhook(
  tx: Tx,
  input: {
    /** The order's organization, when the caller has it at hand (else read here). */
    organizationId?: string;
    orderId: string;
    type: 'order.created' | 'order.paid' | 'order.refunded' | 'order.cancelled';
  },
): Promise<void> {
  const organizationId = input.organizationId ?? (await organizationOf(tx, input.orderId));
  if (!organizationId) return;
  await emitWebhook(tx, {
    organizationId,
    type: input.type,
    objectId: input.orderId,
    payload: () => orderResource(tx, input.orderId),
  });
}

async function organizationOf(db: Db, orderId: string): Promise<string | undefined> {
  const [found] = await db
    .select({ organizationId: event.organizationId })
    .from(order)
    .innerJoin(event, eq(event.id, order.eventId))
    .where(eq(order.id, orderId));
  return found?.organizationId;
}

/**
 * orderResource of the orders of one line that place-order.ts makes in one statement, as an SQL
 * expression over the columns of its `placed` rows (order_id, line_id, buyer_name, email, quantity,
 * total, hold_expires_at): the same object, written in the same statement as the orders. Free
 * orders are paid at once; others are pending holds at `unitPrice` each.
 */
export function placedOrderResourceSql(input: {
  organizationId: string;
  eventId: string;
  currency: string;
  timeZone: string;
  ticketTypeId: string;
  ticketTypeName: string;
  unitPrice: number;
  discount: number;
  codeId: string | null;
}): SQL {
  const utcIso = (at: SQL) => sql`to_char(${at} at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  return sql`jsonb_build_object(
    'object', 'order', 'id', placed.order_id, 'organization_id', ${input.organizationId}::text, 'event_id', ${input.eventId}::text,
    'status', ${input.unitPrice === 0 ? 'paid' : 'pending'}::text, 'buyer_name', placed.buyer_name, 'email', placed.email,
    'total', placed.total, 'refunded_amount', 0, 'currency', ${input.currency}::text,
    'lines', jsonb_build_array(jsonb_build_object(
      'id', placed.line_id, 'ticket_type_id', ${input.ticketTypeId}::text, 'ticket_type_name', ${input.ticketTypeName}::text,
      'quantity', placed.quantity, 'unit_price', ${input.unitPrice}::int, 'discount', ${input.discount}::int,
      'code_id', ${input.codeId}::text)),
    'hold_expires_at', ${utcIso(sql`placed.hold_expires_at`)}, 'created_at', ${utcIso(sql`now()`)}, 'time_zone', ${input.timeZone}::text)`;
}
