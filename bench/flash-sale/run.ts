// bench/flash-sale: `npm run bench:flash-sale`; see bench/README.md.
//
// A real on-sale against Admit on scratch PostgreSQL databases, over HTTP through
// `POST /fn/orders.create`, by buyers signed in as browsers are (Better Auth's signed session cookie,
// the page's Origin, an address of their own), each having opened the page first (one
// GET /api/auth/get-session). A free order is complete at once (paid, its ticket issued), and its
// confirmation email (HTML, text, a QR code per ticket, the tickets' PDF) is rendered by a job and
// stored in the dev outbox: the runs wait for the emails and check one per order.
//   1. The single server (apps/server/src/main.ts, jobs in-process; single-server.ts): the raw hot
//      row; the throughput on one hot free ticket type at 200 connections, then its emails, then at
//      the pool's 20; the floors; paid holds; scenarios A and B (2,000 buyers for 100 seats, 10,000
//      for 1,000); the emails of every order of the part.
//   2. The SQL baseline (sql-baseline.ts): the same order as one hand-written statement, from 200
//      callers over a pool of 20, as long as the throughput run. The headline is the server's rate over it.
//   3. The topology (topology-runs.ts, deploy/topology.ts) on a database of its own: HAProxy,
//      PgBouncer, web processes with separate workers; a sale during which a web process and a
//      worker are killed (kill-sale.ts); the throughput with 1, 2 and 4 web processes.
// The data invariants after every scenario.
//
// Environment (bench/README.md lists them with their defaults): BENCH_DATABASE_URL, BENCH_SECONDS,
// BENCH_TOPOLOGY_SECONDS, BENCH_WEB_PROCESSES, BENCH_WORKERS, BENCH_KILL_SECONDS, BENCH_KILL_SEATS,
// BENCH_KILL_JOB_EXPIRE_SECONDS, BENCH_EMAIL_WAIT_SECONDS, BENCH_PART_EMAIL_WAIT_SECONDS,
// BENCH_PARTS, BENCH_PROFILE, BENCH_SERVER_ROOT, BENCH_LABEL.
import pg from 'pg';
import { cleanupOnExit } from '../support/cleanup';
import { checkInvariants } from '../support/invariants';
import { loadAverage, machine } from '../support/machine';
import { adminDatabaseUrl, flagOption, numberOption, repositoryRoot, serverRootOption, textOption } from '../support/options';
import { createOrganization, createPeople, inTurn } from '../support/people';
import { writeResult } from '../support/results';
import { createScratchDatabase } from '../support/scratch-database';
import { serverProfiler } from '../support/server-profiler';
import { startServer } from '../support/server';
import { asBrowser } from '../support/sign-in';
import { round } from '../support/stats';
import { buyersOpenTheirPages, emailsOfThePart, flashSale, newSale, type Run, type Target } from './runs';
import { floors, paidHolds, rawHotRow, scenarios, throughput } from './single-server';
import { sqlBaseline } from './sql-baseline';
import { topologyRuns } from './topology-runs';

const seconds = numberOption('BENCH_SECONDS', 15);
const shortSeconds = Math.min(seconds, 8);
const topologySeconds = numberOption('BENCH_TOPOLOGY_SECONDS', 10);
const webProcesses = (textOption('BENCH_WEB_PROCESSES') ?? '1,2,4').split(',').map(Number);
const workers = numberOption('BENCH_WORKERS', 2);
const killSeconds = numberOption('BENCH_KILL_SECONDS', 10);
const killSeats = numberOption('BENCH_KILL_SEATS', 600);
const killJobExpireSeconds = numberOption('BENCH_KILL_JOB_EXPIRE_SECONDS', 20);
/** After the main throughput run, and after the kill sale: twice the 60 s target, so a miss is measured, not just seen. */
const emailWaitSeconds = numberOption('BENCH_EMAIL_WAIT_SECONDS', 120);
/** At the end of each part, for the emails of all its orders. */
const partEmailWaitSeconds = numberOption('BENCH_PART_EMAIL_WAIT_SECONDS', 30);
const allParts = ['scenarios', 'hotrow', 'throughput', 'floors', 'holds', 'baseline', 'topology', 'kill'];
const parts = new Set((textOption('BENCH_PARTS') ?? allParts.join(',')).split(','));
for (const part of parts) if (!allParts.includes(part)) throw new Error(`BENCH_PARTS: no part ${part} (${allParts.join(', ')})`);
const profiling = flagOption('BENCH_PROFILE');
const serverRoot = serverRootOption();
const label = textOption('BENCH_LABEL');
const concurrency = 200;
/** The server's PostgreSQL pool: DATABASE_POOL_SIZE's default (platform/config.ts). */
const serverPoolSize = 20;
const targets = { ordersPerSecond: 1_000, p95Ms: 250, ratioToSqlBaseline: 0.8, emailsWithinSeconds: 60 };

