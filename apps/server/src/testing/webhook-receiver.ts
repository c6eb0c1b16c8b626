import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

// A webhook receiver on this machine for the tests, and what they check of what it got.

/** What a receiver got: the request's headers and body, and whether its signature checked out. */
export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A receiver of webhooks on this machine: each path answers with the statuses it is given, in turn
 * (the last one from then on), and keeps every request it got.
 */
export async function startReceiver() {
  const received = new Map<string, Received[]>();
  const answers = new Map<string, number[]>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '/';
      const got = received.get(path) ?? [];
      got.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      received.set(path, got);
      const statuses = answers.get(path) ?? [200];
      const status = statuses.length > 1 ? statuses.shift()! : statuses[0]!;
      response.writeHead(status, { 'content-type': 'text/plain' }).end(`answered ${status}`);
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    answer: (path: string, statuses: number[]) => answers.set(path, [...statuses]),
    received: (path: string) => received.get(path) ?? [],
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Reads until `done` says so, every 100 ms, at most `timeoutMs`. */
export async function until<T>(read: () => T | Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still not there after ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Checks a request's signature with the standardwebhooks package, as a receiver would; throws when it is wrong. */
export const verify = (secret: string, got: Received) =>
  new Webhook(secret).verify(got.body, got.headers as Record<string, string>);
