// Admit as it runs on several machines, on this one: HAProxy in front of N stateless web processes
// (JOB_WORKERS=off), PgBouncer in transaction mode between them and PostgreSQL, and M worker
// processes (`npm run worker`) running the background jobs. HAProxy and PgBouncer run as child
// processes with config files written from deploy/haproxy.cfg and deploy/pgbouncer.ini into a temp
// dir, on free ports. See deploy/README.md; `npm run topology:start` and `npm run topology:check`
// (deploy/run.ts), and bench/flash-sale, which measures through it.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, requireProgram, startProcess, type Exit, type ManagedProcess } from './processes';

const deployDir = path.dirname(fileURLToPath(import.meta.url));
export const repositoryRoot = path.resolve(deployDir, '..');

export interface TopologyOptions {
  /** A database on the PostgreSQL server (postgres://user@host:port/name); the processes migrate it. */
  databaseUrl: string;
  /** Web processes to start (at least 1). */
  web: number;
  /** Places for web processes in HAProxy's backend, started or not (scaleWeb goes up to this). Default: `web`. */
  webSlots?: number;
  /** Worker processes (`npm run worker`). */
  workers: number;
  /**
   * Processes that take only the analytics beacons (`POST /a`, HAProxy's `beacons` backend): web
   * processes like the others, out of the `web` rotation. Default 0: beacons go to the web processes.
   */
  collectors?: number;
  /**
   * The workers' CPU priority (nice, default 10): sharing one machine with the web processes, they
   * use what the web processes leave, as they would on hosts of their own, instead of taking an
   * even share while buyers wait. 0 shares the CPU evenly.
   */
  workerNice?: number;
  /** Connections from PgBouncer to PostgreSQL for all processes together (default 20, one web process's own pool). */
  serverPoolSize?: number;
  /** Where HAProxy listens (default a free port on 127.0.0.1). */
  port?: number;
  /** Default: a new random one. */
  authSecret?: string;
  /**
   * Sources whose own X-Forwarded-For HAProxy keeps (else it drops it): a load generator that stands
   * in for many clients' addresses. None on real machines.
   */
  trustForwardedForFrom?: string;
  /** Environment for every Admit process on top of the topology's own (limits, LOG_LEVEL…). */
  env?: Record<string, string>;
  /** The checkout whose server runs (default this one). */
  root?: string;
  /** Called with each line of progress. */
  log?: (line: string) => void;
}

export interface WebProcess {
  slot: string;
  port: number;
  process?: ManagedProcess;
}

export interface Topology {
  /** HAProxy's address: what browsers and the load generator talk to. */
  url: string;
  /** PUBLIC_URL of every web process: links in emails, and the Origin the pages send. */
  publicUrl: string;
  authSecret: string;
  configDir: string;
  haproxy: ManagedProcess;
  pgbouncer: ManagedProcess;
  web: WebProcess[];
  workers: ManagedProcess[];
  collectors: WebProcess[];
  /** The pids of each kind of process that is running now (for CPU figures). */
  pids(): Record<'web' | 'workers' | 'haproxy' | 'pgbouncer' | 'collectors', number[]>;
  /** Runs `count` web processes: starts or stops processes in slot order and puts them in or out of HAProxy's rotation. */
  scaleWeb(count: number): Promise<void>;
  /**
   * A rolling restart, as a deploy does it: each running web process in turn out of the rotation,
   * stopped once it has finished what it had, started again (on whatever build is there now) and put
   * back, while the others serve.
   */
  restartWeb(): Promise<void>;
  /** Starts again the web processes and workers that have ended (what a supervisor does); returns their names. */
  restartEnded(): Promise<string[]>;
  /** The servers of HAProxy's backend and their state (UP, DOWN, MAINT…). */
  backendState(): Promise<{ name: string; status: string }[]>;
  /** Waits until exactly the running web processes are UP in HAProxy's backend. */
  waitForBackends(timeoutMs?: number): Promise<void>;
  /** Stops everything, the entrance first: HAProxy, the web processes, the workers, PgBouncer. */
  stop(): Promise<Exit[]>;
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    if (!(name in values)) throw new Error(`no value for {{${name}}}`);
    return values[name]!;
  });
}

/** One command to HAProxy's runtime API (its admin socket), and its answer. */
export function haproxyCommand(socketPath: string, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(socketPath);
    let answer = '';
    socket.on('data', (chunk) => (answer += String(chunk)));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    socket.write(`${command}\n`);
  });
}

