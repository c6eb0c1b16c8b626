import autocannon from 'autocannon';
import { percentiles, type Percentiles } from './stats';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadOptions {
  url: string;
  connections: number;
  /** Either a fixed number of requests (one per connection when equal to `connections`) or a duration. */
  amount?: number;
  seconds?: number;
  /** Called once per request: each request can be another buyer with its own idempotency key. */
  next(): LoadRequest;
  /** How long one request may take before autocannon gives up on it and sends it again (default 300 s). */
  timeoutSeconds?: number;
  /** At most this many requests a second over all connections (default: as fast as answered). */
  overallRate?: number;
  /** Called as each answer arrives, with its HTTP status (e.g. to stamp when an order committed). */
  onAnswer?(status: number): void;
  /** Keep the first few non-200 bodies (reads every body, so only where the run is about correctness). */
  sampleErrors?: boolean;
  /** Called with every answer's status and body (reads every body, so only where the run is about correctness). */
  onBody?(status: number, body: string): void;
}

export interface LoadResult {
  seconds: number;
  responses: number;
  /** Responses by HTTP status, e.g. { "200": 100, "429": 1900 }. */
  statuses: Record<string, number>;
  /** Connection errors and timeouts (no HTTP answer at all). */
  transportErrors: number;
  /** The same, by error code (ECONNRESET, ...). */
  transportErrorKinds: Record<string, number>;
  /** True when the run did not end by itself and was stopped (see runLoad). */
  stoppedByWatchdog: boolean;
  latencyMs: Percentiles;
  errorSamples: string[];
}

/**
 * Drives the server with autocannon: raw sockets and a small HTTP parser, so the client costs
 * little of the CPU the server and PostgreSQL share on this machine. Latency percentiles are
 * computed here from every response time autocannon reports, because its own summary has
 * p50/p90/p97.5/p99 but no p95.
 */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const latencies: number[] = [];
  const statuses: Record<string, number> = {};
  const errorSamples: string[] = [];
  const transportErrorKinds: Record<string, number> = {};
  let stoppedByWatchdog = false;
  const request: autocannon.Request = {
    setupRequest: (current) => {
      const next = options.next();
      return { ...current, method: next.method, path: next.path, headers: next.headers ?? {}, body: next.body ?? '' };
    },
    ...(options.sampleErrors || options.onBody
      ? {
          onResponse: (status: number, body: string) => {
            options.onBody?.(status, body);
            if (!options.sampleErrors) return;
            // The first two answers of each status other than 200.
            const seen = errorSamples.filter((sample) => sample.startsWith(`${status} `)).length;
            if (status !== 200 && seen < 2) errorSamples.push(`${status} ${body.slice(0, 300)}`);
          },
        }
      : {}),
  };
  const started = performance.now();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url: options.url,
        connections: options.connections,
        ...(options.amount !== undefined ? { amount: options.amount } : { duration: options.seconds ?? 10 }),
        // A buyer at the back of a 10,000-person queue waits long; a timeout would resend their order.
        timeout: options.timeoutSeconds ?? 300,
        ...(options.overallRate ? { overallRate: options.overallRate } : {}),
        requests: [request],
      },
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    // autocannon waits for every connection to reach its count; one that keeps failing would hold
    // the run forever, so a watchdog stops it (and says so in the result).
    const watchdog = setTimeout(
      () => {
        stoppedByWatchdog = true;
        instance.stop();
      },
      (options.amount !== undefined ? 600 : (options.seconds ?? 10) + 120) * 1000,
    );
    instance.on('done', () => clearTimeout(watchdog));
    instance.on('reqError', (error: NodeJS.ErrnoException) => {
      const kind = error.code ?? error.message;
      transportErrorKinds[kind] = (transportErrorKinds[kind] ?? 0) + 1;
    });
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      options.onAnswer?.(statusCode);
      latencies.push(responseTime);
      statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
    });
  });
  const seconds = (performance.now() - started) / 1000;
  return {
    seconds,
    responses: latencies.length,
    statuses,
    transportErrors: result.errors + result.timeouts,
    transportErrorKinds,
    stoppedByWatchdog,
    latencyMs: percentiles(latencies),
    errorSamples,
  };
}
