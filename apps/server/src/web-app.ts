import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { acceptLanguageTags, regionalTag } from '@admit/shared/locales';
import fastifyStatic from '@fastify/static';
import type { EmbedCheck } from '@admit/shared/embed';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loadFirstViews, timeZoneOf } from './first-view';
import { embedOf, eventPageHead, withHead } from './modules/events/events.api';
import type { Db } from './platform/db/database';
import { sendError } from './platform/http/send-error';
import type { LiveQuery } from './platform/live/live-query';
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
  // Other sites' pages load it by this name (decision 0061): a fix reaches them within minutes.
  if (file === 'embed.js') return 'public, max-age=300';
  if (/^(index\.html|sw\.js|registerSW\.js|manifest\.webmanifest|workbox-[\w-]+\.js)$/.test(file)) return 'no-cache';
  return 'public, max-age=3600';
}

/**
 * The Content-Security-Policy sources of the page's inline scripts (the colour scheme set before the
 * first paint, apps/web/index.html): their SHA-256, so that no other inline script runs.
 */
export function inlineScriptSources(distDir: string): string[] {
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) return [];
  return [...readFileSync(indexFile, 'utf8').matchAll(/<script>([\s\S]*?)<\/script>/g)].map(
    ([, body]) => `'sha256-${createHash('sha256').update(body!).digest('base64')}'`,
  );
}

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

type Encoding = 'br' | 'gzip' | 'identity';

function encodingOf(request: FastifyRequest): Encoding {
  const accepted = String(request.headers['accept-encoding'] ?? '');
  return /\bbr\b/.test(accepted) ? 'br' : /\bgzip\b/.test(accepted) ? 'gzip' : 'identity';
}

/** A page made for this request: compressed as the browser takes it (quickly: it is made each time). */
async function sendPage(request: FastifyRequest, reply: FastifyReply, html: string) {
  const encoding = encodingOf(request);
  reply
    .header('cache-control', 'no-cache')
    .header('vary', 'accept-language, cookie, accept-encoding')
    .type('text/html; charset=utf-8');
  if (encoding === 'br')
    return reply.header('content-encoding', 'br').send(await brotli(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }));
  if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(await gzipped(html));
  return reply.send(html);
}

/** The app's page as built, for every other route: compressed once, as well as it gets. */
function builtPage(html: string) {
  const compressed = new Map<Encoding, Promise<Buffer>>();
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const encoding = encodingOf(request);
    reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding').type('text/html; charset=utf-8');
    if (encoding === 'identity') return reply.send(html);
    let body = compressed.get(encoding);
    if (!body) {
      body = encoding === 'br' ? brotli(html, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }) : gzipped(html, { level: 9 });
      compressed.set(encoding, body);
    }
    return reply.header('content-encoding', encoding).send(await body);
  };
}

/**
 * The built web app: its files (precompressed, cached by name), and for any other GET that is not an
 * API route the app's page. The event list and a public event's page come with their first view
 * drawn in (decision 0049), and an event's page with the event in its head (decision 0043).
 *
 * A process serves the build it started with: its page, its manifest and its server build are read
 * as one (a build made into the same folder while it runs reaches it with its restart). Its hashed
 * assets are looked up at each request, in the folder and then in the earlier builds' archive next
 * to it (scripts/build-web.mjs): a page opened on an earlier build, or sent by a process still on
 * one, finds its chunks on a process already on the next (decision 0058).
 */
