// bench/email: `npm run bench:email`; see bench/README.md.
//
// What one confirmation email costs: the worker's CPU (its process, from /proc) and PostgreSQL's
// (every postgres process) per email, while the real worker (apps/server/src/worker.ts in its own
// process) sends the confirmations of free orders of one or two tickets each. Set-up: the real
// server on a scratch PostgreSQL database, with JOB_WORKERS=off, takes the orders through
// `orders.create`; their confirmation jobs are parked (start_after a day away) until a run lets one
// event's jobs go, with the worker already started and idle. Two modes:
//   - outbox: the embedded default (NODE_ENV=development, no SMTP_URL): each email in the dev outbox;
//   - smtp: as a deployment runs (NODE_ENV=production, SMTP_URL at a local sink this bench starts).
// Each mode runs with this checkout's server code and with the baseline's (BENCH_BASELINE_ROOT, a
// checkout of the commit before the change, e.g. `git worktree add /tmp/email-base <commit>` with
// its node_modules linked to this one's), in turns, in the same run: the machine is shared.
//
// Environment: BENCH_ORDERS (1000 per run), BENCH_BASELINE_ROOT (unset: no baseline runs),
// BENCH_MODES (outbox,smtp), BENCH_PROFILE_DIR (each worker's CPU profile),
// BENCH_DATABASE_URL (admin URL, default postgres://postgres@127.0.0.1:5432/postgres), BENCH_LABEL.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { call } from '../support/callable';
import { cleanupOnExit } from '../support/cleanup';
import { keysSent } from '../support/confirmation-emails';
import { sampleCpu, type CpuSample } from '../support/cpu';
import { loadAverage, machine } from '../support/machine';
import { adminDatabaseUrl, numberOption, repositoryRoot, textOption } from '../support/options';
import { createOrganization, createPeople } from '../support/people';
import { writeResult } from '../support/results';
import { createSaleEvent } from '../support/sale-event';
import { createScratchDatabase } from '../support/scratch-database';
import { benchAuthSecret, startServer } from '../support/server';
import { round } from '../support/stats';
import { startSmtpSink, type SmtpSink } from './smtp-sink';

const ordersPerRun = numberOption('BENCH_ORDERS', 1000);
const baselineRoot = textOption('BENCH_BASELINE_ROOT');
const modes = (textOption('BENCH_MODES') ?? 'outbox,smtp').split(',') as Mode[];
/** BENCH_PROFILE_DIR: each worker writes its V8 CPU profile there (node --cpu-prof). */
const profileDir = textOption('BENCH_PROFILE_DIR');
const targets = {
  smtp: { workerCpuMsPerEmail: 2, postgresCpuMsPerEmail: 1 },
  outbox: { workerCpuMsPerEmail: 3, postgresCpuMsPerEmail: 1.5 },
};
type Mode = keyof typeof targets;
const idleSeconds = 3;
const benchApplication = 'admit-email-bench';

/** CPU seconds of one process so far (utime + stime), 0 once it has ended. */
function cpuSecondsOf(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * CPU seconds so far of the PostgreSQL sessions of the scratch database but the bench's own: the
 * worker's. Every postgres process (cpu.ts) counts other people's work on a shared server too.
 */
async function sessionCpu(pool: pg.Pool, database: string): Promise<Map<number, number>> {
  const { rows } = await pool.query<{ pid: number }>(
    `select pid from pg_stat_activity where datname = $1 and application_name <> $2`,
    [database, benchApplication],
  );
  return new Map(rows.map(({ pid }) => [pid, cpuSecondsOf(pid)]));
}

/** The sessions' CPU seconds between two readings; a session that began in between counts from 0. */
function sessionCpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0);
  return total;
}

