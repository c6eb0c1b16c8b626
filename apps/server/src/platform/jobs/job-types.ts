import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Db, Tx } from '../db/database';

// What a job is and what the queue offers (the types job-queue.ts implements on pg-boss): the
// modules declare their jobs with defineJob and enqueue them through a JobSender.

/** What a job's handler gets besides its data. Given by whoever starts the workers (app.ts, worker.ts). */
export interface JobContext<Services> {
  services: Services;
  log: FastifyBaseLogger;
  /** The id pg-boss gave this job: stable across its retries. */
  jobId: string;
  /** 0 on the first try, then 1, 2… */
  retryCount: number;
  /**
   * Waits while requests keep this process busy (up to 5 s; at once where jobs have a process of
   * their own), and, for a job that does not go first, while one that does runs here: a job that
   * runs long, in steps, lets a rush's buyers and prompter work go first between them.
   */
  yieldToRequests(): Promise<void>;
  /**
   * For a job that goes first (`goesFirst`): from now on it waits on something slow (a receiver
   * that takes seconds), so the other jobs of this process stop waiting for it.
   */
  stepAside(): void;
}

export interface JobDefinition<Data = unknown, Services = unknown> {
  /** `<capability>.<verb>`, like a callable. */
  name: string;
  data: z.ZodType<Data>;
  /** Tries after the first (default 5), each waiting about twice as long as the one before. */
  retryLimit?: number;
  /** The first wait before a retry, in seconds (default 5). */
  retryDelaySeconds?: number;
  /**
   * Work that someone expects within seconds (webhooks), where the rest may take a minute
   * (emails): while a job of this kind runs in a process, the other jobs there wait between their
   * batches and steps (up to 5 s at a time), so that it has the process's CPU. A job that waits on
   * something slow instead calls `stepAside`.
   */
  goesFirst?: boolean;
  /** How many workers of this job one process runs (default 2). */
  concurrency?: number;
  /**
   * How many waiting jobs a worker takes at once and runs together (default 1): fewer trips to the
   * queue, and one job's database round trips overlap another's work. Each job still succeeds or
   * fails on its own.
   */
  batchSize?: number;
  /**
   * How long one try may take before it counts failed (default 5 minutes). A try whose process
   * died is found sooner: see leaseSeconds.
   */
  expireInSeconds?: number;
  /**
   * pg-boss's queue policy (default `standard`). `stately`: at most one job per singleton key waits
   * and one runs, and enqueuing another meanwhile does nothing.
   */
  policy?: 'standard' | 'stately';
  /**
   * A recurring job (its data must accept `{}`): every process that runs workers enqueues it this
   * often, once at start too; with `stately`, several processes still make one job wait at a time.
   */
  everySeconds?: (services: Services) => number;
  handler(data: Data, ctx: JobContext<Services>): Promise<void>;
}

/** Declares a job next to the module that owns it; app.ts and worker.ts register them. */
export function defineJob<Data, Services>(definition: JobDefinition<Data, Services>): JobDefinition<Data, Services> {
  return definition;
}

export interface EnqueueOptions {
  /** Not before this moment (a hold that ends at a given time). */
  startAfter?: Date;
  /**
   * On a `stately` queue, at most one job with this key waits at a time: enqueuing it again does
   * nothing. On a standard queue it is only a label: handlers are idempotent either way.
   */
  singletonKey?: string;
}

/** Enqueues jobs; the first argument is the transaction they belong to (or the database, on their own). */
export interface JobSender {
  enqueue<Data>(tx: Tx | Db, job: JobDefinition<Data, never>, data: Data, options?: EnqueueOptions): Promise<void>;
  /** Many jobs of one kind in one statement (a guest list's emails). */
  enqueueMany<Data>(tx: Tx | Db, job: JobDefinition<Data, never>, data: readonly Data[]): Promise<void>;
}

export interface JobQueue extends JobSender {
  /** Runs the jobs' handlers in this process until stop(). */
  work<Services>(jobs: JobDefinition<never, Services>[], services: Services): Promise<void>;
  /**
   * How many jobs are due and wait, and how long the oldest has waited since it became due, per
   * queue (for /metrics): a backlog, not the holds that end later.
   */
  depth(): Promise<{ name: string; waiting: number; active: number; oldestWaitingSeconds: number }[]>;
  /** Stops fetching jobs; graceful (the default) waits up to 10 s for the tries under way. */
  stop(options?: { graceful?: boolean }): Promise<void>;
}

export interface JobQueueOptions {
  /**
   * How often a process that runs workers looks for due jobs: one statement for all its queues,
   * which wakes the workers of the queues that have some (0.5 s unless said).
   */
  pollingIntervalSeconds?: number;
  /** How often tries whose process died are found and retried, and finished jobs archived. */
  maintenanceIntervalSeconds?: number;
  /**
   * For workers that share their process with requests (the embedded default): true while requests
   * keep the process busy. Each worker then waits (up to 5 s at a time) before it takes more jobs,
   * so a sales rush's emails wait for its buyers' answers instead of slowing them.
   */
  yieldWhile?: () => boolean;
}
