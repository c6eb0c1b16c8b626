import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** A process as /proc shows it (Linux). */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  command: string;
}

function statOf(pid: number | string): { state: string; ppid: number; pgid: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // gone meanwhile
  }
  // "pid (comm) state ppid pgrp …": comm may hold spaces and parentheses, so the fields follow the last ')'.
  const [state = '', ppid = '', pgid = ''] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state, ppid: Number(ppid), pgid: Number(pgid) };
}

/** Whether `pid` still runs: a zombie has exited, only its parent has not collected it yet. */
export function isRunning(pid: number): boolean {
  const stat = statOf(pid);
  return stat !== undefined && stat.state !== 'Z';
}

/** The running processes of a process group: all that one start put up, however it nested them. */
export function processesInGroup(pgid: number): ProcessInfo[] {
  const found: ProcessInfo[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(entry);
    if (!stat || stat.pgid !== pgid || stat.state === 'Z') continue;
    let command = '';
    try {
      command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim();
    } catch {
      // gone meanwhile
    }
    found.push({ pid: Number(entry), ppid: stat.ppid, command });
  }
  return found;
}

/** Waits for `condition`, polling; throws `message` (and what the start printed) when it does not come in time. */
export async function waitUntil(condition: () => boolean | Promise<boolean>, message: () => string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(message());
    await sleep(200);
  }
}

export interface NpmStart {
  url: string;
  /** npm, the process that was started; also the id of the process group of everything it starts. */
  npm: ChildProcess & { pid: number };
  /** Resolves when npm has exited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  output(): string;
}

/**
 * Runs `npm start` as an operator would, in a process group of its own (so that the test can signal
 * any of its processes, or all of them as Ctrl-C does), on `port` and `dataDir`. Resolves once the
 * data dir is locked (the server opens its database), or with `waitForServing` once it answers /healthz.
 */
export async function startNpm(options: {
  port: number;
  dataDir: string;
  waitForServing: boolean;
  env?: Record<string, string>;
}): Promise<NpmStart> {
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(options.port),
      DATA_DIR: options.dataDir,
      LOG_LEVEL: 'info',
      NODE_ENV: 'development',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  if (child.pid === undefined) throw new Error('npm did not start');
  const npm = child as ChildProcess & { pid: number };
  let output = '';
  npm.stdout?.on('data', (chunk) => (output += String(chunk)));
  npm.stderr?.on('data', (chunk) => (output += String(chunk)));
  let hasExited = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    npm.once('exit', (code, signal) => {
      hasExited = true;
      resolve({ code, signal });
    }),
  );
  const url = `http://localhost:${options.port}`;
  // A start may build the web app first when its sources changed: minutes on a busy machine.
  await waitUntil(
    async () => {
      if (hasExited) throw new Error(`npm start exited before it served:\n${output}`);
      if (!options.waitForServing) return serverPidOf(options.dataDir) !== undefined;
      return (await fetch(`${url}/healthz`).catch(() => undefined))?.status === 200;
    },
    () => `npm start did not ${options.waitForServing ? 'serve' : 'open its database'} in time:\n${output}`,
    240_000,
  );
  return { url, npm, exited, output: () => output };
}

/** The server's pid, as it wrote it into the data dir's lock; undefined while there is no lock. */
export function serverPidOf(dataDir: string): number | undefined {
  let lock: string;
  try {
    lock = readFileSync(path.join(dataDir, 'admit.lock'), 'utf8');
  } catch {
    return undefined;
  }
  const pid = Number.parseInt(lock, 10);
  return Number.isInteger(pid) ? pid : undefined;
}
