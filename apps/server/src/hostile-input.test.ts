import { once } from 'node:events';
import { callableErrorCodeOf } from '@admit/shared/callable';
import type { LiveServerMessage } from '@admit/shared/live';
import { createOrder } from '@admit/shared/orders';
import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { z } from 'zod';
import { callables, liveQueries } from './app';
import { event } from './modules/events/schema';
import { ticket } from './modules/tickets/schema';
import { createPublishedEvent } from './testing/fixtures';
import { createTestApp, type TestApp } from './testing/test-app';

// Every entrance, sent generated hostile input, anonymous and signed in: wrong types, unknown
// fields, huge strings, NUL and control characters, path tricks, SQL fragments, other people's ids.
// Whatever comes in, the answer is a 4xx or a success, never a 5xx; no body carries SQL, a stack
// trace or a file path of the server; and nothing of another person (their email address, their
// ticket codes, their event's signing key) reaches the caller.

let t: TestApp;
let base: string;
let attacker: Awaited<ReturnType<TestApp['signUp']>>;
/** What belongs to another person: none of it may ever reach the attacker or an anonymous caller. */
const secrets: string[] = [];
/** Ids of the other person's things, used as input: knowing an id must not be enough. */
const victimIds: string[] = [];

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
  const victim = await t.signUp('Vera Victim', `vera-${Date.now()}@victim.example`);
  const { organizationId, eventId, ticketTypeIds } = await createPublishedEvent(t, victim.cookie, {
    ticketTypes: [{ capacity: 20 }, { capacity: 20, price: 1500 }],
  });
  const { body } = await t.call(
    createOrder,
    { eventId, lines: [{ ticketTypeId: ticketTypeIds[0]!, quantity: 2 }] },
    victim.cookie,
  );
  const codes = await t.db
    .select({ id: ticket.id, code: ticket.code })
    .from(ticket)
    .where(eq(ticket.orderId, body.result.orderId));
  const [signing] = await t.db.select({ checkinKey: event.checkinKey }).from(event).where(eq(event.id, eventId));
  secrets.push(victim.email, signing!.checkinKey, ...codes.map((one) => one.code));
  victimIds.push(victim.user.id, organizationId, eventId, body.result.orderId, ...ticketTypeIds, ...codes.map((one) => one.id));
  attacker = await t.signUp('Mallory Attacker');
});
afterAll(() => t?.close());

/** Strings an attacker tries. */
const hostileString = () =>
  fc.oneof(
    fc.constantFrom(...victimIds),
    fc.constantFrom(
      '',
      '\u0000',
      `a\u0000b`,
      '%00',
      '../../../../etc/passwd',
      "' OR 1=1 --",
      '"; DROP TABLE "order"; --',
      '${7*7}',
      '<script>alert(1)</script>',
      '\uD800',
      '\u202E',
      'NaN',
      '-1',
      '1e309',
    ),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
    fc.integer({ min: 1_000, max: 300_000 }).map((length) => 'x'.repeat(length)),
  );

/** Any JSON value, with hostile strings inside. */
const hostileValue = () =>
  fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      hostileString(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(hostileString(), tie('value'), { maxKeys: 4 }),
    ),
  })).value;

/** The input of a callable or live query: its own field names (when it has any) with hostile values, or anything at all. */
function hostileInput(schema: z.ZodType) {
  const shape = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
  const keys = [...shape, 'extra', '__proto__', 'constructor'];
  return fc.oneof(
    hostileValue(),
    fc.dictionary(fc.constantFrom(...keys), hostileValue(), { maxKeys: keys.length }),
    shape.length > 0
      ? fc.record(Object.fromEntries(shape.map((key) => [key, hostileValue()])), { requiredKeys: [] })
      : fc.constant({}),
  );
}