const inputs = {
  scenarios,
  concurrency,
  seconds,
  shortSeconds,
  topologySeconds,
  webProcesses,
  workers,
  killSeconds,
  killSeats,
  killJobExpireSeconds,
  emailWaitSeconds,
  partEmailWaitSeconds,
  parts: [...parts],
  serverPoolSize,
  targets,
  profiling,
  loadTool:
    'autocannon in the bench process (the kill scenario: node:http, to follow each request); the server in its own process',
  orderBody: '{"data":{"eventId","lines":[{"ticketTypeId","quantity":1}],"idempotencyKey":<uuid>}}',
  signIn:
    "a browser's: Cookie better-auth.session_token=<token>.<HMAC-SHA256 of it with AUTH_SECRET, base64>, URL-encoded; the page's Origin; " +
    "the buyer's own address in X-Forwarded-For (TRUST_PROXY=true). Users and sessions written to the database; each buyer's page opened first (GET /api/auth/get-session)",
  buyers:
    'deliverable addresses (@bench.example.com): every order gets its confirmation email, rendered and stored in the dev outbox',
};
const note = 'the server, PostgreSQL and the load generator share these cores, and so does any other work (cpu.otherCores)';

async function main() {
  const loadAverageAtStart = loadAverage();
  const startedAt = performance.now();
  const partSeconds: Record<string, number> = {};
  let partStart = startedAt;
  /** Ends the part named: its seconds go into the result, so a long run shows where the time went. */
  const partDone = (name: string) => {
    partSeconds[name] = round((performance.now() - partStart) / 1000, 1);
    partStart = performance.now();
    console.log(`-- ${name}: ${partSeconds[name]} s (${round((performance.now() - startedAt) / 1000, 0)} s in all)`);
  };
  const cleanup = cleanupOnExit();
  try {
    const database = await createScratchDatabase(adminDatabaseUrl());
    cleanup.add('drop the scratch database', () => database.drop());
    const profiler = profiling ? serverProfiler() : undefined;
    if (profiler) cleanup.add('remove the profile', () => profiler.remove());
    // TRUST_PROXY: the benchmark stands in for the load balancer, each buyer with an address of its own.
    const server = await startServer({
      env: { DATABASE_URL: database.url, TRUST_PROXY: 'true', ...profiler?.env },
      root: serverRoot,
    });
    cleanup.add('stop the server', () => server.stop());
    const pool = new pg.Pool({ connectionString: database.url, max: 3 });
    cleanup.add('close the pool', () => pool.end());
    console.log(`flash-sale: server pid ${server.process.pid} at ${server.url}, database ${database.name}`);
    const { organizer, organizationId } = await createOrganization(server.url, database.url, 'Bench Night Owls');
    const buyers = await createPeople(database.url, Math.max(...scenarios.map((s) => s.buyers)), 'buyer', {
      mail: 'deliverable',
    });
    const run: Run = {
      databaseUrl: database.url,
      pool,
      organizer,
      organizationId,
      buyers,
      nextBuyer: inTurn(buyers),
      emailWaitSeconds,
      saleEvents: [],
    };
    const single: Target = {
      url: server.url,
      signIn: asBrowser({ origin: server.publicUrl, forwardedFor: true }),
      processes: () => ({ server: [server.process.pid!] }),
    };
    const save = async (figures: object, extraInputs: object = {}) =>
      writeResult(
        'flash-sale',
        {
          label,
          serverCode: serverRoot === repositoryRoot ? undefined : serverRoot,
          machine: await machine({ loadAverageAtStart, note, databaseUrl: database.url }),
          inputs: { ...inputs, ...extraInputs },
          figures,
        },
        serverRoot,
      );

    const ordering = ['throughput', 'floors', 'holds', 'scenarios'].some((part) => parts.has(part)) || profiling;
    const figures: Record<string, unknown> = { pagesOpened: ordering ? await buyersOpenTheirPages(single, buyers) : undefined };
    if (profiler && parts.has('holds') && !parts.has('throughput')) {
      // BENCH_PARTS=holds with BENCH_PROFILE: the paid holds run under the profiler instead.
      figures.paidHolds = await paidHolds(run, single, shortSeconds, { profiler, server });
      await save(figures, { note: 'server under the V8 CPU profiler during the paid holds run only' });
      return;
    }
    if (profiler) {
      const hot = await newSale(run, server.url, 'Hot ticket type', 1_000_000);
      figures.throughput = await throughput(run, single, { hot, seconds, rawRates: [], profiler, server });
      await save(figures, {
        note: 'server under the V8 CPU profiler (somewhat slower than without); the profile covers the timed run only',
      });
      return;
    }

    // Part 1: the single server. The main throughput run comes first, so that no email of another
    // run queues ahead of its own.
    const baselineSale = parts.has('baseline')
      ? await newSale(run, server.url, 'SQL baseline', 1_000_000, { emails: false })
      : undefined;
    const rawRates = parts.has('hotrow') ? await rawHotRow(run, server.url, shortSeconds) : [];
    if (rawRates.length > 0) figures.rawHotRow = rawRates;
    const main = parts.has('throughput')
      ? await throughput(run, single, {
          hot: await newSale(run, server.url, 'Hot ticket type', 1_000_000),
          seconds,
          shortSeconds,
          rawRates,
          poolSize: serverPoolSize,
        })
      : undefined;
    figures.throughput = main;
    const floorFigures = parts.has('floors') ? await floors(run, single, shortSeconds, buyers[0]!) : undefined;
    figures.floors = floorFigures;
    if (parts.has('holds')) figures.paidHolds = await paidHolds(run, single, shortSeconds);
    if (parts.has('scenarios')) {
      const scenarioFigures = [];
      for (const scenario of scenarios) scenarioFigures.push(await flashSale(run, single, scenario));
      figures.scenarios = scenarioFigures;
    }
    if (run.saleEvents.length > 0)
      figures.singleServerEmails = await emailsOfThePart(run, 'the single server part', partEmailWaitSeconds);
    // Stopped before the baseline: its in-process workers would take the baseline's jobs.
    await server.stop();
    figures.singleServerStop = { code: server.process.exitCode, signal: server.process.signalCode };
    partDone('single server');

    // Part 2: the SQL baseline, and the headline.
    const baseline = baselineSale
      ? await sqlBaseline(run, baselineSale, { callers: concurrency, poolSize: serverPoolSize, seconds })
      : undefined;
    figures.sqlBaseline = baseline;
    if (main && baseline) {
      const ratio = main.perSecond / Math.max(1, baseline.perSecond);
      const signedIn = floorFigures?.callableSignedIn.perSecond;
      const lastEmailMs = main.emails.lastEmailAfterLastAnswerMs;
      figures.headline = {
        serverOrdersPerSecond: main.perSecond,
        serverP95Ms: main.latencyMs.p95,
        sqlBaselineOrdersPerSecond: baseline.perSecond,
        sqlBaselineP95Ms: baseline.latencyMs.p95,
        ratioToSqlBaseline: round(ratio),
        ratioToRawHotRow: main.ratioToRawHotRow,
        ratioToSignedInCall: signedIn ? round(main.perSecond / signedIn) : null,
        emails: main.emails.emails,
        emailsMissing: main.emails.missing,
        emailDuplicates: main.emails.duplicates,
        lastEmailAfterLastOrderMs: main.emails.missing === 0 ? lastEmailMs : null,
        meets: {
          ratioToSqlBaseline: ratio >= targets.ratioToSqlBaseline,
          p95: main.latencyMs.p95 <= targets.p95Ms,
          ordersPerSecond: main.perSecond >= targets.ordersPerSecond,
          emails: main.emails.withinTarget,
        },
      };
      console.log(`headline: ${JSON.stringify(figures.headline)}`);
    }
    partDone('SQL baseline');

    // Part 3: the topology, on a database of its own.
    if (parts.has('topology') || parts.has('kill')) {
      figures.topology = await topologyRuns({
        adminUrl: adminDatabaseUrl(),
        root: serverRoot,
        webProcesses: parts.has('topology') ? webProcesses : [],
        workers,
        seconds: topologySeconds,
        kill: parts.has('kill') ? { seconds: killSeconds, seats: killSeats, jobExpireSeconds: killJobExpireSeconds } : undefined,
        emailWaitSeconds,
        partEmailWaitSeconds,
        cleanup,
      });
      partDone('topology');
    }
    const invariants = await checkInvariants(pool);
    figures.invariants = invariants;
    const failures = failuresOf(figures);
    figures.failures = failures;
    figures.seconds = { ...partSeconds, all: round((performance.now() - startedAt) / 1000, 1) };
    await save(figures);
    if (failures.length > 0) {
      console.log(`FAILED:\n  ${failures.join('\n  ')}`);
      process.exitCode = 1;
    }
  } finally {
    await cleanup.run();
  }
}

/**
 * What must never happen, whatever the speed: a place sold twice, a broken invariant, an order lost
 * or doubled, an email lost or sent twice, a process that did not stop cleanly. (Missed speed
 * targets are in the figures, not here.)
 */
function failuresOf(figures: Record<string, unknown>): string[] {
  const failures: string[] = [];
  const visit = (value: unknown, path: string) => {
    if (Array.isArray(value)) return value.forEach((item, index) => visit(item, `${path}[${index}]`));
    if (typeof value !== 'object' || value === null) return;
    const record = value as Record<string, unknown>;
    for (const name of ['oversold', 'duplicates', 'lost', 'strays', 'lostOrders', 'doubledOrders', 'ordersWithoutAnswer'])
      if (typeof record[name] === 'number' && record[name] > 0) failures.push(`${path}.${name} = ${String(record[name])}`);
    if (record.hold === false) failures.push(`${path}: invariants violated`);
    if (record.clean === false) failures.push(`${path}: a process did not stop cleanly`);
    for (const [key, child] of Object.entries(record)) if (typeof child === 'object') visit(child, path ? `${path}.${key}` : key);
  };
  visit(figures, '');
  return failures;
}

await main();
