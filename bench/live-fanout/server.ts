import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../e2e/support/admit-server';

export interface RunningServer {
  /** http://127.0.0.1:<port>: the address it listens on (main.ts prints PUBLIC_URL, which says localhost). */
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts apps/server/src/main.ts from `root` in its own process, as e2e/support/admit-server.ts
 * does, but from any checkout: BENCH_SERVER_ROOT points it at a scratch copy with a proposed
 * change, so that the same benchmark measures both.
 */
export async function startServer(root: string, env: Record<string, string>): Promise<RunningServer> {
  const port = String(await freePort());
  const dataDir = mkdtempSync(path.join(tmpdir(), 'admit-bench-live-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: port, HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'development', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const started = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Admit did not start in time:\n${output}`)), 90_000);
    child.stdout.on('data', () => {
      if (/Admit is running at/.test(output)) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Admit exited with ${code} before it started:\n${output}`));
    });
  });
  try {
    await started;
  } catch (error) {
    child.kill();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    process: child,
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
