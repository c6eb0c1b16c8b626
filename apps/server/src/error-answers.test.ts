import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './testing/test-app';

// No answer carries what went wrong inside: no SQL, no parameters, no stack. Invalid input is a
// 4xx; anything unexpected is `internal` with the request id, under which the log keeps the error.

/** Words of a statement or a stack, which no answer may contain. */
const internals = /select |insert |update |delete |from "|params:|failed query|at async|node_modules|\.ts:\d/i;

describe('invalid input to the file routes', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await createTestApp();
    ({ cookie } = await t.signUp('Fay Files'));
  });
  afterAll(() => t?.close());

  it('answers a NUL as the order id of the tickets PDF with 404 in the protocol’s shape', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/files/orders/%00/tickets.pdf', headers: { cookie } });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { status: 'NOT_FOUND', message: 'No such tickets' } });
  });

  it('answers a NUL as the event id of an export with 404 in the protocol’s shape', async () => {
    for (const kind of ['attendees', 'orders', 'check-ins']) {
      const response = await t.app.inject({ method: 'GET', url: `/files/events/%00/exports/${kind}.csv`, headers: { cookie } });
      expect(response.statusCode, kind).toBe(404);
      expect(response.json(), kind).toEqual({ error: { status: 'NOT_FOUND', message: 'No such event' } });
    }
  });

  it('answers an address that is not valid percent-encoding with 400 invalid-argument', async () => {
    for (const url of ['/files/orders/%ff/tickets.pdf', '/api/auth/%E0%A4%A']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ error: { status: 'INVALID_ARGUMENT', message: 'The address is not valid' } });
    }
  });
});

describe('a failure inside the server', () => {
  let t: TestApp;
  let person: Awaited<ReturnType<TestApp['signUp']>>;
  const requestId = 'answer-test-0001';
  beforeAll(async () => {
    t = await createTestApp();
    person = await t.signUp('Bo Broken');
    // A real failure of the database under every session lookup: its table is gone.
    await t.db.execute(sql`alter table "session" rename to "session_gone"`);
  });
  afterAll(() => t?.close());

  it('answers a file route with 500 internal and the request id, and nothing of the error', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/files/orders/some-order/tickets.pdf',
      headers: { cookie: person.cookie, 'x-request-id': requestId },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ error: { status: 'INTERNAL', message: `Internal error (request ${requestId})` } });
  });

  it('answers a sign-in whose database fails with 500, the request id, and no SQL', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000', 'x-request-id': requestId },
      payload: { email: person.email, password: person.password },
    });
    expect(response.statusCode).toBe(500);
    expect(response.body).toContain(`Internal error (request ${requestId})`);
    expect(response.body).not.toMatch(internals);
  });

  it('replaces the message of a 500 that Better Auth formats itself with the request id', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/auth/get-session',
      headers: { cookie: person.cookie, 'x-request-id': requestId },
    });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ code: 'INTERNAL_SERVER_ERROR', message: `Internal error (request ${requestId})` });
  });
});
