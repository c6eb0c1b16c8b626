import { callableErrorCodeFromHttpStatus, callableErrorCodeOf } from '@admit/shared/callable';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../config';
import type { Database } from '../db/database';
import type { JobQueue } from '../jobs/job-queue';
import { sendError } from '../http/send-error';
import { collectDatabase, collectJobQueues, collectLive, type LiveStats } from './collectors';
import { metricsAccessOf, metricsRefusalOf } from './metrics-access';

// GET /metrics in Prometheus's text format, so that an operator sees a rush coming: callables and
// routes by rate, outcome and latency, live sockets, job queues, the database's pool, and Node's own
// figures. Every label has a bounded set of values: callable names that exist, route patterns, codes,
// queue names; never an id, a raw path or anything else a client chooses (decision 0033).

export interface MetricsSources {
  config: Config;
  database: Database;
  live: { stats(): LiveStats };
  jobs: Pick<JobQueue, 'depth'>;
  /** Every job queue's name, so that an empty queue is reported at 0. */
  queues: string[];
  /** HTTP requests this process is answering now (not /live sockets). */
  requestsUnderWay: () => number;
  /** The analytics beacons this process has queued, written and dropped (modules/analytics/beacons.ts). */
  beacons: { stats(): { queued: number; written: number; dropped: number; limited: number } };
}

/** Measures the calls of `registerCallables` (see CallableDeps.measure). */
export type MeasureCallables = (scope: FastifyInstance, isCallable: (name: string) => boolean) => void;

/** Seconds, from a read served at once to the callables' 60 s deadline. */
const durationBuckets = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * Serves GET /metrics to those metricsAccessOf allows and measures every request. With access
 * `off` (production without METRICS_TOKEN) nothing is measured and there is no route.
 */
export function registerMetrics(app: FastifyInstance, sources: MetricsSources): { measureCallables?: MeasureCallables } {
  const { config } = sources;
  if (metricsAccessOf(config) === 'off') return {};
  // A registry of this app's own: a process (or a test file) may build several apps.
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  measureRequests(app, registry);
  collectLive(registry, sources.live);
  new Gauge({
    name: 'admit_http_requests_in_flight',
    help: 'HTTP requests this process is answering now; from 16 on, its own job workers wait (a rush)',
    registers: [registry],
    collect() {
      this.set(sources.requestsUnderWay());
    },
  });
  collectJobQueues(registry, { jobs: sources.jobs, queues: sources.queues, log: app.log });
  collectDatabase(registry, sources.database);
  new Gauge({
    name: 'admit_analytics_beacons_queued',
    help: 'Analytics beacons taken and waiting for the next batch write (at most 50,000)',
    registers: [registry],
    collect() {
      this.set(sources.beacons.stats().queued);
    },
  });
  for (const [name, help, pick] of [
    ['admit_analytics_beacons_written_total', 'Analytics beacons written to the database', 'written'],
    [
      'admit_analytics_beacons_dropped_total',
      'Analytics beacons lost: the queue was full, a row could not be written, or its address brought too many visitors this minute',
      'dropped',
    ],
    [
      'admit_analytics_beacons_limited_total',
      'Analytics beacons dropped (and counted in dropped) because their address brought more new visitors in a minute than allowed',
      'limited',
    ],
  ] as const)
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(sources.beacons.stats()[pick]);
      },
    });

  app.get('/metrics', async (request, reply) => {
    const refusal = metricsRefusalOf(config, request);
    if (refusal) {
      if (refusal.code === 'unauthenticated') reply.header('www-authenticate', 'Bearer realm="metrics"');
      return sendError(reply, refusal.code, refusal.message);
    }
    const text = await registry.metrics();
    return reply.header('cache-control', 'no-store').type(registry.contentType).send(text);
  });

  const callableDuration = new Histogram({
    name: 'admit_callable_duration_seconds',
    help: 'Calls of callables (POST /fn/<name>) and how long each took, by callable and outcome: ok, or the error code (cancelled: the caller went away first)',
    labelNames: ['callable', 'code'],
    buckets: durationBuckets,
    registers: [registry],
  });
  return { measureCallables: (scope, isCallable) => measureCallables(scope, callableDuration, isCallable) };
}

const knownMethods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

function measureRequests(app: FastifyInstance, registry: Registry) {
  const requests = new Counter({
    name: 'admit_http_requests_total',
    help: 'HTTP requests other than WebSocket upgrades, by method, route pattern and status (499: the client went away before the answer)',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'admit_http_request_duration_seconds',
    help: 'How long HTTP requests other than WebSocket upgrades took, by method and route pattern',
    labelNames: ['method', 'route'],
    buckets: durationBuckets,
    registers: [registry],
  });
  whenDone(app, (request, reply, seconds) => {
    const answered = reply.raw.writableEnded;
    // Handed over without an answer (reply.hijack): a WebSocket upgrade of /live, whose connection
    // ends only with the socket. admit_live_sockets counts those; a refused upgrade is a 429 here.
    if (!answered && reply.sent) return;
    const labels = { method: knownMethods.has(request.method) ? request.method : 'other', route: routeOf(request) };
    // 499: the client went away before the answer (nginx's code, and the protocol's `cancelled`).
    requests.inc({ ...labels, status: answered ? String(reply.statusCode) : '499' });
    durations.observe(labels, seconds);
  });
}

/**
 * Calls `done` once for each request, when its connection is done with it: answered, handed over,
 * or closed before the answer by a client that went away. Fastify's onResponse would miss the
 * last, and a rush of people giving up is what these figures are for.
 */
function whenDone(instance: FastifyInstance, done: (request: FastifyRequest, reply: FastifyReply, seconds: number) => void) {
  instance.addHook('onRequest', async (request, reply) => {
    const started = performance.now();
    reply.raw.once('close', () => done(request, reply, (performance.now() - started) / 1000));
  });
}

/**
 * The route's pattern (`/fn/:name`, `/files/orders/:orderId/tickets.pdf`). The web app's files are
 * each a route of @fastify/static, which marks them with `config.file`: one label for all of them.
 * What no route matched (the web app's own paths, unknown paths) is `(unmatched)`.
 */
function routeOf(request: FastifyRequest): string {
  const { url, config } = request.routeOptions;
  if (url === undefined) return '(unmatched)';
  if ((config as { file?: unknown }).file !== undefined) return '(web app file)';
  return url;
}

function measureCallables(
  scope: FastifyInstance,
  duration: Histogram<'callable' | 'code'>,
  isCallable: (name: string) => boolean,
) {
  // The outcome is read from the answer's body, which the protocol fixes (docs/contracts.md):
  // `{result}` on success, `{error: {status}}` with the code's wire name otherwise.
  const outcomes = new WeakMap<FastifyRequest, string>();
  scope.addHook('preSerialization', async (request, _reply, payload) => {
    if (typeof payload === 'object' && payload !== null) {
      if ('result' in payload) outcomes.set(request, 'ok');
      else if ('error' in payload) outcomes.set(request, callableErrorCodeOf((payload.error as { status?: unknown }).status));
    }
    return payload;
  });
  whenDone(scope, (request, reply, seconds) => {
    const { name } = request.params as { name?: string };
    // Only names of callables: whatever name a client sends, the label set stays bounded.
    if (name === undefined || !isCallable(name)) return;
    const code = !reply.sent
      ? 'cancelled'
      : (outcomes.get(request) ?? (reply.statusCode === 200 ? 'ok' : callableErrorCodeFromHttpStatus(reply.statusCode)));
    duration.observe({ callable: name, code }, seconds);
  });
}
