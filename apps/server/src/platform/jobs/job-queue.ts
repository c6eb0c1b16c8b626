import type { FastifyBaseLogger } from 'fastify';
import { setTimeout as sleep } from 'node:timers/promises';
import PgBoss from 'pg-boss';
import { idleWorkerSeconds, lookForDueJobs } from './due-jobs';
import type { JobDefinition, JobQueue, JobQueueOptions } from './job-types';
import { sqlWithParameters, type Database, type Db, type Tx } from '../db/database';

// Work that nobody waits for runs on pg-boss, a job queue kept in the same database (its own
// `pgboss` schema): on PGlite in the embedded default and on PostgreSQL, through the Database's own
// connection. A job is enqueued in the transaction of the change that causes it, so a rolled-back
// change never sends anything and a committed one is never forgotten; it is retried with backoff
// and survives a crash. Handlers must be idempotent: a job may run again after a crash at any point.
// See decision 0034.

export {
  defineJob,
  type EnqueueOptions,
  type JobContext,
  type JobDefinition,
  type JobQueue,
  type JobQueueOptions,
  type JobSender,
} from './job-types';

/** How long a worker waits at most, between looks, while yieldWhile holds. */
const yieldForMs = 5_000;

// A try whose process died (SIGKILL, a crash, a lost machine) is not waited for until its
// expireInSeconds: while a handler runs, its worker renews a short lease on the try every few
// seconds, by setting the job's `expire_in` to "now, plus the lease" (never past the try's own
// limit). pg-boss's worker times a handler out by the `expire_in` it fetched (the whole limit),
// and its expiry check reads the row (the lease), so a try that stops being renewed is found
// within leaseSeconds plus expiryCheckSeconds, by whichever process looks next, also one that has
// just started, and tried again at once. Decision 0054.

/** How long a try stays its worker's after the last renewal. */
export const leaseSeconds = 12;
/** How often a running try's lease is renewed: well inside leaseSeconds, so a busy event loop is no death. */
const renewEveryMs = 4_000;
/** How often, and once at start, each process that runs workers looks for tries whose lease lapsed. */
export const expiryCheckSeconds = 4;

export const schema = 'pgboss';

/** pg-boss's statement that completes jobs (its plans' `completeJobs`). */
const completesJobs = /\bSET completed_on = now\(\),\s+state = 'completed'/;

/** pg-boss's statements, run inside the caller's transaction. */
const inTransaction = (tx: Tx | Db) => ({
  executeSql: async (text: string, values?: unknown[]) => {
    const result = await tx.execute(sqlWithParameters(text, values));
    return { rows: (result as unknown as { rows: Record<string, unknown>[] }).rows };
  },
});