export async function registerWebApp(
  app: FastifyInstance,
  deps: { distDir: string; db: Db; publicUrl: string; liveQueries: readonly LiveQuery[] },
) {
  const { distDir } = deps;
  const indexFile = path.join(distDir, 'index.html');
  const manifestFile = path.join(distDir, '.vite', 'manifest.json');
  const hasWeb = existsSync(indexFile);
  /** The built page and manifest, read as the process starts: the build it serves. */
  const indexHtml = hasWeb ? readFileSync(indexFile, 'utf8') : '';
  const manifestText = existsSync(manifestFile) ? readFileSync(manifestFile, 'utf8') : null;
  const sendBuiltPage = builtPage(indexHtml);
  /** Where a hashed asset may be: this build's, then the earlier builds' (scripts/build-web.mjs). */
  const assetDirs = [path.join(distDir, 'assets'), path.join(distDir, '..', 'dist-archive', 'assets')];
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      // Hashed assets come from the route below, which finds those of earlier builds too.
      globIgnore: ['assets/**'],
      // The build wrote .br and .gz copies (scripts/precompress.mjs): sent to browsers that take them.
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply, file) => {
        const relative = path.relative(distDir, file);
        reply.header('cache-control', cacheControlOf(file.startsWith(assetDirs[1]!) ? 'assets/' : relative));
        // The embed's loader is a script of other sites' pages (helmet sends same-origin otherwise).
        if (/^embed\.js(\.br|\.gz)?$/.test(relative)) reply.header('cross-origin-resource-policy', 'cross-origin');
      },
    });
    app.get('/assets/*', async (request, reply) => {
      const name = (request.params as { '*': string })['*'];
      // The folder is flat: a name with anything but these is none of its files.
      if (!/^[\w-][\w.-]*$/.test(name)) return sendError(reply, 'not-found', 'Not found');
      for (const dir of assetDirs) {
        const found = await access(path.join(dir, name)).then(
          () => true,
          () => false,
        );
        if (found) return reply.sendFile(name, dir);
      }
      return sendError(reply, 'not-found', 'Not found');
    });
  }
  registerEmbedRoutes(app, { db: deps.db, publicUrl: deps.publicUrl, sendBuiltPage: hasWeb ? sendBuiltPage : null });
  /** The web app's server build, loaded with the first page that needs it (a megabyte of script). */
  let firstViewsLoaded: ReturnType<typeof loadFirstViews> | undefined;
  const loadedFirstViews = () =>
    (firstViewsLoaded ??= loadFirstViews(distDir, manifestText).catch((error: unknown) => {
      app.log.error({ err: error }, 'the server build of the web app could not be loaded: pages come without a first view');
      return null;
    }));
  const queries = new Map(deps.liveQueries.map((query) => [query.contract.name, query]));
  const apiPrefixes = ['/fn/', '/api/', '/live', '/files/', '/webhooks/', '/dev/', '/a', '/metrics'];
  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0]!;
    const isApi = apiPrefixes.some((prefix) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`));
    if (request.method !== 'GET' || isApi || path.includes('.')) return sendError(reply, 'not-found', 'Not found');
    if (!hasWeb)
      return reply.code(503).type('text/plain').send('The web app is not built: run npm run build (npm start does it for you).');
    const eventPage = /^\/e\/([\w-]{1,120})\/?$/.exec(path);
    if (!eventPage && path !== '/') return sendBuiltPage(request, reply);
    const locale = localeOf(request.headers.cookie, request.headers['accept-language']);
    const firstViews = await loadedFirstViews();
    // A public event's page carries the event in its head, for links shared in chats and for search
    // engines; the event list and an event's page come drawn as a visitor sees them. A failure of
    // either leaves the page as the app's own: the app shows the page anyway.
    const [head, view] = await Promise.all([
      eventPage
        ? eventPageHead(deps.db, eventPage[1]!, locale, deps.publicUrl).catch((error: unknown) => {
            request.log.error({ err: error }, 'the head of an event page could not be made');
            return null;
          })
        : null,
      firstViews
        ?.render(
          request.url,
          {
            locale,
            // The region of the reader's own tags in that language: an English reader in Britain reads 27 Nov 2026, 20:00.
            formatLocale: regionalTag(locale, acceptLanguageTags(request.headers['accept-language'])),
            timeZone: timeZoneOf(request.headers.cookie),
          },
          { queries, ctx: { db: deps.db, user: null, clientAddress: request.ip, log: request.log } },
        )
        .catch((error: unknown) => {
          request.log.error({ err: error }, 'the first view of a page could not be drawn');
          return null;
        }),
    ]);
    let page = indexHtml;
    if (head) page = withHead(page, head);
    if (view) page = firstViews!.page(page, view);
    return sendPage(request, reply, page);
  });
}

/** A Content-Security-Policy with its `frame-ancestors` replaced by these sources. */
export function withFrameAncestors(policy: string, sources: string[]): string {
  const others = policy
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive && !/^frame-ancestors\b/i.test(directive));
  return [...others, `frame-ancestors ${sources.join(' ')}`].join(';');
}

/**
 * An event's checkout for other sites' pages (decision 0061): `/embed/e/<slug>`, the app's page that
 * the sites the event lists may show in a frame (every other page of Admit refuses to be framed),
 * and `/embed/e/<slug>/allowed?origin=`, which embed.js asks first, from the other site's page, so
 * that a site not on the list shows a link to the event's page instead of a frame the browser blocks.
 */
function registerEmbedRoutes(
  app: FastifyInstance,
  deps: { db: Db; publicUrl: string; sendBuiltPage: ((request: FastifyRequest, reply: FastifyReply) => Promise<unknown>) | null },
) {
  app.get('/embed/e/:slug', async (request, reply) => {
    const { slug } = request.params as { slug: string };
    const embed = await embedOf(deps.db, slug);
    if (embed) {
      const policy = String(reply.getHeader('content-security-policy') ?? '');
      reply
        .header('content-security-policy', withFrameAncestors(policy, ["'self'", ...embed.sites]))
        .header('cross-origin-resource-policy', 'cross-origin')
        .removeHeader('x-frame-options');
    }
    if (!deps.sendBuiltPage)
      return reply.code(503).type('text/plain').send('The web app is not built: run npm run build (npm start does it for you).');
    return deps.sendBuiltPage(request, reply);
  });
  app.get('/embed/e/:slug/allowed', async (request, reply) => {
    const { slug } = request.params as { slug: string };
    const { origin } = request.query as { origin?: unknown };
    reply.header('access-control-allow-origin', '*').header('cache-control', 'no-cache');
    const embed = await embedOf(deps.db, slug);
    if (!embed) return sendError(reply, 'not-found', 'No such event');
    const asked = typeof origin === 'string' && origin.length <= 200 ? origin : '';
    const check: EmbedCheck = {
      allowed: embed.sites.includes(asked),
      title: embed.title,
      url: new URL(`/e/${encodeURIComponent(slug)}`, deps.publicUrl).href,
    };
    return check;
  });
}
