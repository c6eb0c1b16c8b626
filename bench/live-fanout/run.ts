// bench/live-fanout: `npm run bench:live-fanout`; see bench/README.md.
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
// copy with a proposed change) and BENCH_LABEL (a name for the run, kept in its result).
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { call } from '../support/callable';
import { cleanupOnExit } from '../support/cleanup';
import { cpuBetween, sampleCpu } from '../support/cpu';
import { runLoad } from '../support/http-load';
import { loadAverage, machine } from '../support/machine';
import { adminDatabaseUrl, numberOption, repositoryRoot, serverRootOption, textOption } from '../support/options';
import { createOrganization, createPeople, inTurn, type Person } from '../support/people';
import { writeResult } from '../support/results';
import { createSaleEvent, orderInput, orderRequest, type SaleEvent } from '../support/sale-event';
import { createScratchDatabase } from '../support/scratch-database';
import { startServer, type RunningServer } from '../support/server';
import { percentiles, round } from '../support/stats';
import { now, type ListenerCommand, type ListenerReply, type Receipts } from './protocol';

const here = path.dirname(fileURLToPath(import.meta.url));
const serverRoot = serverRootOption();
const label = textOption('BENCH_LABEL');
const listenerCount = numberOption('BENCH_LISTENERS', 1_000);
const writes = numberOption('BENCH_WRITES', 50);
const seconds = numberOption('BENCH_SECONDS', 10);
const rounds = numberOption('BENCH_ROUNDS', 2);
const connections = numberOption('BENCH_CONNECTIONS', 50);
/** Writes before the measured ones (JIT, pools); not counted. */
const warmUpWrites = 5;
/**
 * Pause between serial writes, after every listener has seen the last one: with that wait, longer than
 * the hub's coalescing window (50 ms, platform/live/change-announcer.ts), so no write's NOTIFY is held
 * back for the window of the one before.
 */
const gapMs = 200;
/** How long a serial write waits for every listener before the next one goes (a miss is counted, not hidden). */
const waitMs = 10_000;
const openBatch = 50;
const targets = { p95Ms: 100, throughputRatio: 0.9 };
const capacity = 1_000_000;

/** The forked listeners' process, one command at a time. */
class ListenerProcess {
  private readonly child: ChildProcess;

