// bench/analytics: `npm run bench:analytics`; see bench/README.md.
//
// A crowd on a public event page while its sale runs: 2,000 analytics beacons a second into
// `POST /a` (as navigator.sendBeacon sends them: text/plain JSON, each visitor with an address and a
// browser of its own, a tenth of them from a campaign link) during the flash sale's checkout
// (`orders.create` of a free ticket by signed-in buyers at 200 connections, each order confirmed by
// its email, rendered by the server's own workers). Runs alternate without and with beacons on the
// same server (without, with, without, with…), each on a sale of its own whose emails are all sent
// before the next run starts. The headline: checkout throughput with beacons over without (the
// goal: at least 0.95), the p95 of the orders in both, and the p95 of `POST /a`; then that every
// beacon answered 204 was written, and that the aggregation job counted them.
//   1. The single server (`npm start` with PostgreSQL): beacons and checkout in one Node process.
//   2. The topology (deploy/topology.ts) on a database of its own: HAProxy sends POST /a to a
//      collector process of its own, checkout to one web process; one worker sends the emails.
//
// Environment: BENCH_DATABASE_URL (the PostgreSQL server to make scratch databases on),
// BENCH_SECONDS (each run, 10), BENCH_PAIRS (without/with pairs, 2), BENCH_BEACONS_PER_SECOND (2000),
// BENCH_EMAIL_WAIT_SECONDS (240), BENCH_PARTS (single,topology), BENCH_LABEL.
import pg from 'pg';
import { confirmations, newSale, timedRun, warmUp, type Run, type Target, type TimedRun } from '../flash-sale/runs';
import { cleanupOnExit } from '../support/cleanup';
import { runLoad, type LoadResult } from '../support/http-load';
import { checkInvariants } from '../support/invariants';
import { loadAverage, machine } from '../support/machine';
import { adminDatabaseUrl, numberOption, textOption } from '../support/options';
import { createOrganization, createPeople, inTurn } from '../support/people';
import { writeResult } from '../support/results';
import { createScratchDatabase } from '../support/scratch-database';
import { benchAuthSecret, benchLimits, startServer } from '../support/server';
import { startTopology, stoppedCleanly } from '../../deploy/topology';
import { asBrowser } from '../support/sign-in';
import { round } from '../support/stats';
import type { SaleEvent } from '../support/sale-event';
import { orderRequest } from '../support/sale-event';

const seconds = numberOption('BENCH_SECONDS', 10);
const pairs = numberOption('BENCH_PAIRS', 2);
const beaconsPerSecond = numberOption('BENCH_BEACONS_PER_SECOND', 2_000);
/** Each run's emails are all sent before the next run starts, so that none slows another run. */
const emailWaitSeconds = numberOption('BENCH_EMAIL_WAIT_SECONDS', 240);
const label = textOption('BENCH_LABEL');
const allParts = ['single', 'topology'];
const parts = new Set((textOption('BENCH_PARTS') ?? allParts.join(',')).split(','));
for (const part of parts) if (!allParts.includes(part)) throw new Error(`BENCH_PARTS: no part ${part} (${allParts.join(', ')})`);
const concurrency = 200;
const beaconConnections = 50;
const goal = { ratio: 0.95 };
/** Counted into daily rows this often during the runs, instead of every minute: the job's cost is in the runs. */
const aggregateSeconds = 5;

const chromeOn = (platform: string) =>
  `Mozilla/5.0 (${platform}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36`;
const platforms = ['Linux; Android 14; Pixel 8', 'iPhone; CPU iPhone OS 18_1 like Mac OS X', 'Windows NT 10.0; Win64; x64'];

/** The next beacon: a visitor of the crowd (one of 50,000 addresses), most viewing, some further down the funnel. */
function beaconOf(eventId: string) {
  let n = 0;
  return () => {
    n += 1;
    const visitor = n % 50_000;
    const step = n % 10 < 7 ? 'view' : n % 10 < 9 ? 'tickets' : 'checkout';
    const fromCampaign = visitor % 10 === 0;
    return {
      method: 'POST' as const,
      path: '/a',
      headers: {
        'content-type': 'text/plain;charset=UTF-8',
        'user-agent': chromeOn(platforms[visitor % platforms.length]!),
        'x-forwarded-for': `10.${(visitor >> 16) & 255}.${(visitor >> 8) & 255}.${visitor & 255}`,
      },
      body: JSON.stringify({
        eventId,
        step,
        ...(step === 'view' ? { referrer: fromCampaign ? 'https://www.instagram.com/' : 'https://news.example.org/a/1' } : {}),
        ...(step === 'view' && fromCampaign ? { utm: { source: 'instagram', campaign: 'launch' } } : {}),
      }),
    };
  };
}

