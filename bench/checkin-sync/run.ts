// bench/checkin-sync: `npm run bench:checkin-sync`; see bench/README.md.
//
// The real server (apps/server/src/main.ts in its own process) on a scratch PostgreSQL database; one
// event with 1,800 free tickets issued through `orders.create`; four door devices, each signed in as
// a staff member with a queue of 500 scans made offline (own idempotency key and scan time each);
// 200 of the 2,000 scans are planted second scans of a ticket another door also scanned. Then the
// four sync at once, each sending its queue in order over HTTP as the browser does on reconnect
// (`POST /fn/checkin.scanBatch`, or with BENCH_BATCH=0 `POST /fn/checkin.scan` one scan after another):
//   - time to sync all 2,000 (target ≤ 5 s), scans/s, per-request latency p50/p95/p99;
//   - checks: each ticket admitted at most once, duplicates flagged = duplicates planted, no scan
//     lost, every scan's time kept; a re-upload of every queue (same keys) changes nothing and gets
//     the same answers; the data invariants hold;
//   - where the time goes: the same four serial streams of a signed-in call that reads one row (the
//     floor of HTTP + session lookup), CPU by process, the server's database sessions' states, and
//     with BENCH_PROFILE=1 a CPU profile of the server during the sync.
//
// Environment: BENCH_DATABASE_URL (admin URL; default postgres://postgres@127.0.0.1:5432/postgres),
// BENCH_SERVER_ROOT (run the server from another checkout, e.g. a scratch copy with a proposed
// change), BENCH_BATCH=<n> (scans per `checkin.scanBatch` call, default 500; 0 sends one
// `checkin.scan` call per scan), BENCH_PROFILE=1, BENCH_LABEL (a name for the run, kept in its result).
import type { ScanOutput } from '@admit/shared/checkin';
import pg from 'pg';
import { post } from '../support/callable';
import { cleanupOnExit } from '../support/cleanup';
import { cpuBetween, sampleCpu } from '../support/cpu';
import { sampleSessions } from '../support/database-sessions';
import { checkInvariants } from '../support/invariants';
import { loadAverage, machine } from '../support/machine';
import { adminDatabaseUrl, flagOption, numberOption, repositoryRoot, serverRootOption, textOption } from '../support/options';
import { addStaff, createOrganization, createPeople, type Person } from '../support/people';
import { writeResult } from '../support/results';
import { issueFreeTickets, maxPerOrder } from '../support/sale-event';
import { createScratchDatabase } from '../support/scratch-database';
import { serverProfiler } from '../support/server-profiler';
import { startServer, type RunningServer } from '../support/server';
import { percentiles, round } from '../support/stats';
import { planQueues, type Device, type DoorTicket } from './queues';

const serverRoot = serverRootOption();
// As the browser sends a queue on reconnect (features/checkin/offline-scans.ts); BENCH_BATCH=0 sends one call per scan.
const batchSize = numberOption('BENCH_BATCH', 500) || undefined;
const profiling = flagOption('BENCH_PROFILE');
const label = textOption('BENCH_LABEL');

const devices = 4;
const scansPerDevice = 500;
const plantedDuplicates = 200; // 10% of all scans
const tickets = devices * scansPerDevice - plantedDuplicates;
const setupConcurrency = 8;
const offlineMinutes = 40;
const seed = 5;
const targets = { syncSeconds: 5 };

interface Door {
  name: string;
  staff: Person;
  queue: Device['queue'];
}

interface Answered {
  key: string;
  status: number;
  answer?: ScanOutput;
  error?: unknown;
  ms: number;
}

