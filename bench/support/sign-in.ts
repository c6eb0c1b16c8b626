// How a benchmark's people are signed in on a request: as an API client (`Authorization: Bearer`)
// or as a browser (Better Auth's signed session cookie), which is what buyers of an on-sale are.
import { createHmac } from 'node:crypto';
import type { Person } from './people';
import { benchAuthSecret } from './server';

/** The name of Better Auth's session cookie (without the `__Secure-` prefix it gets on https). */
export const sessionCookieName = 'better-auth.session_token';

/**
 * The value of Better Auth's session cookie for a raw session token, as a browser holds it after
 * signing in: the token, a dot, the HMAC-SHA256 of the token with the server's AUTH_SECRET in base64,
 * URL-encoded (better-call's signCookieValue). The server checks the signature on every request.
 */
export function sessionCookieValue(token: string, secret = benchAuthSecret): string {
  const signature = createHmac('sha256', secret).update(token).digest('base64');
  return encodeURIComponent(`${token}.${signature}`);
}

/**
 * A raw session token signed as the server hands it to an API client (`set-auth-token`): the
 * server refuses the raw token alone as a bearer token (bearer's `requireSignature`).
 */
export const signedToken = (token: string, secret = benchAuthSecret) => sessionCookieValue(token, secret);

/** The request headers that sign a person in. */
export type SignIn = (person: Person) => Record<string, string>;

/** An API client: the signed session token as `Authorization: Bearer` (docs/contracts.md). */
export const asApiClient: SignIn = (person) => ({ authorization: `Bearer ${signedToken(person.token)}` });

/**
 * A browser on a page of Admit: the signed session cookie, the page's `Origin` (a browser names it
 * on every POST, and the server checks it), and, with `forwardedFor`, the person's own client
 * address as `X-Forwarded-For`, as a load balancer in front of a server with TRUST_PROXY=true
 * passes it on (the benchmark stands in for the load balancer, or goes through HAProxy, which adds
 * its own hop after it).
 */
export function asBrowser(options: { origin: string; forwardedFor: boolean; secret?: string }): SignIn {
  return (person) => ({
    cookie: `${sessionCookieName}=${sessionCookieValue(person.token, options.secret)}`,
    origin: options.origin,
    ...(options.forwardedFor ? { 'x-forwarded-for': person.address } : {}),
  });
}
