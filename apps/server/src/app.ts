import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import fastifyHelmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { LogController, type FastifyServerOptions } from 'fastify';
import { checkinCallables } from './modules/checkin/checkin.functions';
import { checkinLiveQueries } from './modules/checkin/checkin.live';
import { eventsCallables } from './modules/events/events.functions';
import { eventsLiveQueries } from './modules/events/events.live';
import { registerExportRoutes } from './modules/exports/exports.routes';
import { importsCallables } from './modules/imports/imports.functions';
import { orderTopics, releaseExpiredHolds } from './modules/orders/checkout';
import { orderDetailLiveQueries } from './modules/orders/order-detail.live';
import { sendOrderConfirmation } from './modules/orders/order-emails';
import { ordersCallables } from './modules/orders/orders.functions';
import { ordersLiveQueries } from './modules/orders/orders.live';
import { resendUnsentRefunds } from './modules/orders/refunds';
import { refundsCallables } from './modules/orders/refunds.functions';
import { registerStripeWebhook } from './modules/orders/stripe-webhook';
import { newTicketCode } from './modules/orders/ticket-code';
import { orgsCallables } from './modules/orgs/orgs.functions';
import { orgsLiveQueries } from './modules/orgs/orgs.live';
import { ticketsLiveQueries } from './modules/tickets/tickets.live';
import { registerTicketPdfRoute } from './modules/tickets/ticket-pdf.routes';
import { createAuth, getSessionUser, registerAuthRoutes } from './platform/auth/auth';
import { federatedSignIn, registerSignInMethods } from './platform/auth/federated-providers';
import type { Config } from './platform/config';
import type { Database } from './platform/db/database';
import { registerCallables } from './platform/http/callable';
import { LiveHub } from './platform/live/live-hub';
import { registerDevOutbox } from './platform/mail/dev-outbox';
import { createMailer } from './platform/mail/mailer';
import type { PaymentProvider } from './platform/payments/payment-provider';
import { createSandboxProvider, sandboxCallables } from './platform/payments/sandbox-provider';
import { createStripeProvider } from './platform/payments/stripe-provider';
import { createSmsSender } from './platform/sms/sms-sender';

export const callables = [
  ...orgsCallables,
  ...eventsCallables,
  ...ordersCallables,
  ...refundsCallables,
  ...sandboxCallables,
  ...importsCallables({ newTicketCode, sendTickets: sendOrderConfirmation }),
  ...checkinCallables,
];
export const liveQueries = [
  ...orgsLiveQueries,
  ...eventsLiveQueries,
  ...ordersLiveQueries,
  ...orderDetailLiveQueries,
  ...ticketsLiveQueries,
  ...checkinLiveQueries,
];

const webDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

export interface BuildAppOptions {
  config: Config;
  database: Database;
  publicUrl: string;
  authSecret: string;
  logger?: FastifyServerOptions['logger'];
  /** Sign-in rate limits; tests that sign many people in from one address turn them off. */
  rateLimit?: boolean;
  /** How often a signed-in /live socket checks that its session still exists (revoked or expired: closed). */
  liveSessionCheckMs?: number;
  webDistDir?: string;
  /** The payment provider, instead of the one the configuration names (tests: Stripe on a stand-in). */
  payments?: PaymentProvider;
  /** How often pending orders whose hold has ended are released (default 30 s). */
  holdSweepMs?: number;
}

