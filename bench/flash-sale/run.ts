// bench/flash-sale (issue 4, DESIGN §8): `npm run bench:flash-sale`; see bench/README.md.
//
// The real server (apps/server/src/main.ts, spawned the way the browser journeys start it) on a
// scratch PostgreSQL database, driven over HTTP by autocannon through `POST /fn/orders.create`:
//   A. 2,000 buyers at once for 100 seats, B. 10,000 for 1,000: zero oversold, invariants hold;
//   throughput: completed orders/s on one hot ticket type and p50/p95/p99 at 200 connections,
//   next to the raw SQL rate of that hot row measured in the same run, the floors of a signed-in
//   call and of plain HTTP, and where the CPU and the database sessions' time went.
// Free tickets complete at once (status paid, ticket issued): they are the "completed orders".
// Paid tickets only become pending holds here (paying needs the payment step): measured apart.
//
// Environment: BENCH_DATABASE_URL (an admin URL; default postgres://postgres@127.0.0.1:5432/postgres),
// BENCH_SECONDS (length of the main timed run, default 15), BENCH_PROFILE=1 (only the throughput run,
// with the server under V8's CPU profiler, see cpu-profile.mjs; writes bench/results/flash-sale-profile.json instead).
import { execSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { setTimeout } from 'node:timers/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Db } from '../../apps/server/src/platform/db/database';
import { dataInvariantViolations } from '../../apps/server/src/testing/invariants';
import { startAdmit, type AdmitServer } from '../../e2e/support/admit-server';
import {
  cpuBetween,
  listenOverflows,
  measureHotRow,
  runLoad,
  sampleCpu,
  sampleSessions,
  type HotRowRate,
  type LoadRequest,
  type LoadResult,
} from './measure';
import { summarizeCpuProfile } from './profile';
import { call, createPeople, createSaleEvent, createScratchDatabase, type Person, type SaleEvent } from './setup';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const seconds = Number(process.env.BENCH_SECONDS ?? 15);
const shortSeconds = Math.min(seconds, 8);
const profiling = process.env.BENCH_PROFILE === '1';
const concurrency = 200;
const targets = { ordersPerSecond: 1_000, p95Ms: 250 };
const scenarios = [
  { name: 'A', buyers: 2_000, seats: 100 },
  { name: 'B', buyers: 10_000, seats: 1_000 },
];
const hotRowClients = [1, 20, 200];
/** The server's PostgreSQL pool: openPostgres's default in platform/db/database.ts (main.ts passes none). */
const serverPoolSize = 20;

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;
const perSecond = (count: number, result: LoadResult) => Math.round(count / result.seconds);

interface Run {
  url: string;
  server: AdmitServer;
  databaseUrl: string;
  pool: pg.Pool;
  organizer: Person;
  organizationId: string;
  buyers: Person[];
}

function orderRequest(sale: SaleEvent, buyer: Person): LoadRequest {
  return {
    method: 'POST',
    path: '/fn/orders.create',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${buyer.token}` },
    body: JSON.stringify({
      data: { eventId: sale.eventId, lines: [{ ticketTypeId: sale.ticketTypeId, quantity: 1 }], idempotencyKey: randomUUID() },
    }),
  };
}

/** Buyers in turn, from the first; wraps around (in the timed runs a buyer may order more than once). */
function inTurn(buyers: Person[]) {
  let next = 0;
  return () => buyers[next++ % buyers.length]!;
}

const newSale = (run: Run, title: string, capacity: number, price = 0, publish = true) =>
  createSaleEvent(run.url, run.organizer, run.organizationId, { title, capacity, price, publish });

/** Every buyer at once, one order each, for fewer seats than buyers. */
async function flashSale(run: Run, scenario: (typeof scenarios)[number]) {
  const sale = await newSale(run, `Flash sale ${scenario.name}`, scenario.seats);
  const nextBuyer = inTurn(run.buyers.slice(0, scenario.buyers));
  const overflowsBefore = listenOverflows();
  const load = await runLoad({
    url: run.url,
    connections: scenario.buyers,
    amount: scenario.buyers,
    next: () => orderRequest(sale, nextBuyer()),
    sampleErrors: true,
  });
  const { rows } = await run.pool.query<{ sold: number; held: number; tickets: number; paid_orders: number; buyers: number }>(
    `select tt.sold, tt.held,
       (select count(*)::int from ticket t where t.ticket_type_id = tt.id and t.status = 'valid') as tickets,
       (select count(*)::int from "order" o where o.event_id = tt.event_id and o.status = 'paid') as paid_orders,
       (select count(distinct o.buyer_id)::int from "order" o where o.event_id = tt.event_id) as buyers
     from ticket_type tt where tt.id = $1`,
    [sale.ticketTypeId],
  );
  const state = rows[0]!;
  const acceptQueueOverflows = listenOverflows() - overflowsBefore;
  const result = {
    ...scenario,
    seconds: round(load.seconds),
    responses: load.responses,
    statuses: load.statuses,
    completed: load.statuses['200'] ?? 0,
    soldOutAnswers: load.statuses['429'] ?? 0,
    transportErrors: load.transportErrors,
    transportErrorKinds: load.transportErrorKinds,
    stoppedByWatchdog: load.stoppedByWatchdog,
    /** Connections the kernel dropped meanwhile because the server's accept queue was full (machine-wide). */
    acceptQueueOverflows,
    latencyMs: load.latencyMs,
    sold: state.sold,
    validTickets: state.tickets,
    paidOrders: state.paid_orders,
    distinctBuyersWithOrders: state.buyers,
    oversold: Math.max(0, state.sold - scenario.seats, state.tickets - scenario.seats, state.paid_orders - scenario.seats),
    unsold: scenario.seats - state.sold,
    errorSamples: load.errorSamples,
  };
  console.log(
    `scenario ${scenario.name}: ${scenario.buyers} buyers for ${scenario.seats} seats, all answered in ${result.seconds} s: ` +
      `${result.completed} completed, ${result.soldOutAnswers} sold out (statuses ${JSON.stringify(load.statuses)}, ` +
      `transport errors ${JSON.stringify(load.transportErrorKinds)}, accept-queue overflows ${acceptQueueOverflows}); sold ${state.sold}, valid tickets ${state.tickets}, ` +
      `oversold ${result.oversold}, unsold ${result.unsold}; p50 ${load.latencyMs.p50} ms, p95 ${load.latencyMs.p95} ms, ` +
      `p99 ${load.latencyMs.p99} ms`,
  );
  return result;
}

/** The raw hot-row UPDATE on a ticket type of an unpublished event, reset to 0 sold after each run. */
async function rawHotRow(run: Run): Promise<HotRowRate[]> {
  const raw = await newSale(run, 'Raw hot row', 1_000_000, 0, false);
  const rates = [];
  for (const clients of hotRowClients) {
    const rate = await measureHotRow(run.databaseUrl, raw.ticketTypeId, clients, shortSeconds);
    await run.pool.query('update ticket_type set sold = 0 where id = $1', [raw.ticketTypeId]);
    rates.push(rate);
    console.log(
      `raw hot-row UPDATE: ${rate.tps} tps with ${rate.clients} clients` +
        (rate.clients < rate.clientsRequested ? ` (${rate.clientsRequested} asked; PostgreSQL's max_connections caps it)` : ''),
    );
  }
  return rates;
}

/** A timed run with the CPU used and the server's database sessions sampled alongside. */
async function timedRun(run: Run, connections: number, runSeconds: number, next: () => LoadRequest) {
  const sessions = sampleSessions(run.databaseUrl);
  const before = sampleCpu(run.server.process.pid!);
  const load = await runLoad({ url: run.url, connections, seconds: runSeconds, next });
  const cpu = cpuBetween(before, sampleCpu(run.server.process.pid!));
  const completed = load.statuses['200'] ?? 0;
  return {
    connections,
    seconds: round(load.seconds),
    completed,
    perSecond: perSecond(completed, load),
    latencyMs: load.latencyMs,
    statuses: load.statuses,
    transportErrors: load.transportErrors,
    cpu,
    serverCpuMsPerAnswer: round(((cpu.serverCores * load.seconds) / Math.max(1, load.responses)) * 1000),
    postgresCpuMsPerAnswer: round(((cpu.postgresCores * load.seconds) / Math.max(1, load.responses)) * 1000),
    /** Average number of the server's database sessions in each state · wait event. */
    databaseSessions: await sessions.stop(),
  };
}

function describe(label: string, result: Awaited<ReturnType<typeof timedRun>>) {
  console.log(
    `${label} at ${result.connections} connections: ${result.perSecond}/s (${result.completed} × 200 in ${result.seconds} s), ` +
      `p50 ${result.latencyMs.p50} ms, p95 ${result.latencyMs.p95} ms, p99 ${result.latencyMs.p99} ms; ` +
      `statuses ${JSON.stringify(result.statuses)}\n  CPU (cores): ${JSON.stringify(result.cpu)}; server ${result.serverCpuMsPerAnswer} ms ` +
      `and PostgreSQL ${result.postgresCpuMsPerAnswer} ms of CPU per answer\n  database sessions: ${JSON.stringify(result.databaseSessions)}`,
  );
}

/** Orders on one hot free ticket type: the throughput figure, at 200 connections and at the pool's 20. */
async function throughput(run: Run, rawRates: HotRowRate[]) {
  const hot = await newSale(run, 'Hot ticket type', 1_000_000);
  const nextBuyer = inTurn(run.buyers);
  const order = () => orderRequest(hot, nextBuyer());
  await runLoad({ url: run.url, connections: concurrency, seconds: 3, next: order }); // warm-up
  if (profiling) run.server.process.kill('SIGUSR2'); // cpu-profile.mjs: start
  const measured = await timedRun(run, concurrency, seconds, order);
  if (profiling) run.server.process.kill('SIGUSR2'); // and stop
  describe('orders.create (free)', measured);
  const ratioTo = (rate: HotRowRate | undefined) => (rate ? round(measured.perSecond / rate.tps) : null);
  const ratios = Object.fromEntries(rawRates.map((rate) => [`clients${rate.clients}`, ratioTo(rate)]));
  if (rawRates.length > 0) console.log(`  orders/s ÷ raw hot-row tps: ${JSON.stringify(ratios)}`);
  const atPoolSize = profiling ? null : await timedRun(run, serverPoolSize, shortSeconds, order);
  if (atPoolSize) describe('orders.create (free)', atPoolSize);
  return {
    ticketType: 'free (price 0): each 200 answer is a paid order with its ticket issued',
    ...measured,
    ratioToRawHotRow: ratios,
    atPoolSizeConnections: atPoolSize,
    meetsTarget: measured.perSecond >= targets.ordersPerSecond && measured.latencyMs.p95 <= targets.p95Ms,
  };
}

const answersPerSecond = (result: { statuses: Record<string, number>; seconds: number }) =>
  Math.round(Object.values(result.statuses).reduce((sum, count) => sum + count, 0) / result.seconds);

/**
 * The same server answering less than an order: plain HTTP, the callable protocol without a
 * session (401), and a signed-in call that reads one row (session lookup + one select, 404).
 */
async function floors(run: Run) {
  const buyer = run.buyers[0]!;
  const healthz = await timedRun(run, concurrency, shortSeconds, () => ({ method: 'GET', path: '/healthz' }));
  describe('GET /healthz (HTTP + one pooled select 1)', healthz);
  const signedOut = await timedRun(run, concurrency, shortSeconds, () => ({
    method: 'POST',
    path: '/fn/orders.cancel',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: { orderId: 'no-such-order' } }),
  }));
  const callableNoSession = { ...signedOut, perSecond: answersPerSecond(signedOut) };
  describe('callable without a session (orders.cancel → 401)', callableNoSession);
  const signedIn = await timedRun(run, concurrency, shortSeconds, () => ({
    method: 'POST',
    path: '/fn/orders.cancel',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${buyer.token}` },
    body: JSON.stringify({ data: { orderId: 'no-such-order' } }),
  }));
  // Its answer is 404 (no such order): count answers, not 200s.
  const callableSignedIn = { ...signedIn, perSecond: answersPerSecond(signedIn) };
  describe('signed-in call reading one row (orders.cancel of an unknown order → 404)', callableSignedIn);
  return { healthz, callableNoSession, callableSignedIn };
}

async function paidHolds(run: Run) {
  const sale = await newSale(run, 'Hot paid ticket type', 1_000_000, 2_500);
  const nextBuyer = inTurn(run.buyers);
  const holds = await timedRun(run, concurrency, shortSeconds, () => orderRequest(sale, nextBuyer()));
  describe('orders.create (paid → pending hold)', holds);
  return { ticketType: 'price 2500 (minor units): each 200 answer is a pending order holding its place', ...holds };
}

async function machine(pool: pg.Pool, loadAverageAtStart: number[]) {
  const settings = await pool.query<{ name: string; setting: string }>(
    `select name, setting from pg_settings
     where name in ('max_connections', 'shared_buffers', 'synchronous_commit', 'fsync', 'wal_sync_method', 'commit_delay')`,
  );
  const { rows } = await pool.query<{ version: string }>('select version()');
  return {
    cores: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memoryBytes: os.totalmem(),
    node: process.version,
    postgres: rows[0]!.version,
    postgresSettings: Object.fromEntries(settings.rows.map((row) => [row.name, row.setting])),
    loadAverageAtStart,
    loadAverageAtEnd: os.loadavg().map((value) => round(value)),
    note: 'the server, PostgreSQL and the load generator share these cores, and so does any other work (cpu.otherCores)',
  };
}

/** SIGTERM, and SIGKILL if the server has not exited 15 s later (a benchmark must not hang on it). */
async function stopServer(server: AdmitServer) {
  const stopped = server.stop();
  const exited = await Promise.race([stopped.then(() => true), setTimeout(15_000, false)]);
  if (!exited) server.process.kill('SIGKILL');
  await stopped;
}

function gitCommit(): string | undefined {
  try {
    return execSync('git rev-parse HEAD', { cwd: root, encoding: 'utf8' }).trim();
  } catch {
    return undefined;
  }
}

function writeResult(name: string, report: unknown) {
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  const file = path.join(root, 'bench/results', name);
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`wrote ${path.relative(root, file)}`);
}

async function main() {
  const loadAverageAtStart = os.loadavg().map((value) => round(value));
  const database = await createScratchDatabase(adminUrl);
  const profileDir = profiling ? mkdtempSync(path.join(os.tmpdir(), 'admit-bench-profile-')) : undefined;
  const server = await startAdmit({
    DATABASE_URL: database.url,
    HOST: '127.0.0.1',
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
    LOG_LEVEL: 'warn',
    ...(profileDir
      ? {
          NODE_OPTIONS: `--import=${path.join(root, 'bench/flash-sale/cpu-profile.mjs')}`,
          BENCH_CPU_PROFILE_FILE: path.join(profileDir, 'server.cpuprofile'),
        }
      : {}),
  });
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  // autocannon throws some errors outside any promise: stop the server and drop the database anyway.
  process.once('uncaughtException', (error) => {
    console.error(error);
    void Promise.allSettled([stopServer(server), pool.end()])
      .then(() => database.drop())
      .finally(() => process.exit(1));
  });
  try {
    // main.ts prints PUBLIC_URL (localhost); connect to the address it listens on.
    const url = `http://127.0.0.1:${new URL(server.url).port}`;
    console.log(`flash-sale: server pid ${server.process.pid} at ${url}, database ${database.name}`);
    const [organizer] = await createPeople(database.url, 1, 'organizer');
    const buyers = await createPeople(database.url, Math.max(...scenarios.map((s) => s.buyers)), 'buyer');
    const { organizationId } = await call<{ organizationId: string }>(url, organizer!.token, 'orgs.create', {
      name: 'Bench Night Owls',
    });
    const run: Run = { url, server, databaseUrl: database.url, pool, organizer: organizer!, organizationId, buyers };

    if (profiling) {
      const measured = await throughput(run, []);
      const profileFile = path.join(profileDir!, 'server.cpuprofile');
      for (let waited = 0; !existsSync(profileFile) && waited < 30_000; waited += 200) await setTimeout(200);
      const summary = summarizeCpuProfile(profileFile);
      console.log(JSON.stringify(summary, null, 2));
      writeResult('flash-sale-profile.json', {
        benchmark: 'flash-sale (profile)',
        date: new Date().toISOString(),
        commit: gitCommit(),
        machine: await machine(pool, loadAverageAtStart),
        note: 'server under the V8 CPU profiler (somewhat slower than without); the profile covers the timed run only',
        throughput: measured,
        profile: summary,
      });
      return;
    }

    const scenarioFigures = [];
    for (const scenario of scenarios) scenarioFigures.push(await flashSale(run, scenario));
    const rawRates = await rawHotRow(run);
    const figures = {
      scenarios: scenarioFigures,
      rawHotRow: rawRates,
      throughput: await throughput(run, rawRates),
      floors: await floors(run),
      paidHolds: await paidHolds(run),
      invariants: { violations: [] as string[], hold: true },
    };
    const violations = await dataInvariantViolations(drizzle(pool) as unknown as Db);
    figures.invariants = { violations, hold: violations.length === 0 };
    console.log(violations.length === 0 ? 'invariants: all hold' : `invariants VIOLATED:\n  ${violations.join('\n  ')}`);

    writeResult('flash-sale.json', {
      benchmark: 'flash-sale',
      date: new Date().toISOString(),
      commit: gitCommit(),
      machine: await machine(pool, loadAverageAtStart),
      inputs: {
        scenarios,
        concurrency,
        seconds,
        shortSeconds,
        hotRowClients,
        serverPoolSize,
        targets,
        loadTool: 'autocannon, in the bench process; the server is apps/server/src/main.ts in its own process',
        orderBody: '{"data":{"eventId","lines":[{"ticketTypeId","quantity":1}],"idempotencyKey":<uuid>}}',
        auth: 'Authorization: Bearer <session token>; users and sessions written directly to the database',
      },
      figures,
    });
    if (scenarioFigures.some((s) => s.oversold > 0) || violations.length > 0) process.exitCode = 1;
  } finally {
    await pool.end();
    await stopServer(server);
    await database.drop();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  }
}

await main();
