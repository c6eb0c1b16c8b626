import { randomUUID } from 'node:crypto';
import type { CallableContract } from '@admit/shared/callable';
import type { Locale } from '@admit/shared/locales';
import { fieldIssuesOf } from '@admit/shared/callable';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { SessionUser } from '../auth/auth';
import type { Config } from '../config';
import type { Db } from '../db/database';
import { localeOf } from '../mail/compose';
import type { JobSender } from '../jobs/job-queue';
import type { Mailer } from '../mail/mailer';
import { PaymentProviderUnavailable, RefundRefused, type PaymentProvider } from '../payments/payment-provider';
import { CallableError, callableErrorFromDatabase } from './callable-error';
import { sendError } from './send-error';

export interface CallContext {
  requestId: string;
  db: Db;
  user: SessionUser | null;
  log: FastifyBaseLogger;
  /** Aborted when the caller goes away or the call runs past its deadline. */
  signal: AbortSignal;
  /** Topics whose live queries must refresh once this call has succeeded (and so committed). */
  publish(...topics: string[]): void;
  /**
   * Topics of work already committed, published even if the call then fails: for a call that
   * commits in steps, such as a refund recorded before the payment provider turns out unreachable.
   */
  publishCommitted(...topics: string[]): void;
  /** Sends email (SMTP or the dev outbox); emails that may wait go through `jobs` instead. */
  mailer: Mailer;
  /** Enqueues background work, in the transaction of the change that causes it. */
  jobs: JobSender;
  /** The address people reach the app at, for links in emails. */
  publicUrl: string;
  /** The caller's language (the app's language cookie, else Accept-Language), for what is sent to them. */
  locale: Locale;
  /** Card payments: Stripe when configured, otherwise the sandbox. */
  payments: PaymentProvider;
  /** The server's configuration (limits such as IMPORT_MAX_ROWS). */
  config: Config;
  /** The caller's IP address, for quotas per address (from X-Forwarded-For only with TRUST_PROXY). */
  clientAddress: string;
}
export type AuthedCallContext = CallContext & { user: SessionUser };

type Auth = 'required' | 'optional';

interface CallableOptions<C extends CallableContract, A extends Auth> {
  auth: A;
  /** The server-side deadline; past it the caller gets `deadline-exceeded`. */
  deadlineMs?: number;
  handler(
    input: z.output<C['input']>,
    ctx: A extends 'required' ? AuthedCallContext : CallContext,
  ): Promise<z.input<C['output']>>;
}

export interface Callable {
  contract: CallableContract;
  auth: Auth;
  deadlineMs: number;
  handler(input: unknown, ctx: CallContext): Promise<unknown>;
}

/** Declares the server side of a callable: its contract from shared, who may call it, and what it does. */
export function defineCallable<C extends CallableContract, A extends Auth>(
  contract: C,
  options: CallableOptions<C, A>,
): Callable {
  return {
    contract,
    auth: options.auth,
    deadlineMs: options.deadlineMs ?? 60_000,
    handler: options.handler as Callable['handler'],
  };
}

export interface CallableDeps {
  db: Db;
  jobs: JobSender;
  /** Whether the request's Origin may call (origin.ts); absent: every origin may. */
  originAllowed?(request: FastifyRequest): boolean;
  getUser(request: FastifyRequest): Promise<SessionUser | null>;
  publish(topics: string[]): void;
  mailer: Mailer;
  publicUrl: string;
  payments: PaymentProvider;
  config: Config;
  /**
   * Metrics (platform/metrics): adds hooks to the callables' routes that time each call and read its
   * outcome. `isCallable` tells the names served here from any other a client sends.
   */
  measure?(scope: FastifyInstance, isCallable: (name: string) => boolean): void;
}

