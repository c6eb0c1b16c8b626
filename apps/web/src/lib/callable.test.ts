/// <reference types="node" />
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { canonicalStatusOf, defineCallableContract, type CallableErrorCode } from '@admit/shared/callable';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { CallError, createCallableClient, defaultCallTimeoutMs } from './callable';

// The browser client against a real HTTP server on a free port: each call's data tells the server
// how to answer, so every test states the answer it is about.

/** How the test server answers a call. */
interface Answer {
  status?: number;
  /** Sent as JSON. */
  json?: unknown;
  /** Sent as it is, with its own content type. */
  text?: string;
  contentType?: string;
  /** Never answer (until the test ends). */
  hang?: boolean;
  /** Send the status and headers and the start of a body, then never finish it. */
  stallBody?: boolean;
}

interface Received {
  method: string | undefined;
  url: string | undefined;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** The codes and statuses of docs/contracts.md, written out so that a wrong status in the code is caught. */
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

const reply = defineCallableContract('test.reply', z.custom<Answer>(), z.unknown());

let server: Server;
let baseUrl: string;
const received: Received[] = [];
const hanging = new Set<ServerResponse>();
let onRequest: (() => void) | undefined;

beforeAll(async () => {
  server = createServer((request, response) => {
    let raw = '';
    request.on('data', (chunk) => (raw += chunk));
    request.on('end', () => {
      const body = raw ? JSON.parse(raw) : undefined;
      received.push({ method: request.method, url: request.url, headers: request.headers, body });
      onRequest?.();
      const answer = ((body as { data?: Answer } | undefined)?.data ?? {}) as Answer;
      if (answer.hang) {
        hanging.add(response);
        return;
      }
      if (answer.stallBody) {
        hanging.add(response);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.write('{"result": ');
        return;
      }
      response.statusCode = answer.status ?? 200;
      if (answer.json !== undefined) {
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify(answer.json));
      } else if (answer.text !== undefined) {
        response.setHeader('content-type', answer.contentType ?? 'text/plain');
        response.end(answer.text);
      } else {
        response.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterEach(() => {
  vi.useRealTimers();
  for (const response of hanging) response.destroy();
  hanging.clear();
  received.length = 0;
  onRequest = undefined;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const call = (answer: Answer, options?: Parameters<ReturnType<typeof createCallableClient>>[2]) =>
  createCallableClient({ baseUrl })(reply, answer, options);

/** The CallError a call fails with (fails the test when it succeeds or throws something else). */
async function failureOf(promise: Promise<unknown>): Promise<CallError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(CallError);
    return error as CallError;
  }
  throw new Error('the call succeeded');
}

/** Resolves once the test server has received the next request. */
const nextRequest = () => new Promise<void>((resolve) => (onRequest = resolve));

describe('the callable client', () => {
  it('posts {"data": …} as JSON to /fn/<name> and returns the result', async () => {
    const answer = { json: { result: { orderId: 'o-1', ticketCount: 2 } } };

    await expect(call(answer)).resolves.toEqual({ orderId: 'o-1', ticketCount: 2 });

    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ method: 'POST', url: '/fn/test.reply', body: { data: answer } });
    expect(received[0]!.headers['content-type']).toBe('application/json');
  });

  it('returns a result that is null or false as it is', async () => {
    await expect(call({ json: { result: null } })).resolves.toBeNull();
    await expect(call({ json: { result: false } })).resolves.toBe(false);
  });

  it('sends the headers a call passes', async () => {
    await call({ json: { result: 1 } }, { headers: { authorization: 'Bearer t0ken' } });
    expect(received[0]!.headers.authorization).toBe('Bearer t0ken');
  });

  it.each(Object.entries(httpStatusOfCode))(
    'reports a %s answer by the status name in its body (HTTP %i)',
    async (code, status) => {
      const name = canonicalStatusOf[code as CallableErrorCode];
      const failure = await failureOf(
        call({ status, json: { error: { status: name, message: `Because ${code}`, details: { n: 1 } } } }),
      );
      expect(failure.code).toBe(code);
      expect(failure.message).toBe(`Because ${code}`);
      expect(failure.details).toEqual({ n: 1 });
      expect(failure.httpStatus).toBe(status);
    },
  );

  it("trusts the body's code over what the HTTP status would suggest", async () => {
    const failure = await failureOf(call({ status: 500, json: { error: { status: 'UNAVAILABLE', message: 'Stripe is down' } } }));
    expect(failure.code).toBe('unavailable');
    expect(failure.httpStatus).toBe(500);
  });

  it.each([
    [400, 'invalid-argument'],
    [401, 'unauthenticated'],
    [403, 'permission-denied'],
    [404, 'not-found'],
    [409, 'aborted'],
    [429, 'resource-exhausted'],
    [499, 'cancelled'],
    [500, 'internal'],
    [501, 'unimplemented'],
    [502, 'internal'],
    [503, 'unavailable'],
    [504, 'deadline-exceeded'],
    [505, 'internal'],
    [507, 'internal'],
  ])('maps HTTP %i with no body to %s', async (status, code) => {
    const failure = await failureOf(call({ status }));
    expect(failure.code).toBe(code);
    expect(failure.httpStatus).toBe(status);
    expect(failure.message).not.toBe('');
  });

  it.each([
    ['an HTML error page', { status: 502, text: '<html><body>Bad gateway</body></html>', contentType: 'text/html' }],
    ['JSON that is not the protocol', { status: 503, json: { message: 'maintenance' } }],
  ])('falls back to the HTTP status for %s', async (_kind, answer) => {
    const failure = await failureOf(call(answer));
    expect(failure.code).toBe({ 502: 'internal', 503: 'unavailable', 429: 'resource-exhausted' }[answer.status]);
    expect(failure.httpStatus).toBe(answer.status);
  });

  it.each([
    ['a name it does not know', 'EXPLODED'],
    ['a code in lower case, which is not a wire name', 'resource-exhausted'],
  ])('reports %s as internal, as any client of the protocol does', async (_kind, name) => {
    const failure = await failureOf(call({ status: 429, json: { error: { status: name, message: 'Boom' } } }));
    expect(failure.code).toBe('internal');
    expect(failure.httpStatus).toBe(429);
  });

  it('reports a 200 without a result as internal', async () => {
    const failure = await failureOf(call({ status: 200, text: 'OK' }));
    expect(failure.code).toBe('internal');
    expect(failure.httpStatus).toBe(200);
  });

  it('reports a server that cannot be reached as internal with HTTP status 0', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const failure = await failureOf(createCallableClient({ baseUrl: `http://127.0.0.1:${port}` })(reply, {}));

    expect(failure.code).toBe('internal');
    expect(failure.httpStatus).toBe(0);
  });

  it('gives up with deadline-exceeded when the server does not answer within the timeout', async () => {
    const failure = await failureOf(call({ hang: true }, { timeoutMs: 100 }));
    expect(failure.code).toBe('deadline-exceeded');
    expect(received).toHaveLength(1);
  });

  it('gives up with deadline-exceeded when the body of the answer stalls', async () => {
    const outcome = await Promise.race([
      failureOf(call({ stallBody: true }, { timeoutMs: 100 })).then((failure) => failure.code),
      new Promise((resolve) => setTimeout(() => resolve('still waiting after a second'), 1_000)),
    ]);
    expect(outcome).toBe('deadline-exceeded');
  });

  it("stops with cancelled when the caller's signal aborts", async () => {
    const caller = new AbortController();
    const arrived = nextRequest();
    const pending = failureOf(call({ hang: true }, { signal: caller.signal }));
    await arrived;

    caller.abort();

    expect((await pending).code).toBe('cancelled');
  });

  it('does not send a call whose signal has already aborted', async () => {
    const failure = await failureOf(call({ json: { result: 1 } }, { signal: AbortSignal.abort() }));
    expect(failure.code).toBe('cancelled');
    expect(received).toHaveLength(0);
  });

  it('waits 70 seconds by default before deadline-exceeded', async () => {
    expect(defaultCallTimeoutMs).toBe(70_000);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const arrived = nextRequest();
    let settled: CallError | undefined;
    const pending = failureOf(call({ hang: true })).then((failure) => (settled = failure));
    await arrived;

    await vi.advanceTimersByTimeAsync(69_900);
    expect(settled).toBeUndefined();
    await vi.advanceTimersByTimeAsync(100);
    await pending;

    expect(settled?.code).toBe('deadline-exceeded');
  });
});
