import type { FastifyRequest } from 'fastify';

/**
 * Whether a request's Origin may act with the session its cookies carry. A browser names the page's
 * origin on every WebSocket handshake and on every cross-site POST; a page of another site (even
 * another subdomain of ours) that opens `/live` or posts to `/fn` with the person's cookies is
 * refused. Requests with no Origin come from programs, not pages (they carry their own token or
 * cookie), and pass. Allowed: PUBLIC_URL; in development also the Vite dev server and the origin
 * the request itself was sent to (127.0.0.1 and localhost are one machine there).
 */
export function createOriginCheck(options: { publicUrl: string; production: boolean }) {
  const allowed = new Set([new URL(options.publicUrl).origin]);
  if (!options.production) allowed.add('http://localhost:5173');
  return function originAllowed(request: FastifyRequest): boolean {
    const origin = request.headers.origin;
    if (origin === undefined) return true;
    if (allowed.has(origin)) return true;
    if (options.production) return false;
    try {
      return new URL(origin).host === request.headers.host;
    } catch {
      return false;
    }
  };
}
