// The measured parts of bench/flash-sale that run against any Admit: the single server, or the
// topology behind HAProxy. Each takes a Target (where the load goes, how buyers are signed in, which
// processes' CPU to report) and the run's shared state.
import type pg from 'pg';
import { awaitConfirmations, describeConfirmations, keysSent } from '../support/confirmation-emails';
import { groupCpuBetween, sampleGroupCpu } from '../support/cpu';
import { sampleSessions } from '../support/database-sessions';
import { runLoad, type LoadRequest, type LoadResult } from '../support/http-load';
import { checkInvariants } from '../support/invariants';
import type { Person } from '../support/people';
import { createSaleEvent, orderRequest, type SaleEvent } from '../support/sale-event';
import type { SignIn } from '../support/sign-in';
import { round } from '../support/stats';
import { listenOverflows } from './measure';

export interface Target {
  /** Where the load goes: the server, or HAProxy. */
  url: string;
  /** How each buyer's requests are signed in (a browser's cookie, its page's Origin, its address). */
  signIn: SignIn;
  /** The processes whose CPU is reported, by kind; the first kind is "the server" (its CPU per answer is reported). */
  processes(): Record<string, number[]>;
}

export interface Run {
  databaseUrl: string;
  /** A few connections for set-up and checks. */
  pool: pg.Pool;
  organizer: Person;
  organizationId: string;
  buyers: Person[];
  /** The next buyer, in turn over all of them: every order is another buyer's until they wrap around. */
  nextBuyer(): Person;
  /** How long to wait for the emails of a part's orders, after its last order (BENCH_EMAIL_WAIT_SECONDS). */
  emailWaitSeconds: number;
  /** The events whose paid orders must each get one confirmation email: every sale made through newSale. */
  saleEvents: string[];
}

export const perSecond = (count: number, result: { seconds: number }) => Math.round(count / result.seconds);

/**
 * A published event with one ticket type (free unless a price is given), made through the
 * callables at `url`. Its paid orders' emails are checked at the end of the part (`emails: false`:
 * not, for the SQL baseline's orders, whose jobs are not run).
 */
export async function newSale(
  run: Run,
  url: string,
  title: string,
  capacity: number,
  options: { price?: number; publish?: boolean; emails?: boolean } = {},
) {
  const sale = await createSaleEvent(url, run.organizer, run.organizationId, {
    title,
    capacity,
    price: options.price ?? 0,
    publish: options.publish,
  });
  if (options.emails !== false) run.saleEvents.push(sale.eventId);
  return sale;
}

/**
 * Each buyer's page opening before the sale: one signed-in request per buyer
 * (GET /api/auth/get-session, what Better Auth's client asks when a page loads), 200 at a time.
 * Counts the answers that name a session: every buyer must be signed in.
 */
export async function buyersOpenTheirPages(target: Target, buyers: Person[]) {
  let signedIn = 0;
  let next = 0;
  const load = await runLoad({
    url: target.url,
    connections: 200,
    amount: buyers.length,
    next: () => {
      const { origin: _origin, ...headers } = target.signIn(buyers[next++ % buyers.length]!);
      return { method: 'GET', path: '/api/auth/get-session', headers };
    },
    onBody: (status, body) => {
      if (status === 200 && body.includes('"session"') && body.includes('"user"')) signedIn++;
    },
    sampleErrors: true,
  });
  console.log(
    `buyers' pages opened: ${buyers.length} × GET /api/auth/get-session in ${round(load.seconds)} s, ` +
      `${signedIn} signed in (statuses ${JSON.stringify(load.statuses)})`,
  );
  return {
    buyers: buyers.length,
    signedIn,
    seconds: round(load.seconds),
    statuses: load.statuses,
    latencyMs: load.latencyMs,
    errorSamples: load.errorSamples,
  };
}

/**
 * Waits for the confirmation emails of the events' paid orders and says how it went. With
 * `processes`, also where the CPU went while the emails left after the orders were sent: the orders
 * have stopped then, so it is close to the CPU an email costs.
 */
export async function confirmations(
  run: Run,
  label: string,
  eventIds: string[],
  lastAnswerAt: number,
  options: { timeoutSeconds?: number; processes?: Record<string, number[]> } = {},
) {
  const sentBefore = (await keysSent(run.pool, eventIds)).sent;
  const cpuBefore = options.processes && sampleGroupCpu(options.processes);
  const figures = await awaitConfirmations(run.pool, {
    eventIds,
    lastAnswerAt,
    timeoutSeconds: options.timeoutSeconds ?? run.emailWaitSeconds,
  });
  console.log(`  ${describeConfirmations(label, figures)}`);
  if (!options.processes || !cpuBefore) return figures;
  const cpu = groupCpuBetween(cpuBefore, sampleGroupCpu(options.processes));
  const seconds = (performance.now() - cpuBefore.at) / 1000;
  const emailsSent = (await keysSent(run.pool, eventIds)).sent - sentBefore;
  // PostgreSQL's CPU is left out: it sums the live postgres processes, and the sessions that ended
  // with the orders (the sampler's, the load's) take what they used with them.
  const cpuMsPerEmail = Object.fromEntries(
    Object.entries(cpu)
      .filter(([kind]) => !['machineBusyCores', 'otherCores', 'loadGeneratorCores', 'postgresCores'].includes(kind))
      .map(([kind, cores]) => [kind.replace(/Cores$/, ''), round(((cores * seconds) / Math.max(1, emailsSent)) * 1000)]),
  );
  console.log(
    `  while ${emailsSent} emails left after the orders (${round(seconds)} s): CPU ms per email ${JSON.stringify(cpuMsPerEmail)}`,
  );
  return { ...figures, afterTheOrders: { seconds: round(seconds), emailsSent, cpu, cpuMsPerEmail } };
}

