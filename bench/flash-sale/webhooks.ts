// bench/flash-sale/webhooks.ts: `npm run bench:flash-sale-webhooks`; see bench/README.md.
//
// The flash sale's throughput run (free orders of one hot ticket type, 200 connections, each order
// by another signed-in buyer) twice on the same server and database: first with no webhook, then
// with one endpoint subscribed to `order.created`, a receiver on this machine that checks every
// signature with the standardwebhooks package. Targets: the second run's orders per second at least
// 0.9 × the first's, and the last webhook within 10 s of the last order.
//
// Environment: BENCH_DATABASE_URL, BENCH_SECONDS (8), BENCH_BUYERS (2000), BENCH_CONNECTIONS (200),
// BENCH_WEBHOOK_WAIT_SECONDS (60), BENCH_LABEL.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { call } from '../support/callable';
import { cleanupOnExit } from '../support/cleanup';
import { checkInvariants } from '../support/invariants';
import { loadAverage, machine } from '../support/machine';
import { adminDatabaseUrl, numberOption, textOption } from '../support/options';
import { createOrganization, createPeople, inTurn } from '../support/people';
import { writeResult } from '../support/results';
import { orderRequest } from '../support/sale-event';
import { createScratchDatabase } from '../support/scratch-database';
import { startServer } from '../support/server';
import { asBrowser } from '../support/sign-in';
import { round } from '../support/stats';
import { buyersOpenTheirPages, describe, newSale, timedRun, warmUp, type Run, type Target } from './runs';

const seconds = numberOption('BENCH_SECONDS', 8);
const buyerCount = numberOption('BENCH_BUYERS', 2_000);
const webhookWaitSeconds = numberOption('BENCH_WEBHOOK_WAIT_SECONDS', 60);
const label = textOption('BENCH_LABEL');
const concurrency = numberOption('BENCH_CONNECTIONS', 200);
const targets = { throughputRatio: 0.9, lastWebhookWithinMs: 10_000 };

/** A webhook receiver: when each order's `order.created` arrived, and how many signatures failed. */
async function startReceiver() {
  const arrivals = new Map<string, number>();
  let deliveries = 0;
  let badSignatures = 0;
  let secret = '';
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      deliveries++;
      try {
        new Webhook(secret).verify(body, request.headers as Record<string, string>);
      } catch {
        badSignatures++;
      }
      const { data } = JSON.parse(body) as { data: { id: string } };
      if (!arrivals.has(data.id)) arrivals.set(data.id, Date.now());
      response.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    setSecret: (value: string) => (secret = value),
    arrivals,
    counts: () => ({ deliveries, badSignatures }),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

async function main() {
  const loadAverageAtStart = loadAverage();
  const cleanup = cleanupOnExit();
  try {
    const database = await createScratchDatabase(adminDatabaseUrl());
    cleanup.add('drop the scratch database', () => database.drop());
    const server = await startServer({
      env: { DATABASE_URL: database.url, TRUST_PROXY: 'true', WEBHOOKS_ALLOW_PRIVATE: 'true' },
    });
    cleanup.add('stop the server', () => server.stop());
    const receiver = await startReceiver();
    cleanup.add('stop the receiver', () => receiver.close());
    const pool = new pg.Pool({ connectionString: database.url, max: 3 });
    cleanup.add('close the pool', () => pool.end());
    const { organizer, organizationId } = await createOrganization(server.url, database.url, 'Bench Webhooks');
    const buyers = await createPeople(database.url, buyerCount, 'buyer', { mail: 'deliverable' });
    const run: Run = {
      databaseUrl: database.url,
      pool,
      organizer,
      organizationId,
      buyers,
      nextBuyer: inTurn(buyers),
      emailWaitSeconds: 60,
      saleEvents: [],
    };
    const target: Target = {
      url: server.url,
      signIn: asBrowser({ origin: server.publicUrl, forwardedFor: true }),
      processes: () => ({ server: [server.process.pid!] }),
    };
    await buyersOpenTheirPages(target, buyers);

    const sale = async (title: string) => {
      const hot = await newSale(run, server.url, title, 1_000_000);
      await warmUp(run, target, hot);
      const timed = await timedRun(run, target, concurrency, seconds, () => orderRequest(hot, run.nextBuyer(), target.signIn));
      describe(`orders.create (free), ${title}`, timed);
      return { hot, timed };
    };

    // The first sale on a fresh server and database runs slower than the next ones whatever they
    // do (tables and indexes growing, caches filling): one sale, not counted, comes first, so the two
    // measured ones differ only by the endpoint.
    await sale('Settling the machine (not counted)');
    const without = await sale('Without webhooks');
    const endpoint = await call<{ endpointId: string; secret: string }>(server.url, organizer, 'webhooks.create', {
      organizationId,
      url: receiver.url,
      eventTypes: ['order.created'],
    });
    receiver.setSecret(endpoint.secret);
    const withWebhook = await sale('With a webhook');

    // Every order of the second sale (its warm-up's too) must reach the receiver.
    const { rows } = await pool.query<{ id: string }>(`select id from "order" where event_id = $1`, [withWebhook.hot.eventId]);
    const deadline = Date.now() + webhookWaitSeconds * 1000;
    while (rows.some((row) => !receiver.arrivals.has(row.id)) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 50));
    const missing = rows.filter((row) => !receiver.arrivals.has(row.id)).length;
    const lastArrival = Math.max(...rows.map((row) => receiver.arrivals.get(row.id) ?? 0));
    const lastWebhookAfterLastOrderMs = missing === 0 ? lastArrival - withWebhook.timed.lastOrderAnswerAt : null;
    const ratio = withWebhook.timed.perSecond / Math.max(1, without.timed.perSecond);
    const figures = {
      withoutWebhooks: { ...without.timed, lastOrderAnswerAt: undefined },
      withOneWebhook: { ...withWebhook.timed, lastOrderAnswerAt: undefined },
      webhooks: {
        orders: rows.length,
        received: receiver.arrivals.size,
        missing,
        ...receiver.counts(),
        lastWebhookAfterLastOrderMs,
      },
      headline: {
        ordersPerSecondWithout: without.timed.perSecond,
        ordersPerSecondWith: withWebhook.timed.perSecond,
        throughputRatio: round(ratio),
        lastWebhookAfterLastOrderMs,
        meets: {
          throughputRatio: ratio >= targets.throughputRatio,
          lastWebhook: lastWebhookAfterLastOrderMs !== null && lastWebhookAfterLastOrderMs <= targets.lastWebhookWithinMs,
        },
      },
      invariants: await checkInvariants(pool),
    };
    console.log(`webhooks headline: ${JSON.stringify(figures.headline)}; ${JSON.stringify(figures.webhooks)}`);
    writeResult('flash-sale-webhooks', {
      label,
      machine: await machine({
        loadAverageAtStart,
        note: 'the server, PostgreSQL, the load generator and the receiver share these cores, and so does any other work',
        databaseUrl: database.url,
      }),
      inputs: { seconds, buyers: buyerCount, concurrency, targets, order: 'free, one ticket, each by another signed-in buyer' },
      figures,
    });
    if (missing > 0 || receiver.counts().badSignatures > 0) process.exitCode = 1;
  } finally {
    await cleanup.run();
  }
}

await main();
