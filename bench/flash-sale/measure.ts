import { readdirSync, readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';

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
  /** Keep the first few non-200 bodies (reads every body, so only where the run is about correctness). */
  sampleErrors?: boolean;
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
  latencyMs: Latency;
  errorSamples: string[];
}

export interface Latency {
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

/**
 * Drives the server with autocannon (DESIGN §5's load tool: raw sockets and a small HTTP parser, so
 * the client costs little of the CPU the server and PostgreSQL share on this machine). Latency
 * percentiles are computed here from every response time autocannon reports, because its own
 * summary has p50/p90/p97.5/p99 but no p95.
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
    ...(options.sampleErrors
      ? {
          onResponse: (status: number, body: string) => {
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
        timeout: 300,
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
    latencyMs: latencyOf(latencies),
    errorSamples,
  };
}

export function latencyOf(samples: number[]): Latency {
  if (samples.length === 0) return { p50: 0, p95: 0, p99: 0, max: 0, mean: 0 };
  const sorted = Float64Array.from(samples).sort();
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
  const round = (value: number) => Math.round(value * 10) / 10;
  const mean = sorted.reduce((sum, value) => sum + value, 0) / sorted.length;
  return { p50: round(at(0.5)), p95: round(at(0.95)), p99: round(at(0.99)), max: round(sorted.at(-1)!), mean: round(mean) };
}

export interface HotRowRate {
  clientsRequested: number;
  clients: number;
  seconds: number;
  updates: number;
  tps: number;
}

/**
 * The raw rate of one hot row: `clients` connections, each sending the conditional capacity update
 * (autocommit, prepared) as fast as it can. This is the ceiling any order path on one ticket type
 * shares. PostgreSQL refuses connections past max_connections, so more clients than it has free
 * slots are capped (and the cap is reported).
 */
export async function measureHotRow(
  databaseUrl: string,
  ticketTypeId: string,
  clientsRequested: number,
  seconds: number,
): Promise<HotRowRate> {
  const probe = new pg.Client({ connectionString: databaseUrl });
  await probe.connect();
  const { rows } = await probe.query<{ free: number }>(
    `select current_setting('max_connections')::int - count(*)::int as free from pg_stat_activity where backend_type = 'client backend'`,
  );
  await probe.end();
  // Leave a few slots for the server's pool growing and for anything else using this PostgreSQL.
  const clients = Math.max(1, Math.min(clientsRequested, rows[0]!.free - 8));
  const connections = await Promise.all(
    Array.from({ length: clients }, async () => {
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      return client;
    }),
  );
  const query = {
    name: 'hot-row',
    text: 'UPDATE ticket_type SET sold = sold + 1 WHERE id = $1 AND sold + held + 1 <= capacity',
    values: [ticketTypeId],
  };
  let updates = 0;
  const started = performance.now();
  const until = started + seconds * 1000;
  try {
    await Promise.all(
      connections.map(async (client) => {
        while (performance.now() < until) {
          const result = await client.query(query);
          if (result.rowCount !== 1) throw new Error('the hot row ran out of capacity: raise it');
          updates++;
        }
      }),
    );
  } finally {
    await Promise.all(connections.map((client) => client.end()));
  }
  const elapsed = (performance.now() - started) / 1000;
  return { clientsRequested, clients, seconds: elapsed, updates, tps: Math.round(updates / elapsed) };
}

/** CPU seconds used so far by the server process, all PostgreSQL processes, this process, and the whole machine. */
export interface CpuSample {
  at: number;
  server: number;
  postgres: number;
  bench: number;
  machineBusy: number;
}

const ticksPerSecond = 100; // USER_HZ on Linux

function processCpuSeconds(pid: number | string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces, hence the last ')'): utime is 14th, stime 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / ticksPerSecond;
  } catch {
    return 0; // the process ended between listing and reading
  }
}

function postgresCpuSeconds(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') total += processCpuSeconds(entry);
    } catch {
      // gone, or not ours to read
    }
  }
  return total;
}

function machineBusySeconds(): number {
  const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: everything but idle and iowait is busy.
  const busy = cpu.reduce((sum, value, index) => (index === 3 || index === 4 ? sum : sum + value), 0);
  return busy / ticksPerSecond;
}

export function sampleCpu(serverPid: number): CpuSample {
  const own = process.cpuUsage();
  return {
    at: performance.now(),
    server: processCpuSeconds(serverPid),
    postgres: postgresCpuSeconds(),
    bench: (own.user + own.system) / 1e6,
    machineBusy: machineBusySeconds(),
  };
}

/**
 * Where the CPU went between two samples, in cores (1.0 = one core busy all the time). PostgreSQL
 * counts every postgres process on the machine, so other work on the same server shows up there.
 */
export function cpuBetween(before: CpuSample, after: CpuSample) {
  const seconds = (after.at - before.at) / 1000;
  const cores = (a: number, b: number) => Math.round(((b - a) / seconds) * 100) / 100;
  return {
    serverCores: cores(before.server, after.server),
    postgresCores: cores(before.postgres, after.postgres),
    loadGeneratorCores: cores(before.bench, after.bench),
    machineBusyCores: cores(before.machineBusy, after.machineBusy),
    /** Busy cores not accounted for by the three above: anything else running on the machine. */
    otherCores: cores(
      before.machineBusy - before.server - before.postgres - before.bench,
      after.machineBusy - after.server - after.postgres - after.bench,
    ),
  };
}

/**
 * Samples what the server's PostgreSQL sessions are doing (pg_stat_activity) every few ms until
 * stopped: the share of samples per state and wait event says where an order's time goes in the
 * database: waiting for a row lock (Lock), for the WAL flush of a commit (IO:WALSync / LWLock:WALWrite),
 * for the Node server's next statement inside a transaction (idle in transaction · Client:ClientRead),
 * or running (active, no wait).
 */
export function sampleSessions(databaseUrl: string, everyMs = 20) {
  const client = new pg.Client({ connectionString: databaseUrl });
  const counts = new Map<string, number>();
  let samples = 0;
  let stopped = false;
  const loop = (async () => {
    await client.connect();
    while (!stopped) {
      const { rows } = await client.query<{ what: string; n: number }>(
        `select state || coalesce(' · ' || wait_event_type || ':' || wait_event, '') as what, count(*)::int as n
         from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid() and backend_type = 'client backend'
           and query not like 'LISTEN%' and state <> 'idle'
         group by 1`,
      );
      samples++;
      for (const row of rows) counts.set(row.what, (counts.get(row.what) ?? 0) + row.n);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
    await client.end();
  })();
  return {
    /** Average number of sessions in each state (out of the pool's connections), busiest first. */
    async stop() {
      stopped = true;
      await loop;
      return Object.fromEntries(
        [...counts.entries()]
          .sort((a, b) => b[1] - a[1])
          .map(([what, total]) => [what, Math.round((total / Math.max(1, samples)) * 100) / 100]),
      );
    },
  };
}

/**
 * The kernel's count of connections dropped because a listening socket's accept queue was full
 * (TcpExt ListenOverflows, machine-wide): a rush of new connections beyond the server's listen
 * backlog shows up here, and such buyers end with a reset connection instead of an answer.
 */
export function listenOverflows(): number {
  const lines = readFileSync('/proc/net/netstat', 'utf8').split('\n');
  const header = lines.findIndex((line) => line.startsWith('TcpExt:'));
  const names = lines[header]?.split(/\s+/) ?? [];
  const values = lines[header + 1]?.split(/\s+/) ?? [];
  return Number(values[names.indexOf('ListenOverflows')] ?? 0);
}
