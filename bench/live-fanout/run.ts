// bench/live-fanout (issue 5, DESIGN §8): `npm run bench:live-fanout`; see bench/README.md.
//
// The real server (apps/server/src/main.ts in its own process) on a scratch PostgreSQL database;
// 1,000 /live sockets (bench/live-fanout/listeners.ts, a process of their own) each subscribed to
// `events.availability` of one event; free orders through `POST /fn/orders.create` change it.
//   1. commit → listener latency, one instance: N orders one at a time, each stamped when its HTTP
//      answer arrives; every listener stamps the `changes` that shows it. p50/p95/p99 over all
//      listener × write pairs.
//   2. the same across instances: a second server on the same database, orders through the first,
//      listeners on the second (LISTEN/NOTIFY, coalesced).
//   3. write throughput with live on vs off: the same closed-loop order load with 1,000 listeners
//      on the event vs none, alternated in rounds; the ratio, and how stale listeners were meanwhile.
//
// Environment: BENCH_DATABASE_URL (admin URL; default postgres://postgres@127.0.0.1:5432/postgres),
// BENCH_LISTENERS (1000), BENCH_WRITES (50), BENCH_SECONDS (10 per throughput run), BENCH_ROUNDS (2),
// BENCH_CONNECTIONS (50), BENCH_SERVER_ROOT (run the server from another checkout, e.g. a scratch
// copy with a proposed change) and BENCH_LABEL (then the result goes to live-fanout-<label>.json).
import { execSync, fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';
import { cpuBetween, latencyOf, sampleCpu } from '../flash-sale/measure';
import { call, createPeople, createSaleEvent, createScratchDatabase, type Person, type SaleEvent } from '../flash-sale/setup';
import { now, type ListenerCommand, type ListenerReply, type Receipts } from './protocol';
import { startServer, type RunningServer } from './server';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const serverRoot = path.resolve(process.env.BENCH_SERVER_ROOT ?? root);
const label = process.env.BENCH_LABEL;
const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const listenerCount = Number(process.env.BENCH_LISTENERS ?? 1_000);
const writes = Number(process.env.BENCH_WRITES ?? 50);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const rounds = Number(process.env.BENCH_ROUNDS ?? 2);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
/** Writes before the measured ones (JIT, pools); not counted. */
const warmUpWrites = 5;
/** Pause between serial writes: longer than the hub's 50 ms coalescing window, so each write goes out on its own. */
const gapMs = 200;
/** How long a serial write waits for every listener before the next one goes (a miss is counted, not hidden). */
const waitMs = 10_000;
const openBatch = 50;
const targets = { p95Ms: 100, throughputRatio: 0.9 };
const capacity = 1_000_000;

const round = (value: number, digits = 2) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The forked listeners' process, one command at a time. */
class ListenerProcess {
  private readonly child: ChildProcess;

  constructor() {
    this.child = fork(path.join(here, 'listeners.ts'), [], { cwd: root, execArgv: ['--import', 'tsx'] });
  }

  get pid() {
    return this.child.pid!;
  }

  request<T extends ListenerReply['type']>(command: ListenerCommand, answer: T): Promise<Extract<ListenerReply, { type: T }>> {
    return new Promise((resolve, reject) => {
      this.child.once('message', (reply: ListenerReply) => {
        if (reply.type === answer) resolve(reply as Extract<ListenerReply, { type: T }>);
        else reject(new Error(`listeners answered ${JSON.stringify(reply).slice(0, 500)} to ${command.type}`));
      });
      this.child.send(command);
    });
  }

  async open(url: string, sale: SaleEvent) {
    const opened = await this.request(
      { type: 'open', url, count: listenerCount, batch: openBatch, eventId: sale.eventId, ticketTypeId: sale.ticketTypeId },
      'opened',
    );
    if (opened.remaining.length !== 1) throw new Error(`listeners disagree on the snapshot: ${opened.remaining.join(', ')}`);
    return { ms: Math.round(opened.ms), remaining: opened.remaining[0]! };
  }

  stop() {
    this.child.kill();
  }
}

interface Run {
  a: RunningServer;
  b: RunningServer;
  organizer: Person;
  organizationId: string;
  buyers: Person[];
  listeners: ListenerProcess;
}

function orderBody(sale: SaleEvent) {
  return JSON.stringify({
    data: { eventId: sale.eventId, lines: [{ ticketTypeId: sale.ticketTypeId, quantity: 1 }], idempotencyKey: randomUUID() },
  });
}

async function order(url: string, buyer: Person, sale: SaleEvent) {
  const response = await fetch(`${url}/fn/orders.create`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${buyer.token}` },
    body: orderBody(sale),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`orders.create answered ${response.status}: ${text}`);
}

const newSale = (run: Run, title: string) =>
  createSaleEvent(run.a.url, run.organizer, run.organizationId, { title, capacity, price: 0 });

/**
 * Orders one at a time through `writeUrl` while every listener watches through `listenUrl`.
 *
 * The commit's time is when the HTTP answer arrives: orders.create commits, hands its topics to
 * the hub (which only schedules the NOTIFY) and answers in the same turn, so the answer leaves
 * the server within a fraction of a millisecond of the commit and reaches the writer before any
 * listener can hear of it (the NOTIFY still has to go through PostgreSQL and back). Measured from
 * the send instead, the figure would also count the order's own work before its commit (session
 * lookup, the transaction): that upper bound is reported too (`fromSendMs`).
 */
async function serialLatency(run: Run, name: string, writeUrl: string, listenUrl: string) {
  const sale = await newSale(run, `Live fan-out ${name}`);
  const opened = await run.listeners.open(listenUrl, sale);
  console.log(`${name}: ${listenerCount} listeners subscribed in ${opened.ms} ms`);
  const buyers = run.buyers;
  let written = 0;
  for (let index = 0; index < warmUpWrites; index++) {
    await order(writeUrl, buyers[written++ % buyers.length]!, sale);
    await run.listeners.request({ type: 'waitRemaining', atMost: opened.remaining - written, timeoutMs: waitMs }, 'reached');
    await sleep(gapMs);
  }
  await run.listeners.request({ type: 'collect' }, 'collected');

  const sentAt: number[] = [];
  const answeredAt: number[] = [];
  const expected: number[] = [];
  const reachedAll: number[] = [];
  const servers = { write: writeUrl === run.a.url ? run.a : run.b, listen: listenUrl === run.a.url ? run.a : run.b };
  const cpuBefore = { write: sampleCpu(servers.write.process.pid!), listen: sampleCpu(servers.listen.process.pid!) };
  for (let index = 0; index < writes; index++) {
    sentAt.push(now());
    await order(writeUrl, buyers[written++ % buyers.length]!, sale);
    answeredAt.push(now());
    expected.push(opened.remaining - written);
    const reached = await run.listeners.request(
      { type: 'waitRemaining', atMost: opened.remaining - written, timeoutMs: waitMs },
      'reached',
    );
    reachedAll.push(reached.count);
    await sleep(gapMs);
  }
  const cpu = {
    writeServerCores: cpuBetween(cpuBefore.write, sampleCpu(servers.write.process.pid!)).serverCores,
    listenServerCores: cpuBetween(cpuBefore.listen, sampleCpu(servers.listen.process.pid!)).serverCores,
    machineBusyCores: cpuBetween(cpuBefore.listen, sampleCpu(servers.listen.process.pid!)).machineBusyCores,
  };
  const collected = await run.listeners.request({ type: 'collect' }, 'collected');
  await run.listeners.request({ type: 'close' }, 'closed');

  const fromAnswer: number[] = [];
  const fromSend: number[] = [];
  const firstListener: number[] = [];
  const spread: number[] = [];
  let missed = 0;
  const perWrite = expected.map(() => ({ first: Infinity, last: -Infinity }));
  for (const receipts of collected.receipts) {
    let next = 0;
    for (let write = 0; write < expected.length; write++) {
      while (next < receipts.remaining.length && receipts.remaining[next]! > expected[write]!) next++;
      if (next === receipts.remaining.length) {
        missed += expected.length - write;
        break;
      }
      const at = receipts.at[next]!;
      fromAnswer.push(at - answeredAt[write]!);
      fromSend.push(at - sentAt[write]!);
      perWrite[write]!.first = Math.min(perWrite[write]!.first, at);
      perWrite[write]!.last = Math.max(perWrite[write]!.last, at);
    }
  }
  perWrite.forEach(({ first, last }, write) => {
    if (Number.isFinite(first)) {
      firstListener.push(first - answeredAt[write]!);
      spread.push(last - first);
    }
  });
  const requestMs = answeredAt.map((at, index) => at - sentAt[index]!);
  const result = {
    instances: name,
    writeServer: servers.write === run.a ? 'A' : 'B',
    listenServer: servers.listen === run.a ? 'A' : 'B',
    listeners: listenerCount,
    writes,
    pairs: fromAnswer.length,
    missedPairs: missed,
    subscribeAllMs: opened.ms,
    /** Commit (HTTP answer arrived) → `changes` arrived, over every listener × write. */
    latencyMs: latencyOf(fromAnswer),
    /** Upper bound: from just before the order was sent (adds the order's own request time). */
    fromSendMs: latencyOf(fromSend),
    orderRequestMs: latencyOf(requestMs),
    /** Commit → the first listener to hear of each write: the NOTIFY path and one re-run. */
    firstListenerMs: latencyOf(firstListener),
    /** First → last listener of each write: the cost of fanning one change out to every subscriber. */
    fanOutSpreadMs: latencyOf(spread),
    changesMessages: collected.messages,
    listenerErrors: collected.errors,
    writesNotSeenByAllWithinWait: reachedAll.filter((count) => count < listenerCount).length,
    serverCpuDuringWrites: cpu,
    meetsTarget: latencyOf(fromAnswer).p95 <= targets.p95Ms && missed === 0,
  };
  console.log(
    `${name}: ${result.pairs} listener × write pairs (missed ${missed}): commit → listener ` +
      `p50 ${result.latencyMs.p50} ms, p95 ${result.latencyMs.p95} ms, p99 ${result.latencyMs.p99} ms, max ${result.latencyMs.max} ms ` +
      `(from send: p50 ${result.fromSendMs.p50}, p95 ${result.fromSendMs.p95}, p99 ${result.fromSendMs.p99}; ` +
      `order request p50 ${result.orderRequestMs.p50} ms)\n  first listener p50 ${result.firstListenerMs.p50} ms, ` +
      `first → last listener p50 ${result.fanOutSpreadMs.p50} ms, p95 ${result.fanOutSpreadMs.p95} ms; ` +
      `server CPU ${JSON.stringify(cpu)}`,
  );
  return result;
}

/** A closed loop of orders from `connections` connections; stamps every 200 answer (a commit) as it arrives. */
async function orderLoad(url: string, sale: SaleEvent, buyers: Person[]) {
  const committedAt: number[] = [];
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  let next = 0;
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration: seconds,
        timeout: 60,
        requests: [
          {
            setupRequest: (current) => ({
              ...current,
              method: 'POST',
              path: '/fn/orders.create',
              headers: { 'content-type': 'application/json', authorization: `Bearer ${buyers[next++ % buyers.length]!.token}` },
              body: orderBody(sale),
            }),
          },
        ],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode === 200) committedAt.push(now());
      latencies.push(responseTime);
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    });
  });
  const elapsed = (performance.now() - started) / 1000;
  return {
    committedAt,
    seconds: round(elapsed),
    completed: committedAt.length,
    perSecond: Math.round(committedAt.length / elapsed),
    latencyMs: latencyOf(latencies),
    statuses,
    transportErrors: result.errors + result.timeouts,
  };
}

/**
 * How far behind the listeners were during a load: for the i-th commit (by answer time), the time
 * until a listener held a count reflecting at least i orders. Every listener, up to 500 commits.
 */
function stalenessDuringLoad(committedAt: number[], receipts: Receipts[], startRemaining: number) {
  const stride = Math.max(1, Math.ceil(committedAt.length / 500));
  const delays: number[] = [];
  let unseen = 0;
  for (const listener of receipts) {
    let next = 0;
    for (let index = stride - 1; index < committedAt.length; index += stride) {
      const ordersSeen = index + 1;
      while (next < listener.remaining.length && startRemaining - listener.remaining[next]! < ordersSeen) next++;
      if (next === listener.remaining.length) {
        unseen++;
        continue;
      }
      delays.push(listener.at[next]! - committedAt[index]!);
    }
  }
  return { latencyMs: latencyOf(delays), pairs: delays.length, pairsNeverSeen: unseen };
}

/** One timed order load on a fresh event, with 1,000 listeners on it (live) or none. */
async function throughputRun(run: Run, roundNumber: number, live: boolean) {
  const sale = await newSale(run, `Throughput ${roundNumber} live ${live ? 'on' : 'off'}`);
  const opened = live ? await run.listeners.open(run.a.url, sale) : undefined;
  const serverBefore = sampleCpu(run.a.process.pid!);
  const listenersBefore = sampleCpu(run.listeners.pid);
  const load = await orderLoad(run.a.url, sale, run.buyers);
  const { serverCores, postgresCores, machineBusyCores } = cpuBetween(serverBefore, sampleCpu(run.a.process.pid!));
  const listenersProcessCores = cpuBetween(listenersBefore, sampleCpu(run.listeners.pid)).serverCores;
  const cpu = { serverCores, postgresCores, listenersProcessCores, machineBusyCores };
  let liveFigures = null;
  if (opened) {
    // Let the last changes arrive before counting what the listeners saw.
    await sleep(2_000);
    const collected = await run.listeners.request({ type: 'collect' }, 'collected');
    await run.listeners.request({ type: 'close' }, 'closed');
    const changesPerListener = collected.receipts.reduce((sum, receipts) => sum + receipts.at.length, 0) / listenerCount;
    liveFigures = {
      changesPerListenerPerSecond: round(changesPerListener / load.seconds),
      staleness: stalenessDuringLoad(load.committedAt, collected.receipts, opened.remaining),
      listenerErrors: collected.errors,
    };
  }
  const { committedAt: _committed, ...figures } = load;
  console.log(
    `throughput round ${roundNumber}, live ${live ? `on (${listenerCount} listeners)` : 'off'}: ${load.perSecond} orders/s ` +
      `(${load.completed} in ${load.seconds} s, ${connections} connections), p50 ${load.latencyMs.p50} ms, p95 ${load.latencyMs.p95} ms; ` +
      `statuses ${JSON.stringify(load.statuses)}; CPU (cores) ${JSON.stringify(cpu)}` +
      (liveFigures
        ? `\n  listeners got ${liveFigures.changesPerListenerPerSecond} changes/s each; commit → listener during the load ` +
          `p50 ${liveFigures.staleness.latencyMs.p50} ms, p95 ${liveFigures.staleness.latencyMs.p95} ms, ` +
          `p99 ${liveFigures.staleness.latencyMs.p99} ms`
        : ''),
  );
  return { round: roundNumber, live, ...figures, cpu, liveFigures };
}

/** The same order load with no listeners and with 1,000 listeners on the event, alternated in rounds. */
async function throughput(run: Run) {
  const warmUp = await newSale(run, 'Warm-up');
  await orderLoad(run.a.url, warmUp, run.buyers);
  const runs: Awaited<ReturnType<typeof throughputRun>>[] = [];
  for (let index = 0; index < rounds; index++) {
    for (const live of [false, true]) runs.push(await throughputRun(run, index + 1, live));
  }
  const mean = (live: boolean) => {
    const selected = runs.filter((result) => result.live === live);
    return Math.round(selected.reduce((sum, result) => sum + result.perSecond, 0) / selected.length);
  };
  const ratio = round(mean(true) / mean(false), 3);
  const perRound = Array.from({ length: rounds }, (_, index) => {
    const [off, on] = runs.filter((result) => result.round === index + 1);
    return round(on!.perSecond / off!.perSecond, 3);
  });
  console.log(
    `throughput: live off ${mean(false)} orders/s, live on ${mean(true)} orders/s: ratio ${ratio} (per round ${perRound.join(', ')}; target ≥ ${targets.throughputRatio})`,
  );
  return {
    connections,
    seconds,
    rounds,
    liveOffPerSecond: mean(false),
    liveOnPerSecond: mean(true),
    ratio,
    ratioPerRound: perRound,
    meetsTarget: ratio >= targets.throughputRatio,
    runs,
  };
}

async function machine(databaseUrl: string, loadAverageAtStart: number[]) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ version: string; max_connections: string }>(
    `select version(), current_setting('max_connections') as max_connections`,
  );
  await client.end();
  return {
    cores: os.cpus().length,
    cpuModel: os.cpus()[0]?.model,
    memoryBytes: os.totalmem(),
    node: process.version,
    postgres: rows[0]!.version,
    postgresMaxConnections: Number(rows[0]!.max_connections),
    loadAverageAtStart,
    loadAverageAtEnd: os.loadavg().map((value) => round(value)),
    note: 'both servers, PostgreSQL, the writer and the listeners share these cores, and so does any other work (cpu.otherCores)',
  };
}

function gitCommit(): string | undefined {
  try {
    return execSync('git rev-parse HEAD', { cwd: serverRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return undefined;
  }
}

async function main() {
  const loadAverageAtStart = os.loadavg().map((value) => round(value));
  const database = await createScratchDatabase(adminUrl);
  const env = { DATABASE_URL: database.url, AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-0123' };
  const started: { stop(): unknown }[] = [];
  // autocannon throws some errors outside any promise: stop what was started and drop the database anyway.
  process.once('uncaughtException', (error) => {
    console.error(error);
    void Promise.allSettled(started.reverse().map((stopping) => stopping.stop()))
      .then(() => database.drop())
      .finally(() => process.exit(1));
  });
  try {
    // One after the other: each applies the migrations at start.
    const a = await startServer(serverRoot, env);
    started.push(a);
    const b = await startServer(serverRoot, env);
    started.push(b);
    const listeners = new ListenerProcess();
    started.push(listeners);
    console.log(
      `live-fanout: server A pid ${a.process.pid} at ${a.url}, server B pid ${b.process.pid} at ${b.url}, ` +
        `database ${database.name}, server code from ${serverRoot}`,
    );
    const [organizer] = await createPeople(database.url, 1, 'organizer');
    const buyers = await createPeople(database.url, 200, 'buyer');
    const { organizationId } = await call<{ organizationId: string }>(a.url, organizer!.token, 'orgs.create', {
      name: 'Bench Live Listeners',
    });
    const run: Run = { a, b, organizer: organizer!, organizationId, buyers, listeners };

    const figures = {
      singleInstance: await serialLatency(run, 'one instance', a.url, a.url),
      crossInstance: await serialLatency(run, 'two instances', a.url, b.url),
      throughput: await throughput(run),
    };
    mkdirSync(path.join(root, 'bench/results'), { recursive: true });
    const file = path.join(root, 'bench/results', label ? `live-fanout-${label}.json` : 'live-fanout.json');
    const report = {
      benchmark: 'live-fanout',
      label,
      date: new Date().toISOString(),
      commit: gitCommit(),
      serverCode: serverRoot === root ? '.' : serverRoot,
      machine: await machine(database.url, loadAverageAtStart),
      inputs: {
        listeners: listenerCount,
        liveQuery: 'events.availability {eventId}, signed out (auth optional)',
        write: 'POST /fn/orders.create, one free ticket (each 200 is a paid order with its ticket issued), Authorization: Bearer',
        serialWrites: writes,
        warmUpWrites,
        gapBetweenSerialWritesMs: gapMs,
        commitStamp:
          'the HTTP answer of the order arriving at the writer (the callable commits, publishes and answers in one turn); fromSendMs is the upper bound from just before sending',
        clock: 'performance.timeOrigin + performance.now() in the writer and the listeners process (same machine clock)',
        throughputSeconds: seconds,
        throughputRounds: rounds,
        throughputConnections: connections,
        loadTool:
          'autocannon (writes) and ws (listeners, in a forked process); servers are apps/server/src/main.ts in their own processes',
        targets,
      },
      figures,
    };
    writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`wrote ${path.relative(root, file)}`);
  } finally {
    for (const stopping of started.reverse()) await stopping.stop();
    await database.drop();
  }
}

await main();
