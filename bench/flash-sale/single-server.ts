// Part 1 of bench/flash-sale: what only the single server is measured on (the scenarios run
// through runs.ts on any target): the raw hot row, the throughput at 200 connections and at the
// pool's size, the floors, and paid holds.
import { call } from '../support/callable';
import type { Person } from '../support/people';
import { orderRequest, type SaleEvent } from '../support/sale-event';
import type { serverProfiler } from '../support/server-profiler';
import type { RunningServer } from '../support/server';
import { round } from '../support/stats';
import { measureHotRow, type HotRowRate } from './measure';
import {
  confirmations,
  describe,
  hotOrders,
  invariantsAfter,
  newSale,
  timedRun,
  warmUp,
  type Run,
  type Target,
  type TimedRun,
} from './runs';

export const scenarios = [
  { name: 'A', buyers: 2_000, seats: 100 },
  { name: 'B', buyers: 10_000, seats: 1_000 },
];
const hotRowClients = [1, 20, 200];
const concurrency = 200;

/** The raw hot-row UPDATE on a ticket type of an unpublished event, reset to 0 sold after each run. */
export async function rawHotRow(run: Run, url: string, seconds: number): Promise<HotRowRate[]> {
  const raw = await newSale(run, url, 'Raw hot row', 1_000_000, { publish: false, emails: false });
  const rates = [];
  for (const clients of hotRowClients) {
    const rate = await measureHotRow(run.databaseUrl, raw.ticketTypeId, clients, seconds);
    await run.pool.query('update ticket_type set sold = 0 where id = $1', [raw.ticketTypeId]);
    rates.push(rate);
    console.log(
      `raw hot-row UPDATE: ${rate.tps} tps with ${rate.clients} clients` +
        (rate.clients < rate.clientsRequested ? ` (${rate.clientsRequested} asked; PostgreSQL's max_connections caps it)` : ''),
    );
  }
  return rates;
}

/**
 * Orders on one hot free ticket type: the throughput figure at 200 connections, then the emails of
 * its orders (waited for, up to BENCH_EMAIL_WAIT_SECONDS after its last answer), then the same at
 * the pool's size (its emails are checked with the part's). With a profiler, only the first, with
 * the server profiled.
 */
export async function throughput(
  run: Run,
  target: Target,
  options: {
    hot: SaleEvent;
    seconds: number;
    shortSeconds?: number;
    rawRates: HotRowRate[];
    poolSize?: number;
    profiler?: ReturnType<typeof serverProfiler>;
    server?: RunningServer;
  },
) {
  const { hot, profiler, server } = options;
  await warmUp(run, target, hot);
  if (profiler && server) profiler.start(server);
  const timed = await timedRun(run, target, concurrency, options.seconds, () =>
    orderRequest(hot, run.nextBuyer(), target.signIn),
  );
  const profile = profiler && server ? await profiler.stop(server) : undefined;
  describe('orders.create (free)', timed);
  const emails = await confirmations(run, 'orders.create (free)', [hot.eventId], timed.lastOrderAnswerAt, {
    processes: target.processes(),
  });
  const measured = { ...timed, emails };
  const ratioTo = (rate: HotRowRate) => round(measured.perSecond / rate.tps);
  const ratioToRawHotRow = Object.fromEntries(options.rawRates.map((rate) => [`clients${rate.clients}`, ratioTo(rate)]));
  if (options.rawRates.length > 0) console.log(`  orders/s ÷ raw hot-row tps: ${JSON.stringify(ratioToRawHotRow)}`);
  const atPoolSize =
    options.poolSize && options.shortSeconds
      ? await hotOrders(run, target, {
          sale: hot,
          connections: options.poolSize,
          seconds: options.shortSeconds,
          label: 'orders.create (free)',
        })
      : null;
  return {
    ticketType: 'free (price 0): each 200 answer is a paid order with its ticket issued, and its confirmation emailed',
    ...measured,
    ratioToRawHotRow,
    atPoolSizeConnections: atPoolSize,
    invariants: await invariantsAfter(run, 'throughput'),
    ...(profile ? { profile } : {}),
  };
}

const answersPerSecond = (result: TimedRun) =>
  Math.round(Object.values(result.statuses).reduce((sum, count) => sum + count, 0) / result.seconds);

/**
 * The same server answering less than an order: plain HTTP, the callable protocol without a
 * session (401), and a signed-in call that reads one row (session lookup + one select, 404): one
 * buyer, so after the first call its session comes from the server's session cache.
 */
export async function floors(run: Run, target: Target, seconds: number, buyer: Person) {
  const healthz = await timedRun(run, target, concurrency, seconds, () => ({ method: 'GET', path: '/healthz' }));
  describe('GET /healthz (HTTP + one pooled select 1)', healthz);
  const cancel = (headers: Record<string, string>) => () => ({
    method: 'POST' as const,
    path: '/fn/orders.cancel',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ data: { orderId: 'no-such-order' } }),
  });
  const { cookie: _cookie, ...signedOutHeaders } = target.signIn(buyer);
  const signedOut = await timedRun(run, target, concurrency, seconds, cancel(signedOutHeaders));
  const callableNoSession = { ...signedOut, perSecond: answersPerSecond(signedOut) };
  describe('callable without a session (orders.cancel → 401)', callableNoSession);
  const signedIn = await timedRun(run, target, concurrency, seconds, cancel(target.signIn(buyer)));
  // Its answer is 404 (no such order): count answers, not 200s.
  const callableSignedIn = { ...signedIn, perSecond: answersPerSecond(signedIn) };
  describe('signed-in call reading one row (orders.cancel of an unknown order → 404)', callableSignedIn);
  return { healthz, callableNoSession, callableSignedIn };
}

