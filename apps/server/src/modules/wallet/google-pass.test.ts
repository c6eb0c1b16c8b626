import { createVerify, generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../platform/config';
import { paidTickets } from '../../testing/fixtures';
import { createTestApp, testAuthSecret, type TestApp } from '../../testing/test-app';
import { orderAccessToken } from '../orders/orders.api';
import { ticket } from '../tickets/schema';
import { googleSigningOf } from './google-signing';

// The "Add to Google Wallet" link through the real app: a redirect to Google's save page with a JWT
// signed by the service account's key (a key pair the test makes), carrying the event's class and
// the ticket's object.

type Person = Awaited<ReturnType<TestApp['signUp']>>;
const folder = mkdtempSync(path.join(tmpdir(), 'admit-google-wallet-'));
const issuerId = '3388000000012345678';
const serviceAccount = 'admit-wallet@example-project.iam.gserviceaccount.com';
const keys = generateKeyPairSync('rsa', { modulusLength: 2048 });

let t: TestApp;
let buyer: Person;
let stranger: Person;
let bought: { orderId: string; eventId: string; tickets: { id: string; code: string }[] };

const getLink = (app: TestApp, ticketId: string, headers: Record<string, string> = {}, query = '') =>
  app.app.inject({ method: 'GET', url: `/files/tickets/${encodeURIComponent(ticketId)}/google-wallet${query}`, headers });

const decoded = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString());

/** The JWT of a save link: its header and claims, and whether its RS256 signature is the test key's. */
function jwtOf(location: string | undefined) {
  const prefix = 'https://pay.google.com/gp/v/save/';
  if (!location?.startsWith(prefix)) throw new Error(`not a save link: ${location}`);
  const [header, claims, signature] = location.slice(prefix.length).split('.') as [string, string, string];
  const verifies = createVerify('RSA-SHA256')
    .update(`${header}.${claims}`)
    .verify(keys.publicKey, Buffer.from(signature, 'base64url'));
  return { header: decoded(header), claims: decoded(claims), verifies };
}