/** The data invariants over everything so far, after a scenario. */
export async function invariantsAfter(run: Run, label: string) {
  const result = await checkInvariants(run.pool);
  return { after: label, ...result };
}

/** Every buyer at once, one order each, for fewer seats than buyers (their emails are checked with the part's). */
export async function flashSale(run: Run, target: Target, scenario: { name: string; buyers: number; seats: number }) {
  const sale = await newSale(run, target.url, `Flash sale ${scenario.name}`, scenario.seats);
  const buyers = run.buyers.slice(0, scenario.buyers);
  let next = 0;
  const overflowsBefore = listenOverflows();
  const load = await runLoad({
    url: target.url,
    connections: scenario.buyers,
    amount: scenario.buyers,
    next: () => orderRequest(sale, buyers[next++ % buyers.length]!, target.signIn),
    sampleErrors: true,
  });
  const { rows } = await run.pool.query<{ sold: number; tickets: number; paid_orders: number; buyers: number }>(
    `select tt.sold,
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
  return { ...result, invariants: await invariantsAfter(run, `scenario ${scenario.name}`) };
}

/** A timed run with the CPU used and the database sessions sampled alongside; the time of the last 200 is kept for the emails. */
export async function timedRun(run: Run, target: Target, connections: number, seconds: number, next: () => LoadRequest) {
  const sessions = sampleSessions(run.databaseUrl);
  const processes = target.processes();
  const [serverKind] = Object.keys(processes);
  const before = sampleGroupCpu(processes);
  let lastOrderAnswerAt = Date.now();
  const load: LoadResult = await runLoad({
    url: target.url,
    connections,
    seconds,
    next,
    onAnswer: (status) => {
      if (status === 200) lastOrderAnswerAt = Date.now();
    },
  });
  const cpu = groupCpuBetween(before, sampleGroupCpu(processes));
  const completed = load.statuses['200'] ?? 0;
  const msPerAnswer = (cores: number | undefined) => round((((cores ?? 0) * load.seconds) / Math.max(1, load.responses)) * 1000);
  return {
    connections,
    seconds: round(load.seconds),
    completed,
    perSecond: perSecond(completed, load),
    latencyMs: load.latencyMs,
    statuses: load.statuses,
    transportErrors: load.transportErrors,
    cpu,
    /** CPU per answer of the first kind of process (the server, or the web processes together). */
    serverCpuMsPerAnswer: msPerAnswer(cpu[`${serverKind}Cores`]),
    postgresCpuMsPerAnswer: msPerAnswer(cpu.postgresCores),
    /** Average number of the database's sessions in each state · wait event. */
    databaseSessions: await sessions.stop(),
    lastOrderAnswerAt,
  };
}

export type TimedRun = Awaited<ReturnType<typeof timedRun>>;

export function describe(label: string, result: TimedRun) {
  console.log(
    `${label} at ${result.connections} connections: ${result.perSecond}/s (${result.completed} × 200 in ${result.seconds} s), ` +
      `p50 ${result.latencyMs.p50} ms, p95 ${result.latencyMs.p95} ms, p99 ${result.latencyMs.p99} ms; ` +
      `statuses ${JSON.stringify(result.statuses)}\n  CPU (cores): ${JSON.stringify(result.cpu)}; server ${result.serverCpuMsPerAnswer} ms ` +
      `and PostgreSQL ${result.postgresCpuMsPerAnswer} ms of CPU per answer\n  database sessions: ${JSON.stringify(result.databaseSessions)}`,
  );
}

/** Orders on one hot free ticket type for `seconds`, each by another buyer. */
export async function hotOrders(
  run: Run,
  target: Target,
  options: { sale: SaleEvent; connections: number; seconds: number; label: string },
) {
  const order = () => orderRequest(options.sale, run.nextBuyer(), target.signIn);
  const measured = await timedRun(run, target, options.connections, options.seconds, order);
  describe(options.label, measured);
  return measured;
}

/**
 * The emails of every sale of the part so far, at its end: each paid order must have exactly one,
 * or a job still to send it (pending, reported: late, not lost).
 */
export async function emailsOfThePart(run: Run, label: string, waitSeconds: number) {
  return confirmations(run, label, run.saleEvents, Date.now(), { timeoutSeconds: waitSeconds });
}

/** A few seconds of the same orders, not measured: connections opened, code paths warm. */
export async function warmUp(
  run: Run,
  target: Target,
  sale: SaleEvent,
  seconds = 3,
  next: () => LoadRequest = () => orderRequest(sale, run.nextBuyer(), target.signIn),
) {
  await runLoad({ url: target.url, connections: 200, seconds, next });
}
