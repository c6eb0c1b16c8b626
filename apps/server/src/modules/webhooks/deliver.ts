import { eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../platform/db/database';
import { enqueueInStatement, waitingJobExists } from '../../platform/jobs/job-queue';
import { defineJob, type JobServices } from '../../platform/jobs/job-services';
import { sendDisabledNoticeJob } from './disabled-notice';
import { postWebhook, type PostResult } from './post-webhook';
import { webhookDelivery, webhookEndpoint } from './schema';
import { signedHeaders } from './signing';
import { orgWebhooksTopic, webhookDeliveriesTopic } from './topics';

// An endpoint's deliveries go out in rounds, one job draining them (decision 0063): each round claims
// up to roundSize of its due, pending deliveries that wait behind no earlier one of their object,
// posts them side by side, and records every answer in one statement. Then the next round, until
// nothing is due. A failed try waits (back-off doubling from WEBHOOKS_RETRY_FIRST_SECONDS, at most
// eight hours, for WEBHOOKS_GIVE_UP_AFTER_SECONDS) and a job wakes the endpoint when the first
// waiting one is due; a delivered or abandoned one lets the next of its object go in the next round.
// A change that writes deliveries wakes its endpoint unless a job for it already waits; the sweep
// wakes an endpoint whose due deliveries nobody took (a job that had already started when they were
// committed).

/** How many deliveries one round posts together: a receiver gets at most this many at once. */
const roundSize = 25;
/** A job drains this long at most, then hands on to a new one (its try may last expireInSeconds). */
const drainForMs = 30_000;
/** The longest wait between two tries. */
const maxDelaySeconds = 8 * 60 * 60;
/** How long a round holds its deliveries: more than a receiver's timeout. */
const leaseSeconds = 30;
/** How often the sweep looks for due deliveries that no job took. */
const sweepEverySeconds = 5;

export const deliverEndpointWebhooksJob = defineJob({
  name: 'webhooks.deliverEndpoint',
  data: z.object({ endpointId: z.string() }),
  // Rounds wait mostly on receivers: each worker runs up to ten endpoints' jobs together.
  concurrency: 2,
  batchSize: 10,
  expireInSeconds: 90,
  async handler({ endpointId }, { services, jobId }) {
    await drainEndpoint(services, endpointId, jobId);
  },
});

/** One try of one delivery: jobs of this kind queued before deliveries went in rounds wake its endpoint. */
export const deliverWebhookJob = defineJob({
  name: 'webhooks.deliver',
  data: z.object({ deliveryId: z.string() }),
  concurrency: 1,
  async handler({ deliveryId }, { services, jobId }) {
    const [found] = await services.db
      .select({ endpointId: webhookDelivery.endpointId })
      .from(webhookDelivery)
      .where(eq(webhookDelivery.id, deliveryId));
    if (found) await drainEndpoint(services, found.endpointId, jobId);
  },
});

/** Wakes every endpoint with deliveries due that no job holds, a few seconds late (see above). */
export const sweepWebhooksJob = defineJob({
  name: 'webhooks.sweep',
  data: z.object({}),
  concurrency: 1,
  retryLimit: 1,
  everySeconds: () => sweepEverySeconds,
  async handler(_data, { services }) {
    await services.db.execute(
      sql`with ${wakeEndpoints(sql`(select distinct d.endpoint_id from webhook_delivery d
                 where d.status = 'pending' and d.next_attempt_at < now() - interval '2 seconds'
                   and (d.lease_until is null or d.lease_until < now()) and ${isHead}) as due`)} select 1`,
    );
  },
});

/**
 * A `with` part that enqueues a job for each endpoint of `from` (rows with an `endpoint_id` column),
 * unless one waits already for it: a burst of orders makes one job, not one per order.
 */
export function wakeEndpoints(from: SQL, at?: SQL): SQL {
  const job = deliverEndpointWebhooksJob as never;
  return sql`webhook_wake as (
    ${enqueueInStatement(
      job,
      sql`jsonb_build_object('endpointId', woken.endpoint_id)`,
      sql`(select distinct endpoint_id from ${from}
            where not ${waitingJobExists(job, 'endpointId', sql`endpoint_id`, at)}) as woken`,
      at,
    )}
  )`;
}

/** Wakes one endpoint now, unless a job waits for it already. */
export async function wakeEndpoint(db: Tx | Db, endpointId: string): Promise<void> {
  await db.execute(sql`with ${wakeEndpoints(sql`(select ${endpointId}::text as endpoint_id) as one`)} select 1`);
}

/** A delivery no earlier pending one of its object holds back (`d` is webhook_delivery). */
const isHead = sql`not exists (select 1 from webhook_delivery earlier
                                 where earlier.endpoint_id = d.endpoint_id and earlier.object_id = d.object_id
                                   and earlier.status = 'pending' and earlier.seq < d.seq)`;

/** The wait after the given number of failed tries: doubling from the first, within maxDelaySeconds. */
export function retryDelaySeconds(firstSeconds: number, failures: number): number {
  return Math.min(maxDelaySeconds, firstSeconds * 2 ** Math.max(0, failures - 1));
}

interface Claimed {
  id: string;
  attempts: number;
  createdAt: Date;
  messageId: string;
  type: string;
  payload: unknown;
  messageCreatedAt: Date;
}

interface Endpoint {
  id: string;
  organizationId: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
}

/** Rounds until nothing of the endpoint is due, or drainForMs has gone by (then a new job goes on). */
export async function drainEndpoint(services: JobServices, endpointId: string, jobId: string): Promise<void> {
  const { db } = services;
  const until = Date.now() + drainForMs;
  const [endpoint] = await db.select().from(webhookEndpoint).where(eq(webhookEndpoint.id, endpointId));
  if (!endpoint || endpoint.status !== 'enabled') return;
  for (;;) {
    const claimed = await claimRound(db, endpointId, jobId);
    if (claimed.length === 0) break;
    const answers = await Promise.all(claimed.map((delivery) => post(services, endpoint, delivery)));
    const stop = await recordRound(services, endpoint, jobId, claimed, answers);
    services.publish(webhookDeliveriesTopic(endpoint.id), orgWebhooksTopic(endpoint.organizationId));
    if (stop) return;
    if (Date.now() > until) {
      await wakeEndpoint(db, endpointId);
      return;
    }
  }
  // What failed waits for its next try: a job wakes the endpoint when the first is due, unless one
  // waits already for that time or sooner.
  await db.execute(sql`with ${wakeEndpoints(
    sql`(select d.endpoint_id, min(d.next_attempt_at) as at from webhook_delivery d
          where d.endpoint_id = ${endpointId} and d.status = 'pending' and d.next_attempt_at > now() and ${isHead}
          group by d.endpoint_id) as later`,
    sql`(select min(next_attempt_at) from webhook_delivery d
          where d.endpoint_id = ${endpointId} and d.status = 'pending' and d.next_attempt_at > now() and ${isHead})`,
  )} select 1`);
}

/**
 * Takes the endpoint's due deliveries that no earlier pending one of their object holds back and no
 * other job's round holds (this job's own, after a crash, it takes back), oldest first.
 */
async function claimRound(db: Db, endpointId: string, jobId: string): Promise<Claimed[]> {
  const result = await db.execute(sql`
    with due as (
      select d.id from webhook_delivery d
       where d.endpoint_id = ${endpointId} and d.status = 'pending'
         and d.next_attempt_at <= now() + interval '1 second'
         and (d.lease_until is null or d.lease_until < now() or d.lease_job = ${jobId}) and ${isHead}
       order by d.seq
       limit ${roundSize}
       for update skip locked
    )
    update webhook_delivery d
       set lease_job = ${jobId}, lease_until = now() + ${leaseSeconds} * interval '1 second'
      from due, webhook_message m
     where d.id = due.id and m.id = d.message_id
    returning d.id, d.attempts, d.created_at, m.id as message_id, m.type, m.payload, m.created_at as message_created_at`);
  const { rows } = result as unknown as {
    rows: {
      id: string;
      attempts: number;
      created_at: Date | string;
      message_id: string;
      type: string;
      payload: unknown;
      message_created_at: Date | string;
    }[];
  };
  return rows.map((row) => ({
    id: row.id,
    attempts: Number(row.attempts),
    createdAt: new Date(row.created_at),
    messageId: row.message_id,
    type: row.type,
    payload: row.payload,
    messageCreatedAt: new Date(row.message_created_at),
  }));
}

function post(services: JobServices, endpoint: Endpoint, delivery: Claimed): Promise<PostResult> {
  const body = JSON.stringify({
    type: delivery.type,
    timestamp: delivery.messageCreatedAt.toISOString(),
    data: delivery.payload,
  });
  const overlap = endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > new Date();
  const secrets = overlap ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
  const headers = signedHeaders({ messageId: delivery.messageId, at: new Date(), body, secrets });
  return postWebhook({ url: endpoint.url, headers, body, allowPrivate: services.config.WEBHOOKS_ALLOW_PRIVATE });
}

/**
 * Records a round's answers in one transaction: each delivery delivered, failed for good, or waiting
 * for its next try; the endpoint's failing spell ended or begun; `410 Gone` or three days of failures
 * disable it. True when the endpoint was disabled (the job stops).
 */
async function recordRound(
  services: JobServices,
  endpoint: Endpoint,
  jobId: string,
  claimed: readonly Claimed[],
  answers: readonly PostResult[],
): Promise<boolean> {
  const { config } = services;
  const giveUpMs = config.WEBHOOKS_GIVE_UP_AFTER_SECONDS * 1000;
  const now = Date.now();
  const outcomes = claimed.map((delivery, index) => {
    const answer = answers[index]!;
    const attempts = delivery.attempts + 1;
    const delivered = answer.status !== null && answer.status >= 200 && answer.status < 300;
    const giveUpAt = delivery.createdAt.getTime() + giveUpMs;
    const status = delivered ? 'delivered' : answer.status === 410 || now >= giveUpAt ? 'failed' : 'pending';
    const nextAttemptAt =
      status === 'pending'
        ? new Date(Math.min(giveUpAt, now + retryDelaySeconds(config.WEBHOOKS_RETRY_FIRST_SECONDS, attempts) * 1000))
        : null;
    return { id: delivery.id, status, nextAttemptAt, responseStatus: answer.status, excerpt: answer.excerpt };
  });
  const anyDelivered = outcomes.some((outcome) => outcome.status === 'delivered');
  const gone = answers.some((answer) => answer.status === 410);

  return services.db.transaction(async (tx) => {
    await tx.execute(sql`
      update webhook_delivery d
         set status = v.status, attempts = d.attempts + 1, last_attempt_at = now(),
             next_attempt_at = v.next_attempt_at, response_status = v.response_status,
             response_excerpt = v.response_excerpt, lease_job = null, lease_until = null
        from unnest(${sql.param(outcomes.map((outcome) => outcome.id))}::text[],
                    ${sql.param(outcomes.map((outcome) => outcome.status))}::text[],
                    ${sql.param(outcomes.map((outcome) => outcome.nextAttemptAt?.toISOString() ?? null))}::timestamptz[],
                    ${sql.param(outcomes.map((outcome) => outcome.responseStatus))}::int[],
                    ${sql.param(outcomes.map((outcome) => outcome.excerpt))}::text[])
             as v(id, status, next_attempt_at, response_status, response_excerpt)
       where d.id = v.id and d.lease_job = ${jobId}`);
    if (gone) {
      // The receiver says it is gone for good: nothing more is sent to it until an admin enables it again.
      await tx
        .update(webhookEndpoint)
        .set({ status: 'disabled', disabledReason: 'gone' })
        .where(eq(webhookEndpoint.id, endpoint.id));
      return true;
    }
    if (anyDelivered) {
      await tx
        .update(webhookEndpoint)
        .set({ failingSince: null })
        .where(sql`${webhookEndpoint.id} = ${endpoint.id} and ${webhookEndpoint.failingSince} is not null`);
      return false;
    }
    const [failing] = await tx
      .update(webhookEndpoint)
      .set({ failingSince: sql`coalesce(${webhookEndpoint.failingSince}, now())` })
      .where(eq(webhookEndpoint.id, endpoint.id))
      .returning();
    if (failing && failing.status === 'enabled' && failing.failingSince!.getTime() <= now - giveUpMs) {
      await tx
        .update(webhookEndpoint)
        .set({ status: 'disabled', disabledReason: 'failing' })
        .where(eq(webhookEndpoint.id, endpoint.id));
      await services.jobs.enqueue(tx, sendDisabledNoticeJob, { endpointId: endpoint.id });
      return true;
    }
    return false;
  });
}