/** Serves `POST /fn/:name` for the given callables, speaking the protocol of docs/contracts.md. */
export async function registerCallables(app: FastifyInstance, callables: Callable[], deps: CallableDeps) {
  const registry = new Map<string, Callable>();
  for (const callable of callables) {
    if (registry.has(callable.contract.name)) throw new Error(`Callable ${callable.contract.name} is defined twice`);
    registry.set(callable.contract.name, callable);
  }

  await app.register(async (scope) => {
    deps.measure?.(scope, (name) => registry.has(name));

    // The body is read as text whatever its type, so that a malformed one gets the protocol's
    // invalid-argument answer instead of Fastify's own error format.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 1_048_576 }, (_request, body, done) => done(null, body));

    scope.setErrorHandler((error: Error & { statusCode?: number; code?: string }, request, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
        return sendError(reply, 'invalid-argument', 'The request body is too large');
      request.log.error({ err: error }, 'callable transport error');
      return sendError(reply, 'internal', `Internal error (request ${request.id})`);
    });

    scope.post<{ Params: { name: string } }>('/fn/:name', async (request, reply) => {
      const callable = registry.get(request.params.name);
      if (!callable) return sendError(reply, 'not-found', `No function named ${request.params.name.slice(0, 100)}`);
      if (deps.originAllowed && !deps.originAllowed(request))
        return sendError(reply, 'permission-denied', 'Calls from this page are not allowed');

      // Who is calling comes first: an anonymous caller of a signed-in function learns nothing
      // about its input, whatever it sends.
      let user: SessionUser | null;
      try {
        user = await deps.getUser(request);
      } catch (error) {
        const translated = callableErrorFromDatabase(error);
        if (translated) return sendError(reply, translated.code, translated.message);
        throw error;
      }
      if (callable.auth === 'required' && !user) return sendError(reply, 'unauthenticated', 'Sign in to do this');

      const contentType = request.headers['content-type'] ?? '';
      if (!/^application\/json\b/i.test(contentType)) {
        return sendError(reply, 'invalid-argument', 'The request must be JSON (Content-Type: application/json)');
      }
      let body: unknown;
      try {
        body = JSON.parse(typeof request.body === 'string' ? request.body : '');
      } catch {
        return sendError(reply, 'invalid-argument', 'The request body is not valid JSON');
      }
      if (typeof body !== 'object' || body === null || Array.isArray(body) || !('data' in body)) {
        return sendError(reply, 'invalid-argument', 'The request body must be an object with a "data" field');
      }

      const parsed = callable.contract.input.safeParse((body as { data: unknown }).data);
      if (!parsed.success) {
        return sendError(reply, 'invalid-argument', 'The input is not valid', { fields: fieldIssuesOf(parsed.error) });
      }

      const controller = new AbortController();
      const onClose = () => {
        if (!reply.raw.writableFinished) controller.abort(new CallableError('cancelled', 'The caller went away'));
      };
      reply.raw.on('close', onClose);
      const deadline = setTimeout(
        () => controller.abort(new CallableError('deadline-exceeded', 'The call ran past its deadline')),
        callable.deadlineMs,
      );
      const topics = new Set<string>();
      const committedTopics = new Set<string>();
      const ctx: CallContext = {
        requestId: request.id,
        db: deps.db,
        user,
        log: request.log,
        signal: controller.signal,
        publish: (...names) => names.forEach((name) => topics.add(name)),
        publishCommitted: (...names) => names.forEach((name) => committedTopics.add(name)),
        mailer: deps.mailer,
        jobs: deps.jobs,
        publicUrl: deps.publicUrl,
        locale: localeOf(request.headers.cookie, request.headers['accept-language']),
        payments: deps.payments,
        config: deps.config,
        clientAddress: request.ip,
      };

      try {
        const aborted = new Promise<never>((_, reject) => {
          controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
        });
        const result = await Promise.race([callable.handler(parsed.data, ctx), aborted]);
        for (const topic of committedTopics) topics.add(topic);
        committedTopics.clear();
        if (topics.size > 0) deps.publish([...topics]);
        const output = callable.contract.output.safeParse(result);
        if (!output.success) {
          request.log.error(
            { issues: output.error.issues, callable: callable.contract.name },
            'callable output failed its schema',
          );
          return sendError(reply, 'internal', `Internal error (request ${request.id})`);
        }
        return reply.send({ result: output.data });
      } catch (error) {
        const known =
          error instanceof CallableError
            ? error
            : error instanceof PaymentProviderUnavailable
              ? new CallableError('unavailable', 'The payment provider cannot be reached; try again')
              : error instanceof RefundRefused
                ? new CallableError('failed-precondition', 'The payment provider refused the refund', {
                    reason: 'refund-refused',
                    providerReason: error.reason,
                  })
                : callableErrorFromDatabase(error);
        if (known) {
          if (known.code === 'cancelled' || known.code === 'deadline-exceeded')
            request.log.warn({ callable: callable.contract.name }, known.message);
          return sendError(reply, known.code, known.message, known.details);
        }
        request.log.error({ err: error, callable: callable.contract.name }, 'callable failed');
        return sendError(reply, 'internal', `Internal error (request ${request.id})`);
      } finally {
        if (committedTopics.size > 0) deps.publish([...committedTopics]);
        clearTimeout(deadline);
        reply.raw.off('close', onClose);
      }
    });
  });
}

export const newRequestId = () => randomUUID();
