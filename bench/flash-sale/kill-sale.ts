// Part 3 of bench/flash-sale, first on the topology: a flash sale (buyers for `seats` places, one
// order each, for `seconds`) during which one web process is killed (SIGKILL) once a third of the
// places are sold, and then one worker while confirmation emails are under way. Buyers whose
// request got no answer, or HAProxy's 502 for a request the killed process had, send it again with
// the same idempotency key, as the browser's client may; then no order may be lost or doubled, and
// every paid order must get exactly one email once the remaining worker has taken over the killed
// one's jobs.
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Topology } from '../../deploy/topology';
import type { Person } from '../support/people';
import { orderInput } from '../support/sale-event';
import { percentiles, round } from '../support/stats';
import { confirmations, invariantsAfter, newSale, type Run, type Target } from './runs';

interface Attempt {
  buyer: Person;
  body: string;
  /** The status of each try (0: no HTTP answer at all). */
  tries: number[];
  orderId?: string;
  firstTryFailed: boolean;
}

/** One POST with its own connection handling (keep-alive, 200 at most); resolves with the status and body, or status 0. */
function post(agent: http.Agent, target: Target, headers: Record<string, string>, body: string) {
  const url = new URL('/fn/orders.create', target.url);
  return new Promise<{ status: number; body: string; ms: number }>((resolve) => {
    const started = performance.now();
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk) => (text += String(chunk)));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text, ms: performance.now() - started }));
        response.on('error', () => resolve({ status: 0, body: '', ms: performance.now() - started }));
      },
    );
    request.setTimeout(60_000, () => request.destroy());
    request.on('error', () => resolve({ status: 0, body: '', ms: performance.now() - started }));
    request.end(body);
  });
}

const activeConfirmationJobs = async (run: Run) =>
  (
    await run.pool.query<{ n: number }>(
      `select count(*)::int as n from pgboss.job where name = 'orders.sendConfirmation' and state = 'active'`,
    )
  ).rows[0]!.n;

