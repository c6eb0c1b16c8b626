import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startAdmit } from './admit-server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A data dir whose embedded database the server has created and migrated, and nothing else. */
    dataDirTemplate: string;
  }
}

/**
 * The journeys run against the built app: build it first when its sources changed. Then start the
 * server once on an empty data dir and keep what it made (a migrated database, no account, no event)
 * as the template each journey copies: its server then starts in a few seconds instead of creating
 * and migrating a database of its own every time. This start is itself the first start of a new
 * install, in every run; the npm start journeys start from empty dirs of their own too.
 */
export default async function setup(project: TestProject) {
  const result = spawnSync(process.execPath, ['scripts/build-if-needed.mjs'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('Building the web app failed');

  const template = mkdtempSync(path.join(tmpdir(), 'admit-e2e-template-'));
  const server = await startAdmit({ DATA_DIR: template });
  await server.stop();
  // Each journey's server makes its own secret.
  rmSync(path.join(template, 'auth-secret'), { force: true });
  project.provide('dataDirTemplate', template);
  return () => rmSync(template, { recursive: true, force: true });
}
