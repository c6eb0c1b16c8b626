import 'dotenv/config';
import { pino } from 'pino';
import { jobDefinitions } from './app';
import { ConfigError, loadConfig, publicUrlOf } from './platform/config';
import { openDatabase } from './platform/db/database';
import { createJobQueue } from './platform/jobs/job-queue';
import type { JobServices } from './platform/jobs/job-services';
import { LiveHub } from './platform/live/live-hub';
import { createServices } from './services';

// `npm run worker`: runs the background jobs (emails, hold expiry, refunds to send again) in a
// process of its own, next to web processes started with JOB_WORKERS=off. Several may run: each
// job is taken by one of them. Needs PostgreSQL (DATABASE_URL, and DATABASE_DIRECT_URL behind a
// transaction-mode pooler): the embedded database belongs to the one web process, which runs the jobs itself.

const stopLimitMs = 15_000;

async function main() {
  const config = loadConfig();
  if (!config.DATABASE_URL)
    throw new ConfigError(
      'Configuration error: DATABASE_URL is required by npm run worker (the embedded database runs its jobs in npm start)',
    );
  const log = pino({ level: config.LOG_LEVEL });
  const database = await openDatabase({
    kind: 'postgres',
    url: config.DATABASE_URL,
    directUrl: config.DATABASE_DIRECT_URL,
    poolSize: config.DATABASE_POOL_SIZE,
  });
  const { payments, mailer, storage } = await createServices(config, database);
  // Publishes the changes a job makes (an expired hold) to every web process; serves no sockets.
  const hub = new LiveHub(database, [], log, {
    maxBufferedBytes: config.LIVE_MAX_BUFFERED_BYTES,
    maxSubscriptionsPerSocket: config.LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET,
    maxSocketsPerAddress: config.LIVE_MAX_SOCKETS_PER_ADDRESS,
    maxSocketsPerAccount: config.LIVE_MAX_SOCKETS_PER_ACCOUNT,
  });
  const jobs = await createJobQueue(database, log, jobDefinitions as never);
  const services: JobServices = {
    db: database.db,
    mailer,
    publicUrl: publicUrlOf(config, config.PORT),
    payments,
    config,
    publish: (...topics) => hub.publish(topics),
    jobs,
    storage,
  };
  await jobs.work(jobDefinitions as never, services);
  log.info(`worker running ${jobDefinitions.length} kinds of jobs`);

  let stopping = false;
  const stop = async (reason: string) => {
    if (stopping) return;
    stopping = true;
    log.info(`${reason}: stopping after the jobs under way`);
    setTimeout(() => process.exit(1), stopLimitMs).unref();
    try {
      // Graceful: tries under way finish; one cut short is tried again by another worker.
      await jobs.stop();
      await hub.stop();
    } finally {
      await database.close();
    }
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(signal));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