/** pg-boss on the given database; creates its schema on first use (also on PGlite). */
export async function createJobQueue(
  database: Database,
  log: FastifyBaseLogger,
  jobs: JobDefinition<never, never>[],
  options: JobQueueOptions = {},
): Promise<JobQueue> {
  // pg-boss's statements, tracked until they settle: it completes a job without waiting for the
  // statement (worker loop), so a stop that returned could otherwise leave one in flight and the
  // database be closed under it.
  const inFlight = new Set<Promise<unknown>>();
  let stopped = false;
  const executeSql = (text: string, values?: unknown[]) => {
    // After stop() pg-boss may still start one (a worker finishing its loop): it is not sent, and
    // never answers, rather than fail on a closed database; that try expires and is retried.
    if (stopped) return new Promise<never>(() => {});
    const statement = database.execute(text, values);
    inFlight.add(statement);
    void statement.then(
      () => inFlight.delete(statement),
      () => inFlight.delete(statement),
    );
    // pg-boss completes a worker's batch without awaiting the statement: when it fails (the
    // database gone), the rejection would be unhandled and end the process. It is logged instead;
    // the try stays active, its lease lapses, and it runs again, as after a crash.
    if (completesJobs.test(text)) {
      return statement.catch((error: unknown) => {
        log.warn({ err: error }, 'finished jobs not marked completed; they will run again');
        return { rows: [{ count: 0 }] };
      });
    }
    return statement;
  };
  const boss = new PgBoss({
    db: { executeSql },
    schema,
    // Maintenance (expiring stuck tries, archiving) runs where workers run; see work().
    supervise: false,
    schedule: false,
    migrate: true,
  });
  boss.on('error', (error: unknown) => log.error({ err: error }, 'job queue error'));
  await boss.start();
  for (const job of jobs) {
    const settings = {
      name: job.name,
      retryLimit: job.retryLimit ?? 5,
      retryDelay: job.retryDelaySeconds ?? 5,
      retryBackoff: true,
      // The try's whole limit: what pg-boss's worker waits for at most. Its lease is shorter (see leaseSeconds).
      expireInSeconds: job.expireInSeconds ?? 300,
      policy: job.policy ?? 'standard',
    };
    // Created once; a changed definition updates the queue that exists.
    await boss.createQueue(job.name, settings);
    await boss.updateQueue(job.name, settings);
  }
  const known = new Set(jobs.map((job) => job.name));
  let supervisor: PgBoss | undefined;
  // pg-boss's own expiry statement (public on the instance, missing from its types): lapsed tries
  // are retried, or failed after their last retry, as pg-boss's maintenance would. A lapsed lease
  // means a process died, not that the job failed: its retry is due at once, not after the job's
  // retry delay (meant for a provider that is down). pg-boss marks what its expiry retried with
  // this message; a try that failed or timed out in a living worker says otherwise.
  const expireLapsed = async () => {
    if (!supervisor) return;
    try {
      await (supervisor as unknown as { expire(): Promise<void> }).expire();
      await executeSql(
        `update ${schema}.job set start_after = now()
          where state = 'retry' and start_after > now()
            and output->'value'->>'message' = 'job failed by timeout in active state'`,
      );
    } catch (error) {
      log.warn({ err: error }, 'lapsed jobs not checked');
    }
  };
  /** The lease of tries under way: until now plus leaseSeconds, within the try's own limit. */
  const renewLease = (name: string, ids: string[], limitSeconds: number) =>
    executeSql(
      `update ${schema}.job
          set expire_in = least(now() - started_on + $3 * interval '1 second', $4 * interval '1 second')
        where name = $1 and id = any($2::uuid[]) and state = 'active'`,
      [name, ids, leaseSeconds, limitSeconds],
    ).catch((error: unknown) => log.warn({ err: error, job: name }, 'job lease not renewed'));
  const timers: NodeJS.Timeout[] = [];
  let stopLooking = () => {};

  return {
    async enqueue(tx, job, data, options = {}) {
      if (!known.has(job.name)) throw new Error(`The job ${job.name} is not registered`);
      const parsed = job.data.parse(data);
      await boss.send(job.name, parsed as object, {
        startAfter: options.startAfter,
        singletonKey: options.singletonKey,
        db: inTransaction(tx),
      });
    },

    async enqueueMany(tx, job, data) {
      if (!known.has(job.name)) throw new Error(`The job ${job.name} is not registered`);
      if (data.length === 0) return;
      await boss.insert(
        data.map((one) => ({ name: job.name, data: job.data.parse(one) as object })),
        { db: inTransaction(tx) },
      );
    },

    async work(definitions, services) {
      // A second pg-boss on the same connection runs the maintenance that expires tries whose
      // process died (they are retried) and archives finished jobs.
      supervisor = new PgBoss({
        db: { executeSql },
        schema,
        supervise: true,
        schedule: false,
        migrate: false,
        maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
      });
      supervisor.on('error', (error: unknown) => log.error({ err: error }, 'job queue maintenance error'));
      await supervisor.start();
      // Tries a process left when it died: found now, and then every few seconds.
      await expireLapsed();
      const expiryTimer = setInterval(() => void expireLapsed(), expiryCheckSeconds * 1000);
      expiryTimer.unref();
      timers.push(expiryTimer);
      // Requests first: while they keep this process busy, a job waits (between batches, and where
      // a long job asks, between its steps). Then the jobs that go first: while one runs (and has
      // not stepped aside), the others wait the same way.
      let goingFirst = 0;
      const waitWhile = async (busy: () => boolean) => {
        for (let waited = 0; busy() && waited < yieldForMs; waited += 100) await sleep(100);
      };
      const requestsBusy = () => options.yieldWhile?.() ?? false;
      const yieldFor = (goesFirst: boolean | undefined) =>
        goesFirst ? () => waitWhile(requestsBusy) : () => waitWhile(() => requestsBusy() || goingFirst > 0);
      const workersOf = new Map<string, string[]>();
      for (const definition of definitions) {
        const limitSeconds = definition.expireInSeconds ?? 300;
        const yieldToRequests = yieldFor(definition.goesFirst);
        const runOne = async (job: PgBoss.JobWithMetadata<unknown>) => {
          const jobLog = log.child({ job: definition.name, jobId: job.id, retry: job.retryCount });
          let first = definition.goesFirst === true;
          if (first) goingFirst++;
          const stepAside = () => {
            if (first) goingFirst--;
            first = false;
          };
          try {
            const data = definition.data.parse(job.data);
            await definition.handler(data as never, {
              services,
              log: jobLog,
              jobId: job.id,
              retryCount: job.retryCount,
              yieldToRequests,
              stepAside,
            });
          } catch (error) {
            jobLog.warn({ err: error }, 'job failed; it will be tried again');
            // Failed on its own: pg-boss then completes only the jobs of the batch still active. When
            // even that cannot be written (the database closing under a stop), the try expires and
            // is retried by maintenance: nothing is lost, and nothing is left unhandled.
            await boss
              .fail(definition.name, job.id, { message: error instanceof Error ? error.message : String(error) })
              .catch((failError: unknown) => jobLog.warn({ err: failError }, 'the failed try could not be recorded'));
          } finally {
            stepAside();
          }
        };
        const handle = async (workerId: () => string, jobs: PgBoss.JobWithMetadata<unknown>[]) => {
          const ids = jobs.map((job) => job.id);
          await renewLease(definition.name, ids, limitSeconds);
          const renewal = setInterval(() => void renewLease(definition.name, ids, limitSeconds), renewEveryMs);
          try {
            await Promise.all(jobs.map(runOne));
          } finally {
            clearInterval(renewal);
            // Requests first: while they keep this process busy, the next jobs wait.
            await yieldToRequests();
            // pg-boss waits out its polling interval after every fetch, even one that found jobs:
            // one batch per worker per interval. Woken, the worker fetches the next at once, and
            // waits only when the queue is empty.
            boss.notifyWorker(workerId());
          }
        };
        const ids: string[] = [];
        for (let worker = 0; worker < (definition.concurrency ?? 2); worker++) {
          let id = '';
          id = await boss.work(
            definition.name,
            { batchSize: definition.batchSize ?? 1, includeMetadata: true, pollingIntervalSeconds: idleWorkerSeconds },
            (jobs: PgBoss.JobWithMetadata<unknown>[]) => handle(() => id, jobs),
          );
          ids.push(id);
        }
        workersOf.set(definition.name, ids);
        if (definition.everySeconds) {
          const { name } = definition;
          const seconds = definition.everySeconds(services as never);
          const enqueue = () =>
            boss
              .send(name, {}, { singletonKey: name })
              .catch((error: unknown) => log.warn({ err: error, job: name }, 'recurring job not enqueued'));
          void enqueue();
          const timer = setInterval(enqueue, seconds * 1000);
          timer.unref();
          timers.push(timer);
        }
      }
      stopLooking = lookForDueJobs({
        executeSql,
        log,
        schema,
        names: [...workersOf.keys()],
        everySeconds: options.pollingIntervalSeconds ?? 0.5,
        wake: (name) => {
          for (const id of workersOf.get(name) ?? []) boss.notifyWorker(id);
        },
      });
    },

    async depth() {
      const { rows } = await database.execute(
        `select name,
                count(*) filter (where state in ('created', 'retry') and start_after <= now())::int as waiting,
                count(*) filter (where state = 'active')::int as active,
                coalesce(extract(epoch from now() - min(start_after) filter (where state in ('created', 'retry') and start_after <= now())), 0)::float as oldest
           from ${schema}.job group by name`,
        [],
      );
      return rows.map((row) => ({
        name: String(row.name),
        waiting: Number(row.waiting),
        active: Number(row.active),
        oldestWaitingSeconds: Number(row.oldest),
      }));
    },

    async stop({ graceful = true } = {}) {
      stopLooking();
      for (const timer of timers.splice(0)) clearInterval(timer);
      await supervisor?.stop({ graceful, wait: true, timeout: 10_000 });
      await boss.stop({ graceful, wait: true, timeout: 10_000 });
      stopped = true;
      // The completions pg-boss sent without waiting, before the database may close.
      await Promise.allSettled([...inFlight]);
    },
  };
}