/** One device's replay: every queued scan in order, the next only once the last was answered. */
async function replayQueue(url: string, door: Door): Promise<Answered[]> {
  const answers: Answered[] = [];
  if (batchSize) {
    for (let start = 0; start < door.queue.length; start += batchSize) {
      const chunk = door.queue.slice(start, start + batchSize);
      const sent = await post(url, door.staff, 'checkin.scanBatch', { scans: chunk.map((scan) => scan.input) });
      const results = (sent.body.result as { answers?: ScanOutput[] } | undefined)?.answers ?? [];
      chunk.forEach((scan, index) =>
        answers.push({
          key: scan.input.idempotencyKey,
          status: sent.status,
          answer: results[index],
          error: sent.body.error,
          ms: sent.ms,
        }),
      );
    }
    return answers;
  }
  for (const scan of door.queue) {
    const sent = await post(url, door.staff, 'checkin.scan', scan.input);
    answers.push({
      key: scan.input.idempotencyKey,
      status: sent.status,
      answer: sent.body.result as ScanOutput | undefined,
      error: sent.body.error,
      ms: sent.ms,
    });
  }
  return answers;
}

/** All doors at once, each serially; the wall time, per-request latency and where the CPU went. */
async function syncAll(run: { url: string; server: RunningServer; databaseUrl: string }, doors: Door[], what: string) {
  const sessions = sampleSessions(run.databaseUrl);
  const cpuBefore = sampleCpu(run.server.process.pid!);
  const started = performance.now();
  const perDoor = await Promise.all(doors.map((door) => replayQueue(run.url, door)));
  const seconds = (performance.now() - started) / 1000;
  const cpu = cpuBetween(cpuBefore, sampleCpu(run.server.process.pid!));
  const sessionStates = await sessions.stop();
  const answers = perDoor.flat();
  const requestMs = batchSize ? [...new Set(perDoor.flatMap((list) => list.map((one) => one.ms)))] : answers.map((one) => one.ms);
  const statuses: Record<string, number> = {};
  for (const one of answers) statuses[one.status] = (statuses[one.status] ?? 0) + 1;
  const result = {
    scans: answers.length,
    seconds: round(seconds, 3),
    scansPerSecond: Math.round(answers.length / seconds),
    perDoorSeconds: perDoor.map((list) => round(list.reduce((sum, one) => sum + (batchSize ? 0 : one.ms), 0) / 1000, 3)),
    statuses,
    latencyMs: percentiles(requestMs),
    latencyOf: batchSize ? `one checkin.scanBatch call of up to ${batchSize} scans` : 'one checkin.scan call',
    cpu,
    serverDatabaseSessions: sessionStates,
    errorSamples: answers
      .filter((one) => one.status !== 200)
      .slice(0, 3)
      .map((one) => JSON.stringify(one.error)),
  };
  console.log(
    `${what}: ${result.scans} scans from ${doors.length} devices in ${result.seconds} s (${result.scansPerSecond} scans/s), ` +
      `statuses ${JSON.stringify(statuses)}; per ${result.latencyOf}: p50 ${result.latencyMs.p50} ms, ` +
      `p95 ${result.latencyMs.p95} ms, p99 ${result.latencyMs.p99} ms; CPU cores: server ${cpu.serverCores}, ` +
      `PostgreSQL ${cpu.postgresCores}, bench ${cpu.loadGeneratorCores}, other ${cpu.otherCores}`,
  );
  return { result, answers };
}

