import { webhookDeliveries, webhookEndpoints } from '@admit/shared/webhooks';
import { asc, desc, eq } from 'drizzle-orm';
import { requireOrgRole } from '../../platform/auth/roles';
import { CallableError } from '../../platform/http/callable-error';
import { defineLiveQuery } from '../../platform/live/live-query';
import { webhookDelivery, webhookEndpoint, webhookMessage } from './schema';
import { webhookDeliveriesTopic, orgWebhooksTopic } from './topics';

/** An organization's webhook endpoints (its admins), without their secrets. */
export const webhookEndpointsLive = defineLiveQuery(webhookEndpoints, {
  auth: 'required',
  async load(params, ctx) {
    await requireOrgRole(ctx.db, ctx.user, params.organizationId, 'admin');
    const rows = await ctx.db
      .select()
      .from(webhookEndpoint)
      .where(eq(webhookEndpoint.organizationId, params.organizationId))
      .orderBy(asc(webhookEndpoint.createdAt), asc(webhookEndpoint.id));
    return rows.map((row) => ({
      id: row.id,
      url: row.url,
      eventTypes: row.eventTypes,
      enabled: row.status === 'enabled',
      disabledReason: row.disabledReason,
      failingSince: row.failingSince?.toISOString() ?? null,
      previousSecretUntil:
        row.previousSecretUntil && row.previousSecretUntil > new Date() ? row.previousSecretUntil.toISOString() : null,
      createdAt: row.createdAt.toISOString(),
    }));
  },
  topics: (params) => [orgWebhooksTopic(params.organizationId)],
});

/** How many of an endpoint's latest deliveries its log shows. */
const logLength = 50;

/** An endpoint's delivery log, newest first (its organization's admins). */
export const webhookDeliveriesLive = defineLiveQuery(webhookDeliveries, {
  auth: 'required',
  async load(params, ctx) {
    const [endpoint] = await ctx.db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, params.endpointId));
    if (!endpoint) throw new CallableError('not-found', 'No such webhook');
    await requireOrgRole(ctx.db, ctx.user, endpoint.organizationId, 'admin');
    const rows = await ctx.db
      .select({ delivery: webhookDelivery, type: webhookMessage.type })
      .from(webhookDelivery)
      .innerJoin(webhookMessage, eq(webhookMessage.id, webhookDelivery.messageId))
      .where(eq(webhookDelivery.endpointId, endpoint.id))
      .orderBy(desc(webhookDelivery.createdAt), desc(webhookDelivery.seq))
      .limit(logLength);
    return rows.map(({ delivery, type }) => ({
      id: delivery.id,
      messageId: delivery.messageId,
      type,
      objectId: delivery.objectId,
      status: delivery.status,
      attempts: delivery.attempts,
      responseStatus: delivery.responseStatus,
      responseExcerpt: delivery.responseExcerpt,
      lastAttemptAt: delivery.lastAttemptAt?.toISOString() ?? null,
      nextAttemptAt: delivery.status === 'pending' ? (delivery.nextAttemptAt?.toISOString() ?? null) : null,
      createdAt: delivery.createdAt.toISOString(),
    }));
  },
  topics: (params) => [webhookDeliveriesTopic(params.endpointId)],
});

export const webhooksLiveQueries = [webhookEndpointsLive, webhookDeliveriesLive];
