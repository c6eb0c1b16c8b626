import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { scanTicket } from '@admit/shared/checkin';
import { createOrder, refundOrder } from '@admit/shared/orders';
import { setTicketHolder } from '@admit/shared/tickets';
import { eq } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublishedEvent } from '../../testing/fixtures';
import { createTestApp, testAuthSecret, type TestApp } from '../../testing/test-app';
import { ticket } from '../tickets/schema';
import { passAuthenticationToken } from './apple-pass';
import { developmentPassTypeId } from './apple-signing';
import { pushPassUpdates, pushTargetOf } from './pass-updates';
import { walletRegistration } from './schema';

// Apple's PassKit web service (decision 0067): Wallet registers a device for a pass with the pass's
// token, asks which passes changed, fetches the latest, and hears of a change by a push, which goes
// to a local stand-in for Apple's push service (HTTP/2, as Apple's).

/** Stands in for api.push.apple.com: every push it got, and the answer to give a token (default 200). */
async function startPushStandIn() {
  const pushes: { path: string; topic: string; body: string }[] = [];
  const answers = new Map<string, number>();
  const server = http2.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const path = String(request.headers[':path']);
      pushes.push({ path, topic: String(request.headers['apns-topic']), body });
      response.writeHead(answers.get(decodeURIComponent(path.split('/').pop()!)) ?? 200);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, pushes, answers, close: () => new Promise((resolve) => server.close(resolve)) };
}

let t: TestApp;
let standIn: Awaited<ReturnType<typeof startPushStandIn>>;

beforeAll(async () => {
  standIn = await startPushStandIn();
  t = await createTestApp({ env: { APPLE_PUSH_URL: standIn.url } });
});
afterAll(async () => {
  await t?.close();
  await standIn?.close();
});

const base = `/wallet/apple/v1`;
const secret = { AUTH_SECRET: testAuthSecret };

/** A buyer's ticket and what Wallet would send with it. */
async function passOfNewTicket() {
  const owner = await t.signUp('Olga Organizer');
  const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie);
  const buyer = await t.signUp('Bea Buyer');
  const placed = await t.call(createOrder, { eventId, lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 1 }] }, buyer.cookie);
  const [one] = await t.db.select().from(ticket).where(eq(ticket.orderId, placed.body.result.orderId));
  const auth = { authorization: `ApplePass ${passAuthenticationToken(secret, one!.id)}` };
  return { owner, buyer, eventId, orderId: placed.body.result.orderId as string, ticketId: one!.id, auth };
}

const inject = (options: {
  method: 'GET' | 'POST' | 'DELETE';
  url: string;
  headers?: Record<string, string>;
  payload?: object;
}) => t.app.inject(options as InjectOptions);

