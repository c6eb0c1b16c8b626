import type { LiveServerMessage } from '@admit/shared/live';
import { myTickets } from '@admit/shared/tickets';
import { createOrg } from '@admit/shared/orgs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createTestApp, type TestApp } from '../../testing/test-app';

// A page of another site (or of another subdomain of ours) must not act with a signed-in person's
// cookies: not through the live socket (cross-site WebSocket hijacking), not through a callable.

let t: TestApp;
let base: string;
let person: Awaited<ReturnType<TestApp['signUp']>>;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  person = await t.signUp('Otto Origin');
});
afterAll(() => t?.close());

/** Opens /live with the person's cookie and the given Origin; resolves with the handshake's outcome. */
function openLive(origin?: string): Promise<{ opened: boolean; status?: number; firstMessage?: LiveServerMessage }> {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/live`, {
    headers: { cookie: person.cookie, ...(origin ? { origin } : {}) },
  });
  return new Promise((resolve) => {
    socket.on('unexpected-response', (_request, response) => {
      resolve({ opened: false, status: response.statusCode });
      socket.terminate();
    });
    socket.on('open', () => {
      socket.send(JSON.stringify({ type: 'subscribe', id: 's1', query: myTickets.name, params: {} }));
      socket.once('message', (data) => {
        resolve({ opened: true, firstMessage: JSON.parse(String(data)) });
        socket.close();
      });
    });
    socket.on('error', () => {});
  });
}

const postFrom = (origin: string | undefined) =>
  t.app.inject({
    method: 'POST',
    url: `/fn/${createOrg.name}`,
    headers: { 'content-type': 'application/json', cookie: person.cookie, ...(origin ? { origin } : {}) },
    payload: JSON.stringify({ data: { name: 'Origin Club' } }),
  });

describe('the live socket', () => {
  it.each(['https://evil.example', 'http://tickets.localhost:3000', 'null'])(
    'refuses a handshake from the page of another origin (%s) before anything is read',
    async (origin) => {
      const outcome = await openLive(origin);
      expect(outcome).toEqual({ opened: false, status: 403 });
    },
  );

  it('serves a page of Admit itself, and a program that sends no Origin', async () => {
    for (const origin of ['http://localhost:3000', base, undefined]) {
      const outcome = await openLive(origin);
      expect(outcome.opened).toBe(true);
      expect(outcome.firstMessage?.type).toBe('snapshot');
    }
  });
});

describe('callables', () => {
  it('refuse a call with the person’s cookie from the page of another origin', async () => {
    const response = await postFrom('https://evil.example');
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: { status: 'PERMISSION_DENIED', message: expect.any(String) } });
  });

  it('serve a page of Admit itself, and a program that sends no Origin', async () => {
    for (const origin of ['http://localhost:3000', undefined]) {
      expect((await postFrom(origin)).statusCode).toBe(200);
    }
  });
});