beforeAll(async () => {
  const keyFile = path.join(folder, 'service-account.json');
  const privateKey = keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  writeFileSync(
    keyFile,
    JSON.stringify({ type: 'service_account', client_email: serviceAccount, private_key: privateKey, private_key_id: 'key-1' }),
  );
  t = await createTestApp({ env: { GOOGLE_WALLET_ISSUER_ID: issuerId, GOOGLE_WALLET_SERVICE_ACCOUNT: keyFile } });
  const owner = await t.signUp('Olga Organizer');
  [buyer, stranger] = await Promise.all([t.signUp('Bob Buyer'), t.signUp('Sue Stranger')]);
  const { orderId, eventId, tickets } = await paidTickets(t, owner.cookie, buyer.cookie);
  bought = { orderId, eventId, tickets };
});
afterAll(async () => {
  await t?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('GET /files/tickets/:ticketId/google-wallet', () => {
  it("redirects the buyer to Google's save page with a JWT signed by the service account's key", async () => {
    const before = Math.floor(Date.now() / 1000);
    const response = await getLink(t, bought.tickets[0]!.id, { cookie: buyer.cookie });
    expect(response.statusCode).toBe(302);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const jwt = jwtOf(response.headers.location);
    expect(jwt.verifies).toBe(true);
    expect(jwt.header).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'key-1' });
    expect(jwt.claims).toMatchObject({
      iss: serviceAccount,
      aud: 'google',
      typ: 'savetowallet',
      origins: ['http://localhost:3000'],
    });
    expect(jwt.claims.iat).toBeGreaterThanOrEqual(before);
  });

  it('carries the event as a class and the ticket as an object whose QR code is its signed code, on the venue’s clock', async () => {
    const [first] = bought.tickets;
    const { claims } = jwtOf((await getLink(t, first!.id, { cookie: `${buyer.cookie}; admit.locale=de` })).headers.location);
    const classId = `${issuerId}.${bought.eventId}`;
    expect(claims.payload.eventTicketClasses).toEqual([
      {
        id: classId,
        issuerName: 'Night Owls',
        reviewStatus: 'UNDER_REVIEW',
        eventId: bought.eventId,
        eventName: { defaultValue: { language: 'en', value: 'Jazz night' } },
        venue: {
          name: { defaultValue: { language: 'en', value: 'Club Blau' } },
          address: { defaultValue: { language: 'en', value: 'Club Blau' } },
        },
        dateTime: { start: '2030-01-10T19:00:00+01:00', end: '2030-01-10T23:00:00+01:00' },
      },
    ]);
    expect(claims.payload.eventTicketObjects).toEqual([
      {
        id: `${issuerId}.${first!.id}`,
        classId,
        state: 'ACTIVE',
        barcode: { type: 'QR_CODE', value: first!.code, alternateText: first!.code },
        ticketHolderName: 'Bob Buyer',
        ticketType: { defaultValue: { language: 'en', value: 'Standing' } },
        reservationInfo: { confirmationCode: bought.orderId.replaceAll('-', '').slice(0, 8).toUpperCase() },
      },
    ]);
  });

  it('gives a void ticket an inactive object, with the same code', async () => {
    const [, second] = bought.tickets;
    await t.db.update(ticket).set({ status: 'void' }).where(eq(ticket.id, second!.id));
    const { claims } = jwtOf((await getLink(t, second!.id, { cookie: buyer.cookie })).headers.location);
    expect(claims.payload.eventTicketObjects[0]).toMatchObject({ state: 'INACTIVE', barcode: { value: second!.code } });
  });

  it("opens with the token of a guest's order, and not with a wrong one", async () => {
    const token = orderAccessToken({ AUTH_SECRET: testAuthSecret }, bought.orderId);
    expect((await getLink(t, bought.tickets[0]!.id, {}, `?token=${token}`)).statusCode).toBe(302);
    expect((await getLink(t, bought.tickets[0]!.id, {}, `?token=${token.slice(1)}x`)).statusCode).toBe(404);
  });

  it('answers 404 to a stranger and for an id no ticket can have, 401 to someone not signed in', async () => {
    const refused = await getLink(t, bought.tickets[0]!.id, { cookie: stranger.cookie });
    expect(refused.statusCode).toBe(404);
    expect(refused.json()).toEqual({ error: { status: 'NOT_FOUND', message: 'No such tickets' } });
    for (const id of ['x'.repeat(65), 'nul\u0000', '00000000-0000-0000-0000-000000000000'])
      expect((await getLink(t, id, { cookie: buyer.cookie })).statusCode).toBe(404);
    expect((await getLink(t, bought.tickets[0]!.id)).statusCode).toBe(401);
  });
});

describe('Google Wallet links without the operator’s service account', () => {
  it('are signed with a development key outside production, and the ticket says Google will refuse it', async () => {
    const bare = await createTestApp();
    try {
      const owner = await bare.signUp('Dee Developer');
      const {
        tickets: [free],
      } = await paidTickets(bare, owner.cookie, owner.cookie);
      const jwt = jwtOf((await getLink(bare, free!.id, { cookie: owner.cookie })).headers.location);
      expect(jwt.verifies).toBe(false);
      expect(jwt.claims.iss).toBe('development@admit.invalid');
      expect(jwt.claims.payload.eventTicketObjects[0].textModulesData).toEqual([
        {
          id: 'development',
          header: 'Development link',
          body: 'Development link: not signed by a Google Wallet issuer; Google will not accept it.',
        },
      ]);
    } finally {
      await bare.close();
    }
  });
});

describe('the operator’s Google Wallet settings', () => {
  it('stop the start, naming the setting, when the file is missing or not a service account’s key', () => {
    const start = (file: string) => () =>
      googleSigningOf(loadConfig({ GOOGLE_WALLET_ISSUER_ID: issuerId, GOOGLE_WALLET_SERVICE_ACCOUNT: file }));
    expect(start(path.join(folder, 'nothing.json'))).toThrow(/^Configuration error: GOOGLE_WALLET_SERVICE_ACCOUNT names a file/);
    const notAKey = path.join(folder, 'not-a-key.json');
    writeFileSync(notAKey, JSON.stringify({ client_email: serviceAccount, private_key: 'secret' }));
    expect(start(notAKey)).toThrow(
      "Configuration error: GOOGLE_WALLET_SERVICE_ACCOUNT is not a service account's JSON key file (with client_email and a PEM private_key)",
    );
    expect(start(notAKey)).toThrow(ConfigError);
  });
});
