import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  callableErrorCodes,
  CallableErrorCodeSchema,
  canonicalStatusOf,
  defineCallableContract,
  type CallableErrorCode,
} from '@admit/shared/callable';
import { createEvent, publishEvent } from '@admit/shared/events';
import { createOrder } from '@admit/shared/orders';
import { createOrg } from '@admit/shared/orgs';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { addMember, createEventAs, createOrgAs, createPublishedEvent, eventInput } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import type { SessionUser } from '../auth/auth';
import { organization } from '../auth/organization-schema';
import { loadConfig } from '../config';
import { defineCallable, registerCallables } from './callable';
import { createSandboxProvider } from '../payments/sandbox-provider';
import { CallableError, type CallableErrorDetails } from './callable-error';

// The callable protocol's specification, through the whole app and through a small app of test
// callables: longer than most files because it lists every code, status and failure of the protocol.

/**
 * The codes and their HTTP statuses as docs/contracts.md lists them, written out here rather than
 * imported, so that a wrong status in the code is caught.
 */
const httpStatusOfCode = {
  'invalid-argument': 400,
  'failed-precondition': 400,
  unauthenticated: 401,
  'permission-denied': 403,
  'not-found': 404,
  'already-exists': 409,
  aborted: 409,
  'resource-exhausted': 429,
  cancelled: 499,
  internal: 500,
  unimplemented: 501,
  unavailable: 503,
  'deadline-exceeded': 504,
} as const;

type Person = Awaited<ReturnType<TestApp['signUp']>>;

let t: TestApp;
let owner: Person;

beforeAll(async () => {
  t = await createTestApp();
  owner = await t.signUp('Olivia Owner');
});
afterAll(() => t?.close());

const post = (
  app: FastifyInstance,
  name: string,
  payload: string,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) => app.inject({ method: 'POST', url: `/fn/${name}`, headers, payload });

