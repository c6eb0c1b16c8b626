import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { groupCpuBetween, sampleGroupCpu } from '../support/cpu';
import type { Person } from '../support/people';
import type { SaleEvent } from '../support/sale-event';
import { percentiles, round } from '../support/stats';
import { invariantsAfter, type Run } from './runs';

/**
 * The order that orders.create makes for one free ticket, written by hand as one statement: what
 * the database alone can do for the same order in the fewest round trips. One round trip per order,
 * autocommit (no BEGIN/COMMIT):
 *
 * - the place on the event row, then on the ticket type row (the server's lock order), each a
 *   conditional update (`sold + held + 1 <= capacity`; the event published; the type free, visible
 *   and of this event);
 * - the order (status paid, total 0), its order line, its `created` activity and its ticket, with a
 *   code as random as Admit's (28 base64url characters; Admit's are 96 random bits and a signature);
 * - its confirmation job: the row pg-boss 10's `insertJob` (node_modules/pg-boss/src/plans.js)
 *   writes into `pgboss.job` for a `send` without options, with the settings of the queue
 *   `orders.sendConfirmation` from `pgboss.queue` (retry limit, delay and backoff, expiry, retention,
 *   policy, dead letter), so that a worker takes it exactly like the server's.
 *
 * When the event row is taken but the ticket type row is not (a type sold out on its own), the
 * final select divides by zero, which undoes the whole statement: nothing is half taken. Ids are
 * made as the server makes them (random UUIDs).
 *
 * Not in it, and done by the server for every order: the session lookup, the check for an earlier
 * order with the same idempotency key, the quota counts per account and per address (two upserts
 * on `call_quota`), and reading the event and its ticket types before taking the place.
 */
export const orderStatement = `
with taken_event as (
  update event set sold = sold + 1
   where id = $1 and status = 'published' and sold + held + 1 <= capacity
  returning id, currency
), taken_type as (
  update ticket_type set sold = sold + 1
   where id = $2 and event_id = $1 and price = 0 and not hidden
     and (sales_start is null or sales_start <= now()) and (sales_end is null or now() < sales_end)
     and sold + held + 1 <= capacity
     and exists (select 1 from taken_event)
  returning id
), new_order as (
  insert into "order" (id, event_id, buyer_id, buyer_name, email, status, total, currency, locale, idempotency_key)
  select $3, e.id, $4, $5, $6, 'paid', 0, e.currency, 'en', $7 from taken_event e, taken_type t
  returning id
), new_line as (
  insert into order_line (id, order_id, ticket_type_id, quantity, unit_price)
  select gen_random_uuid()::text, o.id, $2, 1, 0 from new_order o
), new_activity as (
  insert into order_activity (id, order_id, kind, detail)
  select gen_random_uuid()::text, o.id, 'created', '{"total":0,"tickets":1}'::jsonb from new_order o
), new_ticket as (
  insert into ticket (id, order_id, ticket_type_id, event_id, code, holder_name, holder_email)
  select gen_random_uuid()::text, o.id, $2, $1, $8, $5, $6 from new_order o
), new_job as (
  insert into pgboss.job (id, name, data, priority, start_after, singleton_key, singleton_on, dead_letter,
                          expire_in, keep_until, retry_limit, retry_delay, retry_backoff, policy)
  select gen_random_uuid(), q.name, jsonb_build_object('orderId', o.id), 0, now(), null, null, q.dead_letter,
         coalesce(q.expire_seconds * interval '1s', interval '15 minutes'),
         now() + cast(coalesce((q.retention_minutes * 60)::text, '14 days') as interval),
         coalesce(q.retry_limit, 2),
         case when coalesce(q.retry_backoff, false) then greatest(q.retry_delay, 1) else coalesce(q.retry_delay, 0) end,
         coalesce(q.retry_backoff, false),
         q.policy
    from new_order o join pgboss.queue q on q.name = 'orders.sendConfirmation'
  on conflict do nothing
)
select case when exists (select 1 from taken_event) then 1 / (select count(*)::int from taken_type) else 0 end as ordered`;

/** A ticket code as random as Admit's: 28 base64url characters (here all of them random). */
const ticketCode = () => randomBytes(21).toString('base64url');

export interface SqlBaselineOptions {
  databaseUrl: string;
  eventId: string;
  ticketTypeId: string;
  buyers: Person[];
  /** Callers at once (the load generator's connections). */
  callers: number;
  /** The pool they share (the server's DATABASE_POOL_SIZE). */
  poolSize: number;
  seconds: number;
  /** Processes whose CPU to report beside PostgreSQL's and the load generator's (a server left running, say). */
  processes?: Record<string, readonly number[]>;
}

