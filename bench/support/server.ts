import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from '../../e2e/support/admit-server';
import { repositoryRoot } from './options';

/** The server's AUTH_SECRET in every benchmark: scanner-10k signs the browser's session cookie with it. */
export const benchAuthSecret = 'bench-secret-bench-secret-bench-secret-0123';

export interface RunningServer {
  /** http://127.0.0.1:<port>: the address it listens on. */
  url: string;
  /** The address it announces (PUBLIC_URL, http://localhost:<port> unless set): its emails link there and sign-up checks the Origin against it. */
  publicUrl: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** The per-address and per-account limits, raised far past what a benchmark sends. */
export const benchLimits = {
  ORDER_ATTEMPTS_PER_ACCOUNT: '1000000',
  ORDER_ATTEMPTS_PER_ADDRESS: '1000000',
  ORDER_MAX_HELD_PLACES: '1000000',
  LIVE_MAX_SOCKETS_PER_ADDRESS: '100000',
  LIVE_MAX_SOCKETS_PER_ACCOUNT: '100000',
};

/**
 * Starts apps/server/src/main.ts in its own process, as the browser journeys do
 * (e2e/support/admit-server.ts), on a free port of 127.0.0.1 with a fresh data dir, and waits until
 * it says it is running (after its migrations). `root` may be another checkout: BENCH_SERVER_ROOT
 * points it at a scratch copy with a proposed change, so that the same benchmark measures both.
 */
export async function startServer(options: { env: Record<string, string>; root?: string }): Promise<RunningServer> {
  const port = String(await freePort());
  const dataDir = mkdtempSync(path.join(tmpdir(), 'admit-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: options.root ?? repositoryRoot,
    env: {
      ...process.env,
      PORT: port,
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      AUTH_SECRET: benchAuthSecret,
      LOG_LEVEL: 'warn',
      NODE_ENV: 'development',
      // A benchmark is thousands of people from one address with a few accounts each: the limits
      // per address and per account that stop one attacker would stop the benchmark instead.
      ...benchLimits,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  // BENCH_SERVER_LOG: the server's own lines (warnings and errors) are kept in this file too.
  const log = process.env.BENCH_SERVER_LOG;
  if (log) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => appendFileSync(log, chunk));
  const started = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Admit did not start in time:\n${output}`)), 90_000);
    child.stdout.on('data', () => {
      const announced = output.match(/Admit is running at (http:\/\/\S+)/);
      if (announced) {
        clearTimeout(timer);
        resolve(announced[1]!);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Admit exited with ${code} before it started:\n${output}`));
    });
  });
  let publicUrl: string;
  try {
    publicUrl = await started;
  } catch (error) {
    child.kill();
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `http://127.0.0.1:${port}`,
    publicUrl,
    process: child,
    /** SIGTERM, and SIGKILL if the server has not exited 15 s later: a benchmark must not hang on it. */
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        if (!(await Promise.race([exited.then(() => true), sleep(15_000, false)]))) child.kill('SIGKILL');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
