import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startProcess, type ManagedProcess } from '../../../../deploy/processes';
import type { TestApp } from './test-app';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/**
 * Starts a worker process (scripts/worker.mjs) on the test app's PostgreSQL database, as a
 * deployment runs one beside its web processes: for the tests that kill it mid-work. `extraEnv`
 * adds settings (a payment provider's stand-in). The caller stops it.
 */
export function startWorkerProcess(t: TestApp, extraEnv: Record<string, string> = {}): Promise<ManagedProcess> {
  return startProcess({
    name: 'worker',
    command: process.execPath,
    args: ['scripts/worker.mjs'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      DATABASE_URL: t.database.url!,
      AUTH_SECRET: 'test-secret-test-secret-test-secret-0123',
      PUBLIC_URL: 'http://localhost:3000',
      DATA_DIR: t.config.DATA_DIR,
      ...extraEnv,
    },
    cwd: root,
    readyWhen: /worker running/,
    timeoutMs: 60_000,
  });
}
