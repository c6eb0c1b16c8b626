import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { eventPageHead, withHead } from './modules/events/events.api';
import type { Db } from './platform/db/database';
import { sendError } from './platform/http/send-error';
import { localeOf } from './platform/mail/compose';

/**
 * How long a browser may keep a file of the web app: Vite's content-hashed assets for a year;
 * the page, the service worker and the manifest never without asking (a new build must reach
 * everyone at once); the rest (icons) an hour.
 */
export function cacheControlOf(relativePath: string): string {
  const file = relativePath
    .replace(/\.(br|gz)$/, '')
    .split(path.sep)
    .join('/');
  if (file.startsWith('assets/')) return 'public, max-age=31536000, immutable';
  if (/^(index\.html|sw\.js|registerSW\.js|manifest\.webmanifest|workbox-[\w-]+\.js)$/.test(file)) return 'no-cache';
  return 'public, max-age=3600';
}

/**
 * The built web app: its files (precompressed, cached by name), and for any other GET that is not an
 * API route the app's page, with a public event's head in it for `/e/<slug>` (decision 0043).
 */
export async function registerWebApp(app: FastifyInstance, deps: { distDir: string; db: Db; publicUrl: string }) {
  const { distDir } = deps;
  const hasWeb = existsSync(distDir);
  if (hasWeb)
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      // The build wrote .br and .gz copies (scripts/precompress.mjs): sent to browsers that take them.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, file) => void reply.header('cache-control', cacheControlOf(path.relative(distDir, file))),
    });
  const apiPrefixes = ['/fn/', '/api/', '/live', '/files/', '/webhooks/', '/dev/', '/a', '/metrics'];
  /** The built page, read once: the build does not change under a running server. */
  let indexHtml: Promise<string> | undefined;
  const indexFile = path.join(distDir, 'index.html');
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0]!;
    const isApi = apiPrefixes.some((prefix) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`));
    if (request.method !== 'GET' || isApi || path.includes('.')) return sendError(reply, 'not-found', 'Not found');
    if (!hasWeb)
      return reply.code(503).type('text/plain').send('The web app is not built: run npm run build (npm start does it for you).');
    // A public event's page carries the event in its head, for links shared in chats and for search engines.
    const eventPage = /^\/e\/([\w-]{1,120})\/?$/.exec(path);
    if (eventPage) {
      const locale = localeOf(request.headers.cookie, request.headers['accept-language']);
      // A failure to read the event leaves the page as the app's own: the app shows the event anyway.
      const head = await eventPageHead(deps.db, eventPage[1]!, locale, deps.publicUrl).catch((error: unknown) => {
        request.log.error({ err: error }, 'the head of an event page could not be made');
        return null;
      });
      if (head)
        return reply
          .header('cache-control', 'no-cache')
          .header('vary', 'accept-language, cookie')
          .type('text/html; charset=utf-8')
          .send(withHead(await (indexHtml ??= readFile(indexFile, 'utf8')), head));
    }
    // Client-side routes: deep links load the app, which routes itself.
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });
}
