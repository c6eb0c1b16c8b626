import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyHelmet from '@fastify/helmet';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import {
  beaconFastPath,
  createBeaconIntake,
  createBeaconWriter,
  registerBeaconRoute,
  type BeaconWriter,
} from './modules/analytics/analytics.api';
import { registerApiRoutes } from './modules/api/api.api';
import { eventCoverSlot, registerCalendarRoute } from './modules/events/events.api';
import { registerExportRoutes } from './modules/exports/exports.api';
import { claimGuestOrders, orderTopics, tokenOpens } from './modules/orders/orders.api';
import { registerStripeWebhook } from './modules/payments/payments.api';
import { orgLogoSlot } from './modules/orgs/orgs.api';
import { registerImageRoute, registerPictureRoutes } from './platform/files/uploads';
import { claimReceivedTickets, registerTicketPdfRoute, userTicketsTopic } from './modules/tickets/tickets.api';
import { registerWalletRoutes } from './modules/wallet/wallet.api';
import { createAuth, getSessionUser, registerAuthRoutes } from './platform/auth/auth';
import { createSessionCache } from './platform/auth/session-cache';
import { federatedSignIn, registerSignInMethods } from './platform/auth/federated-providers';
import type { Config } from './platform/config';
import type { Database } from './platform/db/database';
import { registerCallables } from './platform/http/callable';
import { callableErrorFromDatabase } from './platform/http/callable-error';
import { createOriginCheck } from './platform/http/origin';
import { sendError } from './platform/http/send-error';
import { inlineScriptSources, registerWebApp } from './web-app';
import { LiveHub, liveCloseCodes, type LiveSession } from './platform/live/live-hub';
import { registerDevOutbox } from './platform/mail/dev-outbox';
import { createJobQueue, type JobQueueOptions } from './platform/jobs/job-queue';
import { registerMetrics } from './platform/metrics/metrics';
import type { JobServices } from './platform/jobs/job-services';
import type { PaymentProvider } from './platform/payments/payment-provider';
import { sandboxCallables } from './platform/payments/sandbox-provider';
import { createServices } from './services';

declare module 'fastify' {
  interface FastifyInstance {
    /** The analytics beacons waiting to be written (tests flush them). */
    beacons: BeaconWriter;
  }
}

/** Requests under way from which the web process counts as busy, and its own job workers wait. */
const busyWithRequests = 16;
import { callables, jobDefinitions, liveQueries } from './composition';

export { callables, jobDefinitions, liveQueries };

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
  /** How often the job queue looks for work and for tries whose process died (tests make it quick). */
  jobQueue?: JobQueueOptions;
}

