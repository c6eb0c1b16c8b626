import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { openLive } from '../../testing/live-watch';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { addressKeyOf } from './live-limits';

type Live = Awaited<ReturnType<typeof openLive>>;

let t: TestApp;
let baseUrl: string;
const opened: Live[] = [];

beforeAll(async () => {
  t = await createTestApp({
    env: {
      // Each test comes from addresses of its own, given as a proxy would give them.
      TRUST_PROXY: 'true',
      LIVE_MAX_SOCKETS_PER_ADDRESS: '3',
      LIVE_MAX_SOCKETS_PER_ACCOUNT: '2',
      LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET: '3',
    },
  });
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterEach(async () => {
  await Promise.all(opened.splice(0).map((live) => live.close()));
});
afterAll(() => t?.close());

async function connect(address: string, cookie?: string) {
  const live = await openLive(baseUrl, { 'x-forwarded-for': address, ...(cookie ? { cookie } : {}) });
  opened.push(live);
  return live;
}

/**
 * Asks for a socket from `address`: `101` when the upgrade was taken (the socket is closed again
 * at once), else the refusal's status and error body.
 */
async function upgrade(address: string, cookie?: string) {
  const socket = new WebSocket(`${baseUrl.replace(/^http/, 'ws')}/live`, {
    headers: { 'x-forwarded-for': address, ...(cookie ? { cookie } : {}) },
  });
  const outcome = await new Promise<IncomingMessage | 'open'>((resolve) => {
    socket.once('open', () => resolve('open'));
    socket.once('unexpected-response', (_request, response) => resolve(response));
  });
  if (outcome === 'open') {
    const closed = once(socket, 'close');
    socket.close();
    await closed;
    return { status: 101 };
  }
  let body = '';
  for await (const chunk of outcome) body += String(chunk);
  // Ending a socket whose upgrade was refused reports it as an error, which is no news here.
  socket.on('error', () => {});
  socket.terminate();
  return { status: outcome.statusCode, error: (JSON.parse(body) as { error: unknown }).error };
}

describe('limits of /live', () => {
  it('refuses the upgrade with 429 once an address has three sockets open, and takes one again when one closes', async () => {
    const first = await connect('198.51.100.7');
    await connect('198.51.100.7');
    await connect('198.51.100.7');

    expect(await upgrade('198.51.100.7')).toEqual({
      status: 429,
      error: { status: 'RESOURCE_EXHAUSTED', message: 'Too many live connections from this address' },
    });
    // Another address is not affected.
    await connect('198.51.100.8');

    await first.close();
    await expect.poll(async () => (await upgrade('198.51.100.7')).status, { timeout: 5_000 }).toBe(101);
  });

  it('counts IPv6 clients by their /64, written in any form', async () => {
    await connect('2001:db8:7:1::1');
    await connect('2001:0db8:0007:0001:ffff::2');
    await connect('2001:db8:7:1:abcd:ef01:2345:6789');

    expect((await upgrade('2001:DB8:7:1::99')).status).toBe(429);
    await connect('2001:db8:7:2::1');
  });

  it("refuses a third socket of one account with 429 from any address, while another person's is taken", async () => {
    const [person, other] = await Promise.all([t.signUp('Ada Account'), t.signUp('Otto Other')]);
    await connect('203.0.113.1', person.cookie);
    await connect('203.0.113.2', person.cookie);

    expect(await upgrade('203.0.113.3', person.cookie)).toEqual({
      status: 429,
      error: { status: 'RESOURCE_EXHAUSTED', message: 'Too many live connections for this account' },
    });
    await connect('203.0.113.3', other.cookie);
    // Signed out, the same address still gets a socket.
    await connect('203.0.113.3');
  });

  it('answers the fourth subscription of a socket with resource-exhausted and keeps serving the first three', async () => {
    const live = await connect('192.0.2.44');
    for (const id of ['a', 'b', 'c', 'd']) live.subscribe(id, 'events.published');

    await expect.poll(() => live.find('d', 'error')?.error.status, { timeout: 5_000 }).toBe('RESOURCE_EXHAUSTED');
    await expect.poll(() => ['a', 'b', 'c'].every((id) => live.find(id, 'snapshot')), { timeout: 5_000 }).toBe(true);
    expect(live.socket.readyState).toBe(WebSocket.OPEN);
  });

  it('counts addresses as one key per IPv4 address and per IPv6 /64', () => {
    expect(addressKeyOf('198.51.100.7')).toBe('198.51.100.7');
    expect(addressKeyOf('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(addressKeyOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKeyOf('2001:0DB8:0000:0000:1::1')).toBe('2001:db8:0:0::/64');
    expect(addressKeyOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKeyOf('::1')).toBe('0:0:0:0::/64');
  });
});
