// The processes of a local topology (deploy/topology.ts): started as children of this process,
// each waited for until it says it is ready, and stopped with a signal and a time limit.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** What a child process's exit looked like. */
export interface Exit {
  name: string;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** From the stop signal to the exit (ms); 0 for a process that had already ended. */
  ms: number;
}

export interface ManagedProcess {
  name: string;
  pid: number;
  child: ChildProcess;
  /** The last 64 kB of its output (stdout and stderr). */
  output(): string;
  /** Resolves when it has ended, however. */
  exited: Promise<Exit>;
  running(): boolean;
  /** Sends `signal`, then SIGKILL if it has not ended after `limitMs`, and says how it ended. */
  stop(signal?: NodeJS.Signals, limitMs?: number): Promise<Exit>;
}

const keptOutput = 64 * 1024;

/**
 * Starts `command` and waits until its output matches `readyWhen` (or throws with its output when
 * it exits first or takes longer than `timeoutMs`); without `readyWhen`, until it has been spawned.
 */
export async function startProcess(options: {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string | undefined>;
  cwd: string;
  readyWhen?: RegExp;
  timeoutMs?: number;
}): Promise<ManagedProcess> {
  const child = spawn(options.command, options.args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const append = (chunk: Buffer) => {
    output = (output + String(chunk)).slice(-keptOutput);
  };
  child.stdout!.on('data', append);
  child.stderr!.on('data', append);
  let stopSentAt: number | undefined;
  const exited = new Promise<Exit>((resolve) => {
    child.once('exit', (code, signal) =>
      resolve({ name: options.name, code, signal, ms: stopSentAt ? Math.round(performance.now() - stopSentAt) : 0 }),
    );
  });
  const running = () => child.exitCode === null && child.signalCode === null;
  const managed: ManagedProcess = {
    name: options.name,
    pid: child.pid ?? -1,
    child,
    output: () => output,
    exited,
    running,
    async stop(signal = 'SIGTERM', limitMs = 15_000) {
      if (!running()) return exited;
      stopSentAt = performance.now();
      child.kill(signal);
      if (!(await Promise.race([exited.then(() => true), sleep(limitMs, false)]))) child.kill('SIGKILL');
      return exited;
    },
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${options.name} was not ready after ${(options.timeoutMs ?? 90_000) / 1000} s:\n${output}`));
    }, options.timeoutMs ?? 90_000);
    const check = () => {
      if (options.readyWhen && !options.readyWhen.test(output)) return;
      clearTimeout(timer);
      child.stdout!.off('data', check);
      child.stderr!.off('data', check);
      resolve();
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    if (!options.readyWhen) child.once('spawn', check);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${options.name} exited (${code ?? signal}) before it was ready:\n${output}`));
    });
  });
  return managed;
}

/** A port nobody listens on now, on 127.0.0.1 (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/** Debian installs both into /usr/sbin, which is not on every user's PATH. */
const sbinDirectories = ['/usr/sbin', '/usr/local/sbin', '/sbin'];

/**
 * The path of an installed program, or an error that says how to install it. HAProxy and PgBouncer
 * come from Debian's packages: `apt-get install -y haproxy pgbouncer`.
 */
export function requireProgram(program: 'haproxy' | 'pgbouncer'): string {
  const onPath = spawnSync('sh', ['-c', `command -v ${program}`], { encoding: 'utf8' }).stdout.trim();
  if (onPath) return onPath;
  for (const directory of sbinDirectories) {
    const candidate = path.join(directory, program);
    if (existsSync(candidate)) return candidate;
  }
  throw new Error(
    `${program} is not installed. On Debian or Ubuntu: sudo apt-get install -y haproxy pgbouncer ` +
      `(the topology runs both as child processes with their own config files, not as system services).`,
  );
}
