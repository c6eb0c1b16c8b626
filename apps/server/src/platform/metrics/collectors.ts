import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { Counter, Gauge, type Registry } from 'prom-client';
import type { Database, PoolUsage } from '../db/database';
import type { JobQueue } from '../jobs/job-queue';

// Figures read when /metrics is scraped, from what already counts them: the live hub, the job
// queue's table, the database's pools. Nothing here keeps a count of its own.

/** What the live hub reports (LiveHub.stats). */
export interface LiveStats {
  sockets: number;
  subscriptions: number;
  refusedSockets: number;
}

export function collectLive(registry: Registry, live: { stats(): LiveStats }) {
  new Gauge({
    name: 'admit_live_sockets',
    help: 'Live-query sockets (/live) open on this process',
    registers: [registry],
    collect() {
      this.set(live.stats().sockets);
    },
  });
  new Gauge({
    name: 'admit_live_subscriptions',
    help: 'Live-query subscriptions on the sockets open on this process',
    registers: [registry],
    collect() {
      this.set(live.stats().subscriptions);
    },
  });
  new Counter({
    name: 'admit_live_sockets_refused_total',
    help: 'Live-socket upgrades refused with 429 because an address or account had too many (decision 0029)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(live.stats().refusedSockets);
    },
  });
}

/**
 * How long one read of the queues serves scrapes: the read groups the whole job table, and several
 * scrapers (or one scraping too often) then cost one query per window.
 */
const jobDepthCacheMs = 5_000;
/**
 * The longest a scrape waits for that read. In a rush every connection of the pool may be busy, and
 * the other figures are wanted then most; the read goes on and serves the next scrape.
 */
const jobDepthWaitMs = 2_000;

type QueueDepth = Awaited<ReturnType<JobQueue['depth']>>[number];

export function collectJobQueues(
  registry: Registry,
  { jobs, queues, log }: { jobs: Pick<JobQueue, 'depth'>; queues: string[]; log: FastifyBaseLogger },
) {
  let cached: { readAt: number; depth: Promise<QueueDepth[]> } | undefined;
  const depth = () => {
    if (!cached || Date.now() - cached.readAt >= jobDepthCacheMs) {
      const read = jobs.depth();
      cached = { readAt: Date.now(), depth: read };
      // A failed read is logged once and not kept: the next scrape tries again.
      read.catch((error: unknown) => {
        log.warn({ err: error }, 'metrics: reading the job queues failed');
        if (cached?.depth === read) cached = undefined;
      });
    }
    return cached.depth;
  };
  const perQueue = (name: string, help: string, valueOf: (queue: QueueDepth) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['queue'],
      registers: [registry],
      async collect() {
        this.reset();
        // No figures rather than stale ones when the read failed (logged above) or is not back yet.
        const late = sleep(jobDepthWaitMs, undefined, { ref: false });
        const read = await Promise.race([depth().catch(() => undefined), late]);
        if (!read) return;
        // Every queue appears, empty ones at 0, so that a rule on a queue never sees it vanish.
        for (const queue of queues) this.set({ queue }, 0);
        for (const queue of read) this.set({ queue: queue.name }, valueOf(queue));
      },
    });
  perQueue(
    'admit_job_queue_waiting',
    'Jobs waiting to run or to be retried, per queue, including those set to run later (a hold until it ends)',
    (queue) => queue.waiting,
  );
  perQueue('admit_job_queue_active', 'Jobs running now, per queue, on any process', (queue) => queue.active);
  perQueue(
    'admit_job_queue_oldest_waiting_seconds',
    'Age of the oldest waiting job, per queue, since it was enqueued (0 when none waits)',
    (queue) => queue.oldestWaitingSeconds,
  );
}

export function collectDatabase(registry: Registry, database: Database) {
  new Gauge({
    name: 'admit_database_info',
    help: 'The database this process uses, as its kind label (pglite or postgres); always 1',
    labelNames: ['kind'],
    registers: [registry],
    collect() {
      this.set({ kind: database.kind }, 1);
    },
  });
  // PGlite is one connection inside this process, with no pool: its queries wait inside PGlite, and
  // the pool figures are left out rather than made up (decision 0033).
  if (database.kind === 'pglite') return;
  const perPool = (name: string, help: string, valueOf: (pool: PoolUsage) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['pool'],
      registers: [registry],
      collect() {
        for (const pool of database.pools()) this.set({ pool: pool.name }, valueOf(pool));
      },
    });
  perPool('admit_db_pool_clients', 'Connections the pool holds open, in use or idle', (pool) => pool.total);
  perPool('admit_db_pool_idle_clients', 'Connections of the pool open and free', (pool) => pool.idle);
  perPool('admit_db_pool_waiting', 'Queries waiting for a connection of the pool', (pool) => pool.waiting);
  perPool('admit_db_pool_max_clients', 'The most connections the pool opens (DATABASE_POOL_SIZE for main)', (pool) => pool.max);
}