/** Builds the whole server (used by main.ts with a port, and by tests through `app.inject`). */
export async function buildApp(options: BuildAppOptions) {
  const { database } = options;
  // The secret every part reads from the configuration (order links, decision 0060), also where
  // main.ts made one for development.
  const config: Config = { ...options.config, AUTH_SECRET: options.authSecret };
  const production = config.NODE_ENV === 'production';
  const distDir = options.webDistDir ?? (config.WEB_DIST_DIR ? path.resolve(config.WEB_DIST_DIR) : webDist);
  /** Takes the analytics beacons before Fastify sees them (set once the database's parts are made). */
  const beaconsFirst: { take?: (request: IncomingMessage, response: ServerResponse) => boolean } = {};
  const app = Fastify({
    // Fastify's own HTTP server, with the beacons' fast path in front (modules/analytics/beacons.ts).
    serverFactory: (handler, settings) => {
      const server = createServer((request, response) => {
        if (!beaconsFirst.take?.(request, response)) handler(request, response);
      });
      // What Fastify sets on the server it makes itself (its defaults: 72 s, none, none).
      server.keepAliveTimeout = Number(settings.keepAliveTimeout ?? 72_000);
      server.requestTimeout = Number(settings.requestTimeout ?? 0);
      server.setTimeout(Number(settings.connectionTimeout ?? 0));
      return server;
    },
    logger: options.logger ?? { level: config.LOG_LEVEL },
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: config.TRUST_PROXY,
    bodyLimit: 1_048_576,
    // A path that is not valid percent-encoding (`/%ff`) is refused before any route, in the protocol's shape.
    frameworkErrors: (_error, _request, reply) => sendError(reply, 'invalid-argument', 'The address is not valid'),
    // One line per request is noise at info level; LOG_LEVEL=debug shows them.
    logController: new LogController({ disableRequestLogging: !['debug', 'trace'].includes(config.LOG_LEVEL) }),
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  // Every route's errors but the callables' (platform/http/callable.ts has its own) and Better
  // Auth's own answers: Fastify's refusals (bad JSON or URL, a body too large, a type it cannot
  // read) are invalid-argument, data the database cannot store too (a NUL), and anything else is
  // internal with the request id, logged. No answer carries an error's SQL, parameters or stack.
  app.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
    const fromDatabase = callableErrorFromDatabase(error);
    if (fromDatabase) return sendError(reply, fromDatabase.code, fromDatabase.message, fromDatabase.details);
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const message = error.code?.startsWith('FST_') ? error.message : 'The request is not valid';
      return sendError(reply, status === 404 ? 'not-found' : 'invalid-argument', message);
    }
    request.log.error({ err: error }, 'request failed');
    return sendError(reply, 'internal', `Internal error (request ${request.id})`);
  });

  const { payments, mailer, sms, storage } = await createServices(config, database, { payments: options.payments });
  // Stripe.js (only ever loaded at the payment step) needs its script, frames and API allowed.
  const stripeCsp = payments.kind === 'stripe';

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        // wasm-unsafe-eval: the scanner's QR decoder (ZXing in WebAssembly, served by us) where the browser has none.
        scriptSrc: [
          "'self'",
          "'wasm-unsafe-eval'",
          ...inlineScriptSources(distDir),
          ...(stripeCsp ? ['https://js.stripe.com'] : []),
        ],
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

  const federated = federatedSignIn(config);
  const originAllowed = createOriginCheck({ publicUrl: options.publicUrl, production });
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
    // Orders a guest made with this verified address, and tickets sent to it and accepted without an
    // account, show in the person's tickets (decisions 0060, 0065).
    onPersonSeen: async (person) => {
      try {
        const claimed = await claimGuestOrders(database.db, person);
        if (claimed.length > 0) hub.publish(claimed.flatMap((one) => orderTopics(one)));
        if ((await claimReceivedTickets(database.db, person)).length > 0) hub.publish([userTicketsTopic(person.id)]);
      } catch (error) {
        app.log.error({ err: error }, 'guest orders could not be given to the person who signed in');
      }
    },
  });
  // Sessions looked up are kept a minute, and dropped at once when the database announces them ended.
  const sessions = createSessionCache(auth);
  const stopSessions = await sessions.start(database);
  app.addHook('onClose', async () => stopSessions());
  const hub = new LiveHub(
    database,
    liveQueries,
    app.log,
    {
      maxBufferedBytes: config.LIVE_MAX_BUFFERED_BYTES,
      maxSubscriptionsPerSocket: config.LIVE_MAX_SUBSCRIPTIONS_PER_SOCKET,
      maxSocketsPerAddress: config.LIVE_MAX_SOCKETS_PER_ADDRESS,
      maxSocketsPerAccount: config.LIVE_MAX_SOCKETS_PER_ACCOUNT,
    },
    { config },
  );
  await hub.start();
  app.addHook('onClose', async () => hub.stop());

  // Work nobody waits for (emails, hold expiry, refunds to send again) runs on the job queue: here,
  // in the embedded default, or in `npm run worker` processes (JOB_WORKERS=off).
  // Workers in this process give way to its requests while many are under way (a sales rush).
  let requestsUnderWay = 0;
  app.addHook('onRequest', async (request, reply) => {
    // A /live upgrade becomes a socket, not a request under way (and its response never closes).
    if (request.headers.upgrade) return;
    requestsUnderWay += 1;
    // Sent or cut off: the response closes either way.
    reply.raw.once('close', () => (requestsUnderWay -= 1));
  });
  const jobs = await createJobQueue(database, app.log, jobDefinitions as never, {
    yieldWhile: config.JOB_WORKERS === 'in-process' ? () => requestsUnderWay >= busyWithRequests : undefined,
    ...options.jobQueue,
  });
  if (config.JOB_WORKERS === 'in-process') {
    const services: JobServices = {
      db: database.db,
      mailer,
      publicUrl: options.publicUrl,
      payments,
      config,
      publish: (...topics) => hub.publish(topics),
      jobs,
      storage,
    };
    await jobs.work(jobDefinitions as never, services);
  }
  // Stopped before the hub and the database: tries under way finish first.
  app.addHook('onClose', async () => jobs.stop());
  // Analytics beacons are written in batches; the last are written before the database closes.
  const beacons = createBeaconWriter(database.db, app.log);
  app.decorate('beacons', beacons);
  // GET /metrics for the operator's Prometheus; who may read it: decision 0033.
  const metrics = registerMetrics(app, {
    beacons,
    config,
    database,
    live: hub,
    jobs,
    queues: jobDefinitions.map((job) => job.name),
    requestsUnderWay: () => requestsUnderWay,
  });

  app.get('/healthz', async (_request, reply) => {
    try {
      await database.ping();
      return { status: 'ok' };
    } catch {
      return reply.code(503).send({ status: 'unavailable' });
    }
  });

  registerAuthRoutes(app, auth, database.db, () => sessions.caughtUp());
  registerSignInMethods(app, federated.methods);
  // The sandbox's card form pays with test card numbers: a production server never serves it,
  // whatever provider it runs with (config.ts also requires Stripe there).
  const served = production ? callables.filter((callable) => !sandboxCallables.includes(callable)) : callables;
  await registerCallables(app, served, {
    db: database.db,
    originAllowed,
    getUser: (request) => sessions.userOf(request),
    publish: (topics) => hub.publish(topics),
    mailer,
    jobs,
    publicUrl: options.publicUrl,
    payments,
    config,
    measure: metrics.measureCallables,
  });
  await registerStripeWebhook(app, {
    db: database.db,
    payments,
    jobs,
    publish: (topics) => hub.publish(topics),
  });
  /** The session each admitted upgrade request carried, from its preValidation to its handler. */
  const liveSessions = new WeakMap<FastifyRequest, LiveSession | null>();
  const liveOptions = {
    websocket: true,
    // A page of another site must not read a signed-in person's data through their cookies.
    preValidation: async (request: FastifyRequest, reply: FastifyReply) => {
      if (!originAllowed(request)) return sendError(reply, 'permission-denied', 'Connections from this page are not allowed');
      if (!request.ws) return;
      // Looked up before the upgrade, so that a socket over its address's or account's limit is a 429.
      let session: LiveSession | null = null;
      try {
        session = await sessions.sessionOf(request);
      } catch (error) {
        request.log.warn({ err: error }, 'live: session lookup failed');
      }
      const admitted = hub.admit(request.ip, session?.user.id ?? null);
      if ('refused' in admitted) return sendError(reply, 'resource-exhausted', admitted.refused);
      // The place is held until the connection ends, whether it was upgraded or not.
      const connection = request.raw.socket;
      if (connection.destroyed) admitted.release();
      else connection.once('close', admitted.release);
      liveSessions.set(request, session);
    },
  } as const;
  app.get('/live', liveOptions, (socket, request) => {
    const session = liveSessions.get(request) ?? null;
    hub.handleConnection(socket, session, request.ip, request.log);
    if (session) {
      // The hub closes the socket as soon as its session row is deleted (decision 0029); this check
      // is the backstop for a session that merely expired, which no row change announces.
      const check = setInterval(() => {
        getSessionUser(auth, request).then(
          (current) => current || socket.close(liveCloseCodes.sessionEnded, 'The session has ended'),
          (error: unknown) => request.log.warn({ err: error }, 'live: session check failed'),
        );
      }, options.liveSessionCheckMs ?? 60_000);
      socket.on('close', () => clearInterval(check));
    }
  });
  if (!production) await registerDevOutbox(app, database.db);
  const ticketFileDeps = {
    db: database.db,
    storage,
    getUser: (request: FastifyRequest) => sessions.userOf(request),
    tokenOpens: (orderId: string, token: string) => tokenOpens(config, orderId, token),
    config,
  };
  registerTicketPdfRoute(app, ticketFileDeps);
  registerWalletRoutes(app, { ...ticketFileDeps, publicUrl: options.publicUrl });
  registerCalendarRoute(app, { db: database.db, publicUrl: options.publicUrl });
  await registerApiRoutes(app, {
    db: database.db,
    publicUrl: options.publicUrl,
    ratePerMinute: config.API_RATE_LIMIT_PER_MINUTE,
    publish: (topics) => hub.publish(topics),
  });
  registerExportRoutes(app, { db: database.db, getUser: (request) => sessions.userOf(request), publicUrl: options.publicUrl });
  const pictureDeps = {
    db: database.db,
    storage,
    config,
    jobs,
    getUser: (request: FastifyRequest) => sessions.userOf(request),
    originAllowed,
    publish: (...topics: string[]) => hub.publish(topics),
  };
  registerPictureRoutes(app, pictureDeps, eventCoverSlot);
  registerPictureRoutes(app, pictureDeps, orgLogoSlot);
  registerImageRoute(app, { storage });
  app.addHook('onClose', async () => beacons.stop());
  const beaconIntake = createBeaconIntake({ db: database.db, writer: beacons, publicUrl: options.publicUrl });
  registerBeaconRoute(app, beaconIntake);
  beaconsFirst.take = beaconFastPath(beaconIntake, { trustProxy: config.TRUST_PROXY });

  await registerWebApp(app, {
    distDir,
    db: database.db,
    publicUrl: options.publicUrl,
    liveQueries,
  });

  return app;
}