export async function startTopology(options: TopologyOptions): Promise<Topology> {
  const haproxyPath = requireProgram('haproxy');
  const pgbouncerPath = requireProgram('pgbouncer');
  const log = options.log ?? (() => {});
  const root = options.root ?? repositoryRoot;
  const slots = Math.max(options.web, options.webSlots ?? options.web);
  const direct = new URL(options.databaseUrl);
  const database = direct.pathname.slice(1);
  const authSecret = options.authSecret ?? randomBytes(32).toString('base64url');
  // Built once here: every web process serves apps/web/dist (`npm start` builds it when it is
  // missing or stale), and N processes starting together must not each build it.
  const built = spawnSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) throw new Error('building the web app failed');
  const configDir = mkdtempSync(path.join(tmpdir(), 'admit-topology-'));
  // PgBouncer will not run as root: it is started as `nobody`, who must read its config.
  chmodSync(configDir, 0o755);
  /** Everything started, for stopping it all when starting fails half-way. */
  const started: ManagedProcess[] = [];
  const stopAll = async () => {
    const exits = [];
    for (const one of started.reverse()) exits.push(await one.stop('SIGTERM', 15_000));
    rmSync(configDir, { recursive: true, force: true });
    return exits;
  };

  try {
    // PgBouncer, in front of PostgreSQL.
    const pgbouncerPort = await freePort();
    const authFile = path.join(configDir, 'userlist.txt');
    writeFileSync(authFile, `"${decodeURIComponent(direct.username || 'postgres')}" ""\n`, { mode: 0o644 });
    const pgbouncerIni = path.join(configDir, 'pgbouncer.ini');
    writeFileSync(
      pgbouncerIni,
      fill(readFileSync(path.join(deployDir, 'pgbouncer.ini'), 'utf8'), {
        DATABASE: database,
        POSTGRES_HOST: direct.hostname,
        POSTGRES_PORT: direct.port || '5432',
        LISTEN_ADDR: '127.0.0.1',
        LISTEN_PORT: String(pgbouncerPort),
        AUTH_TYPE: 'trust',
        AUTH_FILE: authFile,
        POOL_SIZE: String(options.serverPoolSize ?? 20),
      }),
      { mode: 0o644 },
    );
    const asRoot = process.getuid?.() === 0;
    const pgbouncer = await startProcess({
      name: 'pgbouncer',
      command: pgbouncerPath,
      args: [...(asRoot ? ['-u', 'nobody'] : []), pgbouncerIni],
      env: process.env,
      cwd: configDir,
      readyWhen: /process up|listening on/i,
      timeoutMs: 15_000,
    });
    started.push(pgbouncer);
    const pooled = new URL(options.databaseUrl);
    pooled.hostname = '127.0.0.1';
    pooled.port = String(pgbouncerPort);
    log(`PgBouncer (transaction mode) on 127.0.0.1:${pgbouncerPort} → ${direct.host}/${database}`);

    // HAProxy, with a place for every web process that may run.
    const port = options.port ?? (await freePort());
    const url = `http://127.0.0.1:${port}`;
    const publicUrl = `http://localhost:${port}`;
    const web: WebProcess[] = [];
    for (let index = 1; index <= slots; index++) web.push({ slot: `web${index}`, port: await freePort() });
    const collectors: WebProcess[] = [];
    for (let index = 1; index <= (options.collectors ?? 0); index++)
      collectors.push({ slot: `collector${index}`, port: await freePort() });
    const serverLines = (backend: WebProcess[]) =>
      backend.map((one) => `    server ${one.slot} 127.0.0.1:${one.port} check disabled`).join('\n');
    const statsSocket = path.join(configDir, 'haproxy.sock');
    const haproxyCfg = path.join(configDir, 'haproxy.cfg');
    writeFileSync(
      haproxyCfg,
      fill(readFileSync(path.join(deployDir, 'haproxy.cfg'), 'utf8'), {
        STATS_SOCKET: statsSocket,
        BIND: `127.0.0.1:${port}`,
        DROP_CLIENT_FORWARDED_FOR: options.trustForwardedForFrom
          ? `http-request del-header X-Forwarded-For unless { src ${options.trustForwardedForFrom} }`
          : 'http-request del-header X-Forwarded-For',
        // Every place starts out of the rotation; a web process is put in once it runs.
        SERVERS: serverLines(web),
        BEACON_ROUTE: collectors.length > 0 ? '    use_backend beacons if METH_POST { path /a }' : '',
        BEACON_BACKEND:
          collectors.length > 0
            ? [
                '',
                'backend beacons',
                '    balance roundrobin',
                '    option httpchk',
                '    http-check send meth GET uri /healthz',
                '    http-check expect status 200',
                '    timeout check 5s',
                '    default-server inter 1s fall 2 rise 2',
                serverLines(collectors),
              ].join('\n')
            : '',
      }),
    );
    const haproxy = await startProcess({
      name: 'haproxy',
      command: haproxyPath,
      // -db: one process in the foreground, a child of this one (SIGUSR1 stops it softly, SIGTERM at once).
      args: ['-db', '-f', haproxyCfg],
      env: process.env,
      cwd: configDir,
    });
    started.push(haproxy);
    // HAProxy prints nothing when all is well: it is ready once its admin socket answers.
    for (let waited = 0; ; waited += 100) {
      try {
        await haproxyCommand(statsSocket, 'show info');
        break;
      } catch (error) {
        if (waited > 10_000 || !haproxy.running())
          throw new Error(`HAProxy did not start (${String(error)}):\n${haproxy.output()}`);
        await sleep(100);
      }
    }
    log(`HAProxy (round robin, health check GET /healthz) on ${url}`);

    // Every Admit process: the same database (through PgBouncer), the same secret, the same public address.
    const admitEnv = (extra: Record<string, string>) => ({
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATABASE_URL: pooled.toString(),
      DATABASE_DIRECT_URL: direct.toString(),
      AUTH_SECRET: authSecret,
      PUBLIC_URL: publicUrl,
      DATA_DIR: path.join(configDir, 'data'),
      ...options.env,
      ...extra,
    });

    const workers: ManagedProcess[] = [];
    /** Exits of processes that ended before stop() (scaled down, killed and started again), reported with the rest. */
    const ended: Exit[] = [];
    const startWeb = async (one: WebProcess, backend = 'web') => {
      one.process = await startProcess({
        name: one.slot,
        command: process.execPath,
        // What `npm start` runs (scripts/start.mjs; the web app was built above).
        args: ['scripts/start.mjs'],
        env: admitEnv({ PORT: String(one.port), HOST: '127.0.0.1', JOB_WORKERS: 'off', TRUST_PROXY: 'true' }),
        cwd: root,
        readyWhen: /Admit is running at/,
      });
      started.push(one.process);
      await haproxyCommand(statsSocket, `set server ${backend}/${one.slot} state ready`);
      log(`${one.slot}: pid ${one.process.pid} on 127.0.0.1:${one.port}`);
    };
    const stopWeb = async (one: WebProcess) => {
      // Out of the rotation first, then stopped: it finishes what it has, and gets nothing new.
      await haproxyCommand(statsSocket, `set server web/${one.slot} state maint`);
      if (one.process) ended.push(await one.process.stop('SIGTERM', 15_000));
      one.process = undefined;
    };

    const startWorker = async (index: number) => {
      const worker = await startProcess({
        name: `worker${index + 1}`,
        command: process.execPath,
        // What `npm run worker` runs.
        args: ['scripts/worker.mjs'],
        env: admitEnv({ LOG_LEVEL: 'info' }),
        cwd: root,
        readyWhen: /worker running/,
      });
      workers[index] = worker;
      started.push(worker);
      const nice = options.workerNice ?? 10;
      if (nice !== 0) os.setPriority(worker.pid, nice);
      log(`worker${index + 1}: pid ${worker.pid}${nice !== 0 ? `, nice ${nice}` : ''}`);
    };
    // The first web process migrates the database alone; the others and the workers start together.
    await startWeb(web[0]!);
    await Promise.all([
      ...web.slice(1, options.web).map((one) => startWeb(one)),
      ...collectors.map((one) => startWeb(one, 'beacons')),
      ...Array.from({ length: options.workers }, (_, index) => startWorker(index)),
    ]);

    const backendState = async () => {
      const csv = await haproxyCommand(statsSocket, 'show stat');
      const [header, ...rows] = csv.trim().split('\n');
      const columns = header!.replace(/^# /, '').split(',');
      const at = (row: string[], column: string) => row[columns.indexOf(column)] ?? '';
      return rows
        .map((line) => line.split(','))
        .filter((row) => at(row, 'pxname') === 'web' && !['BACKEND', 'FRONTEND'].includes(at(row, 'svname')))
        .map((row) => ({ name: at(row, 'svname'), status: at(row, 'status') }));
    };

    /** The requests HAProxy has under way on a web process. */
    const sessionsOn = async (slot: string) => {
      const [header, ...rows] = (await haproxyCommand(statsSocket, 'show stat')).trim().split('\n');
      const columns = header!.replace(/^# /, '').split(',');
      const row = rows.map((line) => line.split(',')).find((row) => row[0] === 'web' && row[1] === slot);
      return Number(row?.[columns.indexOf('scur')] ?? 0);
    };

    const topology: Topology = {
      url,
      publicUrl,
      authSecret,
      configDir,
      haproxy,
      pgbouncer,
      web,
      workers,
      collectors,
      pids: () => ({
        web: web.flatMap((one) => (one.process?.running() ? [one.process.pid] : [])),
        workers: workers.filter((worker) => worker.running()).map((worker) => worker.pid),
        haproxy: haproxy.running() ? [haproxy.pid] : [],
        pgbouncer: pgbouncer.running() ? [pgbouncer.pid] : [],
        collectors: collectors.flatMap((one) => (one.process?.running() ? [one.process.pid] : [])),
      }),
      async scaleWeb(count) {
        if (count < 1 || count > web.length) throw new Error(`between 1 and ${web.length} web processes`);
        for (const one of web.slice(count)) if (one.process) await stopWeb(one);
        const toStart = web.slice(0, count).filter((one) => !one.process?.running());
        for (const one of toStart) if (one.process) ended.push(await one.process.exited);
        await Promise.all(toStart.map((one) => startWeb(one)));
        await topology.waitForBackends();
      },
      async restartWeb() {
        for (const one of web.filter((one) => one.process?.running())) {
          // Drained first: no new request goes to it, and it is stopped once those under way are answered.
          await haproxyCommand(statsSocket, `set server web/${one.slot} state drain`);
          for (let waited = 0; waited < 10_000 && (await sessionsOn(one.slot)) > 0; waited += 100) await sleep(100);
          await stopWeb(one);
          await startWeb(one);
          await topology.waitForBackends();
        }
      },
      async restartEnded() {
        const names: string[] = [];
        const deadWeb = web.filter((one) => one.process && !one.process.running());
        const deadWorkers = workers.flatMap((worker, index) => (worker.running() ? [] : [index]));
        for (const one of deadWeb) ended.push(await one.process!.exited);
        for (const index of deadWorkers) ended.push(await workers[index]!.exited);
        await Promise.all([...deadWeb.map((one) => startWeb(one)), ...deadWorkers.map(startWorker)]);
        names.push(...deadWeb.map((one) => one.slot), ...deadWorkers.map((index) => `worker${index + 1}`));
        await topology.waitForBackends();
        return names;
      },
      backendState,
      async waitForBackends(timeoutMs = 20_000) {
        const wanted = web.filter((one) => one.process?.running()).map((one) => one.slot);
        for (let waited = 0; ; waited += 250) {
          const up = (await backendState()).filter((server) => server.status === 'UP').map((server) => server.name);
          if (up.length === wanted.length && wanted.every((slot) => up.includes(slot))) return;
          if (waited > timeoutMs) throw new Error(`HAProxy has ${up.join(', ') || 'no server'} up, not ${wanted.join(', ')}`);
          await sleep(250);
        }
      },
      async stop() {
        // The entrance first, softly: requests under way finish (hard-stop-after bounds it).
        const exits = [...ended, await haproxy.stop('SIGUSR1', 15_000)];
        // Then the web processes together, each within its own 9 s shutdown limit (decision 0032).
        exits.push(
          ...(await Promise.all(
            [...web, ...collectors].flatMap((one) => (one.process ? [one.process.stop('SIGTERM', 15_000)] : [])),
          )),
        );
        // The workers finish the tries under way (worker.ts gives them 15 s).
        exits.push(...(await Promise.all(workers.map((worker) => worker.stop('SIGTERM', 20_000)))));
        // PgBouncer last, once nobody uses it: SIGINT is its safe shutdown.
        exits.push(await pgbouncer.stop('SIGINT', 10_000));
        rmSync(configDir, { recursive: true, force: true });
        return exits;
      },
    };
    await topology.waitForBackends();
    return topology;
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** Whether an exit was a clean stop: code 0, or a process that a run killed on purpose (SIGKILL) earlier. */
export function stoppedCleanly(exit: Exit, killedOnPurpose: readonly string[] = []): boolean {
  return exit.code === 0 || (killedOnPurpose.includes(exit.name) && exit.signal === 'SIGKILL');
}
