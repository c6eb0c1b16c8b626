import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** A PostgreSQL database made for one run, dropped at the end. */
export interface ScratchDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export async function createScratchDatabase(adminUrl: string): Promise<ScratchDatabase> {
  const name = `admit_bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
