import { and, eq, sql } from 'drizzle-orm';
import type { JobServices } from '../../platform/jobs/job-services';
import { sendDisabledNoticeJob } from './disabled-notice';
import type { PostResult } from './post-webhook';
import type { Claimed, Endpoint, Fresh } from './round-read';
import { webhookEndpoint } from './schema';

// How a round's answers are kept (deliver.ts): the delivery rows, the endpoint's cursor, its failing
// spell, and when a failed try goes again.

/** The longest wait between two tries. */
const maxDelaySeconds = 8 * 60 * 60;

/** The wait after the given number of failed tries: doubling from the first, within maxDelaySeconds. */
export function retryDelaySeconds(firstSeconds: number, failures: number): number {
  return Math.min(maxDelaySeconds, firstSeconds * 2 ** Math.max(0, failures - 1));
}

/**
 * Records a round's answers in one transaction: each delivery delivered, failed for good, or waiting
 * for its next try; the endpoint's failing spell ended or begun; `410 Gone` or three days of failures
 * disable it. True when the endpoint was disabled (the job stops).
 */
export async function recordRound(
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
