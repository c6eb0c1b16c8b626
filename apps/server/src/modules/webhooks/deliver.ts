import { and, eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../platform/db/database';
import { enqueueInStatement, waitingJobExists } from '../../platform/jobs/in-statement';
import type { JobContext } from '../../platform/jobs/job-queue';
import { defineJob, type JobServices } from '../../platform/jobs/job-services';
import { postWebhook, type PostResult } from './post-webhook';
import { webhookDelivery, webhookEndpoint } from './schema';
import { signedHeaders } from './signing';
import { anyDue, dueRound, inTurn, isHead, outboxRound, type Claimed, type Endpoint } from './round-read';
import { recordRound } from './round-record';
import { orgWebhooksTopic, webhookDeliveriesTopic } from './topics';

// Each endpoint reads the outbox (webhook_message) from its own cursor, by one job at a time that
// holds it (decision 0063), in rounds: the messages past the cursor that it wants, and the due
// pending deliveries that wait behind no earlier one of their object. One message per object is
// posted, side by side; the others wait as pending deliveries behind it. Every answer of a round is
// recorded in one transaction that writes the delivery rows and moves the cursor, while the next
// round posts. A failed try waits (back-off doubling from WEBHOOKS_RETRY_FIRST_SECONDS, at most eight
// hours, for WEBHOOKS_GIVE_UP_AFTER_SECONDS) and a job wakes the endpoint when the first one is due.
// A change that writes a message wakes its endpoints unless a job for them already waits; the sweep
// wakes an endpoint whose work nobody does (its job died, or a wake-up was missed).

/** How many deliveries one round posts together (over at most 100 connections, post-webhook.ts). */
const roundSize = 400;
/** A round whose receiver takes longer than this to answer waits on it, not on this process. */
const slowRoundMs = 1_000;
/** A job drains this long at most, then hands on to a new one (its try may last expireInSeconds). */
const drainForMs = 30_000;
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
  // Receivers expect a webhook within seconds, buyers their email within a minute.
  goesFirst: true,
  async handler({ endpointId }, { services, jobId, yieldToRequests, stepAside }) {
    await drainEndpoint(services, endpointId, jobId, { yieldToRequests, stepAside });
  },
});