/** Starts apps/server/src/worker.ts of `root` and waits until it works its jobs. */
async function startWorker(root: string, env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'admit-bench-worker-'));
  const profile = profileDir ? [`--cpu-prof`, `--cpu-prof-dir=${profileDir}`] : [];
  const child: ChildProcess = spawn(process.execPath, [...profile, '--import', 'tsx', 'apps/server/src/worker.ts'], {
    cwd: root,
    env: { ...process.env, DATA_DIR: dataDir, AUTH_SECRET: benchAuthSecret, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout!, child.stderr!]) stream.on('data', (chunk) => (output += String(chunk)));
  const deadline = Date.now() + 90_000;
  while (!output.includes('worker running')) {
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`The worker did not start:\n${output}`);
    await sleep(100);
  }
  return {
    pid: child.pid!,
    errors: () => output.split('\n').filter((line) => /"level":(40|50|60)/.test(line)),
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** An event whose free orders (one or two tickets each, by as many buyers) wait with parked confirmation jobs. */
async function preparedEvent(
  baseUrl: string,
  databaseUrl: string,
  organization: Awaited<ReturnType<typeof createOrganization>>,
  title: string,
) {
  const sale = await createSaleEvent(baseUrl, organization.organizer, organization.organizationId, {
    title,
    capacity: ordersPerRun * 2,
    price: 0,
  });
  const buyers = await createPeople(databaseUrl, ordersPerRun, `buyer-${sale.eventId.slice(0, 8)}`, { mail: 'deliverable' });
  let next = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (next < ordersPerRun) {
        const index = next++;
        await call(baseUrl, buyers[index]!, 'orders.create', {
          eventId: sale.eventId,
          lines: [{ ticketTypeId: sale.ticketTypeId, quantity: 1 + (index % 2) }],
          idempotencyKey: `bench-email-${sale.eventId}-${index}`,
        });
      }
    }),
  );
  return sale.eventId;
}

const parkAll = (pool: pg.Pool) =>
  pool.query(`update pgboss.job set start_after = now() + interval '1 day' where state = 'created'`);

const release = (pool: pg.Pool, eventId: string) =>
  pool.query(
    `update pgboss.job j set start_after = now() from "order" o
      where j.name = 'orders.sendConfirmation' and j.state = 'created' and o.id = j.data->>'orderId' and o.event_id = $1`,
    [eventId],
  );

/** Sends one event's confirmations with one worker, and what they cost. */
async function measure(options: {
  pool: pg.Pool;
  databaseUrl: string;
  databaseName: string;
  root: string;
  mode: Mode;
  eventId: string;
  sink: SmtpSink;
}) {
  const { pool, mode, eventId } = options;
  const env: Record<string, string> =
    mode === 'outbox'
      ? { DATABASE_URL: options.databaseUrl, NODE_ENV: 'development' }
      : {
          DATABASE_URL: options.databaseUrl,
          NODE_ENV: 'production',
          SMTP_URL: `smtp://127.0.0.1:${options.sink.port}`,
          PUBLIC_URL: 'http://localhost:3000',
          STRIPE_SECRET_KEY: 'sk_test_bench',
          STRIPE_PUBLISHABLE_KEY: 'pk_test_bench',
          STRIPE_WEBHOOK_SECRET: 'whsec_bench',
        };
  const worker = await startWorker(options.root, env);
  try {
    // The worker's and PostgreSQL's use while nothing is to be sent (polling), taken off the figures below.
    await sleep(1000);
    const idleStart = sampleCpu(worker.pid);
    const idleSessions = await sessionCpu(pool, options.databaseName);
    await sleep(idleSeconds * 1000);
    const start = sampleCpu(worker.pid);
    const startSessions = await sessionCpu(pool, options.databaseName);
    const idle = rates(idleStart, start);
    const idleSessionCores = sessionCpuBetween(idleSessions, startSessions) / idleSeconds;
    const sinkBefore = options.sink.received();
    await release(pool, eventId);
    let sent = 0;
    for (;;) {
      const keys = await keysSent(pool, [eventId]);
      sent = keys.sent;
      if (keys.sent >= keys.paid) break;
      if (performance.now() - start.at > 600_000) throw new Error(`Only ${keys.sent} of ${keys.paid} emails in 10 minutes`);
      await sleep(100);
    }
    const end = sampleCpu(worker.pid);
    const sessions = sessionCpuBetween(startSessions, await sessionCpu(pool, options.databaseName)) * 1000;
    const seconds = (end.at - start.at) / 1000;
    const worker_ = (end.server - start.server) * 1000;
    const postgres = (end.postgres - start.postgres) * 1000;
    const errors = worker.errors();
    return {
      emails: sent,
      smtpMessages: mode === 'smtp' ? options.sink.received() - sinkBefore : undefined,
      seconds: round(seconds, 2),
      emailsPerSecond: round(sent / seconds, 1),
      workerCpuMsPerEmail: round(worker_ / sent, 2),
      postgresCpuMsPerEmail: round(postgres / sent, 2),
      /** The worker's own PostgreSQL sessions (the headline PostgreSQL figure); the two above count every postgres process. */
      postgresSessionCpuMsPerEmail: round(sessions / sent, 2),
      postgresSessionCpuMsPerEmailOverIdle: round((sessions - idleSessionCores * seconds * 1000) / sent, 2),
      workerCpuMsPerEmailOverIdle: round((worker_ - idle.worker * seconds * 1000) / sent, 2),
      postgresCpuMsPerEmailOverIdle: round((postgres - idle.postgres * seconds * 1000) / sent, 2),
      idleCores: {
        worker: round(idle.worker, 3),
        postgres: round(idle.postgres, 3),
        postgresSessions: round(idleSessionCores, 3),
      },
      warnings: errors.length,
      firstWarning: errors[0]?.slice(0, 400),
    };
  } finally {
    await worker.stop();
  }
}

