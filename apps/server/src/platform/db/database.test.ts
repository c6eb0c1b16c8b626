import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openTestDatabase } from '../../testing/test-app';
import type { Database } from './database';

const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
let database: (Database & { url?: string }) | undefined;

afterEach(async () => {
  await database?.close();
  database = undefined;
});

async function backendPids(db: Database): Promise<number[]> {
  const result = await db.db.execute(
    sql`select pid from pg_stat_activity where datname = current_database() and query ilike 'LISTEN%'`,
  );
  return (result as unknown as { rows: { pid: number }[] }).rows.map((row) => row.pid);
}

describe.runIf(onPostgres)('the LISTEN connection on PostgreSQL', () => {
  it('comes back after the server ends it, and notifications flow again', async () => {
    database = await openTestDatabase();
    const received: string[] = [];
    await database.listen('admit_test', (payload) => received.push(payload));
    const [pid] = await backendPids(database);
    expect(pid).toBeTypeOf('number');

    await database.db.execute(sql`select pg_terminate_backend(${pid})`);
    await vi.waitFor(async () => expect((await backendPids(database!)).filter((p) => p !== pid)).toHaveLength(1), {
      timeout: 5_000,
      interval: 100,
    });

    await database.notify('admit_test', 'after');
    await vi.waitFor(() => expect(received).toContain('after'), { timeout: 5_000 });
  });

  it('closes without an error when the server ends the connection as the instance shuts down', async () => {
    database = await openTestDatabase();
    await database.listen('admit_test', () => {});
    const [pid] = await backendPids(database);
    const admin = await openTestDatabase();
    try {
      // The server ends the listener just as this instance shuts down: both must release it, once.
      await admin.db.execute(sql`select pg_terminate_backend(${pid})`);
      await expect(database.close()).resolves.toBeUndefined();
      database = undefined;
      await new Promise((resolve) => setTimeout(resolve, 200));
    } finally {
      await admin.close();
    }
  });
});
