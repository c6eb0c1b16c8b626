import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import 'dotenv/config';
import { buildApp } from './app';
import { ConfigError, loadConfig, publicUrlOf, type Config } from './platform/config';
import { DataDirLockedError } from './platform/db/data-dir-lock';
import { openDatabase, type Database } from './platform/db/database';

type App = Awaited<ReturnType<typeof buildApp>>;

// Stopping is bounded (see decision 0032): requests in flight get `requestsGraceMs` to finish, then the
// database is closed under whatever is left; past `shutdownLimitMs` the process exits with 1 rather than
// hang until someone sends SIGKILL. Both fit in the 10 s a container stop waits before its SIGKILL.
const requestsGraceMs = 4_000;
const shutdownLimitMs = 9_000;
const parentCheckMs = 1_000;

/** AUTH_SECRET, or in development one generated once into the data dir so that sessions survive restarts. */
function authSecretOf(config: Config): string {
  if (config.AUTH_SECRET) return config.AUTH_SECRET;
  const file = path.join(config.DATA_DIR, 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.DATA_DIR, { recursive: true });
  const secret = randomBytes(32).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * Calls `onGone` once the process that started this one has gone (npm killed outright, say): nobody would
 * stop the server then, and a later SIGKILL could leave the embedded database half-written (decision 0032).
 */
function watchParent(onGone: () => void) {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, parentCheckMs);
  timer.unref();
}

/** Closes the HTTP server, then the database, and exits: 0 when both closed in time, else 1. */
async function shutDown(app: App, database: Database, reason: string): Promise<never> {
  app.log.info(`${reason}: shutting down`);
  setTimeout(() => {
    app.log.error(`Shutting down took more than ${shutdownLimitMs / 1000} s: exiting before the database has closed`);
    process.exit(1);
  }, shutdownLimitMs);
  let exitCode = 0;
  const appClosed = app.close().then(
    () => true,
    (error: unknown) => {
      app.log.error({ err: error }, 'Closing the HTTP server failed');
      exitCode = 1;
      return true;
    },
  );
  if (!(await Promise.race([appClosed, sleep(requestsGraceMs, false)]))) {
    app.log.error(`Requests were still open after ${requestsGraceMs / 1000} s: closing the database under them`);
    exitCode = 1;
  }
  try {
    await database.close();
  } catch (error) {
    app.log.error({ err: error }, 'Closing the database failed');
    exitCode = 1;
  }
  process.exit(exitCode);
}

/**
 * From here on, SIGINT, SIGTERM, SIGHUP and the loss of the parent process stop the server: at once when it
 * runs, else as soon as `running` says it does. Until then the database may be opening or migrating, and
 * nothing should kill the process half-way through that. Any request after the first is only logged, so
 * that none kills the process before the database is closed.
 */
function stopOnRequest() {
  let server: { app: App; database: Database } | undefined;
  let stopReason: string | undefined;
  const request = (reason: string) => {
    if (stopReason) {
      const message = `${reason}: already shutting down (${stopReason}), waiting for the database to close`;
      if (server) server.app.log.warn(message);
      else console.error(message);
      return;
    }
    stopReason = reason;
    if (server) void shutDown(server.app, server.database, reason);
    else console.error(`${reason}: stopping once the database is open`);
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => request(signal));
  watchParent(() => request('The process that started the server has gone'));
  return {
    async running(app: App, database: Database) {
      server = { app, database };
      if (stopReason) await shutDown(app, database, stopReason);
    },
  };
}

async function main() {
  const config = loadConfig();
  const stop = stopOnRequest();
  const database = await openDatabase(
    config.DATABASE_URL
      ? { kind: 'postgres', url: config.DATABASE_URL, directUrl: config.DATABASE_DIRECT_URL, poolSize: config.DATABASE_POOL_SIZE }
      : { kind: 'pglite', dataDir: config.DATA_DIR },
  );
  let app: App;
  try {
    app = await buildApp({
      config,
      database,
      publicUrl: publicUrlOf(config, config.PORT),
      authSecret: authSecretOf(config),
    });
    // A flash sale opens thousands of connections at once: Node's default backlog (511) resets some.
    await app.listen({ port: config.PORT, host: config.HOST, backlog: 4096 });
  } catch (error) {
    await database.close();
    throw error;
  }
  await stop.running(app, database);

  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  const where = database.kind === 'pglite' ? `embedded database in ${path.resolve(config.DATA_DIR)}` : 'PostgreSQL';
  console.log(`\n  Admit is running at ${publicUrlOf(config, port)}  (${where})\n`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirLockedError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
