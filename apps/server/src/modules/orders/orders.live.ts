import { eventOrders } from '@admit/shared/orders';
import { desc, eq, sql } from 'drizzle-orm';
import { requireOrgRole } from '../../platform/auth/roles';
import { CallableError } from '../../platform/http/callable-error';
import { defineLiveQuery } from '../../platform/live/live-query';
import { event } from '../events/schema';
import { order } from './schema';

export const eventOrdersLive = defineLiveQuery(eventOrders, {
  auth: 'required',
  async load(params, ctx) {
    const [found] = await ctx.db.select({ organizationId: event.organizationId }).from(event).where(eq(event.id, params.eventId));
    if (!found) throw new CallableError('not-found', 'No such event');
    await requireOrgRole(ctx.db, ctx.user, found.organizationId, 'admin');
    const rows = await ctx.db
      .select({
        id: order.id,
        eventId: order.eventId,
        buyerName: order.buyerName,
        email: order.email,
        status: order.status,
        total: order.total,
        currency: order.currency,
        // Qualified by hand: in a one-table select Drizzle leaves column names bare, and a bare "id"
        // inside the subquery would mean the ticket's own id (every count was 0).
        ticketCount: sql<number>`(select count(*)::int from "ticket" where "ticket"."order_id" = "order"."id")`,
        createdAt: order.createdAt,
      })
      .from(order)
      .where(eq(order.eventId, params.eventId))
      .orderBy(desc(order.createdAt), desc(order.id))
      .limit(500);
    return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
  },
  topics: (params) => [`event:${params.eventId}:orders`],
});

export const ordersLiveQueries = [eventOrdersLive];