describe('the callable protocol, through the whole app', () => {
  it('answers a success with 200 and only {"result": …}', async () => {
    const response = await post(t.app, createOrg.name, JSON.stringify({ data: { name: 'Night Owls' } }), {
      'content-type': 'application/json',
      cookie: owner.cookie,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/json/);
    expect(response.json()).toEqual({
      result: { organizationId: expect.any(String), slug: expect.stringMatching(/^night-owls-/) },
    });
  });

  it('answers not-found with 404 for a function that does not exist', async () => {
    const response = await post(t.app, 'orgs.explode', JSON.stringify({ data: {} }));
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: { status: 'NOT_FOUND', message: expect.stringContaining('orgs.explode') } });
  });

  it('answers invalid-argument with 400 when the body is not JSON', async () => {
    const response = await post(t.app, createOrg.name, '{"data": {"name": "Night', {
      'content-type': 'application/json',
      cookie: owner.cookie,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { status: 'INVALID_ARGUMENT', message: expect.any(String) } });
  });

  it('answers invalid-argument with 400 when the body is empty', async () => {
    const response = await post(t.app, createOrg.name, '', { 'content-type': 'application/json', cookie: owner.cookie });
    expect(response.statusCode).toBe(400);
    expect(response.json().error.status).toBe('INVALID_ARGUMENT');
  });

  it.each([
    ['text/plain', { 'content-type': 'text/plain' }],
    ['a form', { 'content-type': 'application/x-www-form-urlencoded' }],
    ['no content type at all', {} as Record<string, string>],
  ])('answers invalid-argument with 400 when the body is sent as %s', async (_kind, headers) => {
    const response = await post(t.app, createOrg.name, JSON.stringify({ data: { name: 'Night Owls' } }), {
      ...headers,
      cookie: owner.cookie,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { status: 'INVALID_ARGUMENT', message: expect.stringContaining('JSON') } });
  });

  it.each([
    ['an object without "data"', '{"name": "Night Owls"}'],
    ['a list', '[{"data": {}}]'],
    ['null', 'null'],
    ['a string', '"data"'],
  ])('answers invalid-argument with 400 when the body is %s', async (_kind, payload) => {
    const response = await post(t.app, createOrg.name, payload, { 'content-type': 'application/json', cookie: owner.cookie });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { status: 'INVALID_ARGUMENT', message: expect.stringContaining('"data"') } });
  });

  it('answers invalid-argument with 400 when the body is larger than 1 MiB', async () => {
    const payload = JSON.stringify({ data: { name: 'x'.repeat(1_100_000) } });
    const response = await post(t.app, createOrg.name, payload, { 'content-type': 'application/json', cookie: owner.cookie });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: { status: 'INVALID_ARGUMENT', message: expect.stringContaining('too large') } });
  });

  it('answers invalid-argument with 400 listing every field that fails the input schema', async () => {
    const response = await post(t.app, createEvent.name, JSON.stringify({ data: { title: 'x', capacity: 0, surprise: true } }), {
      'content-type': 'application/json',
      cookie: owner.cookie,
    });
    expect(response.statusCode).toBe(400);
    const { error } = response.json();
    expect(error.status).toBe('INVALID_ARGUMENT');
    const paths = error.details.fields.map((field: { path: string }) => field.path);
    expect(new Set(paths)).toEqual(
      new Set(['organizationId', 'title', 'venue', 'timeZone', 'startsAtLocal', 'endsAtLocal', 'capacity', '']),
    );
    for (const field of error.details.fields)
      expect(field).toEqual({ path: expect.any(String), message: expect.any(String), code: expect.any(String) });
    // The unknown key is reported at the root of the input, by name.
    expect(error.details.fields).toContainEqual(
      expect.objectContaining({ path: '', code: 'unrecognized_keys', message: expect.stringContaining('surprise') }),
    );
  });

  it('lists nested fields by their dotted path', async () => {
    const { status, body } = await t.call(
      createOrder,
      {
        eventId: 'e1',
        lines: [
          { ticketTypeId: 't1', quantity: 1 },
          { ticketTypeId: 't2', quantity: 0 },
        ],
      },
      owner.cookie,
    );
    expect(status).toBe(400);
    expect(body.error.details.fields).toEqual([expect.objectContaining({ path: 'lines.1.quantity', code: 'too_small' })]);
  });

  it('answers unauthenticated with 401 when there is no session', async () => {
    const response = await post(t.app, createOrg.name, JSON.stringify({ data: { name: 'Night Owls' } }));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ error: { status: 'UNAUTHENTICATED', message: expect.any(String) } });
  });

  it.each([
    ['input that fails its schema', JSON.stringify({ data: { name: '' } }), 'application/json'],
    ['unknown fields', JSON.stringify({ data: { name: 'x', secretField: 1 } }), 'application/json'],
    ['a body that is not JSON', '{not json', 'application/json'],
    ['a body without "data"', JSON.stringify({ nothing: true }), 'application/json'],
    ['a form instead of JSON', 'name=x', 'application/x-www-form-urlencoded'],
  ])(
    'answers an anonymous caller of a signed-in function unauthenticated, whatever it sends: %s',
    async (_kind, payload, type) => {
      const response = await post(t.app, createOrg.name, payload, { 'content-type': type });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: { status: 'UNAUTHENTICATED', message: expect.any(String) } });
    },
  );

  it('answers unauthenticated with 401 when the session cookie is forged', async () => {
    const { status, body } = await t.call(createOrg, { name: 'Night Owls' }, `better-auth.session_token=${randomUUID()}.forged`);
    expect(status).toBe(401);
    expect(body.error.status).toBe('unauthenticated');
  });

  it('answers permission-denied with 403 when a staff member tries to create an event', async () => {
    const staff = await t.signUp('Sam Staff');
    const { organizationId } = await createOrgAs(t, owner.cookie);
    await addMember(t, organizationId, staff.user.id, 'staff');

    const { status, body } = await t.call(createEvent, eventInput(organizationId), staff.cookie);

    expect(status).toBe(403);
    expect(body.error).toEqual({
      status: 'permission-denied',
      message: expect.any(String),
      details: { required: 'admin', role: 'staff' },
    });
  });

  it('answers failed-precondition with 400 when an event without ticket types is published', async () => {
    const { organizationId } = await createOrgAs(t, owner.cookie);
    const { eventId } = await createEventAs(t, owner.cookie, organizationId);

    const { status, body } = await t.call(publishEvent, { eventId }, owner.cookie);

    expect(status).toBe(400);
    expect(body.error).toMatchObject({ status: 'failed-precondition', details: { reason: 'no-ticket-types' } });
  });

  it('answers resource-exhausted with 429 and what was asked for and what is left when tickets are sold out', async () => {
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 2 }] });
    const lines = [{ ticketTypeId: ticketTypeIds[0]!, quantity: 3 }];

    const { status, body } = await t.call(createOrder, { eventId, lines }, owner.cookie);

    expect(status).toBe(429);
    expect(body.error).toMatchObject({ status: 'resource-exhausted', details: { requested: 3, remaining: 2 } });
  });

  it('sends an x-request-id with every answer, success or error', async () => {
    const ok = await post(t.app, createOrg.name, JSON.stringify({ data: { name: 'Night Owls' } }), {
      'content-type': 'application/json',
      cookie: owner.cookie,
    });
    const failed = await post(t.app, 'orgs.nothing', '{"data":{}}');
    for (const response of [ok, failed]) expect(response.headers['x-request-id']).toMatch(/^[\w-]{8,64}$/);
    expect(ok.headers['x-request-id']).not.toBe(failed.headers['x-request-id']);
  });

  it("keeps the caller's x-request-id when it is well formed and replaces it when it is not", async () => {
    const kept = await post(t.app, 'orgs.nothing', '{"data":{}}', {
      'content-type': 'application/json',
      'x-request-id': 'trace-0123456789',
    });
    expect(kept.headers['x-request-id']).toBe('trace-0123456789');
    const replaced = await post(t.app, 'orgs.nothing', '{"data":{}}', {
      'content-type': 'application/json',
      'x-request-id': 'evil id\r\nset-cookie: x',
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('the callable protocol, with callables made for the test', () => {
  // The codes no product callable can produce yet, and the transport's own failures, are served by
  // the real registerCallables on a small Fastify instance with callables written for the purpose.
  let mini: FastifyInstance;
  const logs: { level: number; reqId?: string; msg?: string; err?: { message: string } }[] = [];
  const published: string[][] = [];
  const probes = new Map<string, Probe>();

  /** Lets a test see a handler start, and the reason its ctx.signal aborted with. */
  function probe(key: string): Probe {
    let markStarted!: () => void;
    let markAborted!: (reason: unknown) => void;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    const reason = new Promise<unknown>((resolve) => (markAborted = resolve));
    const created = { started, reason, markStarted, markAborted };
    probes.set(key, created);
    return created;
  }
  function attach(key: string, signal: AbortSignal) {
    const found = probes.get(key);
    if (!found) throw new Error(`no probe ${key}`);
    signal.addEventListener('abort', () => found.markAborted(signal.reason));
    found.markStarted();
  }

  const empty = z.object({});
  const testCallables = [
    defineCallable(
      defineCallableContract('test.fail', z.object({ code: CallableErrorCodeSchema, details: z.unknown().optional() }), empty),
      {
        auth: 'optional',
        async handler(input) {
          throw new CallableError(input.code, `Failed on purpose with ${input.code}`, input.details as CallableErrorDetails);
        },
      },
    ),
    defineCallable(defineCallableContract('test.databaseFailure', z.object({ code: z.string(), wrapped: z.boolean() }), empty), {
      auth: 'optional',
      async handler(input) {
        const driverError = Object.assign(new Error('duplicate key value violates unique constraint "secret_idx"'), {
          code: input.code,
        });
        // Drizzle wraps the driver's error and keeps it as the cause.
        throw input.wrapped ? new Error('Failed query: insert into secret …', { cause: driverError }) : driverError;
      },
    }),
    defineCallable(defineCallableContract('test.insertTwice', empty, empty), {
      auth: 'optional',
      async handler(_input, ctx) {
        const row = { id: randomUUID(), name: 'Twice', slug: `twice-${randomUUID()}` };
        await ctx.db.insert(organization).values(row);
        await ctx.db.insert(organization).values(row);
        return {};
      },
    }),
    defineCallable(defineCallableContract('test.crash', empty, empty), {
      auth: 'optional',
      async handler() {
        throw new Error('cannot read the secret postgres://admin:hunter2@db/admit');
      },
    }),
    defineCallable(defineCallableContract('test.slow', z.object({ key: z.string() }), z.object({ done: z.boolean() })), {
      auth: 'optional',
      deadlineMs: 50,
      async handler(input, ctx) {
        attach(input.key, ctx.signal);
        await sleep(1_000);
        return { done: true };
      },
    }),
    defineCallable(defineCallableContract('test.hang', z.object({ key: z.string() }), z.object({ done: z.boolean() })), {
      auth: 'optional',
      async handler(input, ctx) {
        attach(input.key, ctx.signal);
        await sleep(5_000, undefined, { signal: ctx.signal }).catch(() => {});
        return { done: true };
      },
    }),
    defineCallable(defineCallableContract('test.badOutput', empty, z.object({ count: z.number() })), {
      auth: 'optional',
      async handler() {
        return { count: 'many' } as unknown as { count: number };
      },
    }),
    defineCallable(defineCallableContract('test.echo', z.object({ name: z.string() }), z.object({ name: z.string() })), {
      auth: 'optional',
      async handler(input, ctx) {
        ctx.publish('echo:a', 'echo:b', 'echo:a');
        return { name: input.name, passwordHash: 'must not leave the server' } as { name: string };
      },
    }),
    defineCallable(defineCallableContract('test.publishThenFail', empty, empty), {
      auth: 'optional',
      async handler(_input, ctx) {
        ctx.publish('never:sent');
        throw new CallableError('aborted', 'Changed my mind');
      },
    }),
    defineCallable(defineCallableContract('test.commitThenFail', empty, empty), {
      auth: 'optional',
      async handler(_input, ctx) {
        ctx.publish('never:sent');
        ctx.publishCommitted('committed:a');
        throw new CallableError('unavailable', 'The next step could not be reached');
      },
    }),
    defineCallable(defineCallableContract('test.whoAmI', empty, z.object({ id: z.string() })), {
      auth: 'required',
      async handler(_input, ctx) {
        return { id: ctx.user.id };
      },
    }),
  ];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean)) logs.push(JSON.parse(line));
        done();
      },
    });
    mini = Fastify({ logger: { level: 'warn', stream } });
    await registerCallables(mini, testCallables, {
      db: t.db,
      async getUser(request): Promise<SessionUser | null> {
        if (request.headers['x-session-store'] === 'down')
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
        const id = request.headers['x-test-user'];
        return typeof id === 'string' ? { id, name: 'Tess Test', email: 'tess@example.test', emailVerified: true } : null;
      },
      publish: (topics) => published.push(topics),
      payments: createSandboxProvider(t.db),
      mailer: { send: async () => true },
      jobs: t.jobs,
      publicUrl: 'http://localhost:3000',
      config: loadConfig({ NODE_ENV: 'test' }),
    });
    await mini.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(() => mini?.close());

  const callMini = async (name: string, data: unknown, headers: Record<string, string> = {}) => {
    const response = await post(mini, name, JSON.stringify({ data }), { 'content-type': 'application/json', ...headers });
    return { status: response.statusCode, body: response.json() };
  };
  /** The request id an internal error's message names. */
  const requestIdIn = (message: string) => /request ([\w-]+)/.exec(message)?.[1];

  it('covers the closed set of codes in docs/contracts.md, no more and no fewer', () => {
    expect([...callableErrorCodes].sort()).toEqual(Object.keys(httpStatusOfCode).sort());
  });

  it.each(Object.entries(httpStatusOfCode))(
    'sends a thrown %s with HTTP %i, its message and its details',
    async (code, httpStatus) => {
      const details = { because: code, n: 1 };
      const { status, body } = await callMini('test.fail', { code, details });
      expect(status).toBe(httpStatus);
      expect(body).toEqual({
        error: { status: canonicalStatusOf[code as CallableErrorCode], message: `Failed on purpose with ${code}`, details },
      });
    },
  );

  it('leaves details out of the body when the error has none', async () => {
    const { body } = await callMini('test.fail', { code: 'already-exists' });
    expect(body).toEqual({ error: { status: 'ALREADY_EXISTS', message: 'Failed on purpose with already-exists' } });
  });

  it.each([
    ['a serialization failure (40001)', '40001', 409, 'ABORTED'],
    ['a deadlock (40P01)', '40P01', 409, 'ABORTED'],
    ['a unique violation (23505)', '23505', 409, 'ALREADY_EXISTS'],
    ['a refused connection (ECONNREFUSED)', 'ECONNREFUSED', 503, 'UNAVAILABLE'],
    ['a reset connection (ECONNRESET)', 'ECONNRESET', 503, 'UNAVAILABLE'],
    ['an administrator shutdown (57P01)', '57P01', 503, 'UNAVAILABLE'],
    ['a connection failure (08006)', '08006', 503, 'UNAVAILABLE'],
    ['a check violation (23514), which is a bug', '23514', 500, 'INTERNAL'],
  ])('maps %s from the database to %i', async (_name, code, httpStatus, status) => {
    for (const wrapped of [false, true]) {
      const { status: sent, body } = await callMini('test.databaseFailure', { code, wrapped });
      expect(sent).toBe(httpStatus);
      expect(body.error.status).toBe(status);
      expect(body.error.message).not.toMatch(/secret|duplicate key/);
    }
  });

  it('maps a real unique violation from the database to already-exists', async () => {
    const { status, body } = await callMini('test.insertTwice', {});
    expect(status).toBe(409);
    expect(body.error).toEqual({ status: 'ALREADY_EXISTS', message: expect.any(String) });
  });

  it('answers unavailable with 503 when the session cannot be looked up because the database is down', async () => {
    const { status, body } = await callMini('test.whoAmI', {}, { 'x-session-store': 'down' });
    expect(status).toBe(503);
    expect(body.error.status).toBe('UNAVAILABLE');
  });

  it('answers unauthenticated without running the handler of a callable that needs a session', async () => {
    const { status, body } = await callMini('test.whoAmI', {});
    expect(status).toBe(401);
    expect(body.error.status).toBe('UNAUTHENTICATED');
    const signedIn = await callMini('test.whoAmI', {}, { 'x-test-user': 'user-1' });
    expect(signedIn.body).toEqual({ result: { id: 'user-1' } });
  });

  it('answers a bug with internal 500 and a generic message naming the request id, and logs the error with that id', async () => {
    const { status, body } = await callMini('test.crash', {});
    expect(status).toBe(500);
    expect(body).toEqual({ error: { status: 'INTERNAL', message: expect.stringMatching(/request [\w-]+/) } });
    expect(JSON.stringify(body)).not.toMatch(/hunter2|secret|postgres:/);
    const requestId = requestIdIn(body.error.message);
    const logged = logs.find((line) => line.reqId === requestId && line.level === 50);
    expect(logged?.err?.message).toContain('hunter2');
  });

  it('answers internal 500 when the output does not match its schema', async () => {
    const { status, body } = await callMini('test.badOutput', {});
    expect(status).toBe(500);
    expect(body).toEqual({ error: { status: 'INTERNAL', message: expect.stringMatching(/request [\w-]+/) } });
    expect(JSON.stringify(body)).not.toContain('many');
    const logged = logs.find((line) => line.reqId === requestIdIn(body.error.message) && line.level === 50);
    expect(logged?.msg).toBe('callable output failed its schema');
  });

  it('strips fields the output schema does not name', async () => {
    const { status, body } = await callMini('test.echo', { name: 'Ada' });
    expect(status).toBe(200);
    expect(body).toEqual({ result: { name: 'Ada' } });
  });

  it('publishes the topics of a call once, after it succeeded, and never those of a call that failed', async () => {
    published.length = 0;
    await callMini('test.publishThenFail', {});
    expect(published).toEqual([]);
    await callMini('test.echo', { name: 'Ada' });
    expect(published).toEqual([['echo:a', 'echo:b']]);
  });

  it('publishes the topics of work a call marked as committed even when the call then fails, and only those', async () => {
    published.length = 0;
    const { status } = await callMini('test.commitThenFail', {});
    expect(status).toBe(503);
    expect(published).toEqual([['committed:a']]);
  });

  it('answers deadline-exceeded with 504 when the handler runs past its deadline, and aborts its signal', async () => {
    const key = randomUUID();
    const { reason: aborted } = probe(key);
    const { status, body } = await callMini('test.slow', { key });
    expect(status).toBe(504);
    expect(body.error.status).toBe('DEADLINE_EXCEEDED');
    const reason = await aborted;
    expect(reason).toBeInstanceOf(CallableError);
    expect((reason as CallableError).code).toBe('deadline-exceeded');
  });

  it('aborts the handler with cancelled when the client goes away mid-call', async () => {
    const address = mini.server.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const key = randomUUID();
    const { started, reason: aborted } = probe(key);
    const client = new AbortController();
    const pending = fetch(`http://127.0.0.1:${port}/fn/test.hang`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ data: { key } }),
      signal: client.signal,
    }).catch((error: unknown) => error);

    await started;
    client.abort();
    expect(await pending).toBeInstanceOf(Error);

    const reason = await Promise.race([aborted, sleep(5_000).then(() => 'the handler was never aborted')]);
    expect(reason).toBeInstanceOf(CallableError);
    expect((reason as CallableError).code).toBe('cancelled');
  });
});

interface Probe {
  started: Promise<void>;
  reason: Promise<unknown>;
  markStarted(): void;
  markAborted(reason: unknown): void;
}