interface Measured {
  withBeacons: boolean;
  orders: TimedRun;
  beacons?: Pick<LoadResult, 'responses' | 'statuses' | 'latencyMs' | 'transportErrors'> & { perSecond: number };
  emails: Awaited<ReturnType<typeof confirmations>>;
}

/** The people and the state of one part's runs, on its own database, against `target`. */
async function preparePart(databaseUrl: string, url: string, cleanup: ReturnType<typeof cleanupOnExit>): Promise<Run> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  cleanup.add('close the pool', () => pool.end());
  const { organizer, organizationId } = await createOrganization(url, databaseUrl, 'Bench Harbour Nights');
  const buyers = await createPeople(databaseUrl, 8_000, 'buyer', { mail: 'deliverable' });
  return { databaseUrl, pool, organizer, organizationId, buyers, nextBuyer: inTurn(buyers), emailWaitSeconds, saleEvents: [] };
}

/**
 * Runs without and with the crowd in turn, each on a sale of its own whose emails are all sent
 * before the next, and the checks after them: every beacon answered is written and counted.
 */
async function alternate(run: Run, target: Target, part: string) {
  await warmUp(run, target, await newSale(run, target.url, 'Warm-up', 1_000_000));
  const runs: Measured[] = [];
  for (let index = 1; index <= pairs * 2; index++) {
    const withBeacons = index % 2 === 0;
    const sale: SaleEvent = await newSale(
      run,
      target.url,
      `Sale ${index} ${withBeacons ? 'with' : 'without'} beacons`,
      1_000_000,
    );
    const crowd = withBeacons
      ? runLoad({
          url: target.url,
          connections: beaconConnections,
          seconds,
          overallRate: beaconsPerSecond,
          next: beaconOf(sale.eventId),
        })
      : undefined;
    const orders = await timedRun(run, target, concurrency, seconds, () => orderRequest(sale, run.nextBuyer(), target.signIn));
    const beacons = await crowd;
    const emails = await confirmations(run, `${part} run ${index}`, [sale.eventId], orders.lastOrderAnswerAt, {});
    const measured: Measured = {
      withBeacons,
      orders,
      emails,
      ...(beacons
        ? {
            beacons: {
              responses: beacons.responses,
              perSecond: Math.round(beacons.responses / beacons.seconds),
              statuses: beacons.statuses,
              latencyMs: beacons.latencyMs,
              transportErrors: beacons.transportErrors,
            },
          }
        : {}),
    };
    console.log(
      `${part} run ${index} ${withBeacons ? 'with' : 'without'} beacons: ${orders.perSecond} orders/s, p95 ${orders.latencyMs.p95} ms` +
        (beacons
          ? `; ${measured.beacons!.perSecond} beacons/s, POST /a p95 ${beacons.latencyMs.p95} ms, ${JSON.stringify(beacons.statuses)}`
          : '') +
        `\n  CPU (cores): ${JSON.stringify(orders.cpu)}`,
    );
    runs.push(measured);
  }

  // Every beacon answered 204 is written within a second or two, and counted by the job.
  const answered = runs.reduce((sum, one) => sum + (one.beacons?.statuses['204'] ?? 0), 0);
  const count = async (query: string) => Number((await run.pool.query(query)).rows[0].n as number);
  let rows = 0;
  for (let waited = 0; waited < 20 && (rows = await count('select count(*)::int as n from analytics_event')) < answered; waited++)
    await new Promise((resolve) => setTimeout(resolve, 500));
  let counted = 0;
  for (let waited = 0; waited < 40; waited++) {
    counted = await count('select coalesce(sum(hits), 0)::int as n from analytics_daily');
    if (counted >= rows) break;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }

  const without = runs.filter((one) => !one.withBeacons);
  const withBeacons = runs.filter((one) => one.withBeacons);
  const mean = (values: number[]) => round(values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length));
  const ordersPerSecondWithout = mean(without.map((one) => one.orders.perSecond));
  const ordersPerSecondWith = mean(withBeacons.map((one) => one.orders.perSecond));
  const ratio = round(ordersPerSecondWith / Math.max(1, ordersPerSecondWithout));
  const headline = {
    ordersPerSecondWithout,
    ordersPerSecondWith,
    ratio,
    ordersP95MsWithout: mean(without.map((one) => one.orders.latencyMs.p95)),
    ordersP95MsWith: mean(withBeacons.map((one) => one.orders.latencyMs.p95)),
    beaconsPerSecond: mean(withBeacons.map((one) => one.beacons!.perSecond)),
    beaconP50Ms: mean(withBeacons.map((one) => one.beacons!.latencyMs.p50)),
    beaconP95Ms: mean(withBeacons.map((one) => one.beacons!.latencyMs.p95)),
    beaconP99Ms: mean(withBeacons.map((one) => one.beacons!.latencyMs.p99)),
    beaconsAnswered204: answered,
    beaconRowsWritten: rows,
    beaconHitsCounted: counted,
    meets: { ratio: ratio >= goal.ratio },
  };
  console.log(`${part} headline: ${JSON.stringify(headline)}`);
  const invariants = await checkInvariants(run.pool);
  const failures: string[] = [];
  if (!invariants.hold) failures.push(`${part}: invariants violated`);
  // At least: a beacon under way when the load stopped is written, but not counted as answered.
  if (rows < answered) failures.push(`${part}: ${answered} beacons answered 204, ${rows} written`);
  if (counted !== rows) failures.push(`${part}: ${rows} beacons written, ${counted} counted into daily rows`);
  for (const one of runs) {
    if (one.emails.lost > 0) failures.push(`${part}: ${one.emails.lost} confirmation emails lost`);
    if (one.emails.duplicates > 0) failures.push(`${part}: ${one.emails.duplicates} confirmation emails sent twice`);
  }
  return { headline, runs, invariants, failures };
}

