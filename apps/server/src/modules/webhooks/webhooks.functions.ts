import {
  createWebhook,
  deleteWebhook,
  pingWebhook,
  resendWebhook,
  rotateWebhookSecret,
  updateWebhook,
  webhookLimits,
  webhookPingType,
} from '@admit/shared/webhooks';
import { and, count, eq, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { recordAudit } from '../../platform/audit/audit-log';
import type { SessionUser } from '../../platform/auth/auth';
import { requireOrgRole } from '../../platform/auth/roles';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import { defineCallable } from '../../platform/http/callable';
import { addressProblemOf } from './address-check';
import { wakeEndpoint } from './deliver';
import { webhookDelivery, webhookEndpoint, webhookMessage } from './schema';
import { newWebhookSecret } from './signing';
import { orgWebhooksTopic, webhookDeliveriesTopic } from './topics';

/** How long the secret before a rotation keeps signing beside the new one. */
const rotationOverlapMs = 24 * 60 * 60 * 1000;

/** Refuses an address Admit must not call (decision 0063); resolved now, and again at each delivery. */
async function requireCallableUrl(config: Config, url: string) {
  if (config.WEBHOOKS_ALLOW_PRIVATE) return;
  const problem = await addressProblemOf(url);
  if (problem === 'private-address')
    throw new CallableError('invalid-argument', 'Webhooks cannot go to a private, loopback or link-local address', {
      reason: problem,
    });
  if (problem === 'unresolvable')
    throw new CallableError('invalid-argument', 'The address’s host name does not resolve', { reason: problem });
}

/** The endpoint, for an admin of its organization; `not-found` for anyone else. */
async function requireEndpoint(db: Db, caller: SessionUser, endpointId: string) {
  const [found] = await db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, endpointId));
  if (!found) throw new CallableError('not-found', 'No such webhook');
  await requireOrgRole(db, caller, found.organizationId, 'admin');
  return found;
}

export const createWebhookCallable = defineCallable(createWebhook, {
  auth: 'required',
  async handler(input, ctx) {
    await requireOrgRole(ctx.db, ctx.user, input.organizationId, 'admin');
    await requireCallableUrl(ctx.config, input.url);
    const [{ endpoints }] = (await ctx.db
      .select({ endpoints: count() })
      .from(webhookEndpoint)
      .where(eq(webhookEndpoint.organizationId, input.organizationId))) as [{ endpoints: number }];
    if (endpoints >= webhookLimits.endpointsPerOrganization)
      throw new CallableError('failed-precondition', 'The organization has as many webhooks as it may', {
        reason: 'too-many-endpoints',
        max: webhookLimits.endpointsPerOrganization,
      });
    const endpointId = randomUUID();
    const secret = newWebhookSecret();
    await ctx.db.transaction(async (tx) => {
      await tx.insert(webhookEndpoint).values({
        id: endpointId,
        organizationId: input.organizationId,
        url: input.url,
        eventTypes: input.eventTypes,
        secret,
      });
      await recordAudit(tx, { organizationId: input.organizationId, actor: ctx.user, action: 'webhook.add', target: input.url });
    });
    ctx.publish(orgWebhooksTopic(input.organizationId));
    return { endpointId, secret };
  },
});

export const updateWebhookCallable = defineCallable(updateWebhook, {
  auth: 'required',
  async handler(input, ctx) {
    const found = await requireEndpoint(ctx.db, ctx.user, input.endpointId);
    if (input.url) await requireCallableUrl(ctx.config, input.url);
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(webhookEndpoint)
        .set({
          url: input.url ?? found.url,
          eventTypes: input.eventTypes ?? found.eventTypes,
          // Enabled again, it reads the outbox from now on: what happened while it was off is not sent.
          ...(input.enabled === true && found.status === 'disabled'
            ? {
                status: 'enabled',
                disabledReason: null,
                failingSince: null,
                cursorTxid: sql`pg_current_xact_id()::text::bigint`,
                cursorSeq: 0,
              }
            : {}),
          ...(input.enabled === false ? { status: 'disabled', disabledReason: 'manual' } : {}),
        })
        .where(eq(webhookEndpoint.id, found.id));
      if (input.enabled === true && found.status === 'disabled') {
        // What waited while it was off goes now, each behind any earlier one of its object.
        await tx
          .update(webhookDelivery)
          .set({ nextAttemptAt: sql`now()` })
          .where(and(eq(webhookDelivery.endpointId, found.id), eq(webhookDelivery.status, 'pending')));
        await wakeEndpoint(tx, found.id);
      }
      await recordAudit(tx, {
        organizationId: found.organizationId,
        actor: ctx.user,
        action: 'webhook.update',
        target: found.url,
        details: { ...input, endpointId: undefined },
      });
    });
    ctx.publish(orgWebhooksTopic(found.organizationId), webhookDeliveriesTopic(found.id));
    return {};
  },
});

