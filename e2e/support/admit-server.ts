import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface AdmitServer {
  url: string;
  dataDir: string;
  process: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** Starts the real server (as `npm start` does, from the built app) on a free port with a fresh data dir. */
export async function startAdmit(env: Record<string, string> = {}): Promise<AdmitServer> {
  // A known port, so that links in emails (PUBLIC_URL) point at this server.
  const port = env.PORT ?? String(await freePort());
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'admit-e2e-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    cwd: root,
    env: { ...process.env, PORT: port, DATA_DIR: dataDir, LOG_LEVEL: 'warn', NODE_ENV: 'development', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += String(chunk)));
  child.stderr.on('data', (chunk) => (output += String(chunk)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Admit did not start in time:\n${output}`)), 90_000);
    const onData = () => {
      const match = output.match(/Admit is running at (http:\/\/\S+)/);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`Admit exited with ${code} before it started:\n${output}`));
    });
  });
  return {
    url,
    dataDir,
    process: child,
    output: () => output,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      if (!env.DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}
