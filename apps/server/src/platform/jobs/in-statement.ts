import { sql, type SQL } from 'drizzle-orm';
import { schema, type JobDefinition } from './job-queue';

// Jobs written by a larger statement (orders placed in one round trip, webhooks woken by a change),
// in pg-boss's own table and with its queue's settings, instead of one `send` per job.

/**
 * The insert of one job of `job`, as a data-modifying part of a larger statement (an order made in
 * one round trip): the row pg-boss's own `send` writes, with the queue's settings. `data` is an SQL
 * expression of the job's data (jsonb), `from` the rows to make a job for (none: no job), and
 * `startAfter` when it may start (an expression over them; default now).
 */
export function enqueueInStatement(job: Pick<JobDefinition<never, never>, 'name'>, data: SQL, from: SQL, startAfter?: SQL): SQL {
  const start = startAfter ?? sql`now()`;
  return sql`insert into ${sql.raw(schema)}.job (name, data, retry_limit, retry_delay, retry_backoff, expire_in, start_after, keep_until, dead_letter, policy)
    select q.name, ${data}, q.retry_limit, greatest(q.retry_delay, case when q.retry_backoff then 1 else 0 end), q.retry_backoff,
           coalesce(q.expire_seconds, 900) * interval '1 second', ${start},
           -- Kept from when it may start, or from now for a start in the past (a sale that began already).
           greatest(${start}, now()) + coalesce(q.retention_minutes * interval '1 minute', interval '14 days'),
           q.dead_letter, q.policy
      from ${from}, ${sql.raw(schema)}.queue q
     where q.name = ${job.name}`;
}

/**
 * True (in SQL) when a job of this kind waits to start by `by` (default now), whose data's `field` is
 * `value`: a statement enqueues one only when none waits (a burst of changes wakes one job, not one each).
 */
export function waitingJobExists(job: Pick<JobDefinition<never, never>, 'name'>, field: string, value: SQL, by?: SQL): SQL {
  return sql`exists (select 1 from ${sql.raw(schema)}.job waiting
                      where waiting.name = ${job.name} and waiting.state = 'created'
                        and waiting.start_after <= ${by ?? sql`now()`} and waiting.data ->> ${field} = ${value})`;
}
