import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../platform/db/database';
import { enqueueInStatement, waitingJobExists } from '../../platform/jobs/job-queue';
import { defineJob, type JobServices } from '../../platform/jobs/job-services';
import { sendDisabledNoticeJob } from './disabled-notice';
import { postWebhook, type PostResult } from './post-webhook';
import { webhookDelivery, webhookEndpoint } from './schema';
import { signedHeaders } from './signing';
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
  async handler({ endpointId }, { services, jobId, yieldToRequests }) {
    await drainEndpoint(services, endpointId, jobId, yieldToRequests);
  },
});

/** One try of one delivery: jobs of this kind queued before deliveries went in rounds wake its endpoint. */
export const deliverWebhookJob = defineJob({
  name: 'webhooks.deliver',
  data: z.object({ deliveryId: z.string() }),
  concurrency: 1,
  async handler({ deliveryId }, { services, jobId, yieldToRequests }) {
    const [found] = await services.db
      .select({ endpointId: webhookDelivery.endpointId })
      .from(webhookDelivery)
      .where(eq(webhookDelivery.id, deliveryId));
    if (found) await drainEndpoint(services, found.endpointId, jobId, yieldToRequests);
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

/** A delivery tried in a round: one tried before (its row), or a message read from the outbox. */
interface Claimed {
  id: string;
  seq: number;
  objectId: string;
  attempts: number;
  createdAt: Date;
  messageId: string;
  type: string;
  /** The object as JSON text, as the outbox keeps it: put in the body as it is. */
  payload: string;
  messageCreatedAt: Date;
}

interface Endpoint {
  id: string;
  organizationId: string;
  eventTypes: string[];
  cursorTxid: number;
  cursorSeq: number;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousSecretUntil: Date | null;
}

/**
 * Holds the endpoint for this job (one job sends an endpoint's webhooks at a time; another that
 * finds it held leaves them to it) and sends rounds until nothing is due or drainForMs has gone by
 * (then a new job goes on), letting requests go first between rounds. Releasing it, it looks once
 * more: what was committed while it held the endpoint, and whose job found it held, is its to send.
 */
export async function drainEndpoint(
  services: JobServices,
  endpointId: string,
  jobId: string,
  yieldToRequests: () => Promise<void>,
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
          (await dueRound(db, endpointId, after)).filter((delivery) => !inFlight.ids.has(delivery.id));
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
        const answers = await Promise.all([...again, ...send].map((delivery) => post(services, endpoint, delivery)));
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
    select d.id, d.seq, d.object_id, d.attempts, d.created_at, m.id as message_id, m.type, m.payload::text as payload, m.created_at as message_created_at
      from webhook_delivery d join webhook_message m on m.id = d.message_id
     where ${dueHeads(endpointId)} and d.seq > ${after}
     order by d.seq
     limit ${roundSize}`);
  const { rows } = result as unknown as {
    rows: {
      id: string;
      seq: number | string;
      object_id: string;
      attempts: number;
      created_at: Date | string;
      message_id: string;
      type: string;
      payload: string;
      message_created_at: Date | string;
    }[];
  };
  return rows.map((row) => ({
    id: row.id,
    seq: Number(row.seq),
    objectId: row.object_id,
    attempts: Number(row.attempts),
    createdAt: new Date(row.created_at),
    messageId: row.message_id,
    type: row.type,
    payload: row.payload,
    messageCreatedAt: new Date(row.message_created_at),
  }));
}

/** A message of the outbox read for an endpoint: not tried yet, no delivery row yet. */
interface Fresh extends Omit<Claimed, 'seq'> {
  txid: number;
  seq: number;
}

/**
 * The next messages of the outbox that the endpoint wants, past its cursor, in (txid, seq) order:
 * only those of transactions that have all ended, so that none committed later can fall behind the
 * cursor (a transaction's messages become readable once every one older than it has ended).
 */
async function outboxRound(db: Db, endpoint: Endpoint, limit: number): Promise<Fresh[]> {
  const result = await db.execute(sql`
    select m.id, m.txid, m.seq, m.object_id, m.type, m.payload::text as payload, m.created_at
      from webhook_message m
     where m.organization_id = ${endpoint.organizationId}
       and (m.txid, m.seq) > (${endpoint.cursorTxid}::bigint, ${endpoint.cursorSeq}::bigint)
       and m.txid < pg_snapshot_xmin(pg_current_snapshot())::text::bigint
       and m.type = any(${sql.param(endpoint.eventTypes)}::text[])
     order by m.txid, m.seq
     limit ${limit}`);
  const { rows } = result as unknown as {
    rows: {
      id: string;
      txid: number | string;
      seq: number | string;
      object_id: string;
      type: string;
      payload: string;
      created_at: Date | string;
    }[];
  };
  return rows.map((row) => ({
    id: randomUUID(),
    txid: Number(row.txid),
    seq: Number(row.seq),
    objectId: row.object_id,
    attempts: 0,
    createdAt: new Date(),
    messageId: row.id,
    type: row.type,
    payload: row.payload,
    messageCreatedAt: new Date(row.created_at),
  }));
}

/**
 * Which fresh messages go now: one per object, and none of an object with a delivery pending, tried
 * again in this round, or in the round being recorded. The others wait, as pending deliveries
 * behind it.
 */
async function inTurn(
  db: Db,
  endpointId: string,
  again: readonly Claimed[],
  fresh: readonly Fresh[],
  beingRecorded: ReadonlySet<string>,
) {
  const busy = new Set([...beingRecorded, ...again.map((delivery) => delivery.objectId)]);
  if (fresh.length > 0) {
    const pending = await db
      .selectDistinct({ objectId: webhookDelivery.objectId })
      .from(webhookDelivery)
      .where(
        and(
          eq(webhookDelivery.endpointId, endpointId),
          eq(webhookDelivery.status, 'pending'),
          inArray(webhookDelivery.objectId, [...new Set(fresh.map((message) => message.objectId))]),
        ),
      );
    for (const { objectId } of pending) busy.add(objectId);
  }
  const send: Fresh[] = [];
  const wait: Fresh[] = [];
  for (const message of fresh) {
    (busy.has(message.objectId) ? wait : send).push(message);
    busy.add(message.objectId);
  }
  return { send, wait };
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

/**
 * Records a round's answers in one transaction: each delivery delivered, failed for good, or waiting
 * for its next try; the endpoint's failing spell ended or begun; `410 Gone` or three days of failures
 * disable it. True when the endpoint was disabled (the job stops).
 */
async function recordRound(
  services: JobServices,
  endpoint: Endpoint,
  jobId: string,
  round: { again: readonly Claimed[]; send: readonly Fresh[]; wait: readonly Fresh[]; answers: readonly PostResult[] },
): Promise<boolean> {
  const { config } = services;
  const giveUpMs = config.WEBHOOKS_GIVE_UP_AFTER_SECONDS * 1000;
  const now = Date.now();
  const { again, send, wait, answers } = round;
  const outcomes = [...again, ...send].map((delivery, index) => {
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

  const tried = outcomes.slice(0, again.length);
  const sent = new Map(send.map((message, index) => [message.id, outcomes[again.length + index]!]));
  // The outbox's messages of the round get their rows in its order: an object's waiting one after
  // the one sent (the seq of its deliveries keeps them in turn).
  const firstRows = [...send, ...wait]
    .sort((a, b) => a.txid - b.txid || a.seq - b.seq)
    .map((message) => {
      const outcome = sent.get(message.id);
      return {
        id: message.id,
        messageId: message.messageId,
        objectId: message.objectId,
        status: outcome?.status ?? 'pending',
        attempts: outcome ? 1 : 0,
        nextAttemptAt: outcome ? outcome.nextAttemptAt : new Date(now),
        lastAttemptAt: outcome ? new Date(now) : null,
        responseStatus: outcome?.responseStatus ?? null,
        excerpt: outcome?.excerpt ?? null,
      };
    });
  const last = [...send, ...wait].sort((a, b) => b.txid - a.txid || b.seq - a.seq)[0];

  return services.db.transaction(async (tx) => {
    if (last) {
      const moved = await tx
        .update(webhookEndpoint)
        .set({ cursorTxid: last.txid, cursorSeq: last.seq })
        .where(and(eq(webhookEndpoint.id, endpoint.id), eq(webhookEndpoint.drainJob, jobId)))
        .returning({ id: webhookEndpoint.id });
      // Another job took the endpoint over (this one outlived its hold): it reads these again.
      if (moved.length === 0) throw new Error(`Webhook endpoint ${endpoint.id} is no longer held by this job`);
      await tx.execute(sql`
        insert into webhook_delivery
          (id, message_id, endpoint_id, object_id, status, attempts, next_attempt_at, last_attempt_at, response_status, response_excerpt)
        select v.id, v.message_id, ${endpoint.id}, v.object_id, v.status, v.attempts, v.next_attempt_at, v.last_attempt_at,
               v.response_status, v.response_excerpt
          from unnest(${sql.param(firstRows.map((row) => row.id))}::text[],
                      ${sql.param(firstRows.map((row) => row.messageId))}::text[],
                      ${sql.param(firstRows.map((row) => row.objectId))}::text[],
                      ${sql.param(firstRows.map((row) => row.status))}::text[],
                      ${sql.param(firstRows.map((row) => row.attempts))}::int[],
                      ${sql.param(firstRows.map((row) => row.nextAttemptAt?.toISOString() ?? null))}::timestamptz[],
                      ${sql.param(firstRows.map((row) => row.lastAttemptAt?.toISOString() ?? null))}::timestamptz[],
                      ${sql.param(firstRows.map((row) => row.responseStatus))}::int[],
                      ${sql.param(firstRows.map((row) => row.excerpt))}::text[])
               with ordinality as v(id, message_id, object_id, status, attempts, next_attempt_at, last_attempt_at,
                                    response_status, response_excerpt, position)
         order by v.position`);
    }
    if (tried.length > 0)
      await tx.execute(sql`
      update webhook_delivery d
         set status = v.status, attempts = d.attempts + 1, last_attempt_at = now(),
             next_attempt_at = v.next_attempt_at, response_status = v.response_status,
             response_excerpt = v.response_excerpt
        from unnest(${sql.param(tried.map((outcome) => outcome.id))}::text[],
                    ${sql.param(tried.map((outcome) => outcome.status))}::text[],
                    ${sql.param(tried.map((outcome) => outcome.nextAttemptAt?.toISOString() ?? null))}::timestamptz[],
                    ${sql.param(tried.map((outcome) => outcome.responseStatus))}::int[],
                    ${sql.param(tried.map((outcome) => outcome.excerpt))}::text[])
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
