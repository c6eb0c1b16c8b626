import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startAdmit } from './support/admit-server';

const dataDir = mkdtempSync(path.join(tmpdir(), 'admit-lifecycle-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

function runServerOnce(env: Record<string, string>) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('the embedded server on its data directory', () => {
  it('keeps data across a clean SIGTERM shutdown and a restart, and refuses a second server on the same directory', async () => {
    const first = await startAdmit({ DATA_DIR: dataDir });
    const signUp = await fetch(`${first.url}/api/auth/sign-up/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: first.url },
      body: JSON.stringify({ name: 'Rita Restart', email: 'rita@example.test', password: 'persisted password' }),
    });
    expect(signUp.status).toBe(200);

    const second = runServerOnce({ DATA_DIR: dataDir, PORT: '0' });
    expect(second.status).toBe(1);
    expect(second.stderr).toContain('already using the data directory');

    const exited = new Promise<number | null>((resolve) => first.process.once('exit', resolve));
    first.process.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(path.join(dataDir, 'admit.lock'))).toBe(false);

    const again = await startAdmit({ DATA_DIR: dataDir });
    try {
      const outbox = (await (await fetch(`${again.url}/dev/outbox.json`)).json()) as { messages: { to: string }[] };
      expect(outbox.messages.map((message) => message.to)).toContain('rita@example.test');
      // The account and its password survived: signing in finds it (and asks for the email to be verified).
      const signIn = await fetch(`${again.url}/api/auth/sign-in/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: again.url },
        body: JSON.stringify({ email: 'rita@example.test', password: 'persisted password' }),
      });
      expect(signIn.status).toBe(403);
      expect(((await signIn.json()) as { code: string }).code).toBe('EMAIL_NOT_VERIFIED');
    } finally {
      const stopped = new Promise<number | null>((resolve) => again.process.once('exit', resolve));
      again.process.kill('SIGINT');
      expect(await stopped).toBe(0);
    }
  });

  it('stops at start with one line naming a badly configured variable', () => {
    const result = runServerOnce({ DATA_DIR: dataDir, PORT: 'eighty' });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Configuration error: PORT /);
  });
});
