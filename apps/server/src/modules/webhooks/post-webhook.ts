import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateAddress } from './address-check';

/** How long a receiver has to answer, as Standard Webhooks suggests (a few seconds, then it is a failure). */
const timeoutMs = 10_000;
/** The start of an answer's body kept for the delivery log. */
export const excerptLength = 500;
/** What is read of an answer at most; the rest is not waited for. */
const readLimit = 16 * 1024;

export type PostResult = { status: number; excerpt: string } | { status: null; excerpt: string };

/**
 * Connections kept open between rounds (a round posts many webhooks to one receiver at once), at
 * most 100 to one receiver at a time: the rest of a round waits for one of them.
 */
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 100 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 100 }),
};

/** Resolves as Node does, but refuses to connect to an address on a private network. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error, '', 0);
    const refused = addresses.find((found) => isPrivateAddress(found.address));
    if (refused)
      return callback(Object.assign(new Error(`${hostname} resolves to a private address`), { code: 'EPRIVATE' }), '', 0);
    if (options.all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, addresses);
    callback(null, addresses[0]!.address, addresses[0]!.family);
  });
};

/**
 * POSTs a signed webhook and tells what came back: the status and the start of the body, or why
 * there was no answer. Never throws.
 */
export function postWebhook(input: {
  url: string;
  headers: Record<string, string>;
  body: string;
  allowPrivate: boolean;
}): Promise<PostResult> {
  const url = new URL(input.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!input.allowPrivate && isIP(host) !== 0 && isPrivateAddress(host))
    return Promise.resolve({ status: null, excerpt: 'refused: the address is on a private network' });
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        agent: agents[url.protocol === 'https:' ? 'https:' : 'http:'],
        headers: { ...input.headers, 'content-type': 'application/json', 'user-agent': 'Admit-Webhooks/1' },
        timeout: timeoutMs,
        lookup: input.allowPrivate ? undefined : publicOnlyLookup,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let read = 0;
        const finish = () =>
          resolve({
            status: response.statusCode ?? 0,
            excerpt: Buffer.concat(chunks).toString('utf8').slice(0, excerptLength),
          });
        response.on('data', (chunk: Buffer) => {
          if (read >= readLimit) return;
          chunks.push(chunk);
          read += chunk.length;
          if (read >= readLimit) {
            finish();
            response.destroy();
          }
        });
        response.on('end', finish);
        response.on('error', finish);
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    request.on('error', (error: NodeJS.ErrnoException) =>
      resolve({
        status: null,
        excerpt: (error.code === 'EPRIVATE' ? `refused: ${error.message}` : error.message).slice(0, excerptLength),
      }),
    );
    request.end(input.body);
  });
}