/**
 * Paid orders, each a pending hold, at 200 connections; then, as long, free orders of a ticket type
 * of their own, each complete with its confirmation email: the baseline of the same run. Then free
 * orders of a ticket type that asks each attendee a required question, each with its answer. Each
 * run comes after 3 s of the same load, and after the emails of the run before it are all out (up
 * to BENCH_EMAIL_WAIT_SECONDS), so that no run pays for another's emails. Last, paid orders with a
 * discount code, each a hold. The goals: holds, orders with answers and orders with a code at ≥ 0.8
 * of the free orders' rate, holds with p95 ≤ 250 ms.
 */
export async function paidHolds(
  run: Run,
  target: Target,
  seconds: number,
  profiling?: { profiler: ReturnType<typeof serverProfiler>; server: RunningServer },
) {
  const sale = await newSale(run, target.url, 'Hot paid ticket type', 1_000_000, { price: 2_500 });
  await warmUp(run, target, sale);
  if (profiling) profiling.profiler.start(profiling.server);
  const holds = await timedRun(run, target, concurrency, seconds, () => orderRequest(sale, run.nextBuyer(), target.signIn));
  describe('orders.create (paid → pending hold)', holds);
  if (profiling) return { ...holds, profile: await profiling.profiler.stop(profiling.server) };
  const holdInvariants = await invariantsAfter(run, 'paid holds');

  const free = await newSale(run, target.url, 'Hot free ticket type beside the holds', 1_000_000, { emails: false });
  await warmUp(run, target, free);
  const freeOrders = await timedRun(run, target, concurrency, seconds, () => orderRequest(free, run.nextBuyer(), target.signIn));
  describe('orders.create (free, the same length, right after)', freeOrders);
  const freeInvariants = await invariantsAfter(run, 'free orders beside the holds');
  // Each run starts with no email of another one still being made.
  const freeEmails = await confirmations(run, 'free orders beside the holds', [free.eventId], freeOrders.lastOrderAnswerAt);

  const asking = await newSale(run, target.url, 'Hot free ticket type with a question', 1_000_000, { emails: false });
  const { questionId } = await call<{ questionId: string }>(target.url, run.organizer, 'questions.create', {
    eventId: asking.eventId,
    kind: 'text',
    label: 'Company',
    required: true,
  });
  const answering = () => orderRequest(asking, run.nextBuyer(), target.signIn, [{ [questionId]: 'Bench Ltd' }]);
  await warmUp(run, target, asking, 3, answering);
  const withAnswers = await timedRun(run, target, concurrency, seconds, answering);
  describe('orders.create (free, each ticket with its answer to a required question)', withAnswers);
  const answersEmails = await confirmations(run, 'orders with answers', [asking.eventId], withAnswers.lastOrderAnswerAt);
  const answersInvariants = await invariantsAfter(run, 'orders with answers');

  // A discount code as a presale gives it: 20 % off, for a number of tickets (the code's uses are
  // counted under its row's lock, with every ticket bought with it).
  const discounted = await newSale(run, target.url, 'Hot paid ticket type with a discount code', 1_000_000, { price: 2_500 });
  await call(target.url, run.organizer, 'codes.create', {
    eventId: discounted.eventId,
    code: 'PRESALE',
    discount: { kind: 'percent', percent: 20 },
    maxUses: 100_000,
  });
  const withCode = () => orderRequest(discounted, run.nextBuyer(), target.signIn, undefined, 'presale');
  await warmUp(run, target, discounted, 3, withCode);
  const codeHolds = await timedRun(run, target, concurrency, seconds, withCode);
  describe('orders.create (paid, with a 20 % discount code of limited uses → pending hold)', codeHolds);

  const ratio = holds.perSecond / Math.max(1, freeOrders.perSecond);
  const answersRatio = withAnswers.perSecond / Math.max(1, freeOrders.perSecond);
  const codeRatio = codeHolds.perSecond / Math.max(1, freeOrders.perSecond);
  console.log(
    `free orders ${round(freeOrders.perSecond)}/s; ratios to them: paid holds ${round(ratio)}, with answers ${round(answersRatio)}, with a code ${round(codeRatio)}`,
  );
  return {
    ticketType: 'price 2500 (minor units): each 200 answer is a pending order holding its place',
    ...holds,
    invariants: holdInvariants,
    freeOrders: { ...freeOrders, invariants: freeInvariants, emails: freeEmails },
    ordersWithAnswers: { ...withAnswers, invariants: answersInvariants, emails: answersEmails },
    holdsWithCode: { ...codeHolds, invariants: await invariantsAfter(run, 'paid holds with a code') },
    ratioToFreeOrders: round(ratio),
    answersRatioToFreeOrders: round(answersRatio),
    codeRatioToFreeOrders: round(codeRatio),
    meets: {
      ratioToFreeOrders: ratio >= 0.8,
      p95: holds.latencyMs.p95 <= 250,
      answersRatioToFreeOrders: answersRatio >= 0.8,
      codeRatioToFreeOrders: codeRatio >= 0.8,
    },
  };
}