function rates(before: CpuSample, after: CpuSample) {
  const seconds = (after.at - before.at) / 1000;
  return { worker: (after.server - before.server) / seconds, postgres: (after.postgres - before.postgres) / seconds };
}

async function main() {
  const loadAverageAtStart = loadAverage();
  const cleanup = cleanupOnExit();
  try {
    const database = await createScratchDatabase(adminDatabaseUrl());
    cleanup.add('drop the scratch database', () => database.drop());
    const sink = await startSmtpSink();
    cleanup.add('stop the SMTP sink', () => sink.close());
    const codes = [
      ...(baselineRoot ? [['baseline', path.resolve(baselineRoot)] as const] : []),
      ['change', repositoryRoot] as const,
    ];
    const runs = modes.flatMap((mode) => codes.map(([code, root]) => ({ mode, code, root })));

    const server = await startServer({ env: { DATABASE_URL: database.url, JOB_WORKERS: 'off' } });
    const organization = await createOrganization(server.url, database.url, 'Email bench');
    const pool = new pg.Pool({ connectionString: database.url, max: 2, application_name: benchApplication });
    cleanup.add('close the pool', () => pool.end());
    const events: string[] = [];
    for (const run of runs) {
      events.push(await preparedEvent(server.url, database.url, organization, `Email bench ${run.mode} ${run.code}`));
      await parkAll(pool);
    }
    await server.stop();
    console.log(`${runs.length} events of ${ordersPerRun} orders ready`);

    const figures: Record<string, Record<string, unknown>> = { baseline: {}, change: {} };
    for (const [index, run] of runs.entries()) {
      const measured = await measure({
        pool,
        databaseUrl: database.url,
        databaseName: database.name,
        root: run.root,
        mode: run.mode,
        eventId: events[index]!,
        sink,
      });
      figures[run.code]![run.mode] = measured;
      console.log(`${run.code} ${run.mode}:`, JSON.stringify(measured));
    }
    writeResult('email', {
      label: textOption('BENCH_LABEL'),
      serverCode: baselineRoot ? `baseline from ${path.resolve(baselineRoot)}` : undefined,
      machine: await machine({
        loadAverageAtStart,
        note: 'one worker, PostgreSQL and the bench share the cores; so may other work',
        databaseUrl: database.url,
      }),
      inputs: { ordersPerRun, ticketsPerOrder: '1 or 2, alternately', idleSecondsBeforeEachRun: idleSeconds, targets },
      figures: baselineRoot ? figures : figures.change,
    });
  } finally {
    await cleanup.run();
  }
}

await main();
