import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Tx } from '../../platform/db/database';
import { defineJob, type JobServices } from '../../platform/jobs/job-services';
import { sendDisabledNoticeJob } from './disabled-notice';
import { postWebhook } from './post-webhook';
import { webhookDelivery, webhookEndpoint, webhookMessage } from './schema';
import { signedHeaders } from './signing';
import { orgWebhooksTopic, webhookDeliveriesTopic } from './topics';

// One try of one delivery per job. A failed try enqueues the next one later (back-off doubling from
// WEBHOOKS_RETRY_FIRST_SECONDS, at most eight hours apart, for WEBHOOKS_GIVE_UP_AFTER_SECONDS);
// a delivered or abandoned one enqueues the next pending delivery of the same object to the same
// endpoint, which waited behind it. A job that finds its delivery done, not due, held by another
// job's try, or behind an earlier one does nothing: whatever is due has a job of its own.
// Decision 0063.

/** The longest wait between two tries. */
const maxDelaySeconds = 8 * 60 * 60;
/** How long a try holds its delivery: a little more than a receiver's timeout. */
const leaseSeconds = 30;

export const deliverWebhookJob = defineJob({
  name: 'webhooks.deliver',
  data: z.object({ deliveryId: z.string() }),
  // Tries wait mostly on receivers: each worker takes ten at a time and runs them together.
  concurrency: 4,
  batchSize: 10,
  expireInSeconds: 60,
  async handler({ deliveryId }, { services, jobId }) {
    await deliverWebhook(services, deliveryId, jobId);
  },
});

/** The wait after the given number of failed tries: doubling from the first, within maxDelaySeconds. */
export function retryDelaySeconds(firstSeconds: number, failures: number): number {
  return Math.min(maxDelaySeconds, firstSeconds * 2 ** Math.max(0, failures - 1));
}

export async function deliverWebhook(services: JobServices, deliveryId: string, jobId: string): Promise<void> {
  const { db, config } = services;
  const [claimed] = await db
    .update(webhookDelivery)
    .set({ leaseJob: jobId, leaseUntil: sql`now() + ${leaseSeconds} * interval '1 second'` })
    .where(
      and(
        eq(webhookDelivery.id, deliveryId),
        eq(webhookDelivery.status, 'pending'),
        sql`${webhookDelivery.nextAttemptAt} <= now() + interval '1 second'`,
        sql`(${webhookDelivery.leaseUntil} is null or ${webhookDelivery.leaseUntil} < now() or ${webhookDelivery.leaseJob} = ${jobId})`,
        sql`exists (select 1 from webhook_endpoint e where e.id = ${webhookDelivery.endpointId} and e.status = 'enabled')`,
        sql`not exists (select 1 from webhook_delivery earlier
                         where earlier.endpoint_id = ${webhookDelivery.endpointId} and earlier.object_id = ${webhookDelivery.objectId}
                           and earlier.status = 'pending' and earlier.seq < ${webhookDelivery.seq})`,
      ),
    )
    .returning();
  if (!claimed) return;
  const [found] = await db
    .select({ endpoint: webhookEndpoint, message: webhookMessage })
    .from(webhookEndpoint)
    .innerJoin(webhookMessage, eq(webhookMessage.id, claimed.messageId))
    .where(eq(webhookEndpoint.id, claimed.endpointId));
  if (!found) return;
  const { endpoint, message } = found;

  const body = JSON.stringify({ type: message.type, timestamp: message.createdAt.toISOString(), data: message.payload });
  const overlap = endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > new Date();
  const secrets = overlap ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
  const headers = signedHeaders({ messageId: message.id, at: new Date(), body, secrets });
  const answer = await postWebhook({ url: endpoint.url, headers, body, allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE });

  const delivered = answer.status !== null && answer.status >= 200 && answer.status < 300;
  const attempts = claimed.attempts + 1;
  const logged = {
    attempts,
    lastAttemptAt: new Date(),
    responseStatus: answer.status,
    responseExcerpt: answer.excerpt,
    leaseJob: null,
    leaseUntil: null,
  };
  await db.transaction(async (tx) => {
    if (delivered) {
      await tx
        .update(webhookDelivery)
        .set({ ...logged, status: 'delivered', nextAttemptAt: null })
        .where(eq(webhookDelivery.id, claimed.id));
      await tx
        .update(webhookEndpoint)
        .set({ failingSince: null })
        .where(and(eq(webhookEndpoint.id, endpoint.id), sql`${webhookEndpoint.failingSince} is not null`));
      await sendNextOfObject(tx, services, claimed);
      return;
    }
    if (answer.status === 410) {
      // The receiver says it is gone for good: nothing more is sent to it until an admin enables it again.
      await tx
        .update(webhookEndpoint)
        .set({ status: 'disabled', disabledReason: 'gone' })
        .where(eq(webhookEndpoint.id, endpoint.id));
      await tx
        .update(webhookDelivery)
        .set({ ...logged, status: 'failed', nextAttemptAt: null })
        .where(eq(webhookDelivery.id, claimed.id));
      return;
    }
    const giveUpMs = config.WEBHOOKS_GIVE_UP_AFTER_SECONDS * 1000;
    const [failing] = await tx
      .update(webhookEndpoint)
      .set({ failingSince: sql`coalesce(${webhookEndpoint.failingSince}, now())` })
      .where(eq(webhookEndpoint.id, endpoint.id))
      .returning();
    if (failing && failing.status === 'enabled' && failing.failingSince!.getTime() <= Date.now() - giveUpMs) {
      await tx
        .update(webhookEndpoint)
        .set({ status: 'disabled', disabledReason: 'failing' })
        .where(eq(webhookEndpoint.id, endpoint.id));
      await services.jobs.enqueue(tx, sendDisabledNoticeJob, { endpointId: endpoint.id });
    }
    const giveUpAt = claimed.createdAt.getTime() + giveUpMs;
    if (Date.now() >= giveUpAt) {
      await tx
        .update(webhookDelivery)
        .set({ ...logged, status: 'failed', nextAttemptAt: null })
        .where(eq(webhookDelivery.id, claimed.id));
      await sendNextOfObject(tx, services, claimed);
      return;
    }
    const next = new Date(
      Math.min(giveUpAt, Date.now() + retryDelaySeconds(config.WEBHOOKS_RETRY_FIRST_SECONDS, attempts) * 1000),
    );
    await tx
      .update(webhookDelivery)
      .set({ ...logged, nextAttemptAt: next })
      .where(eq(webhookDelivery.id, claimed.id));
    await services.jobs.enqueue(tx, deliverWebhookJob, { deliveryId: claimed.id }, { startAfter: next });
  });
  services.publish(webhookDeliveriesTopic(endpoint.id), orgWebhooksTopic(endpoint.organizationId));
}

/** The next pending delivery of the same object to the same endpoint waited for this one: its turn now. */
async function sendNextOfObject(
  tx: Tx,
  services: JobServices,
  done: { endpointId: string; objectId: string; seq: number },
): Promise<void> {
  const [next] = await tx
    .select({ id: webhookDelivery.id })
    .from(webhookDelivery)
    .where(
      and(
        eq(webhookDelivery.endpointId, done.endpointId),
        eq(webhookDelivery.objectId, done.objectId),
        eq(webhookDelivery.status, 'pending'),
        gt(webhookDelivery.seq, done.seq),
      ),
    )
    .orderBy(asc(webhookDelivery.seq))
    .limit(1);
  if (next) await services.jobs.enqueue(tx, deliverWebhookJob, { deliveryId: next.id });
}
