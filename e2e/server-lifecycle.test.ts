import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useJourney } from './support/journey';

function runServerOnce(env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('the embedded server on its data directory', () => {
  // No page is opened, so no browser is launched: the server and its data dir are all there is.
  const journey = useJourney();

  it('keeps data across a clean SIGTERM shutdown and a restart, and refuses a second server on the same directory', async () => {
    const signUp = await fetch(`${journey.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: journey.url },
      body: JSON.stringify({ name: 'Rita Restart', email: 'rita@example.test', password: 'persisted password' }),
    });
    expect(signUp.status).toBe(200);

    const second = runServerOnce({ DATA_DIR: journey.dataDir, PORT: '0' });
    expect(second.status).toBe(1);
    expect(second.stderr).toContain('already using the data directory');

    expect(await journey.stopServer()).toBe(0);
    expect(existsSync(path.join(journey.dataDir, 'admit.lock'))).toBe(false);

    await journey.startServer();
    try {
      const outbox = (await (await fetch(`${journey.url}/dev/outbox.json`)).json()) as { messages: { to: string }[] };
      expect(outbox.messages.map((message) => message.to)).toContain('rita@example.test');
      // The account and its password survived: signing in finds it (and asks for the email to be verified).
      const signIn = await fetch(`${journey.url}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: journey.url },
        body: JSON.stringify({ email: 'rita@example.test', password: 'persisted password' }),
      });
      expect(signIn.status).toBe(403);
      expect(((await signIn.json()) as { code: string }).code).toBe('EMAIL_NOT_VERIFIED');
    } finally {
      expect(await journey.stopServer('SIGINT')).toBe(0);
    }
  });

  it('stops at start with one line naming a badly configured variable', () => {
    const result = runServerOnce({ DATA_DIR: journey.dataDir, PORT: 'eighty' });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Configuration error: PORT /);
  });
});