async function main() {
  const loadAverageAtStart = loadAverage();
  const cleanup = cleanupOnExit();
  const figures: Record<string, unknown> = {};
  const failures: string[] = [];
  try {
    const database = await createScratchDatabase(adminDatabaseUrl());
    cleanup.add('drop the scratch database', () => database.drop());
    if (parts.has('single')) {
      const server = await startServer({
        env: { DATABASE_URL: database.url, TRUST_PROXY: 'true', ANALYTICS_AGGREGATE_SECONDS: String(aggregateSeconds) },
      });
      cleanup.add('stop the server', () => server.stop());
      console.log(`analytics: server pid ${server.process.pid} at ${server.url}, database ${database.name}`);
      const run = await preparePart(database.url, server.url, cleanup);
      const single: Target = {
        url: server.url,
        signIn: asBrowser({ origin: server.publicUrl, forwardedFor: true }),
        processes: () => ({ server: [server.process.pid!] }),
      };
      const part = await alternate(run, single, 'single server');
      figures.singleServer = part;
      failures.push(...part.failures);
      await server.stop();
    }
    if (parts.has('topology')) {
      const topologyDatabase = await createScratchDatabase(adminDatabaseUrl());
      cleanup.add('drop the topology database', () => topologyDatabase.drop());
      const topology = await startTopology({
        databaseUrl: topologyDatabase.url,
        web: 1,
        workers: 1,
        collectors: 1,
        authSecret: benchAuthSecret,
        trustForwardedForFrom: '127.0.0.1',
        env: { ...benchLimits, ANALYTICS_AGGREGATE_SECONDS: String(aggregateSeconds) },
        log: (line) => console.log(`topology: ${line}`),
      });
      let stopped = false;
      cleanup.add('stop the topology', async () => {
        if (!stopped) await topology.stop();
      });
      const run = await preparePart(topologyDatabase.url, topology.url, cleanup);
      const target: Target = {
        url: topology.url,
        signIn: asBrowser({ origin: topology.publicUrl, forwardedFor: true }),
        processes: () => topology.pids(),
      };
      const part = await alternate(run, target, 'topology');
      stopped = true;
      const exits = await topology.stop();
      const clean = exits.every((exit) => stoppedCleanly(exit));
      if (!clean) part.failures.push('topology: a process did not stop cleanly');
      figures.topology = { ...part, stop: { exits, clean } };
      failures.push(...part.failures);
    }
    figures.failures = failures;
    writeResult('analytics', {
      label,
      machine: await machine({
        loadAverageAtStart,
        note: 'the server, PostgreSQL and both load generators (orders, beacons) share these cores',
        databaseUrl: database.url,
      }),
      inputs: {
        parts: [...parts],
        seconds,
        pairs,
        order: 'without, with, without, with…; each run on a sale of its own, its emails all sent before the next',
        checkout: `orders.create of one free ticket at ${concurrency} connections, signed in as browsers, each confirmed by email`,
        beacons: `${beaconsPerSecond}/s at ${beaconConnections} connections: text/plain JSON as sendBeacon sends it, 50,000 visitors (address and browser), 70% views, 20% tickets chosen, 10% checkout; a tenth of views from a campaign`,
        topology: 'HAProxy, PgBouncer, 1 web process, 1 collector process for POST /a, 1 worker',
        aggregateSeconds,
        target: goal,
      },
      figures,
    });
    if (failures.length > 0) {
      console.log(`FAILED:\n  ${failures.join('\n  ')}`);
      process.exitCode = 1;
    }
  } finally {
    await cleanup.run();
  }
}

await main();
