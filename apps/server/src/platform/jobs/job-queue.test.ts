import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openTestDatabase } from '../../testing/test-app';
import { openDatabase, type Database } from '../db/database';
import { createMailer } from '../mail/mailer';
import { outboxMessage } from '../mail/schema';
import { eq } from 'drizzle-orm';
import { createJobQueue, defineJob, expiryCheckSeconds, leaseSeconds, type JobQueue } from './job-queue';

// The job queue on the real database (PGlite, and PostgreSQL when TEST_DATABASE_URL is set): what
// it promises is what the rest of Admit relies on to send every email once and release every hold.

const log = { child: () => log, info() {}, warn() {}, error() {}, debug() {}, trace() {}, fatal() {} } as never;
const fast = { pollingIntervalSeconds: 0.5, maintenanceIntervalSeconds: 1 };

let database: Database & { url?: string };

beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(() => database?.close());

/** A job whose handler records each try; `fail(n)` decides whether the n-th try throws. */
function recordingJob(name: string, options: { fail?: (attempt: number) => boolean; retryDelaySeconds?: number } = {}) {
  const tries: { text: string; retryCount: number; at: number }[] = [];
  const job = defineJob<{ text: string }, unknown>({
    name,
    data: z.object({ text: z.string() }),
    retryLimit: 3,
    retryDelaySeconds: options.retryDelaySeconds ?? 1,
    concurrency: 1,
    async handler(data, ctx) {
      tries.push({ text: data.text, retryCount: ctx.retryCount, at: Date.now() });
      if (options.fail?.(tries.length)) throw new Error(`try ${tries.length} fails on purpose`);
    },
  });
  return { job, tries };
}

async function queueWith(jobs: ReturnType<typeof recordingJob>['job'][], on: Database = database): Promise<JobQueue> {
  return createJobQueue(on, log, jobs as never, fast);
}