  constructor() {
    this.child = fork(path.join(here, 'listeners.ts'), [], { cwd: repositoryRoot, execArgv: ['--import', 'tsx'] });
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

/** One order, answered before the next goes: its answer arriving is the commit's stamp (see serialLatency). */
async function order(url: string, buyer: Person, sale: SaleEvent) {
  await call(url, buyer, 'orders.create', orderInput(sale));
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
    latencyMs: percentiles(fromAnswer),
    /** Upper bound: from just before the order was sent (adds the order's own request time). */
    fromSendMs: percentiles(fromSend),
    orderRequestMs: percentiles(requestMs),
    /** Commit → the first listener to hear of each write: the NOTIFY path and one re-run. */
    firstListenerMs: percentiles(firstListener),
    /** First → last listener of each write: the cost of fanning one change out to every subscriber. */
    fanOutSpreadMs: percentiles(spread),
    changesMessages: collected.messages,
    listenerErrors: collected.errors,
    writesNotSeenByAllWithinWait: reachedAll.filter((count) => count < listenerCount).length,
    serverCpuDuringWrites: cpu,
    meetsTarget: percentiles(fromAnswer).p95 <= targets.p95Ms && missed === 0,
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
  const nextBuyer = inTurn(buyers);
  const load = await runLoad({
    url,
    connections,
    seconds,
    timeoutSeconds: 60,
    next: () => orderRequest(sale, nextBuyer()),
    onAnswer: (status) => {
      if (status === 200) committedAt.push(now());
    },
  });
  return {
    committedAt,
    seconds: round(load.seconds),
    completed: committedAt.length,
    perSecond: Math.round(committedAt.length / load.seconds),
    latencyMs: load.latencyMs,
    statuses: load.statuses,
    transportErrors: load.transportErrors,
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
  return { latencyMs: percentiles(delays), pairs: delays.length, pairsNeverSeen: unseen };
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
  // The server's CPU in all, and per order made: what the same orders cost with no one watching is the
  // baseline that the cost of each change delivered is measured against (throughput()).
  const serverCpuMs = serverCores * load.seconds * 1000;
  const cpu = {
    serverCores,
    postgresCores,
    listenersProcessCores,
    machineBusyCores,
    serverCpuMsPerOrder: round(serverCpuMs / Math.max(1, load.completed), 3),
  };
  let liveFigures = null;
  if (opened) {
    // Let the last changes arrive before counting what the listeners saw.
    await sleep(2_000);
    const collected = await run.listeners.request({ type: 'collect' }, 'collected');
    await run.listeners.request({ type: 'close' }, 'closed');
    const delivered = collected.receipts.reduce((sum, receipts) => sum + receipts.at.length, 0);
    liveFigures = {
      delivered,
      changesPerListenerPerSecond: round(delivered / listenerCount / load.seconds),
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
  // The server's CPU beyond what its orders cost live off (same round), per change a listener got.
  const serverCpuMsPerDeliveredChange = Array.from({ length: rounds }, (_, index) => {
    const [off, on] = runs.filter((result) => result.round === index + 1);
    const beyondOrders = (on!.cpu.serverCpuMsPerOrder - off!.cpu.serverCpuMsPerOrder) * on!.completed;
    return round(beyondOrders / Math.max(1, on!.liveFigures!.delivered), 4);
  });
  console.log(
    `throughput: live off ${mean(false)} orders/s, live on ${mean(true)} orders/s: ratio ${ratio} (per round ${perRound.join(', ')}; target ≥ ${targets.throughputRatio}); ` +
      `server CPU per change delivered ${serverCpuMsPerDeliveredChange.join(', ')} ms`,
  );
  return {
    connections,
    seconds,
    rounds,
    liveOffPerSecond: mean(false),
    liveOnPerSecond: mean(true),
    ratio,
    ratioPerRound: perRound,
    serverCpuMsPerDeliveredChange,
    meetsTarget: ratio >= targets.throughputRatio,
    runs,
  };
}

async function main() {
  const loadAverageAtStart = loadAverage();
  const cleanup = cleanupOnExit();
  try {
    const database = await createScratchDatabase(adminDatabaseUrl());
    cleanup.add('drop the scratch database', () => database.drop());
    // One after the other: each applies the migrations at start.
    const a = await startServer({ root: serverRoot, env: { DATABASE_URL: database.url } });
    cleanup.add('stop server A', () => a.stop());
    const b = await startServer({ root: serverRoot, env: { DATABASE_URL: database.url } });
    cleanup.add('stop server B', () => b.stop());
    const listeners = new ListenerProcess();
    cleanup.add('stop the listeners', () => listeners.stop());
    console.log(
      `live-fanout: server A pid ${a.process.pid} at ${a.url}, server B pid ${b.process.pid} at ${b.url}, ` +
        `database ${database.name}, server code from ${serverRoot}`,
    );
    const { organizer, organizationId } = await createOrganization(a.url, database.url, 'Bench Live Listeners');
    const buyers = await createPeople(database.url, 200, 'buyer');
    const run: Run = { a, b, organizer, organizationId, buyers, listeners };

    const figures = {
      singleInstance: await serialLatency(run, 'one instance', a.url, a.url),
      crossInstance: await serialLatency(run, 'two instances', a.url, b.url),
      throughput: await throughput(run),
    };
    writeResult(
      'live-fanout',
      {
        label,
        serverCode: serverRoot === repositoryRoot ? '.' : serverRoot,
        machine: await machine({
          loadAverageAtStart,
          databaseUrl: database.url,
          note: 'both servers, PostgreSQL, the writer and the listeners share these cores, and so does any other work (cpu.otherCores)',
        }),
        inputs: {
          listeners: listenerCount,
          liveQuery: 'events.availability {eventId}, signed out (auth optional)',
          write:
            'POST /fn/orders.create, one free ticket (each 200 is a paid order with its ticket issued), Authorization: Bearer',
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
      },
      serverRoot,
    );
  } finally {
    await cleanup.run();
  }
}

await main();
