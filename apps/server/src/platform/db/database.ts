import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql, type SQL } from 'drizzle-orm';
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
  /**
   * Runs SQL text as a library hands it over (`$1`-style parameters, or several statements without
   * any), outside any transaction: for the job queue's own statements.
   */
  execute(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Its connection pools' clients, for /metrics. None on PGlite: one connection inside this process. */
  pools(): PoolUsage[];
}

export interface PoolUsage {
  /** `main` serves queries; `direct` (with DATABASE_DIRECT_URL) carries LISTEN and the job queue. */
  name: 'main' | 'direct';
  /** The most connections it opens. */
  max: number;
  /** Connections open, in use or idle (the LISTEN connection is always in use). */
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

export const migrationsFolder = fileURLToPath(new URL('../../../drizzle', import.meta.url));

export type DatabaseOptions =
  | {
      kind: 'postgres';
      url: string;
      poolSize?: number;
      /** A direct connection (not through a transaction-mode pooler) for LISTEN and the job queue. */
      directUrl?: string;
    }
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob; lock?: boolean };

/** Opens the database (PGlite in a data dir or in memory, or PostgreSQL) and applies pending migrations. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  const database =
    options.kind === 'postgres'
      ? await openPostgres(options.url, options.poolSize, options.directUrl)
      : await openPglite(options);
  try {
    if (options.kind === 'postgres') await migratePostgres(options.directUrl ?? options.url);
    else await migratePglite(database.db as never, { migrationsFolder });
  } catch (error) {
    await database.close();
    throw error;
  }
  return database;
}

/**
 * Applies pending migrations on PostgreSQL under an advisory lock held by a direct session: web
 * and worker processes starting together apply each migration once, one after the other.
 */
async function migratePostgres(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [migrationLockKey]);
    await migratePg(drizzlePg(client) as never, { migrationsFolder });
  } finally {
    await client.end();
  }
}
const migrationLockKey = 726_468_001;

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
    async execute(text, values) {
      if (values && values.length > 0) return client.query<Record<string, unknown>>(text, values);
      // Several statements in one text (a migration) go through exec, which returns one result each.
      const results = await client.exec(text);
      return { rows: (results.at(-1)?.rows ?? []) as Record<string, unknown>[] };
    },
    async ping() {
      await client.query('select 1');
    },
    async close() {
      if (!client.closed) await client.close();
      releaseLock();
    },
    pools: () => [],
  };
}

async function openPostgres(url: string, poolSize = 20, directUrl?: string): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: poolSize });
  pool.on('error', () => {}); // an idle client's error; the next query reconnects
  await pool.query('select 1');
  // LISTEN belongs to a session and the job queue's statements come in several per text: behind a
  // transaction-mode pooler both need a connection of their own to the server.
  const direct = directUrl ? new pg.Pool({ connectionString: directUrl, max: 4 }) : pool;
  if (direct !== pool) direct.on('error', () => {});
  const db = drizzlePg(pool) as unknown as Db;
  const listeners = new Map<string, Set<(payload: string) => void>>();
  let listenClient: pg.PoolClient | undefined;
  let releaseListener = () => {};
  let closing = false;

  async function connectListener(): Promise<pg.PoolClient> {
    // A dedicated connection: LISTEN belongs to a session, so it must not go back to the pool.
    const client = await direct.connect();
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
    async execute(text, values) {
      const result = await direct.query(text, values);
      // Several statements answer with one result each; the last is the one that matters.
      const last = Array.isArray(result) ? result.at(-1) : result;
      return { rows: (last?.rows ?? []) as Record<string, unknown>[] };
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
      if (direct !== pool) await direct.end();
    },
    pools() {
      const usage = (name: PoolUsage['name'], of: pg.Pool): PoolUsage => ({
        name,
        max: of.options.max ?? 10,
        total: of.totalCount,
        idle: of.idleCount,
        waiting: of.waitingCount,
      });
      return direct === pool ? [usage('main', pool)] : [usage('main', pool), usage('direct', direct)];
    },
  };
}

/**
 * SQL text with `$1`-style parameters, as a library hands it over, turned into a Drizzle query, so
 * that it runs inside a Drizzle transaction (the job queue's insert, in the transaction of the
 * change that causes the job).
 */
export function sqlWithParameters(text: string, values: readonly unknown[] = []): SQL {
  const parts = text.split(/\$(\d+)/);
  return sql.join(
    parts.map((part, index) => (index % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1] ?? null}`)),
    sql.raw(''),
  );
}