describe('the job queue', () => {
  it('never runs a job enqueued in a transaction that rolled back, and runs a committed one once', async () => {
    const { job, tries } = recordingJob('test.rollback');
    const queue = await queueWith([job]);
    try {
      await database.db
        .transaction(async (tx) => {
          await queue.enqueue(tx, job as never, { text: 'rolled back' });
          throw new Error('the change fails');
        })
        .catch(() => {});
      await database.db.transaction(async (tx) => queue.enqueue(tx, job as never, { text: 'committed' }));
      await queue.work([job as never], {});
      await expect.poll(() => tries.map((one) => one.text), { timeout: 10_000 }).toEqual(['committed']);
      // Given time to run anything else it holds, it still ran only the committed job, once.
      await sleep(1_500);
      expect(tries.map((one) => one.text)).toEqual(['committed']);
    } finally {
      await queue.stop();
    }
  });

  it('counts as waiting the jobs that are due, not those set to run later', async () => {
    const { job } = recordingJob('test.depth');
    const queue = await queueWith([job]);
    try {
      await queue.enqueue(database.db, job as never, { text: 'now' });
      await queue.enqueue(database.db, job as never, { text: 'later' }, { startAfter: new Date(Date.now() + 600_000) });
      expect((await queue.depth()).find((row) => row.name === 'test.depth')).toMatchObject({ waiting: 1, active: 0 });
    } finally {
      await queue.stop();
    }
  });

  it('looks for due jobs with one statement per interval however many workers wait, and still runs a job within a second', async () => {
    // Twenty queues of two workers each: were each worker to look for itself, forty statements every half second.
    const recorded = Array.from({ length: 20 }, (_, n) => recordingJob(`test.idle-${n}`));
    const jobs = recorded.map(({ job }) => ({ ...job, concurrency: 2 }));
    let statements = 0;
    const counted: Database = {
      ...database,
      execute: (text, values) => {
        statements += 1;
        return database.execute(text, values);
      },
    };
    const queue = await createJobQueue(counted, log, jobs as never, { pollingIntervalSeconds: 0.5 });
    try {
      await queue.work(jobs as never, {});
      await sleep(1_000);
      statements = 0;
      await sleep(3_000);
      // Six looks in three seconds, and the expiry check's two statements (every four seconds).
      expect(statements).toBeLessThanOrEqual(10);
      const enqueuedAt = Date.now();
      await database.db.transaction(async (tx) => queue.enqueue(tx, jobs[7] as never, { text: 'due now' }));
      await expect.poll(() => recorded[7]!.tries.length, { timeout: 5_000, interval: 50 }).toBe(1);
      expect(recorded[7]!.tries[0]!.at - enqueuedAt).toBeLessThan(1_000);
    } finally {
      await queue.stop();
    }
  });

  it('works through the jobs waiting one after the other, without waiting out the polling interval between them', async () => {
    const { job, tries } = recordingJob('test.back-to-back');
    // One worker (concurrency 1) that would look for work only every 60 s if it were left to wait.
    const queue = await createJobQueue(database, log, [job] as never, { ...fast, pollingIntervalSeconds: 60 });
    try {
      const texts = ['one', 'two', 'three', 'four', 'five'];
      await database.db.transaction(async (tx) => {
        for (const text of texts) await queue.enqueue(tx, job as never, { text });
      });
      await queue.work([job as never], {});
      await expect.poll(() => tries.length, { timeout: 20_000, interval: 100 }).toBe(texts.length);
      expect(tries.map((one) => one.text).sort()).toEqual([...texts].sort());
    } finally {
      await queue.stop();
    }
  });

  it('lets a job that goes first have the process: the others wait between their jobs while it runs, and go on once it steps aside', async () => {
    const { job: later, tries } = recordingJob('test.goes-later');
    let running = false;
    let release = () => {};
    const first = defineJob<{ text: string }, unknown>({
      name: 'test.goes-first',
      data: z.object({ text: z.string() }),
      concurrency: 1,
      goesFirst: true,
      async handler(_data, { stepAside }) {
        running = true;
        await new Promise<void>((resolve) => (release = resolve));
        // From here on it waits on something slow, as a webhook round does on a slow receiver.
        stepAside();
        await sleep(60_000).catch(() => undefined);
      },
    });
    const queue = await queueWith([later, first as never]);
    try {
      await queue.enqueue(database.db, first as never, { text: 'first' });
      await queue.work([later as never, first as never], {});
      await expect.poll(() => running, { timeout: 10_000 }).toBe(true);
      await database.db.transaction(async (tx) => {
        for (const text of ['one', 'two', 'three']) await queue.enqueue(tx, later as never, { text });
      });
      // One job the worker had taken before it looked again; then it waits for the first to be done.
      await sleep(2_500);
      expect(tries.length).toBeLessThanOrEqual(1);
      release();
      await expect.poll(() => tries.length, { timeout: 10_000, interval: 100 }).toBe(3);
    } finally {
      await queue.stop({ graceful: false });
    }
  });

  it('runs the jobs a worker takes together each on its own: the one that fails is tried again, the others are not', async () => {
    const tries: { text: string; retryCount: number }[] = [];
    const job = defineJob<{ text: string }, unknown>({
      name: 'test.batch',
      data: z.object({ text: z.string() }),
      retryLimit: 3,
      retryDelaySeconds: 1,
      concurrency: 1,
      batchSize: 5,
      async handler(data, ctx) {
        tries.push({ text: data.text, retryCount: ctx.retryCount });
        if (data.text === 'fails once' && ctx.retryCount === 0) throw new Error('fails on purpose');
      },
    });
    const queue = await createJobQueue(database, log, [job] as never, fast);
    try {
      await database.db.transaction(async (tx) => {
        for (const text of ['a', 'fails once', 'b']) await queue.enqueue(tx, job as never, { text });
      });
      await queue.work([job as never], {});
      await expect.poll(() => tries.length, { timeout: 20_000, interval: 100 }).toBe(4);
      await sleep(1_500);
      expect(tries.map((one) => `${one.text} ${one.retryCount}`).sort()).toEqual(['a 0', 'b 0', 'fails once 0', 'fails once 1']);
    } finally {
      await queue.stop();
    }
  });

  it('tries a failing job again, each wait at least twice the one before', async () => {
    const { job, tries } = recordingJob('test.backoff', { fail: (attempt) => attempt < 3 });
    const queue = await queueWith([job]);
    try {
      await queue.enqueue(database.db, job as never, { text: 'flaky' });
      await queue.work([job as never], {});
      await expect.poll(() => tries.length, { timeout: 30_000, interval: 200 }).toBe(3);
      expect(tries.map((one) => one.retryCount)).toEqual([0, 1, 2]);
      // The first wait is at least the job's delay (1 s), the second at least twice that.
      expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(1_000);
      expect(tries[2]!.at - tries[1]!.at).toBeGreaterThanOrEqual(2_000);
    } finally {
      await queue.stop();
    }
  });

  it('runs again, in another process, a job whose process died during its try', async () => {
    let release: () => void = () => {};
    const stuck = defineJob<{ text: string }, unknown>({
      name: 'test.crash',
      data: z.object({ text: z.string() }),
      expireInSeconds: 1,
      retryDelaySeconds: 1,
      concurrency: 1,
      async handler() {
        // The first process dies here: its try never ends.
        await new Promise<void>((resolve) => (release = resolve));
      },
    });
    const first = await queueWith([stuck as never]);
    await first.enqueue(database.db, stuck as never, { text: 'survivor' });
    await first.work([stuck as never], {});
    await expect
      .poll(async () => (await first.depth()).find((row) => row.name === 'test.crash')?.active, { timeout: 10_000 })
      .toBe(1);
    await first.stop({ graceful: false });

    const { job: healthy, tries } = recordingJob('test.crash');
    const second = await queueWith([healthy]);
    try {
      await second.work([healthy as never], {});
      await expect.poll(() => tries.map((one) => one.text), { timeout: 30_000, interval: 250 }).toEqual(['survivor']);
      expect(tries[0]!.retryCount).toBe(1);
    } finally {
      release();
      await second.stop();
    }
  });

  it('runs again within seconds a job whose process died, however long its try may take and its retries wait', async () => {
    let release: () => void = () => {};
    const slow = defineJob<{ text: string }, unknown>({
      name: 'test.crashLong',
      data: z.object({ text: z.string() }),
      // Five minutes for a try, a minute before a retry: neither is waited for after a crash.
      expireInSeconds: 300,
      retryDelaySeconds: 60,
      concurrency: 1,
      async handler() {
        await new Promise<void>((resolve) => (release = resolve));
      },
    });
    // A process that dies: it takes the try and renews its lease, and then nothing more.
    const dying = await createJobQueue(database, log, [slow as never], { pollingIntervalSeconds: 0.5 });
    await dying.enqueue(database.db, slow as never, { text: 'orphan' });
    await dying.work([slow as never], {});
    await expect
      .poll(async () => (await dying.depth()).find((row) => row.name === 'test.crashLong')?.active, { timeout: 10_000 })
      .toBe(1);
    // Stopped, it would hand its try back; killed, it leaves the try active with the lease it had
    // renewed last: that is what the database keeps after a SIGKILL (the kill itself is tested
    // with real processes in modules/payments/cancel-event-crash.test.ts).
    await dying.stop({ graceful: false });
    const diedAt = performance.now();
    await database.execute(
      `update pgboss.job set state = 'active', start_after = started_on, output = null where name = 'test.crashLong'`,
      [],
    );

    const { job: healthy, tries } = recordingJob('test.crashLong');
    const second = await createJobQueue(database, log, [healthy as never], { pollingIntervalSeconds: 0.5 });
    // The lease and one expiry check, with room for a busy machine (CI missed 21 s by 0.1 s): still
    // well under the minute a retry would wait, and the five minutes of the try.
    const within = (leaseSeconds + expiryCheckSeconds + 20) * 1000;
    expect(within).toBeLessThan(60_000);
    try {
      await second.work([healthy as never], {});
      await expect.poll(() => tries.map((one) => one.text), { timeout: within, interval: 250 }).toEqual(['orphan']);
      expect(performance.now() - diedAt).toBeLessThan(within);
    } finally {
      release();
      await second.stop();
    }
  });

  it('leaves nothing unhandled when the database goes away while a job runs', async () => {
    const own = await openTestDatabase();
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    let closed = false;
    const job = defineJob<{ text: string }, unknown>({
      name: 'test.gone',
      data: z.object({ text: z.string() }),
      concurrency: 1,
      async handler() {
        // The database goes while the try runs; pg-boss then completes it without awaiting.
        await own.close();
        closed = true;
      },
    });
    const queue = await queueWith([job as never], own);
    try {
      await queue.enqueue(own.db, job as never, { text: 'x' });
      await queue.work([job as never], {});
      await expect.poll(() => closed, { timeout: 10_000 }).toBe(true);
      await sleep(500);
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      await queue.stop({ graceful: false });
    }
  });

  it('keeps a job enqueued before the server stopped, and runs it after it starts again', async () => {
    if (database.kind !== 'pglite') return; // the same promise on PostgreSQL is the server's own
    const dataDir = mkdtempSync(path.join(tmpdir(), 'admit-jobs-'));
    try {
      const { job, tries } = recordingJob('test.restart');
      const before = await openDatabase({ kind: 'pglite', dataDir });
      const queue = await queueWith([job], before);
      await queue.enqueue(before.db, job as never, { text: 'kept' });
      await queue.stop();
      await before.close();

      const after = await openDatabase({ kind: 'pglite', dataDir });
      const restarted = await queueWith([job], after);
      await restarted.work([job as never], {});
      await expect.poll(() => tries.map((one) => one.text), { timeout: 15_000 }).toEqual(['kept']);
      await restarted.stop();
      await after.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('sends an email once when its job is tried again after the email went out', async () => {
    const mailer = createMailer({ db: database.db, from: 'Admit <no-reply@admit.local>' });
    const to = `${randomUUID()}@example.test`;
    let attempts = 0;
    const sendThenCrash = defineJob<{ to: string }, unknown>({
      name: 'test.sendThenCrash',
      data: z.object({ to: z.string() }),
      retryDelaySeconds: 1,
      concurrency: 1,
      async handler(data) {
        attempts += 1;
        await mailer.send({ to: data.to, subject: 'Your tickets', text: 'Hello' }, { idempotencyKey: `test:${data.to}` });
        // The worker stops after the email left but before the queue heard the job was done.
        if (attempts === 1) throw new Error('stopped after sending');
      },
    });
    const queue = await queueWith([sendThenCrash as never]);
    try {
      await queue.enqueue(database.db, sendThenCrash as never, { to });
      await queue.work([sendThenCrash as never], {});
      await expect.poll(() => attempts, { timeout: 20_000, interval: 200 }).toBe(2);
      const sent = await database.db.select().from(outboxMessage).where(eq(outboxMessage.to, to));
      expect(sent).toHaveLength(1);
    } finally {
      await queue.stop();
    }
  });
});
