import { once } from 'node:events';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { createEvent, publishEvent } from '@admit/shared/events';
import { createOrder } from '@admit/shared/orders';
import { createOrg } from '@admit/shared/orgs';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createOrgAs, createPublishedEvent, eventInput } from '../../testing/fixtures';
import { openLive, watch } from '../../testing/live-watch';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { loadConfig } from '../config';
import { LiveHub } from '../live/live-hub';
import { registerMetrics } from './metrics';

// GET /metrics through the whole server: what an operator's Prometheus reads, and who may read it
// (decision 0033).

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Values are Go floats: NaN and Inf in any case (prom-client writes an event loop without samples as `Nan`). */
const specialValues = new Map([
  ['nan', NaN],
  ['+inf', Infinity],
  ['-inf', -Infinity],
]);

/** Reads Prometheus's text format strictly: every line is a comment, a sample of a declared family, or empty. */
function parsePrometheusText(text: string) {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const comment = /^# (HELP|TYPE) ([a-zA-Z_:][\w:]*) (.+)$/.exec(line);
    if (comment) {
      if (comment[1] === 'TYPE') types.set(comment[2]!, comment[3]!);
      continue;
    }
    const sample = /^([a-zA-Z_:][\w:]*)(?:\{((?:[a-zA-Z_]\w*="(?:[^"\\]|\\.)*",?)*)\})? (-?[\d.e+-]+|NaN|[+-]Inf)$/i.exec(line);
    if (!sample) throw new Error(`not a line of Prometheus text: ${line}`);
    const [, name, labelText = '', value] = sample;
    const family = name!.replace(/_(bucket|sum|count)$/, '');
    if (!types.has(name!) && !types.has(family)) throw new Error(`a sample of no declared family: ${line}`);
    const labels = Object.fromEntries([...labelText.matchAll(/([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]));
    samples.push({ name: name!, labels, value: specialValues.get(value!.toLowerCase()) ?? Number(value) });
  }
  return { types, samples };
}

/** The value of the sample with exactly these labels, or undefined. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}) {
  const wanted = Object.entries(labels);
  return samples.find(
    (sample) =>
      sample.name === name &&
      Object.keys(sample.labels).length === wanted.length &&
      wanted.every(([key, value]) => sample.labels[key] === value),
  )?.value;
}

let t: TestApp;
let baseUrl: string;

async function scrape() {
  const response = await t.app.inject({ method: 'GET', url: '/metrics' });
  expect(response.statusCode).toBe(200);
  return parsePrometheusText(response.body).samples;
}

describe('GET /metrics without METRICS_TOKEN, outside production', () => {
  const sockets: { close(): void }[] = [];

  beforeAll(async () => {
    t = await createTestApp({ env: { LIVE_MAX_SOCKETS_PER_ADDRESS: '2' } });
    baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterEach(() => sockets.splice(0).forEach((socket) => socket.close()));
  afterAll(() => t?.close());

  it('counts each callable by its name and outcome code, with its latency, and no name that is not a callable', async () => {
    const owner = await t.signUp();
    const { organizationId } = await createOrgAs(t, owner.cookie);
    await createOrgAs(t, owner.cookie, 'Early Birds');
    const { body } = await t.call(createEvent, eventInput(organizationId), owner.cookie);
    const { eventId } = body.result;
    // No ticket types yet: failed-precondition, which shares its HTTP status (400) with invalid-argument.
    expect((await t.call(publishEvent, { eventId }, owner.cookie)).status).toBe(400);
    expect((await t.callWithAnyInput(createEvent, { organizationId }, owner.cookie)).status).toBe(400);
    expect((await t.call(createOrg, { name: 'Nobody signed in' })).status).toBe(401);
    const unknown = await t.app.inject({ method: 'POST', url: `/fn/nothing.${eventId}`, payload: {} });
    expect(unknown.statusCode).toBe(404);

    const samples = await scrape();

    const count = (callable: string, code: string) =>
      valueOf(samples, 'admit_callable_duration_seconds_count', { callable, code });
    expect(count('orgs.create', 'ok')).toBe(2);
    expect(count('orgs.create', 'unauthenticated')).toBe(1);
    expect(count('events.create', 'ok')).toBe(1);
    expect(count('events.create', 'invalid-argument')).toBe(1);
    expect(count('events.publish', 'failed-precondition')).toBe(1);
    // The histogram: cumulative buckets up to +Inf, which holds every call, and the seconds they took.
    const bucket = (le: string) =>
      valueOf(samples, 'admit_callable_duration_seconds_bucket', { le, callable: 'orgs.create', code: 'ok' });
    expect(bucket('60')).toBe(2);
    expect(bucket('+Inf')).toBe(2);
    expect(bucket('0.005')).toBeLessThanOrEqual(bucket('0.1')!);
    expect(valueOf(samples, 'admit_callable_duration_seconds_sum', { callable: 'orgs.create', code: 'ok' })).toBeGreaterThan(0);
    // What a client makes up never becomes a label: neither the unknown name nor any id.
    const labelValues = samples.flatMap((sample) => Object.values(sample.labels));
    expect(labelValues.filter((value) => value.includes('nothing.') || value.includes(eventId))).toEqual([]);
    expect(valueOf(samples, 'admit_http_requests_total', { method: 'POST', route: '/fn/:name', status: '404' })).toBe(1);
    expect(valueOf(samples, 'admit_http_requests_total', { method: 'POST', route: '/fn/:name', status: '200' })).toBe(3);
    expect(valueOf(samples, 'admit_http_request_duration_seconds_count', { method: 'POST', route: '/fn/:name' })).toBe(7);
  });

  it('counts the analytics beacons queued and written', async () => {
    const owner = await t.signUp();
    const { eventId } = await createPublishedEvent(t, owner.cookie);
    const before = valueOf(await scrape(), 'admit_analytics_beacons_written_total') ?? 0;
    for (let n = 0; n < 3; n++)
      await fetch(`${baseUrl}/a`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: JSON.stringify({ eventId, step: 'view' }),
      });
    // Each is queued, or written already if the buffer's timer (every second) went off meanwhile.
    const queued = await scrape();
    expect(
      (valueOf(queued, 'admit_analytics_beacons_queued') ?? 0) +
        (valueOf(queued, 'admit_analytics_beacons_written_total') ?? 0) -
        before,
    ).toBe(3);
    await t.app.beacons.flush();
    const samples = await scrape();
    expect(valueOf(samples, 'admit_analytics_beacons_queued')).toBe(0);
    expect(valueOf(samples, 'admit_analytics_beacons_written_total')).toBe(before + 3);
    expect(valueOf(samples, 'admit_analytics_beacons_dropped_total')).toBe(0);
  });

  it('shows the live sockets open and their subscriptions, and counts the sockets refused', async () => {
    const owner = await t.signUp();
    const { eventId } = await createPublishedEvent(t, owner.cookie);
    const watching = await watch(baseUrl, 'events.availability', { eventId });
    sockets.push(watching);
    const idle = await openLive(baseUrl);
    sockets.push(idle.socket);
    // A third socket from this address is one too many (LIVE_MAX_SOCKETS_PER_ADDRESS=2).
    const refused = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/live`);
    refused.on('error', () => {});
    const [, response] = (await once(refused, 'unexpected-response')) as [unknown, IncomingMessage];
    expect(response.statusCode).toBe(429);
    refused.terminate();

    const samples = await scrape();

    expect(valueOf(samples, 'admit_live_sockets')).toBe(2);
    expect(valueOf(samples, 'admit_live_subscriptions')).toBe(1);
    // The scrape itself is the one request under way: a socket is not one.
    expect(valueOf(samples, 'admit_http_requests_in_flight')).toBe(1);
    expect(valueOf(samples, 'admit_live_sockets_refused_total')).toBe(1);
    // The refused upgrade is a request answered 429; the sockets are counted as sockets.
    expect(samples.filter((sample) => sample.name === 'admit_http_requests_total' && sample.labels.route === '/live')).toEqual([
      { name: 'admit_http_requests_total', labels: { method: 'GET', route: '/live', status: '429' }, value: 1 },
    ]);

    sockets.splice(0).forEach((socket) => socket.close());
    await expect.poll(async () => valueOf(await scrape(), 'admit_live_sockets')).toBe(0);
    const closed = await scrape();
    expect(valueOf(closed, 'admit_live_subscriptions')).toBe(0);
    expect(valueOf(closed, 'admit_http_request_duration_seconds_count', { method: 'GET', route: '/live' })).toBe(1);
  });

  it('shows every job queue, an empty one at 0, and not a hold that ends later as a backlog, read at most once in five seconds', async () => {
    const [owner, buyer] = [await t.signUp(), await t.signUp()];
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, {
      ticketTypes: [{ capacity: 10, price: 2500 }],
    });
    const waiting = async (queue: string) => valueOf(await scrape(), 'admit_job_queue_waiting', { queue });
    const before = await scrape();
    expect(valueOf(before, 'admit_job_queue_waiting', { queue: 'orgs.sendInvitation' })).toBe(0);
    expect(valueOf(before, 'admit_job_queue_oldest_waiting_seconds', { queue: 'orgs.sendInvitation' })).toBe(0);
    expect(valueOf(before, 'admit_job_queue_active', { queue: 'orders.expireHold' })).toBeTypeOf('number');

    const order = await t.call(createOrder, { eventId, lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 1 }] }, buyer.cookie);
    expect(order.body.result.status).toBe('pending');
    const [hold] = (
      await t.database.execute(`select state from pgboss.job where name = 'orders.expireHold' and data->>'orderId' = $1`, [
        order.body.result.orderId,
      ])
    ).rows;
    expect(hold).toEqual({ state: 'created' });
    // Scrapes within five seconds are answered from one read…
    expect(await Promise.all([waiting('orders.expireHold'), waiting('orders.expireHold')])).toEqual([0, 0]);
    // …and a read after that still shows no backlog: the hold's job is not due for ten minutes.
    await new Promise((resolve) => setTimeout(resolve, 5_200));
    expect(await waiting('orders.expireHold')).toBe(0);
  });

  it('counts a call whose caller went away before the answer as cancelled, and its request as 499', async () => {
    const buyer = await t.signUp();
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, (await t.signUp()).cookie);
    // The event's row locked, as by another order: the call waits in the database.
    let unlock!: () => void;
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const lock = t.db.transaction(async (tx) => {
      await tx.execute(sql`select id from event where id = ${eventId} for update`);
      locked();
      await new Promise<void>((resolve) => (unlock = resolve));
    });
    await lockTaken;
    const arrived = once(t.app.server, 'request');
    const request = http.request(`${baseUrl}/fn/orders.create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: buyer.cookie },
    });
    request.on('error', () => {});
    request.end(JSON.stringify({ data: { eventId, lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 1 }] } }));
    const [, answer] = (await arrived) as [unknown, ServerResponse];

    request.destroy();
    // The server has seen the caller go while the call still waits.
    await once(answer, 'close');
    unlock();
    await lock;

    await expect
      .poll(async () =>
        valueOf(await scrape(), 'admit_callable_duration_seconds_count', { callable: 'orders.create', code: 'cancelled' }),
      )
      .toBe(1);
    expect(valueOf(await scrape(), 'admit_http_requests_total', { method: 'POST', route: '/fn/:name', status: '499' })).toBe(1);
  });

  it('reports the database pool’s clients on PostgreSQL, and no pool on the embedded PGlite', async () => {
    const samples = await scrape();

    expect(valueOf(samples, 'admit_database_info', { kind: t.database.kind })).toBe(1);
    const pool = (name: string) => valueOf(samples, name, { pool: 'main' });
    if (t.database.kind === 'pglite') {
      expect(samples.filter((sample) => sample.name.startsWith('admit_db_pool_'))).toEqual([]);
    } else {
      expect(pool('admit_db_pool_max_clients')).toBe(20);
      expect(pool('admit_db_pool_clients')).toBeGreaterThanOrEqual(1);
      expect(pool('admit_db_pool_idle_clients')).toBeLessThanOrEqual(pool('admit_db_pool_clients')!);
      expect(pool('admit_db_pool_waiting')).toBe(0);
    }
  });

  it('answers in Prometheus text, with Node’s own process metrics', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics' });

    expect(response.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers['cache-control']).toBe('no-store');
    const { types, samples } = parsePrometheusText(response.body);
    expect(types.get('admit_callable_duration_seconds')).toBe('histogram');
    expect(types.get('admit_http_requests_total')).toBe('counter');
    expect(types.get('admit_live_sockets')).toBe('gauge');
    expect(types.get('admit_live_sockets_refused_total')).toBe('counter');
    expect(types.get('admit_job_queue_waiting')).toBe('gauge');
    expect(response.body).toMatch(/^# HELP admit_live_sockets .+$/m);
    expect(valueOf(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('refuses another machine, and a request a proxy forwarded, since this machine may read it only directly', async () => {
    const remote = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    const forwarded = await t.app.inject({ method: 'GET', url: '/metrics', headers: { 'x-forwarded-for': '203.0.113.9' } });

    for (const response of [remote, forwarded]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        error: { status: 'PERMISSION_DENIED', message: expect.stringContaining('METRICS_TOKEN') },
      });
      expect(response.body).not.toContain('admit_');
    }
  });
});

describe('who may read GET /metrics when METRICS_TOKEN is set, or in production', () => {
  const token = 'metrics-token-0123456789-abcdefghij';

  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: token } });
  });
  afterAll(() => t?.close());

  it('answers while the job table is locked, with every figure but the queues’, which wait for the next scrape', async () => {
    let unlock!: () => void;
    let locked!: () => void;
    const lockTaken = new Promise<void>((resolve) => (locked = resolve));
    const lock = t.db.transaction(async (tx) => {
      await tx.execute(sql`lock table pgboss.job in access exclusive mode`);
      locked();
      await new Promise<void>((resolve) => (unlock = resolve));
    });
    await lockTaken;

    const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
    unlock();
    await lock;

    expect(response.statusCode).toBe(200);
    const { samples } = parsePrometheusText(response.body);
    expect(samples.filter((sample) => sample.name.startsWith('admit_job_queue_'))).toEqual([]);
    expect(valueOf(samples, 'admit_live_sockets')).toBe(0);
    expect(valueOf(samples, 'admit_database_info', { kind: t.database.kind })).toBe(1);
  });

  it('is served only with Authorization: Bearer <METRICS_TOKEN>, also to this machine', async () => {
    const read = (authorization?: string) =>
      t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

    for (const refused of [await read(), await read(`Bearer ${token}x`), await read(`Basic ${token}`), await read('Bearer')]) {
      expect(refused.statusCode).toBe(401);
      expect(refused.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(refused.json()).toMatchObject({ error: { status: 'UNAUTHENTICATED' } });
    }
    const allowed = await read(`Bearer ${token}`);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.body).toMatch(/^admit_live_sockets 0$/m);
  });

  it('answers a path below /metrics as an unknown API path, never with the web app', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/metrics/extra' });

    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { status: 'NOT_FOUND', message: 'Not found' } });
  });

  it('is not served at all in production without METRICS_TOKEN, and nothing is measured', async () => {
    const config = { ...loadConfig({ NODE_ENV: 'test' }), NODE_ENV: 'production' as const };
    const app = Fastify({ logger: false });
    const hub = new LiveHub(t.database, [], app.log, {
      maxBufferedBytes: 65_536,
      maxSubscriptionsPerSocket: 1,
      maxSocketsPerAddress: 1,
      maxSocketsPerAccount: 1,
    });

    const metrics = registerMetrics(app, {
      config,
      database: t.database,
      live: hub,
      jobs: t.jobs,
      queues: [],
      requestsUnderWay: () => 0,
      beacons: { stats: () => ({ queued: 0, written: 0, dropped: 0, limited: 0 }) },
    });

    expect(metrics.measureCallables).toBeUndefined();
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    await app.close();
  });
});
