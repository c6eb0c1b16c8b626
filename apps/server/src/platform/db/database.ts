import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { acquireDataDirLock } from './data-dir-lock';

export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export interface Database {
  kind: 'pglite' | 'postgres';
  db: Db;
  /** Calls `handler` for every NOTIFY on `channel`, from any connection or server instance. */
  listen(channel: string, handler: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = fileURLToPath(new URL('../../../drizzle', import.meta.url));

export type DatabaseOptions =
  { kind: 'postgres'; url: string; poolSize?: number } | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob; lock?: boolean };

/** Opens the database (PGlite in a data dir or in memory, or PostgreSQL) and applies pending migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database = options.kind === 'postgres' ? await openPostgres(options.url, options.poolSize) : await openPglite(options);
  try {
    if (database.kind === 'postgres') await migratePg(database.db as never, { migrationsFolder });
    else await migratePglite(database.db as never, { migrationsFolder });
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

async function openPglite(options: { dataDir?: string; loadDataDir?: Blob; lock?: boolean }): Promise<Database> {
  let releaseLock = () => {};
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    // PGlite takes no lock of its own: two processes on one data dir would corrupt it.
    if (options.lock !== false) releaseLock = acquireDataDirLock(options.dataDir);
  }
  let client: PGlite;
  try {
    client = options.dataDir
      ? new PGlite(path.join(options.dataDir, 'pglite'))
      : new PGlite(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {});
    await client.waitReady;
  } catch (error) {
    releaseLock();
    throw error;
  }
  const db = drizzlePglite(client) as unknown as Db;
  return {
    kind: 'pglite',
    db,
    async listen(channel, handler) {
      const unlisten = await client.listen(channel, handler);
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    async notify(channel, payload) {
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async ping() {
      await client.query('select 1');
    },
    async close() {
      if (!client.closed) await client.close();
      releaseLock();
    },
  };
}

async function openPostgres(url: string, poolSize = 20): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', () => {}); // an idle client's error; the next query reconnects
  await pool.query('select 1');
  const db = drizzlePg(pool) as unknown as Db;
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let listenClient: pg.PoolClient | undefined;
  let releaseListener = () => {};
  let closing = false;

  async function connectListener(): Promise<pg.PoolClient> {
    // A dedicated connection: LISTEN belongs to a session, so it must not go back to the pool.
    const client = await pool.connect();
    client.on('notification', (message) => {
      for (const handler of listeners.get(message.channel) ?? []) handler(message.payload ?? '');
    });
    // Both an error and close() end this connection; whichever comes first releases it, once.
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      client.release(true);
      if (listenClient === client) listenClient = undefined;
    };
    releaseListener = release;
    client.on('error', () => {
      release();
      if (!closing) setTimeout(() => void reconnect(), 500);
    });
    for (const channel of listeners.keys()) await client.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
    return client;
  }
  async function reconnect() {
    try {
      listenClient = await connectListener();
      if (closing) releaseListener();
    } catch {
      if (!closing) setTimeout(() => void reconnect(), 1000);
    }
  }

  return {
    kind: 'postgres',
    db,
    async listen(channel, handler) {
      listenClient ??= await connectListener();
      let handlers = listeners.get(channel);
      if (!handlers) {
        handlers = new Set();
        listeners.set(channel, handlers);
        await listenClient.query(`LISTEN ${pg.escapeIdentifier(channel)}`);
      }
      handlers.add(handler);
      return async () => {
        handlers.delete(handler);
      };
    },
    async notify(channel, payload) {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async ping() {
      await pool.query('select 1');
    },
    async close() {
      if (closing) return;
      closing = true;
      // Destroyed, not returned: a session that LISTENs must not be handed out again.
      releaseListener();
      await pool.end();
    },
  };
}
