import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { freePort } from './support/admit-server';
import { isRunning, processesInGroup, serverPidOf, startNpm, waitUntil, type NpmStart } from './support/npm-start';

const account = { name: 'Sam Signal', email: 'sam@example.test', password: 'survives the stop' };

function postJson(url: string, body: unknown) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: new URL(url).origin },
    body: JSON.stringify(body),
  });
}

/** Signing in finds the account and asks for its email to be verified; an unknown account would get 401. */
async function expectAccountKept(url: string) {
  const signIn = await postJson(`${url}/api/auth/sign-in/email`, { email: account.email, password: account.password });
  expect(signIn.status).toBe(403);
  expect(((await signIn.json()) as { code: string }).code).toBe('EMAIL_NOT_VERIFIED');
}

/**
 * Every process of the start has exited, the server after closing its database (only that releases the
 * data dir's lock: a server killed outright leaves it behind), and nothing answers on its port any more.
 */
async function expectStoppedCleanly(start: NpmStart, dataDir: string, serverPid: number) {
  await waitUntil(
    () => processesInGroup(start.npm.pid).length === 0,
    () => `Still running:\n${JSON.stringify(processesInGroup(start.npm.pid), null, 2)}\n${start.output()}`,
    60_000,
  );
  expect(isRunning(serverPid)).toBe(false);
  expect(existsSync(path.join(dataDir, 'admit.lock')), start.output()).toBe(false);
  await expect(fetch(`${start.url}/healthz`)).rejects.toThrow();
}

interface WayToStop {
  way: string;
  send(start: NpmStart, serverPid: number): void;
  /** npm outlives the signal, waits for the server and reports its clean exit (0), as a process manager expects. */
  npmWaits: boolean;
}

const waysToStop: WayToStop[] = [
  {
    way: 'SIGTERM to npm, as a container stop or a process manager sends it',
    send: (start) => process.kill(start.npm.pid, 'SIGTERM'),
    npmWaits: true,
  },
  {
    way: 'SIGTERM to the server process',
    send: (_start, serverPid) => process.kill(serverPid, 'SIGTERM'),
    npmWaits: true,
  },
  {
    way: 'SIGINT to every process of the start, as Ctrl-C in its terminal',
    send: (start) => process.kill(-start.npm.pid, 'SIGINT'),
    npmWaits: true,
  },
  {
    way: 'SIGHUP to every process of the start, as when its terminal closes',
    send: (start) => process.kill(-start.npm.pid, 'SIGHUP'),
    npmWaits: false,
  },
  {
    way: 'SIGKILL to npm, which leaves the server without the process that started it',
    send: (start) => process.kill(start.npm.pid, 'SIGKILL'),
    npmWaits: false,
  },
];

// Linux only: the processes of a start are found in /proc.
describe('`npm start` stopped through any of its processes', () => {
  let running: NpmStart | undefined;
  const dataDirs: string[] = [];
  const newDataDir = () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'admit-e2e-'));
    dataDirs.push(dataDir);
    return dataDir;
  };
  const start = async (options: Parameters<typeof startNpm>[0]) => (running = await startNpm(options));

  afterEach(() => {
    // A start that did not stop must not outlive its test: its whole group goes, as in a crash.
    if (running && processesInGroup(running.npm.pid).length > 0) process.kill(-running.npm.pid, 'SIGKILL');
    running = undefined;
  });
  afterAll(() => {
    for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true });
  });

  it.each(waysToStop)(
    '$way: the server closes its database and exits, and the next start finds the data',
    async ({ send, npmWaits }) => {
      const dataDir = newDataDir();
      const port = await freePort();
      const first = await start({ port, dataDir, waitForServing: true });
      expect((await postJson(`${first.url}/api/auth/sign-up/email`, account)).status).toBe(200);
      const serverPid = serverPidOf(dataDir)!;

      send(first, serverPid);
      await expectStoppedCleanly(first, dataDir, serverPid);
      if (npmWaits) expect(await first.exited).toEqual({ code: 0, signal: null });

      const second = await start({ port, dataDir, waitForServing: true });
      await expectAccountKept(second.url);
      const secondServerPid = serverPidOf(dataDir)!;
      process.kill(second.npm.pid, 'SIGTERM');
      await expectStoppedCleanly(second, dataDir, secondServerPid);
    },
    600_000,
  );

  it('a request that never ends holds the stop up only for a while: the database is closed under it and npm exits with 1', async () => {
    const dataDir = newDataDir();
    const port = await freePort();
    // At debug level the server logs each request it has begun, which tells when this one is in flight.
    const first = await start({ port, dataDir, waitForServing: true, env: { LOG_LEVEL: 'debug' } });
    const socket = connect(port, '127.0.0.1');
    await once(socket, 'connect');
    socket.write(
      'POST /api/auth/sign-up/email?endless HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
        'Content-Length: 1000\r\n\r\n{"name":',
    );
    socket.on('error', () => {}); // the server ends it when it stops
    await waitUntil(() => first.output().includes('/api/auth/sign-up/email?endless'), first.output, 60_000);
    const serverPid = serverPidOf(dataDir)!;

    process.kill(first.npm.pid, 'SIGTERM');
    await expectStoppedCleanly(first, dataDir, serverPid);
    expect(await first.exited).toEqual({ code: 1, signal: null });
    socket.destroy();
  }, 600_000);

  it('SIGTERM to the server while it opens its database: it opens it fully, closes it, exits, and the next start serves', async () => {
    const dataDir = newDataDir();
    const port = await freePort();
    // On a fresh data dir, creating and migrating the database takes seconds after the lock is taken.
    const first = await start({ port, dataDir, waitForServing: false });
    const serverPid = serverPidOf(dataDir)!;

    process.kill(serverPid, 'SIGTERM');
    await expectStoppedCleanly(first, dataDir, serverPid);
    expect(await first.exited).toEqual({ code: 0, signal: null });

    const second = await start({ port, dataDir, waitForServing: true });
    const secondServerPid = serverPidOf(dataDir)!;
    process.kill(second.npm.pid, 'SIGTERM');
    await expectStoppedCleanly(second, dataDir, secondServerPid);
  }, 600_000);
});