/** The floor: the same four serial streams of a signed-in call that reads one row (orders.cancel of no order → 404). */
async function signedInFloor(url: string, doors: Door[]) {
  const latencies: number[] = [];
  const started = performance.now();
  await Promise.all(
    doors.map(async (door) => {
      for (let index = 0; index < scansPerDevice; index++) {
        const sent = await post(url, door.staff, 'orders.cancel', { orderId: 'no-such-order' });
        if (sent.status !== 404) throw new Error(`orders.cancel answered ${sent.status}`);
        latencies.push(sent.ms);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const floor = {
    calls: latencies.length,
    seconds: round(seconds, 3),
    callsPerSecond: Math.round(latencies.length / seconds),
    latencyMs: percentiles(latencies),
  };
  console.log(
    `floor (4 serial streams × ${scansPerDevice} signed-in orders.cancel → 404: HTTP + session + one select): ` +
      `${floor.seconds} s, ${floor.callsPerSecond} calls/s, p50 ${floor.latencyMs.p50} ms, p95 ${floor.latencyMs.p95} ms`,
  );
  return floor;
}

/** Every row the sync writes or changes: the check-in log of the event and its tickets' admissions. */
async function snapshot(pool: pg.Pool, eventId: string) {
  const checkIns = await pool.query(
    `select id, ticket_id, device, scanned_at, result, idempotency_key, undone_at, created_at
     from check_in where event_id = $1 order by idempotency_key`,
    [eventId],
  );
  const admissions = await pool.query(`select id, checked_in_at, checked_in_device from ticket where event_id = $1 order by id`, [
    eventId,
  ]);
  return JSON.stringify({ checkIns: checkIns.rows, admissions: admissions.rows });
}

async function check(pool: pg.Pool, eventId: string, doors: Door[], answers: Answered[]) {
  const queued = doors.flatMap((door) => door.queue);
  const { rows } = await pool.query<{
    rows: number;
    keys: number;
    accepted: number;
    duplicate: number;
    other: number;
    tickets_admitted_twice: number;
    tickets_admitted: number;
    tickets_checked_in: number;
  }>(
    `select count(*)::int as rows, count(distinct idempotency_key)::int as keys,
       count(*) filter (where result = 'accepted')::int as accepted,
       count(*) filter (where result = 'duplicate')::int as duplicate,
       count(*) filter (where result not in ('accepted', 'duplicate'))::int as other,
       (select count(*)::int from (select ticket_id from check_in where event_id = $1 and result = 'accepted'
          group by ticket_id having count(*) > 1) twice) as tickets_admitted_twice,
       count(distinct ticket_id) filter (where result = 'accepted')::int as tickets_admitted,
       (select count(*)::int from ticket where event_id = $1 and checked_in_at is not null) as tickets_checked_in
     from check_in where event_id = $1`,
    [eventId],
  );
  const counts = rows[0]!;
  const logged = await pool.query<{ idempotency_key: string; scanned_at: Date; device: string; ticket_id: string }>(
    `select idempotency_key, scanned_at, device, ticket_id from check_in where event_id = $1`,
    [eventId],
  );
  const byKey = new Map(logged.rows.map((row) => [row.idempotency_key, row]));
  const missing = queued.filter((scan) => !byKey.has(scan.input.idempotencyKey)).length;
  const wrongTimeOrPlace = queued.filter((scan) => {
    const row = byKey.get(scan.input.idempotencyKey);
    return (
      row &&
      (row.scanned_at.getTime() !== new Date(scan.input.scannedAt).getTime() ||
        row.device !== scan.input.device ||
        row.ticket_id !== scan.ticketId)
    );
  }).length;

  // Each planted pair: one admitted, one duplicate, from two devices; the duplicate names the admitting door.
  const answerByKey = new Map(answers.map((one) => [one.key, one.answer]));
  const scansByTicket = new Map<string, Device['queue']>();
  for (const scan of queued) scansByTicket.set(scan.ticketId, [...(scansByTicket.get(scan.ticketId) ?? []), scan]);
  const pairs = [...scansByTicket.values()].filter((scans) => scans.length === 2);
  const pairsResolved = pairs.filter((scans) => {
    const results = scans.map((scan) => answerByKey.get(scan.input.idempotencyKey));
    const admitted = scans.find((_, index) => results[index]?.result === 'accepted');
    const duplicate = results.find((result) => result?.result === 'duplicate');
    return admitted && duplicate && duplicate.firstCheckIn?.device === admitted.input.device;
  }).length;
  const answered = (result: string) => answers.filter((one) => one.answer?.result === result).length;

  const checks = {
    scansSent: queued.length,
    checkInRows: counts.rows,
    distinctKeys: counts.keys,
    scansMissing: missing,
    scansWithWrongTimeDeviceOrTicket: wrongTimeOrPlace,
    acceptedRows: counts.accepted,
    duplicateRows: counts.duplicate,
    otherRows: counts.other,
    duplicatesPlanted: plantedDuplicates,
    ticketsAdmittedTwice: counts.tickets_admitted_twice,
    ticketsAdmitted: counts.tickets_admitted,
    ticketsCheckedIn: counts.tickets_checked_in,
    ticketsScanned: scansByTicket.size,
    plantedPairs: pairs.length,
    plantedPairsOneAdmittedOneDuplicateNamingTheDoor: pairsResolved,
    answersAccepted: answered('accepted'),
    answersDuplicate: answered('duplicate'),
    answersMissing: answers.filter((one) => !one.answer).length,
  };
  const pass =
    checks.checkInRows === queued.length &&
    checks.distinctKeys === queued.length &&
    checks.scansMissing === 0 &&
    checks.scansWithWrongTimeDeviceOrTicket === 0 &&
    checks.ticketsAdmittedTwice === 0 &&
    checks.duplicateRows === plantedDuplicates &&
    checks.acceptedRows === tickets &&
    checks.otherRows === 0 &&
    checks.ticketsAdmitted === tickets &&
    checks.ticketsCheckedIn === tickets &&
    checks.plantedPairsOneAdmittedOneDuplicateNamingTheDoor === plantedDuplicates &&
    checks.answersAccepted === tickets &&
    checks.answersDuplicate === plantedDuplicates &&
    checks.answersMissing === 0;
  return { ...checks, pass };
}

async function main() {
  const loadAverageAtStart = loadAverage();
  const cleanup = cleanupOnExit();
  try {
    const database = await createScratchDatabase(adminDatabaseUrl());
    cleanup.add('drop the scratch database', () => database.drop());
    const profiler = profiling ? serverProfiler() : undefined;
    if (profiler) cleanup.add('remove the profile', () => profiler.remove());
    const server = await startServer({ root: serverRoot, env: { DATABASE_URL: database.url, ...profiler?.env } });
    cleanup.add('stop the server', () => server.stop());
    const pool = new pg.Pool({ connectionString: database.url, max: 2 });
    cleanup.add('close the pool', () => pool.end());
    const url = server.url;
    console.log(
      `checkin-sync: server pid ${server.process.pid} at ${url}, database ${database.name}, server code from ${serverRoot}`,
    );

    // Set-up (not timed): an organizer's organization, staff for four doors, the event's tickets.
    const setupStarted = performance.now();
    const { organizer, organizationId } = await createOrganization(url, database.url, 'Bench Door Crew');
    const staff = await createPeople(database.url, devices, 'door');
    await addStaff(database.url, organizationId, staff);
    const ticketsOf = (title: string, count: number) =>
      issueFreeTickets({
        baseUrl: url,
        databaseUrl: database.url,
        organizer,
        organizationId,
        title,
        count,
        buyerPrefix: `buyer-${title.replaceAll(' ', '-').toLowerCase()}`,
        inFlight: setupConcurrency,
      });
    const warmUp = await ticketsOf('Warm up', 40);
    const { sale, orders } = await ticketsOf('Door night', tickets);
    const ticketRows = await pool.query<DoorTicket>(
      `select id, code from ticket where event_id = $1 and status = 'valid' order by id`,
      [sale.eventId],
    );
    if (ticketRows.rows.length !== tickets) throw new Error(`expected ${tickets} tickets, found ${ticketRows.rows.length}`);
    const setupSeconds = round((performance.now() - setupStarted) / 1000);
    console.log(`set-up: ${tickets} tickets in ${orders} free orders through orders.create, ${devices} staff, ${setupSeconds} s`);

    const plan = planQueues({
      eventId: sale.eventId,
      tickets: ticketRows.rows,
      devices,
      perDevice: scansPerDevice,
      planted: plantedDuplicates,
      syncAt: new Date(),
      offlineMinutes,
      seed,
    });
    const doors: Door[] = plan.map((device, index) => ({ ...device, staff: staff[index]! }));

    // Warm the server's code paths (a venue's server has been up for a while): the same doors syncing
    // a small queue on another event, then the signed-in floor.
    const warmTickets = await pool.query<DoorTicket>(`select id, code from ticket where event_id = $1`, [warmUp.sale.eventId]);
    const warmPlan = planQueues({
      eventId: warmUp.sale.eventId,
      tickets: warmTickets.rows,
      devices,
      perDevice: 12,
      planted: 8,
      syncAt: new Date(),
      offlineMinutes: 5,
      seed: seed + 1,
    });
    await Promise.all(warmPlan.map((device, index) => replayQueue(url, { ...device, staff: staff[index]! })));
    const floor = await signedInFloor(url, doors);

    const run = { url, server, databaseUrl: database.url };
    profiler?.start(server);
    const sync = await syncAll(run, doors, 'sync');
    const profile = await profiler?.stop(server);
    const checks = await check(pool, sale.eventId, doors, sync.answers);
    console.log(`checks after the sync: ${JSON.stringify(checks)}`);

    const before = await snapshot(pool, sale.eventId);
    const again = await syncAll(run, doors, 're-upload (same keys)');
    const after = await snapshot(pool, sale.eventId);
    const firstAnswers = new Map(sync.answers.map((one) => [one.key, JSON.stringify(one.answer)]));
    const reupload = {
      ...again.result,
      rowsUnchanged: before === after,
      answersDiffering: again.answers.filter((one) => JSON.stringify(one.answer) !== firstAnswers.get(one.key)).length,
      pass: false,
    };
    reupload.pass = reupload.rowsUnchanged && reupload.answersDiffering === 0 && (again.result.statuses['200'] ?? 0) === 2_000;
    console.log(`re-upload: rows unchanged ${reupload.rowsUnchanged}, answers differing ${reupload.answersDiffering}`);

    const invariants = await checkInvariants(pool);
    if (profile) console.log(JSON.stringify(profile.byGroup, null, 2));

    const meetsTarget = sync.result.seconds <= targets.syncSeconds;
    console.log(
      `checkin-sync: ${sync.result.scans} queued scans synced in ${sync.result.seconds} s (target ≤ ${targets.syncSeconds} s: ` +
        `${meetsTarget ? 'met' : 'MISSED'}), ${sync.result.scansPerSecond} scans/s; checks ${checks.pass ? 'pass' : 'FAIL'}, ` +
        `re-upload ${reupload.pass ? 'changes nothing' : 'CHANGED SOMETHING'}`,
    );

    writeResult(
      'checkin-sync',
      {
        label,
        serverCode: serverRoot === repositoryRoot ? '.' : serverRoot,
        machine: await machine({
          loadAverageAtStart,
          databaseUrl: database.url,
          note: 'the server, PostgreSQL and the devices share these cores, and so does any other work (cpu.otherCores)',
        }),
        inputs: {
          devices,
          scansPerDevice,
          plantedDuplicates,
          tickets,
          ticketSetUp: `${orders} free orders of up to ${maxPerOrder} tickets through POST /fn/orders.create (${setupConcurrency} in flight), ${setupSeconds} s`,
          staff:
            'one staff member per device: users and sessions written to Better Auth tables (bench/support/people.ts), member rows as the test fixtures add them',
          offlineMinutes,
          seed,
          sync: batchSize
            ? `each device sends its queue through POST /fn/checkin.scanBatch in calls of ${batchSize}, one after another; the devices in parallel`
            : 'each device POST /fn/checkin.scan one scan after another in queue order (Authorization: Bearer); the devices in parallel',
          warmUp: 'the same four doors sync 48 scans on another event, then the signed-in floor runs, before the timed sync',
          profiling,
          targets,
        },
        figures: {
          sync: { ...sync.result, meetsTarget },
          checks,
          reupload,
          floorSignedInCall: floor,
          invariants,
          ...(profile ? { profile } : {}),
        },
      },
      serverRoot,
    );
    if (!checks.pass || !reupload.pass || !invariants.hold) process.exitCode = 1;
  } finally {
    await cleanup.run();
  }
}

await main();