const sqlOrStack = [
  /\b(select|insert|update|delete)\b[\s\S]{0,200}\b(from|into|set|where)\b/i,
  /\bat\s+[\w.<>]+\s+\(?[^\s()]+:\d+:\d+\)?/,
  /node_modules|\/apps\/server\/|\.ts:\d+/,
  /\bparams?:\s*\[/i,
];

/** Checks one answer: never a 5xx, nothing internal, nothing of the other person. */
function expectSafe(what: string, status: number, body: string) {
  expect(status, `${what}: ${body.slice(0, 300)}`).toBeLessThan(500);
  for (const pattern of sqlOrStack) expect(body, `${what} leaks: ${body.slice(0, 300)}`).not.toMatch(pattern);
  for (const secret of secrets) expect(body.includes(secret), `${what} shows another person's data`).toBe(false);
}

const identities = () =>
  [
    ['anonymous', undefined],
    ['signed in', attacker.cookie],
  ] as const;

describe('every callable, sent hostile input', () => {
  for (const callable of callables) {
    it(`${callable.contract.name} answers 4xx or success, and shows nothing internal or of anyone else`, async () => {
      for (const [who, cookie] of identities()) {
        await fc.assert(
          fc.asyncProperty(hostileInput(callable.contract.input), async (data) => {
            const response = await t.app.inject({
              method: 'POST',
              url: `/fn/${callable.contract.name}`,
              headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
              payload: JSON.stringify({ data }),
            });
            expectSafe(`${callable.contract.name} (${who})`, response.statusCode, response.body);
          }),
          { numRuns: 25 },
        );
      }
    });
  }
});

describe('every live query, sent hostile parameters', () => {
  /** Subscribes and returns the first answer's text. */
  async function firstAnswer(query: string, params: unknown, cookie?: string): Promise<string> {
    const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/live`, { headers: cookie ? { cookie } : {} });
    try {
      await once(socket, 'open');
      // A frame over the size limit closes the socket instead: that is a refusal too.
      const answer = Promise.race([
        once(socket, 'message').then(([data]) => String(data)),
        once(socket, 'close').then(() =>
          JSON.stringify({ type: 'error', id: null, error: { status: 'INVALID_ARGUMENT', message: 'closed' } }),
        ),
      ]);
      socket.send(JSON.stringify({ type: 'subscribe', id: 's1', query, params }));
      return await answer;
    } finally {
      socket.close();
    }
  }

  for (const query of liveQueries) {
    it(`${query.contract.name} answers a snapshot or a 4xx-like error, and shows nothing internal or of anyone else`, async () => {
      for (const [who, cookie] of identities()) {
        await fc.assert(
          fc.asyncProperty(hostileInput(query.contract.params), async (params) => {
            const text = await firstAnswer(query.contract.name, params, cookie);
            const message = JSON.parse(text) as LiveServerMessage;
            const code = message.type === 'error' ? callableErrorCodeOf(message.error.status) : 'ok';
            expectSafe(`${query.contract.name} (${who})`, code === 'internal' ? 500 : 200, text);
          }),
          { numRuns: 10 },
        );
      }
    });
  }
});

describe('every HTTP route, sent hostile input', () => {
  const segment = () =>
    hostileString().map((value) => encodeURIComponent(value.slice(0, 2_000).replace(/[\uD800-\uDFFF]/g, '\uFFFD')));

  it('the file routes answer 4xx or success for any path and query', async () => {
    for (const [who, cookie] of identities()) {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            segment().map((id) => `/files/orders/${id}/tickets.pdf`),
            fc
              .tuple(segment(), segment(), segment())
              .map(([id, file, q]) => `/files/events/${id}/exports/${file}.csv?locale=${q}&excel=${q}`),
            fc
              .tuple(fc.constantFrom(...victimIds), fc.constantFrom('attendees', 'orders', 'check-ins'))
              .map(([id, kind]) => `/files/events/${id}/exports/${kind}.csv`),
            fc.constantFrom(...victimIds).map((id) => `/files/orders/${id}/tickets.pdf`),
            fc
              .tuple(segment(), fc.constantFrom('ticket.pdf', 'pass.pkpass', 'google-wallet'), segment())
              .map(([id, file, token]) => `/files/tickets/${id}/${file}?token=${token}`),
            segment().map((path) => `/${path}`),
            segment().map((path) => `/fn/${path}`),
          ),
          async (url) => {
            const response = await t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
            expectSafe(`GET ${url.slice(0, 80)} (${who})`, response.statusCode, response.body);
          },
        ),
        { numRuns: 60 },
      );
    }
  });

  it('the picture routes answer 4xx or success for any path, query and body', async () => {
    for (const [who, cookie] of identities()) {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.constantFrom(...victimIds).map((id) => `/files/events/${id}/cover`),
            segment().map((id) => `/files/events/${id}/cover`),
            segment().map((id) => `/files/orgs/${id}/logo`),
          ),
          fc.constantFrom('PUT', 'DELETE') as fc.Arbitrary<'PUT' | 'DELETE'>,
          segment(),
          fc.uint8Array({ maxLength: 4_096 }),
          async (path, method, query, body) => {
            const response = await t.app.inject({
              method,
              url: `${path}?focalX=${query}`,
              headers: { 'content-type': 'image/png', origin: 'http://localhost:3000', ...(cookie ? { cookie } : {}) },
              payload: Buffer.from(body),
            });
            expectSafe(`${method} ${path.slice(0, 80)} (${who})`, response.statusCode, response.body);
          },
        ),
        { numRuns: 30 },
      );
      await fc.assert(
        fc.asyncProperty(segment(), async (name) => {
          const response = await t.app.inject({ method: 'GET', url: `/files/i/${name}`, headers: cookie ? { cookie } : {} });
          expectSafe(`GET /files/i/${name.slice(0, 60)} (${who})`, response.statusCode, response.body);
        }),
        { numRuns: 30 },
      );
    }
  });

  it('the analytics beacon answers 4xx or 204 for any body and content type, and writes what it took', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          hostileValue(),
          fc.record(
            { eventId: hostileString(), step: hostileString(), referrer: hostileString(), utm: hostileValue() },
            { requiredKeys: [] },
          ),
        ),
        fc.constantFrom('text/plain;charset=UTF-8', 'application/json', 'application/x-www-form-urlencoded', 'image/png'),
        async (body, type) => {
          const response = await t.app.inject({
            method: 'POST',
            url: '/a',
            headers: { 'content-type': type },
            payload: JSON.stringify(body),
          });
          expectSafe(`POST /a ${type}`, response.statusCode, response.body);
        },
      ),
      { numRuns: 80 },
    );
    await t.app.beacons.flush();
    expect(t.app.beacons.stats().dropped).toBe(0);
  });

  it('the sign-in routes answer 4xx or success for any body', async () => {
    const paths = [
      '/api/auth/sign-up/email',
      '/api/auth/sign-in/email',
      '/api/auth/sign-in/magic-link',
      '/api/auth/request-password-reset',
      '/api/auth/reset-password',
      '/api/auth/update-user',
      '/api/auth/change-email',
      '/api/auth/change-password',
      '/api/auth/phone-number/send-otp',
      '/api/auth/phone-number/verify',
      '/api/auth/revoke-session',
      '/api/auth/revoke-session-by-id',
      '/api/auth/two-factor/verify-totp',
    ];
    const fields = [
      'email',
      'password',
      'name',
      'newPassword',
      'currentPassword',
      'token',
      'sessionId',
      'phoneNumber',
      'code',
      'callbackURL',
      'newEmail',
      'image',
    ];
    for (const [who, cookie] of identities()) {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...paths),
          fc.oneof(fc.dictionary(fc.constantFrom(...fields), hostileValue(), { maxKeys: 5 }), hostileValue()),
          async (path, body) => {
            const response = await t.app.inject({
              method: 'POST',
              url: path,
              headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', ...(cookie ? { cookie } : {}) },
              payload: JSON.stringify(body),
            });
            expectSafe(`POST ${path} (${who})`, response.statusCode, response.body);
          },
        ),
        { numRuns: 80 },
      );
    }
  });

  it('the payment webhook answers 4xx for any unsigned or badly signed body', async () => {
    await fc.assert(
      fc.asyncProperty(hostileValue(), fc.stringMatching(/^[\x20-\x7e]{0,300}$/), async (body, signature) => {
        const response = await t.app.inject({
          method: 'POST',
          url: '/webhooks/stripe',
          headers: { 'content-type': 'application/json', 'stripe-signature': signature.slice(0, 5_000) },
          payload: JSON.stringify(body),
        });
        expect(response.statusCode).toBeGreaterThanOrEqual(400);
        expectSafe('POST /webhooks/stripe', response.statusCode, response.body);
      }),
      { numRuns: 40 },
    );
  });
});
