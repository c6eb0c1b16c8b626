import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  callableErrorCodes,
  callableErrorHttpStatus,
  CallableErrorCodeSchema,
  defineCallableContract,
} from '@admit/shared/callable';
import { createOrg } from '@admit/shared/orgs';
import Fastify, { type FastifyInstance } from 'fastify';
import { deleteApp, initializeApp, type FirebaseApp } from 'firebase/app';
import { FunctionsError, getFunctions, httpsCallableFromURL } from 'firebase/functions';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createPublishedEvent } from '../../testing/fixtures';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { loadConfig } from '../config';
import { createSandboxProvider } from '../payments/sandbox-provider';
import { defineCallable, registerCallables } from './callable';
import { CallableError, type CallableErrorDetails } from './callable-error';

// A client nobody here wrote: Firebase's own `firebase/functions` (httpsCallableFromURL), pointed at
// Admit's `/fn/<name>`. It reads `result` on success and maps the canonical status names of error
// answers to its codes; anything it cannot read becomes `internal`. Its requests carry no Admit
// session, so the bearer token of an Admit sign-in is added by the fetch the SDK calls.

let t: TestApp;
let base: string;
let mini: FastifyInstance;
let miniBase: string;
let firebase: FirebaseApp;
let bearerToken: string | null = null;

const realFetch = globalThis.fetch;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;

  // Every code of the protocol thrown on purpose, and a call that answers only after 100 s.
  mini = Fastify({ logger: false, forceCloseConnections: true });
  await registerCallables(
    mini,
    [
      defineCallable(
        defineCallableContract(
          'test.fail',
          z.object({ code: CallableErrorCodeSchema, details: z.unknown().optional() }),
          z.object({}),
        ),
        {
          auth: 'optional',
          async handler(input) {
            throw new CallableError(input.code, `Failed with ${input.code}`, input.details as CallableErrorDetails);
          },
        },
      ),
      defineCallable(defineCallableContract('test.slow', z.object({}), z.object({ done: z.boolean() })), {
        auth: 'optional',
        deadlineMs: 200_000,
        async handler(_input, ctx) {
          await sleep(100_000, undefined, { signal: ctx.signal }).catch(() => {});
          return { done: true };
        },
      }),
    ],
    {
      db: t.db,
      getUser: async () => null,
      publish: () => {},
      payments: createSandboxProvider(t.db),
      mailer: { send: async () => true },
      jobs: t.jobs,
      publicUrl: 'http://localhost:3000',
      config: loadConfig({ NODE_ENV: 'test' }),
    },
  );
  await mini.listen({ port: 0, host: '127.0.0.1' });
  miniBase = `http://127.0.0.1:${(mini.server.address() as { port: number }).port}`;

  firebase = initializeApp({ projectId: 'admit-interop', apiKey: 'not-used', appId: 'not-used' }, `interop-${randomUUID()}`);
  // The SDK calls the global fetch for every request: this is where an Admit bearer token goes in.
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (bearerToken) headers.set('authorization', `Bearer ${bearerToken}`);
    return realFetch(input, { ...init, headers });
  });
});

afterEach(() => {
  bearerToken = null;
  vi.useRealTimers();
});

afterAll(async () => {
  vi.unstubAllGlobals();
  await deleteApp(firebase);
  await mini?.close();
  await t?.close();
});

const callable = (url: string, options?: { timeout?: number }) => httpsCallableFromURL(getFunctions(firebase), url, options);

/** The FunctionsError a call fails with. */
async function failureOf(promise: Promise<unknown>): Promise<FunctionsError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(FunctionsError);
    return error as FunctionsError;
  }
  throw new Error('the call succeeded');
}

describe("Firebase's callable client against Admit", () => {
  it('gets the result of a call made with the bearer token of an Admit sign-in', async () => {
    const person = await t.signUp('Fiona Firebase');
    bearerToken = await t.bearerTokenFor(person.email, person.password);
    const { data } = await callable(`${base}/fn/${createOrg.name}`)({ name: 'Interop Club' });
    expect(data).toEqual({ organizationId: expect.any(String), slug: expect.any(String) });
  });

  it('is told unauthenticated when it calls a signed-in function without a token', async () => {
    const failure = await failureOf(callable(`${base}/fn/${createOrg.name}`)({ name: 'Nobody' }));
    expect(failure.code).toBe('functions/unauthenticated');
  });

  it('reads a sold-out answer as resource-exhausted, with the counts in its details', async () => {
    const owner = await t.signUp('Olga Owner');
    const { eventId, ticketTypeIds } = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ capacity: 2 }] });
    const buyer = await t.signUp('Bea Buyer');
    bearerToken = await t.bearerTokenFor(buyer.email, buyer.password);
    const failure = await failureOf(
      callable(`${base}/fn/orders.create`)({ eventId, lines: [{ ticketTypeId: ticketTypeIds[0], quantity: 3 }] }),
    );
    expect(failure.code).toBe('functions/resource-exhausted');
    expect(failure.details).toEqual({ ticketTypeId: ticketTypeIds[0], requested: 3, remaining: 2 });
  });

  it('reads invalid input as invalid-argument, with the fields in its details', async () => {
    const person = await t.signUp('Ivan Invalid');
    bearerToken = await t.bearerTokenFor(person.email, person.password);
    const failure = await failureOf(callable(`${base}/fn/${createOrg.name}`)({ name: '' }));
    expect(failure.code).toBe('functions/invalid-argument');
    expect(failure.details).toEqual({ fields: [expect.objectContaining({ path: 'name' })] });
  });

  it('reads an unknown function as not-found', async () => {
    const failure = await failureOf(callable(`${base}/fn/nothing.here`)({}));
    expect(failure.code).toBe('functions/not-found');
  });

  it.each(callableErrorCodes)('reads every %s answer with its code, message and details', async (code) => {
    const details = { reason: code, n: 1, nested: { list: [1, 'two'] } };
    const failure = await failureOf(callable(`${miniBase}/fn/test.fail`)({ code, details }));
    expect(failure.code).toBe(`functions/${code}`);
    expect(failure.message).toBe(`Failed with ${code} [${callableErrorHttpStatus[code]}]`);
    expect(failure.details).toEqual(details);
  });

  it('gives up with deadline-exceeded after its default 70 seconds', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const call = failureOf(callable(`${miniBase}/fn/test.slow`)({}));
    await vi.advanceTimersByTimeAsync(69_000);
    let settled = false;
    void call.then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await call).code).toBe('functions/deadline-exceeded');
  });

  it('gives up with deadline-exceeded after a shorter timeout of its own', async () => {
    const failure = await failureOf(callable(`${miniBase}/fn/test.slow`, { timeout: 300 })({}));
    expect(failure.code).toBe('functions/deadline-exceeded');
  });
});
