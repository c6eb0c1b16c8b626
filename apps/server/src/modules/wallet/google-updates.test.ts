import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createOrder, refundOrder } from '@admit/shared/orders';
import { setTicketHolder } from '@admit/shared/tickets';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPublishedEvent } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { ticket } from '../tickets/schema';
import { googleTargetOf, syncGoogleObjects } from './google-updates';

// A saved Google pass follows its ticket (decision 0067): after its link was given out, a change of
// the ticket (its holder, its void) or of its event is sent to Google's Wallet REST API, here a local
// stand-in that also plays Google's token endpoint.

interface Call {
  method: string;
  path: string;
  authorization: string | undefined;
  body: string;
}

/** Google's token endpoint and Wallet API: every call, the objects it keeps, and a token for any signed assertion. */
async function startGoogleStandIn() {
  const calls: Call[] = [];
  const kept = new Map<string, Record<string, unknown>>();
  const server: Server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const path = request.url ?? '';
      calls.push({ method: request.method ?? '', path, authorization: request.headers.authorization, body });
      const answer = (status: number, value: object = {}) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(value));
      };
      if (path === '/token') return answer(200, { access_token: 'stand-in-token', expires_in: 3600 });
      if (request.headers.authorization !== 'Bearer stand-in-token') return answer(401);
      const id = decodeURIComponent(path.split('/').pop() ?? '');
      if (request.method === 'PUT') {
        if (!kept.has(id)) return answer(404);
        kept.set(id, JSON.parse(body) as Record<string, unknown>);
        return answer(200, kept.get(id)!);
      }
      const made = JSON.parse(body) as { id: string };
      kept.set(made.id, made);
      return answer(200, made);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, calls, kept, close: () => new Promise((resolve) => server.close(resolve)) };
}

let t: TestApp;
let google: Awaited<ReturnType<typeof startGoogleStandIn>>;

beforeAll(async () => {
  google = await startGoogleStandIn();
  t = await createTestApp({ env: { GOOGLE_WALLET_API_URL: google.url, GOOGLE_OAUTH_TOKEN_URL: `${google.url}/token` } });
});
afterAll(async () => {
  await t?.close();
  await google?.close();
});

describe('a saved Google pass', () => {
  it('is sent to Google again when its holder changes and when its ticket is refunded', async () => {
    const owner = await t.signUp('Olga Organizer');
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie);
    const buyer = await t.signUp('Bea Buyer');
    const placed = await t.call(
      createOrder,
      { eventId, lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 1 }] },
      buyer.cookie,
    );
    const orderId = placed.body.result.orderId as string;
    const [one] = await t.db.select().from(ticket).where(eq(ticket.orderId, orderId));
    const target = (await googleTargetOf(t.config))!;
    const sync = () => syncGoogleObjects(t.db, target, 'http://localhost:3000');

    // Nothing is sent for a ticket whose link nobody asked for.
    expect(await sync()).toBe(0);
    const link = await t.app.inject({
      method: 'GET',
      url: `/files/tickets/${one!.id}/google-wallet`,
      headers: { cookie: buyer.cookie },
    });
    expect(link.statusCode).toBe(302);
    // The link carries the pass as it is: nothing to send yet.
    expect(await sync()).toBe(0);

    await new Promise((resolve) => setTimeout(resolve, 20));
    expect((await t.call(setTicketHolder, { ticketId: one!.id, name: 'Gina Guest' }, buyer.cookie)).status).toBe(200);
    // (The worker's own sweep, every 30 s, may send it first: either way, it is sent.)
    await sync();
    const objectId = `development.${one!.id}`;
    // Google had not kept it (the link was never opened): it is made, with the class.
    expect(google.kept.get(objectId)).toMatchObject({
      ticketHolderName: 'Gina Guest',
      state: 'ACTIVE',
      barcode: { value: one!.code },
    });
    expect(google.kept.get(`development.${eventId}`)).toMatchObject({ eventId });
    expect(
      google.calls.filter((call) => call.path !== '/token').every((call) => call.authorization === 'Bearer stand-in-token'),
    ).toBe(true);
    expect(await sync()).toBe(0);

    await t.call(refundOrder, { orderId, reason: 'Cannot come', idempotencyKey: `google-${orderId}` }, owner.cookie);
    await sync();
    expect(google.kept.get(objectId)).toMatchObject({ state: 'INACTIVE' });
    const puts = google.calls.filter((call) => call.method === 'PUT' && call.path.endsWith(encodeURIComponent(objectId)));
    expect(puts.length).toBeGreaterThanOrEqual(2);
    expect(await sync()).toBe(0);
  });
});