describe('the PassKit web service', () => {
  it('registers a device with the pass’s token, tells it which passes changed, and gives the latest one', async () => {
    const { owner, buyer, eventId, ticketId, auth } = await passOfNewTicket();
    const registration = `${base}/devices/device-1/registrations/${developmentPassTypeId}/${ticketId}`;
    const wrong = { authorization: `ApplePass ${passAuthenticationToken(secret, 'another-ticket')}` };
    expect(
      (await inject({ method: 'POST', url: registration, headers: wrong, payload: { pushToken: 'token-1' } })).statusCode,
    ).toBe(401);
    expect((await inject({ method: 'POST', url: registration, headers: auth, payload: {} })).statusCode).toBe(400);
    expect(
      (await inject({ method: 'POST', url: registration, headers: auth, payload: { pushToken: 'token-1' } })).statusCode,
    ).toBe(201);
    expect(
      (await inject({ method: 'POST', url: registration, headers: auth, payload: { pushToken: 'token-1' } })).statusCode,
    ).toBe(200);

    const listed = await inject({ method: 'GET', url: `${base}/devices/device-1/registrations/${developmentPassTypeId}` });
    expect(listed.json()).toEqual({ serialNumbers: [ticketId], lastUpdated: expect.stringMatching(/^\d+$/) });
    const since = listed.json().lastUpdated as string;
    const unchanged = `${base}/devices/device-1/registrations/${developmentPassTypeId}?passesUpdatedSince=${since}`;
    expect((await inject({ method: 'GET', url: unchanged })).statusCode).toBe(204);

    const passUrl = `${base}/passes/${developmentPassTypeId}/${ticketId}`;
    const first = await inject({ method: 'GET', url: passUrl, headers: auth });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/vnd.apple.pkpass');
    const lastModified = String(first.headers['last-modified']);
    expect(
      (await inject({ method: 'GET', url: passUrl, headers: { ...auth, 'if-modified-since': lastModified } })).statusCode,
    ).toBe(304);
    expect((await inject({ method: 'GET', url: passUrl })).statusCode).toBe(401);

    // The holder's name changes: the pass is listed as changed, and the device is pushed once.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await t.call(setTicketHolder, { ticketId, name: 'Gina Guest' }, buyer.cookie)).status).toBe(200);
    expect((await inject({ method: 'GET', url: unchanged })).json()).toMatchObject({ serialNumbers: [ticketId] });
    const target = await pushTargetOf(t.config);
    // (The worker's own sweep, every 30 s, may have told it first: either way, once.)
    await pushPassUpdates(t.db, target!);
    expect(standIn.pushes.filter((one) => one.path === '/3/device/token-1')).toEqual([
      { path: '/3/device/token-1', topic: developmentPassTypeId, body: '{}' },
    ]);
    // Told once: the next sweep pushes nothing.
    expect(await pushPassUpdates(t.db, target!)).toBe(0);
    const latest = await inject({ method: 'GET', url: passUrl, headers: { ...auth, 'if-modified-since': lastModified } });
    expect(latest.statusCode).toBe(200);
    const pass = JSON.parse(Buffer.from(unzipSync(latest.rawPayload)['pass.json']!).toString()) as Record<string, unknown>;
    expect(JSON.stringify(pass)).toContain('Gina Guest');
    // The door admits the pass's barcode as it admits the ticket.
    const barcode = (pass as { barcodes: { message: string }[] }).barcodes[0]!.message;
    const scanned = await t.call(
      scanTicket,
      { eventId, code: barcode, device: 'Door 1', scannedAt: new Date().toISOString(), idempotencyKey: `scan-${ticketId}` },
      owner.cookie,
    );
    expect(scanned.body.result).toMatchObject({ result: 'accepted' });

    expect((await inject({ method: 'DELETE', url: registration, headers: auth })).statusCode).toBe(200);
    expect(
      (await inject({ method: 'GET', url: `${base}/devices/device-1/registrations/${developmentPassTypeId}` })).statusCode,
    ).toBe(204);
  });

  it('voids the pass of a refunded ticket, and forgets a device Apple says is gone', async () => {
    const { owner, orderId, ticketId, auth } = await passOfNewTicket();
    const registration = `${base}/devices/device-2/registrations/${developmentPassTypeId}/${ticketId}`;
    expect(
      (await inject({ method: 'POST', url: registration, headers: auth, payload: { pushToken: 'token-gone' } })).statusCode,
    ).toBe(201);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const refunded = await t.call(
      refundOrder,
      { orderId, reason: 'Cannot come', idempotencyKey: `wallet-${orderId}` },
      owner.cookie,
    );
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    const latest = await inject({ method: 'GET', url: `${base}/passes/${developmentPassTypeId}/${ticketId}`, headers: auth });
    const pass = JSON.parse(Buffer.from(unzipSync(latest.rawPayload)['pass.json']!).toString()) as { voided?: boolean };
    expect(pass.voided).toBe(true);

    standIn.answers.set('token-gone', 410);
    await pushPassUpdates(t.db, (await pushTargetOf(t.config))!);
    expect(await t.db.select().from(walletRegistration).where(eq(walletRegistration.pushToken, 'token-gone'))).toEqual([]);
  });

  it('answers 404 for a pass of another type or a ticket that does not exist, and 4xx to bad input', async () => {
    const { ticketId, auth } = await passOfNewTicket();
    const other = await inject({ method: 'GET', url: `${base}/passes/pass.org.other/${ticketId}`, headers: auth });
    expect(other.statusCode).toBe(404);
    const missing = await inject({ method: 'GET', url: `${base}/passes/${developmentPassTypeId}/no-such-ticket`, headers: auth });
    expect(missing.statusCode).toBe(404);
    const since = await inject({
      method: 'GET',
      url: `${base}/devices/d/registrations/${developmentPassTypeId}?passesUpdatedSince=yesterday`,
    });
    expect(since.statusCode).toBe(400);
    const log = await inject({ method: 'POST', url: `${base}/log`, payload: { logs: ['Web service error'] } });
    expect(log.statusCode).toBe(200);
  });
});
