import { and, eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../platform/db/database';
import { enqueueInStatement, waitingJobExists } from '../../platform/jobs/job-queue';
import { defineJob, type JobServices } from '../../platform/jobs/job-services';
import { sendDisabledNoticeJob } from './disabled-notice';
import { postWebhook, type PostResult } from './post-webhook';
import { webhookDelivery, webhookEndpoint } from './schema';
import { signedHeaders } from './signing';
import { orgWebhooksTopic, webhookDeliveriesTopic } from './topics';

// An endpoint's deliveries go out in rounds, by one job at a time (it holds the endpoint; decision
// 0063): each round takes up to roundSize of its due, pending deliveries that wait behind no earlier
// one of their object, posts them side by side, and records every answer in one statement. Then the
// next round, until nothing is due. A failed try waits (back-off doubling from
// WEBHOOKS_RETRY_FIRST_SECONDS, at most eight hours, for WEBHOOKS_GIVE_UP_AFTER_SECONDS) and a job
// wakes the endpoint when the first waiting one is due; a delivered or abandoned one lets the next
// of its object go in the next round. A change that writes deliveries wakes its endpoint unless a
// job for it already waits; the sweep wakes an endpoint whose due deliveries nobody sends (its job
// died, or a wake-up was missed).

/** How many deliveries one round posts together: a receiver gets at most this many at once. */
const roundSize = 50;
/** A job drains this long at most, then hands on to a new one (its try may last expireInSeconds). */
const drainForMs = 30_000;
/** The longest wait between two tries. */
const maxDelaySeconds = 8 * 60 * 60;
/** How long a job holds its endpoint: more than drainForMs and a receiver's timeout. */
const holdSeconds = 60;
/** How often the sweep looks for due deliveries that no job took. */
const sweepEverySeconds = 5;

export const deliverEndpointWebhooksJob = defineJob({
  name: 'webhooks.deliverEndpoint',
  data: z.object({ endpointId: z.string() }),
  // Rounds wait mostly on receivers, and one job posts a whole round at once: a few jobs per
  // process (of several endpoints, or sharing one endpoint's deliveries) are enough.
  concurrency: 4,
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

/** Wakes every endpoint with deliveries due for a while that no job holds (see above). */
export const sweepWebhooksJob = defineJob({
  name: 'webhooks.sweep',
  data: z.object({}),
  concurrency: 1,
  retryLimit: 1,
  everySeconds: () => sweepEverySeconds,
  async handler(_data, { services }) {
    await services.db.execute(
      sql`with ${wakeEndpoints(sql`(select distinct d.endpoint_id from webhook_delivery d
                 join webhook_endpoint e on e.id = d.endpoint_id
                 where d.status = 'pending' and d.next_attempt_at < now() - interval '2 seconds' and ${isHead}
                   and e.status = 'enabled' and (e.drain_until is null or e.drain_until < now())) as due`)} select 1`,
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

/**
 * A delivery no earlier pending one of its object holds back (`d` is webhook_delivery). `offset 0`
 * keeps it a look-up per delivery, by endpoint, object and seq: made a join, on a table whose
 * statistics are older than a rush (the first minute of one), it read every pending delivery of the
 * endpoint for each one (37 ms a round of 50 rather than 1).
 */
const isHead = sql`not exists (select 1 from webhook_delivery earlier
                                 where earlier.endpoint_id = d.endpoint_id and earlier.object_id = d.object_id
                                   and earlier.status = 'pending' and earlier.seq < d.seq offset 0)`;

/** The wait after the given number of failed tries: doubling from the first, within maxDelaySeconds. */
export function retryDelaySeconds(firstSeconds: number, failures: number): number {
  return Math.min(maxDelaySeconds, firstSeconds * 2 ** Math.max(0, failures - 1));
}

interface Claimed {
  id: string;
  seq: number;
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

/**
 * Holds the endpoint for this job (one job sends an endpoint's webhooks at a time; another that
 * finds it held leaves them to it) and sends rounds until nothing is due or drainForMs has gone by
 * (then a new job goes on). Releasing it, it looks once more: what was committed while it held the
 * endpoint, and whose job found it held, is its to send.
 */
export async function drainEndpoint(services: JobServices, endpointId: string, jobId: string): Promise<void> {
  const { db } = services;
  const until = Date.now() + drainForMs;
  for (;;) {
    const endpoint = await holdEndpoint(db, endpointId, jobId);
    if (!endpoint) return;
    let outcome: 'done' | 'disabled' | 'later' = 'done';
    // Rounds read on from the last one's newest delivery (what they left behind, delivered, is not
    // read again), and once from the start when that finds nothing: a webhook that waited for an
    // earlier one of its object, or one due again.
    let after = 0;
    for (;;) {
      let claimed = await dueRound(db, endpointId, after);
      if (claimed.length === 0 && after !== 0) {
        after = 0;
        claimed = await dueRound(db, endpointId, after);
      }
      if (claimed.length === 0) break;
      after = Math.max(...claimed.map((delivery) => delivery.seq));
      const answers = await Promise.all(claimed.map((delivery) => post(services, endpoint, delivery)));
      const disabled = await recordRound(services, endpoint, claimed, answers);
      services.publish(webhookDeliveriesTopic(endpoint.id), orgWebhooksTopic(endpoint.organizationId));
      if (disabled) outcome = 'disabled';
      else if (Date.now() > until) outcome = 'later';
      if (outcome !== 'done') break;
    }
    await db
      .update(webhookEndpoint)
      .set({ drainJob: null, drainUntil: null })
      .where(and(eq(webhookEndpoint.id, endpointId), eq(webhookEndpoint.drainJob, jobId)));
    if (outcome === 'disabled') return;
    if (outcome === 'later') return wakeEndpoint(db, endpointId);
    if (!(await anyDue(db, endpointId))) break;
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

/** The endpoint, held for this job; none when it is disabled or another job holds it. */
async function holdEndpoint(db: Db, endpointId: string, jobId: string): Promise<Endpoint | undefined> {
  const [held] = await db
    .update(webhookEndpoint)
    .set({ drainJob: jobId, drainUntil: sql`now() + ${holdSeconds} * interval '1 second'` })
    .where(
      and(
        eq(webhookEndpoint.id, endpointId),
        eq(webhookEndpoint.status, 'enabled'),
        sql`(${webhookEndpoint.drainUntil} is null or ${webhookEndpoint.drainUntil} < now() or ${webhookEndpoint.drainJob} = ${jobId})`,
      ),
    )
    .returning();
  return held;
}

/** Due deliveries that wait behind no earlier pending one of their object (`d` is webhook_delivery). */
const dueHeads = (endpointId: string) =>
  sql`d.endpoint_id = ${endpointId} and d.status = 'pending' and d.next_attempt_at <= now() + interval '1 second' and ${isHead}`;

async function anyDue(db: Db, endpointId: string): Promise<boolean> {
  const result = await db.execute(sql`select 1 from webhook_delivery d where ${dueHeads(endpointId)} limit 1`);
  return (result as unknown as { rows: unknown[] }).rows.length > 0;
}

/**
 * The endpoint's next round: its oldest due deliveries after `after` (a seq) that no earlier one
 * of their object holds back.
 */
async function dueRound(db: Db, endpointId: string, after: number): Promise<Claimed[]> {
  const result = await db.execute(sql`
    select d.id, d.seq, d.attempts, d.created_at, m.id as message_id, m.type, m.payload, m.created_at as message_created_at
      from webhook_delivery d join webhook_message m on m.id = d.message_id
     where ${dueHeads(endpointId)} and d.seq > ${after}
     order by d.seq
     limit ${roundSize}`);
  const { rows } = result as unknown as {
    rows: {
      id: string;
      seq: number | string;
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
    seq: Number(row.seq),
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
             response_excerpt = v.response_excerpt
        from unnest(${sql.param(outcomes.map((outcome) => outcome.id))}::text[],
                    ${sql.param(outcomes.map((outcome) => outcome.status))}::text[],
                    ${sql.param(outcomes.map((outcome) => outcome.nextAttemptAt?.toISOString() ?? null))}::timestamptz[],
                    ${sql.param(outcomes.map((outcome) => outcome.responseStatus))}::int[],
                    ${sql.param(outcomes.map((outcome) => outcome.excerpt))}::text[])
             as v(id, status, next_attempt_at, response_status, response_excerpt)
       where d.id = v.id and d.status = 'pending'`);
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