/**
 * `callers` callers, each sending one order after the other for `seconds` through one pg.Pool of
 * `poolSize` connections, as the server's callables share its pool. Latency is from the call to its
 * answer, waiting for a free connection included, as a request's latency includes it on the server.
 */
export async function measureSqlBaseline(options: SqlBaselineOptions) {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.poolSize });
  await Promise.all(Array.from({ length: options.poolSize }, () => pool.query('select 1')));
  const latencies: number[] = [];
  const orderIds: string[] = [];
  let soldOut = 0;
  let next = 0;
  const before = sampleGroupCpu(options.processes ?? {});
  const started = performance.now();
  const until = started + options.seconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: options.callers }, async () => {
        while (performance.now() < until) {
          const buyer = options.buyers[next++ % options.buyers.length]!;
          const orderId = randomUUID();
          const sent = performance.now();
          const { rows } = await pool.query<{ ordered: number }>(orderStatement, [
            options.eventId,
            options.ticketTypeId,
            orderId,
            buyer.userId,
            `Bench ${buyer.email}`,
            buyer.email,
            randomUUID(),
            ticketCode(),
          ]);
          latencies.push(performance.now() - sent);
          if (rows[0]?.ordered === 1) orderIds.push(orderId);
          else soldOut++;
        }
      }),
    );
  } finally {
    await pool.end();
  }
  const seconds = (performance.now() - started) / 1000;
  const cpu = groupCpuBetween(before, sampleGroupCpu(options.processes ?? {}));
  return {
    callers: options.callers,
    poolSize: options.poolSize,
    seconds: round(seconds),
    completed: orderIds.length,
    soldOut,
    perSecond: Math.round(orderIds.length / seconds),
    latencyMs: percentiles(latencies),
    cpu,
    postgresCpuMsPerOrder: round(((cpu.postgresCores! * seconds) / Math.max(1, latencies.length)) * 1000),
    loadGeneratorCpuMsPerOrder: round(((cpu.loadGeneratorCores! * seconds) / Math.max(1, latencies.length)) * 1000),
    orderIds,
  };
}

/** The columns of a job row that come from the queue's settings, to compare the baseline's jobs with the server's. */
const jobSettings = `retry_limit, retry_delay, retry_backoff, expire_in::text, (keep_until - start_after)::text as kept_for, policy, dead_letter, priority`;

/**
 * The baseline on the run's database, for a published event with one free ticket type of its own:
 * measured, then its jobs removed unworked (no worker runs meanwhile: the server has stopped, and
 * its emails are not the baseline's to wait for), then the data invariants.
 */
export async function sqlBaseline(run: Run, sale: SaleEvent, options: { callers: number; poolSize: number; seconds: number }) {
  const { orderIds, ...measured } = await measureSqlBaseline({
    databaseUrl: run.databaseUrl,
    eventId: sale.eventId,
    ticketTypeId: sale.ticketTypeId,
    buyers: run.buyers,
    ...options,
  });
  console.log(
    `SQL baseline (one statement per order) from ${measured.callers} callers over ${measured.poolSize} connections: ` +
      `${measured.perSecond} orders/s (${measured.completed} in ${measured.seconds} s), p50 ${measured.latencyMs.p50} ms, ` +
      `p95 ${measured.latencyMs.p95} ms, p99 ${measured.latencyMs.p99} ms; CPU ${JSON.stringify(measured.cpu)}`,
  );
  const sample = async (where: string, values: unknown[]) =>
    (
      await run.pool.query(
        `select ${jobSettings} from pgboss.job where name = 'orders.sendConfirmation' and ${where} limit 1`,
        values,
      )
    ).rows[0] ?? null;
  const baselineJob = await sample(`data->>'orderId' = $1`, [orderIds[0] ?? '']);
  const serverJob = await sample(`data->>'orderId' not in (select id from "order" where event_id = $1)`, [sale.eventId]);
  const removed = await run.pool.query(
    `delete from pgboss.job where name = 'orders.sendConfirmation' and data->>'orderId' in (select id from "order" where event_id = $1)`,
    [sale.eventId],
  );
  return {
    statement: 'one CTE per order, autocommit: see bench/flash-sale/sql-baseline.ts',
    ...measured,
    jobsEnqueued: removed.rowCount,
    /** The queue settings in a baseline job and in one the server enqueued (null when the server made none). */
    jobLikeTheServers: {
      baseline: baselineJob,
      server: serverJob,
      same: JSON.stringify(baselineJob) === JSON.stringify(serverJob),
    },
    invariants: await invariantsAfter(run, 'SQL baseline'),
  };
}