export const deleteWebhookCallable = defineCallable(deleteWebhook, {
  auth: 'required',
  async handler(input, ctx) {
    const found = await requireEndpoint(ctx.db, ctx.user, input.endpointId);
    await ctx.db.transaction(async (tx) => {
      await tx.delete(webhookEndpoint).where(eq(webhookEndpoint.id, found.id));
      await recordAudit(tx, {
        organizationId: found.organizationId,
        actor: ctx.user,
        action: 'webhook.remove',
        target: found.url,
      });
    });
    ctx.publish(orgWebhooksTopic(found.organizationId));
    return {};
  },
});

export const rotateWebhookSecretCallable = defineCallable(rotateWebhookSecret, {
  auth: 'required',
  async handler(input, ctx) {
    const found = await requireEndpoint(ctx.db, ctx.user, input.endpointId);
    const secret = newWebhookSecret();
    const previousValidUntil = new Date(Date.now() + rotationOverlapMs);
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(webhookEndpoint)
        .set({ secret, previousSecret: found.secret, previousSecretUntil: previousValidUntil })
        .where(eq(webhookEndpoint.id, found.id));
      await recordAudit(tx, {
        organizationId: found.organizationId,
        actor: ctx.user,
        action: 'webhook.rotate',
        target: found.url,
      });
    });
    ctx.publish(orgWebhooksTopic(found.organizationId));
    return { secret, previousValidUntil: previousValidUntil.toISOString() };
  },
});

export const resendWebhookCallable = defineCallable(resendWebhook, {
  auth: 'required',
  async handler(input, ctx) {
    const [delivery] = await ctx.db.select().from(webhookDelivery).where(eq(webhookDelivery.id, input.deliveryId));
    if (!delivery) throw new CallableError('not-found', 'No such delivery');
    const found = await requireEndpoint(ctx.db, ctx.user, delivery.endpointId);
    await ctx.db.transaction(async (tx) => {
      // Pending again, due now, with a new delivery order: it goes after what is pending for its object.
      await tx.execute(sql`update webhook_delivery
          set status = 'pending', next_attempt_at = now(),
              seq = nextval(pg_get_serial_sequence('webhook_delivery', 'seq'))
        where id = ${delivery.id}`);
      await wakeEndpoint(tx, found.id);
    });
    ctx.publish(webhookDeliveriesTopic(found.id));
    return {};
  },
});

export const pingWebhookCallable = defineCallable(pingWebhook, {
  auth: 'required',
  async handler(input, ctx) {
    const found = await requireEndpoint(ctx.db, ctx.user, input.endpointId);
    const messageId = `msg_${randomUUID().replaceAll('-', '')}`;
    const deliveryId = randomUUID();
    await ctx.db.transaction(async (tx) => {
      await tx.insert(webhookMessage).values({
        id: messageId,
        organizationId: found.organizationId,
        type: webhookPingType,
        objectId: found.id,
        payload: { object: 'webhook_endpoint', id: found.id, url: found.url },
      });
      await tx.insert(webhookDelivery).values({ id: deliveryId, messageId, endpointId: found.id, objectId: found.id });
      await wakeEndpoint(tx, found.id);
    });
    ctx.publish(webhookDeliveriesTopic(found.id));
    return { deliveryId };
  },
});

export const webhooksCallables = [
  createWebhookCallable,
  updateWebhookCallable,
  deleteWebhookCallable,
  rotateWebhookSecretCallable,
  resendWebhookCallable,
  pingWebhookCallable,
];