/** Builds the whole server (used by main.ts with a port, and by tests through `app.inject`). */
export async function buildApp(options: BuildAppOptions) {
  const { config, database } = options;
  const production = config.NODE_ENV === 'production';
  const app = Fastify({
    logger: options.logger ?? { level: config.LOG_LEVEL },
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1_048_576,
    // One line per request is noise at info level; LOG_LEVEL=debug shows them.
    logController: new LogController({ disableRequestLogging: !['debug', 'trace'].includes(config.LOG_LEVEL) }),
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // Stripe when its keys are set (config.ts requires them in production), else the sandbox.
  const stripeApi = config.STRIPE_API_URL ? new URL(config.STRIPE_API_URL) : null;
  const payments =
    options.payments ??
    (config.STRIPE_SECRET_KEY
      ? createStripeProvider({
          secretKey: config.STRIPE_SECRET_KEY,
          publishableKey: config.STRIPE_PUBLISHABLE_KEY!,
          webhookSecret: config.STRIPE_WEBHOOK_SECRET,
          apiBase: stripeApi
            ? {
                host: stripeApi.hostname,
                port: Number(stripeApi.port || (stripeApi.protocol === 'https:' ? 443 : 80)),
                protocol: stripeApi.protocol === 'https:' ? 'https' : 'http',
              }
            : undefined,
        })
      : createSandboxProvider(database.db));
  // Stripe.js (only ever loaded at the payment step) needs its script, frames and API allowed.
  const stripeCsp = payments.kind === 'stripe';

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // wasm-unsafe-eval: the scanner's QR decoder (ZXing in WebAssembly, served by us) where the browser has none.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'", ...(stripeCsp ? ['https://js.stripe.com'] : [])],
        frameSrc: ["'self'", ...(stripeCsp ? ['https://js.stripe.com', 'https://hooks.stripe.com'] : [])],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...(stripeCsp ? ['https://*.stripe.com'] : [])],
        connectSrc: ["'self'", ...(stripeCsp ? ['https://api.stripe.com'] : [])],
        upgradeInsecureRequests: null,
      },
    },
    strictTransportSecurity: production,
  });
  await app.register(fastifyWebsocket, { options: { maxPayload: 64 * 1024 } });

  const mailer = createMailer({ db: database.db, smtpUrl: config.SMTP_URL, from: 'Admit <no-reply@admit.local>' });
  const sms = createSmsSender({
    db: database.db,
    // config.ts refuses SMS_PROVIDER without the other three.
    gateway: config.SMS_PROVIDER
      ? {
          url: config.SMS_PROVIDER,
          accountSid: config.SMS_ACCOUNT_SID!,
          authToken: config.SMS_AUTH_TOKEN!,
          from: config.SMS_FROM!,
        }
      : undefined,
  });
  const federated = federatedSignIn(config);
  const trustedOrigins = [options.publicUrl];
  if (!production) trustedOrigins.push('http://localhost:5173');
  const auth = createAuth({
    db: database.db,
    mailer,
    sms,
    secret: options.authSecret,
    publicUrl: options.publicUrl,
    trustedOrigins,
    rateLimit: options.rateLimit ?? true,
    federated,
  });
  const hub = new LiveHub(database, liveQueries, app.log);
  await hub.start();
  app.addHook('onClose', async () => hub.stop());

  // Holds also end on read (orders.create); the sweeper gives the places back to everyone's counts.
  // Refunds the provider never answered (it was down) are sent again, with their own keys.
  const sweeper = setInterval(() => {
    releaseExpiredHolds(database.db).then(
      (expired) => expired.forEach((released) => hub.publish(orderTopics(released))),
      (error: unknown) => app.log.error({ err: error }, 'releasing expired holds failed'),
    );
    resendUnsentRefunds(database.db, payments).then(
      (changed) => changed.forEach((found) => hub.publish(orderTopics(found))),
      (error: unknown) => app.log.error({ err: error }, 'sending unsent refunds again failed'),
    );
  }, options.holdSweepMs ?? 30_000);
  sweeper.unref();
  app.addHook('onClose', async () => clearInterval(sweeper));

  app.get('/healthz', async (_request, reply) => {
    try {
      await database.ping();
      return { status: 'ok' };
    } catch {
      return reply.code(503).send({ status: 'unavailable' });
    }
  });

  registerAuthRoutes(app, auth, database.db);
  registerSignInMethods(app, federated.methods);
  await registerCallables(app, callables, {
    db: database.db,
    getUser: (request) => getSessionUser(auth, request),
    publish: (topics) => hub.publish(topics),
    mailer,
    publicUrl: options.publicUrl,
    payments,
    config,
  });
  await registerStripeWebhook(app, {
    db: database.db,
    payments,
    mailer,
    publicUrl: options.publicUrl,
    publish: (topics) => hub.publish(topics),
  });
  app.get('/live', { websocket: true }, async (socket, request) => {
    // Messages may arrive while the session is looked up: hold them until the connection is served.
    const early: unknown[] = [];
    const hold = (data: unknown) => early.push(data);
    socket.on('message', hold);
    let user = null;
    try {
      user = await getSessionUser(auth, request);
    } catch (error) {
      request.log.warn({ err: error }, 'live: session lookup failed');
    }
    socket.off('message', hold);
    hub.handleConnection(socket, user, request.log);
    if (user) {
      // A revoked or expired session must stop receiving data: the socket closes, and the browser
      // reconnects as the signed-out person it now is.
      const check = setInterval(() => {
        getSessionUser(auth, request).then(
          (current) => current || socket.close(4401, 'The session has ended'),
          (error: unknown) => request.log.warn({ err: error }, 'live: session check failed'),
        );
      }, options.liveSessionCheckMs ?? 60_000);
      socket.on('close', () => clearInterval(check));
    }
    for (const data of early) socket.emit('message', data, false);
  });
  if (!production) await registerDevOutbox(app, database.db);
  registerTicketPdfRoute(app, { db: database.db, getUser: (request) => getSessionUser(auth, request) });
  registerExportRoutes(app, { db: database.db, getUser: (request) => getSessionUser(auth, request) });

  const distDir = options.webDistDir ?? webDist;
  const hasWeb = existsSync(distDir);
  if (hasWeb) await app.register(fastifyStatic, { root: distDir, wildcard: false, index: false });
  const apiPrefixes = ['/fn/', '/api/', '/live', '/files/', '/webhooks/', '/dev/', '/a'];
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const isApi = apiPrefixes.some((prefix) => path === prefix || path.startsWith(prefix.endsWith('/') ? prefix : `${prefix}/`));
    if (request.method !== 'GET' || isApi || path.includes('.'))
      return reply.code(404).send({ error: { status: 'not-found', message: 'Not found' } });
    if (!hasWeb)
      return reply.code(503).type('text/plain').send('The web app is not built: run npm run build (npm start does it for you).');
    // Client-side routes: deep links load the app, which routes itself.
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  });

  return app;
}
