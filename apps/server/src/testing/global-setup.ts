import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../platform/db/database';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteSnapshot: string;
  }
}

/**
 * Migrates one PGlite database and saves it: each test file loads that snapshot (well under a
 * second) instead of starting a new one (seconds): the server suite stays fast.
 */
export default async function setup(project: TestProject) {
  const database = await openDatabase({ kind: 'pglite' });
  const client = (database.db as unknown as { $client: { dumpDataDir(compression: 'none'): Promise<Blob> } }).$client;
  const dump = await client.dumpDataDir('none');
  await database.close();
  const file = path.join(tmpdir(), `admit-pglite-snapshot-${process.pid}.tar`);
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteSnapshot', file);
}
