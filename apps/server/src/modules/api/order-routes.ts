import { ListQuery, PaymentResource, listOf } from '@admit/shared/api-v1';
import { and, asc, eq } from 'drizzle-orm';
import { z } from 'zod';
import { event } from '../events/schema';
import { orderResources } from '../orders/orders.api';
import { order } from '../orders/schema';
import { refund } from '../payments/schema';
import { defineRoute, NoQuery, PathId, type ApiContext } from './api-route';
import { micros, pageConditions, pageOf, updatedAtOf } from './pages';
import { notFound } from './problem';
import { ApiOrder, EventPath, eventOfKey, built } from './route-kit';

// The REST API's routes of orders: an event's orders with their lines, one order, and its payment
// (decision 0062).

export const listOrders = defineRoute({
  method: 'GET',
  path: '/events/{event_id}/orders',
  operationId: 'listOrders',
  summary: "An event's orders with their lines",
  tag: 'Orders',
  scopes: ['read'],
  params: EventPath,
  query: ListQuery,
  response: listOf(ApiOrder, 'OrderList'),
  async handler({ params, query }, ctx) {
    const found = await eventOfKey(ctx, params.event_id);
    const page = pageConditions(query, order);
    const rows = await ctx.db
      .select({ id: order.id, micros: micros(order.updatedAt) })
      .from(order)
      .where(and(eq(order.eventId, found.id), page.where))
      .orderBy(...page.orderBy)
      .limit(page.limit);
    const { rows: items, ...rest } = pageOf(rows, query);
    return { data: await built(ctx.db, items, orderResources), ...rest };
  },
});

/** The key's organization's order, or not-found. */
async function orderOfKey(ctx: ApiContext, orderId: string) {
  const [found] = await ctx.db
    .select({ order, micros: micros(order.updatedAt), timeZone: event.timeZone })
    .from(order)
    .innerJoin(event, eq(event.id, order.eventId))
    .where(and(eq(order.id, orderId), eq(event.organizationId, ctx.key.organizationId)));
  if (!found) throw notFound('order');
  return found;
}

const OrderPath = z.strictObject({ order_id: PathId });
export const getOrder = defineRoute({
  method: 'GET',
  path: '/orders/{order_id}',
  operationId: 'getOrder',
  summary: 'One order with its lines',
  tag: 'Orders',
  scopes: ['read'],
  params: OrderPath,
  query: NoQuery,
  response: ApiOrder,
  async handler({ params }, ctx) {
    const found = await orderOfKey(ctx, params.order_id);
    const [resource] = await built(ctx.db, [{ id: found.order.id, micros: found.micros }], orderResources);
    return resource!;
  },
});

export const getPayment = defineRoute({
  method: 'GET',
  path: '/orders/{order_id}/payment',
  operationId: 'getOrderPayment',
  summary: 'What was paid for an order, and its refunds',
  tag: 'Orders',
  scopes: ['read'],
  params: OrderPath,
  query: NoQuery,
  response: PaymentResource,
  async handler({ params }, ctx) {
    const { order: found, micros: changed, timeZone } = await orderOfKey(ctx, params.order_id);
    const refunds = await ctx.db.select().from(refund).where(eq(refund.orderId, found.id)).orderBy(asc(refund.createdAt));
    return {
      object: 'payment' as const,
      order_id: found.id,
      provider: found.paymentProvider,
      provider_ref: found.paymentRef,
      status: found.total === 0 && found.status === 'paid' ? ('none' as const) : found.status,
      amount: found.total,
      refunded_amount: found.refundedAmount,
      currency: found.currency,
      refunds: refunds.map((one) => ({
        id: one.id,
        amount: one.amount,
        status: one.status,
        reason: one.reason,
        created_at: one.createdAt.toISOString(),
      })),
      time_zone: timeZone,
      updated_at: updatedAtOf({ micros: changed }),
    };
  },
});