export async function killSale(
  run: Run,
  topology: Topology,
  target: Target,
  options: { seconds: number; seats: number; connections: number; jobExpireSeconds: number },
) {
  if (topology.workers.length < 2) throw new Error('the kill scenario needs two workers or more: one is killed');
  await topology.scaleWeb(2);
  const sale = await newSale(run, target.url, 'Sale with kills', options.seats);
  const queueSettings = await run.pool.query<{ expire_seconds: number }>(
    `select expire_seconds from pgboss.queue where name = 'orders.sendConfirmation'`,
  );
  const serversExpiry = queueSettings.rows[0]!.expire_seconds;
  // A try whose worker died is tried again once it expires (pg-boss maintenance, every 30 s here):
  // with the server's own 300 s, the emails in the killed worker's hands wait five minutes.
  if (options.jobExpireSeconds > 0)
    await run.pool.query(`update pgboss.queue set expire_seconds = $1 where name = 'orders.sendConfirmation'`, [
      options.jobExpireSeconds,
    ]);

  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const attempts: Attempt[] = [];
  const latencies: number[] = [];
  let lastAnswerAt = Date.now();
  const started = performance.now();
  const until = started + options.seconds * 1000;
  const killedWeb = topology.web[1]!;
  const killedWorker = topology.workers[0]!;
  let webKilled: { slot: string; pid?: number; afterMs: number; soldThen: number } | undefined;
  let workerKilled: { name: string; pid: number; afterMs: number; confirmationJobsActiveThen: number } | undefined;
  const sold = async () =>
    (await run.pool.query<{ sold: number }>('select sold from ticket_type where id = $1', [sale.ticketTypeId])).rows[0]!.sold;
  const kills = (async () => {
    // Mid-sale: once a third of the places are sold (or a third of the time has gone).
    while ((await sold()) < options.seats / 3 && performance.now() < started + (options.seconds * 1000) / 3) await sleep(20);
    webKilled = {
      slot: killedWeb.slot,
      pid: killedWeb.process?.pid,
      afterMs: Math.round(performance.now() - started),
      soldThen: await sold(),
    };
    killedWeb.process?.child.kill('SIGKILL');
    // Mid-email: when confirmation jobs are under way (the two workers share them).
    let active = await activeConfirmationJobs(run);
    for (let waited = 0; active === 0 && waited < 5_000; waited += 100) {
      await sleep(100);
      active = await activeConfirmationJobs(run);
    }
    const afterMs = Math.round(performance.now() - started);
    workerKilled = { name: killedWorker.name, pid: killedWorker.pid, afterMs, confirmationJobsActiveThen: active };
    killedWorker.child.kill('SIGKILL');
  })();

  const send = async (attempt: Attempt) => {
    const answer = await post(agent, target, target.signIn(attempt.buyer), attempt.body);
    attempt.tries.push(answer.status);
    if (answer.status === 200) {
      attempt.orderId = (JSON.parse(answer.body) as { result: { orderId: string } }).result.orderId;
      lastAnswerAt = Date.now();
    }
    return answer;
  };
  await Promise.all(
    Array.from({ length: options.connections }, async () => {
      while (performance.now() < until) {
        const attempt: Attempt = {
          buyer: run.nextBuyer(),
          body: JSON.stringify({ data: orderInput(sale) }),
          tries: [],
          firstTryFailed: false,
        };
        attempts.push(attempt);
        const answer = await send(attempt);
        latencies.push(answer.ms);
        attempt.firstTryFailed = ![200, 429].includes(answer.status);
      }
    }),
  );
  await kills;
  const saleSeconds = (performance.now() - started) / 1000;
  // The buyers without an answer send the same order again (same key), up to five times.
  const unanswered = attempts.filter((attempt) => attempt.firstTryFailed);
  const sentAgainAt = Date.now();
  for (let pass = 0; pass < 5 && unanswered.some((attempt) => attempt.orderId === undefined); pass++) {
    await sleep(1_000);
    await Promise.all(unanswered.filter((attempt) => attempt.orderId === undefined).map(send));
  }
  agent.destroy();

  const expiry = options.jobExpireSeconds > 0 ? options.jobExpireSeconds : serversExpiry;
  // The killed worker's jobs come back after their expiry and the next maintenance (30 s) at most.
  const emails = await confirmations(run, 'sale with kills', [sale.eventId], lastAnswerAt, {
    timeoutSeconds: Math.max(run.emailWaitSeconds, expiry + 90),
  });
  const { rows: orders } = await run.pool.query<{
    id: string;
    key: string;
    status: string;
    tickets: number;
    timeline_emails: number;
    created_ms: number;
  }>(
    `select o.id, o.idempotency_key as key, o.status, (extract(epoch from o.created_at) * 1000)::float8 as created_ms,
            (select count(*)::int from ticket t where t.order_id = o.id and t.status = 'valid') as tickets,
            (select count(*)::int from order_activity a where a.order_id = o.id and a.kind = 'email_sent') as timeline_emails
       from "order" o where o.event_id = $1`,
    [sale.eventId],
  );
  const retriedJobs = await run.pool.query<{ n: number }>(
    `select count(*)::int as n from pgboss.job
      where name = 'orders.sendConfirmation' and retry_count > 0 and data->>'orderId' in (select id from "order" where event_id = $1)`,
    [sale.eventId],
  );
  if (options.jobExpireSeconds > 0)
    await run.pool.query(`update pgboss.queue set expire_seconds = $1 where name = 'orders.sendConfirmation'`, [serversExpiry]);

  const orderById = new Map(orders.map((order) => [order.id, order]));
  const keyOf = (attempt: Attempt) => (JSON.parse(attempt.body) as { data: { idempotencyKey: string } }).data.idempotencyKey;
  const answeredKeys = new Set(attempts.filter((attempt) => attempt.orderId).map(keyOf));
  const statusCounts = (statuses: number[]) =>
    statuses.reduce<Record<string, number>>((counts, status) => ({ ...counts, [status]: (counts[status] ?? 0) + 1 }), {});
  const answered = attempts.filter((attempt) => attempt.orderId);
  const figures = {
    connections: options.connections,
    seats: options.seats,
    sold: await sold(),
    oversold: Math.max(0, orders.filter((order) => order.status === 'paid').length - options.seats),
    seconds: round(saleSeconds),
    webKilled: webKilled!,
    workerKilled: workerKilled!,
    firstTries: statusCounts(attempts.map((attempt) => attempt.tries[0]!)),
    latencyMs: percentiles(latencies),
    sentAgain: unanswered.length,
    sentAgainFinally: statusCounts(unanswered.map((attempt) => attempt.tries.at(-1)!)),
    /** Sent again after no answer, and the first try had made the order (before the second was sent): the same order came back. */
    sentAgainAndFoundMade: unanswered.filter(
      (attempt) => (orderById.get(attempt.orderId ?? '')?.created_ms ?? Infinity) < sentAgainAt,
    ).length,
    answered200: answered.length,
    ordersInDatabase: orders.length,
    /** A 200 whose order is not in the database as paid with its one valid ticket (must be 0). */
    lostOrders: answered.filter((attempt) => {
      const order = orderById.get(attempt.orderId!);
      return !order || order.status !== 'paid' || order.tickets !== 1;
    }).length,
    /** Orders in the database that no buyer got a 200 for, even after sending again (must be 0). */
    ordersWithoutAnswer: orders.filter((order) => !answeredKeys.has(order.key)).length,
    /** More than one order for one buyer's key (must be 0; a unique index forbids it). */
    doubledOrders: orders.length - new Set(orders.map((order) => order.key)).size,
    emails,
    /** Confirmation jobs of this sale tried more than once: the ones the killed worker had in hand (or that expired). */
    confirmationJobsTriedAgain: retriedJobs.rows[0]!.n,
    /** Paid orders whose timeline lacks its "email sent" line although the email went out. */
    timelineEmailLinesMissing: orders.filter((order) => order.status === 'paid' && order.timeline_emails === 0).length,
    jobExpireSeconds: expiry,
    serversJobExpireSeconds: serversExpiry,
  };
  console.log(`sale with kills: ${JSON.stringify({ ...figures, emails: undefined })}`);
  return { ...figures, invariants: await invariantsAfter(run, 'sale with kills') };
}