/** One try of one delivery: jobs of this kind queued before deliveries went in rounds wake its endpoint. */
export const deliverWebhookJob = defineJob({
  name: 'webhooks.deliver',
  data: z.object({ deliveryId: z.string() }),
  concurrency: 1,
  goesFirst: true,
  async handler({ deliveryId }, { services, jobId, yieldToRequests, stepAside }) {
    const [found] = await services.db
      .select({ endpointId: webhookDelivery.endpointId })
      .from(webhookDelivery)
      .where(eq(webhookDelivery.id, deliveryId));
    if (found) await drainEndpoint(services, found.endpointId, jobId, { yieldToRequests, stepAside });
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
      sql`with ${wakeEndpoints(sql`(select e.id as endpoint_id from webhook_endpoint e
                 where e.status = 'enabled' and (e.drain_until is null or e.drain_until < now())
                   and (exists (select 1 from webhook_delivery d
                                 where d.endpoint_id = e.id and d.status = 'pending'
                                   and d.next_attempt_at < now() - interval '2 seconds' and ${isHead})
                        or exists (select 1 from webhook_message m
                                    where m.organization_id = e.organization_id
                                      and (m.txid, m.seq) > (e.cursor_txid, e.cursor_seq)
                                      and m.txid < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
                                      and m.type = any(e.event_types) and m.created_at < now() - interval '2 seconds'))) as due`)} select 1`,
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
 * Holds the endpoint for this job (one job sends an endpoint's webhooks at a time; another that
 * finds it held leaves them to it) and sends rounds until nothing is due or drainForMs has gone by
 * (then a new job goes on), letting requests go first between rounds. It goes before the other jobs
 * of its process (`goesFirst`) until a round's receiver is slow. Releasing the endpoint, it looks once
 * more: what was committed while it held the endpoint, and whose job found it held, is its to send.
 */
export async function drainEndpoint(
  services: JobServices,
  endpointId: string,
  jobId: string,
  { yieldToRequests, stepAside }: Pick<JobContext<JobServices>, 'yieldToRequests' | 'stepAside'>,
): Promise<void> {
  const { db } = services;
  const until = Date.now() + drainForMs;
  for (;;) {
    const endpoint = await holdEndpoint(db, endpointId, jobId);
    if (!endpoint) return;
    let outcome: 'done' | 'disabled' | 'later' = 'done';
    // Deliveries tried before are read on from the last round's newest (what they left behind,
    // delivered, is not read again), and once from the start when that finds nothing: a webhook
    // that waited for an earlier one of its object, or one due again. A round's answers are
    // recorded while the next round posts: what is being recorded is left out of it, and its
    // objects wait.
    let after = 0;
    let recording: Promise<boolean> | undefined;
    let inFlight = { ids: new Set<string>(), objects: new Set<string>() };
    const recorded = async () => {
      const disabled = recording ? await recording : false;
      recording = undefined;
      inFlight = { ids: new Set(), objects: new Set() };
      services.publish(webhookDeliveriesTopic(endpoint.id), orgWebhooksTopic(endpoint.organizationId));
      return disabled;
    };
    try {
      for (;;) {
        // A rush's buyers first, where the webhooks go out from the process that answers them.
        await yieldToRequests();
        const readAgain = async () =>
          (await dueRound(db, endpointId, after, roundSize)).filter((delivery) => !inFlight.ids.has(delivery.id));
        let again = await readAgain();
        if (again.length === 0 && after !== 0) {
          after = 0;
          again = await readAgain();
        }
        const fresh = await outboxRound(db, endpoint, roundSize);
        if (again.length === 0 && fresh.length === 0) {
          if (!recording) break;
          if (await recorded()) outcome = 'disabled';
          if (outcome !== 'done') break;
          continue;
        }
        if (again.length > 0) after = Math.max(...again.map((delivery) => delivery.seq));
        const { send, wait } = await inTurn(db, endpointId, again, fresh, inFlight.objects);
        const posted = Date.now();
        const answers = await Promise.all([...again, ...send].map((delivery) => post(services, endpoint, delivery)));
        if (Date.now() - posted > slowRoundMs) stepAside();
        if (await recorded()) outcome = 'disabled';
        if (outcome !== 'done') break;
        const round = recordRound(services, endpoint, jobId, { again, send, wait, answers });
        round.catch(() => undefined);
        recording = round;
        const tried = [...again, ...send, ...wait];
        inFlight = {
          ids: new Set(tried.map((delivery) => delivery.id)),
          objects: new Set(tried.map((delivery) => delivery.objectId)),
        };
        const last = fresh.at(-1);
        if (last) Object.assign(endpoint, { cursorTxid: last.txid, cursorSeq: last.seq });
        if (Date.now() > until) {
          outcome = 'later';
          break;
        }
      }
      if (await recorded()) outcome = 'disabled';
    } finally {
      await recording?.catch(() => undefined);
    }
    await db
      .update(webhookEndpoint)
      .set({ drainJob: null, drainUntil: null })
      .where(and(eq(webhookEndpoint.id, endpointId), eq(webhookEndpoint.drainJob, jobId)));
    if (outcome === 'disabled') return;
    if (outcome === 'later') return wakeEndpoint(db, endpointId);
    if (!(await anyDue(db, endpointId)) && (await outboxRound(db, endpoint, 1)).length === 0) break;
  }
  // What failed waits for its next try: a job wakes the endpoint when the first is due, unless one
  // waits already for that time or sooner.
  await db.execute(
    sql`with ${wakeEndpoints(
      sql`(select d.endpoint_id, min(d.next_attempt_at) as at from webhook_delivery d
          where d.endpoint_id = ${endpointId} and d.status = 'pending' and d.next_attempt_at > now() and ${isHead}
          group by d.endpoint_id) as later`,
      sql`(select min(next_attempt_at) from webhook_delivery d
          where d.endpoint_id = ${endpointId} and d.status = 'pending' and d.next_attempt_at > now() and ${isHead})`,
    )} select 1`,
  );
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

function post(services: JobServices, endpoint: Endpoint, delivery: Claimed): Promise<PostResult> {
  // `{type, timestamp, data}`, with data as the outbox's JSON text (not parsed and written again).
  const head = JSON.stringify({ type: delivery.type, timestamp: delivery.messageCreatedAt.toISOString() });
  const body = `${head.slice(0, -1)},"data":${delivery.payload}}`;
  const overlap = endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > new Date();
  const secrets = overlap ? [endpoint.secret, endpoint.previousSecret!] : [endpoint.secret];
  const headers = signedHeaders({ messageId: delivery.messageId, at: new Date(), body, secrets });
  return postWebhook({ url: endpoint.url, headers, body, allowPrivate: services.config.WEBHOOKS_ALLOW_PRIVATE });
}
