import { accountLimits } from '@admit/shared/account';
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { bearer, magicLink, phoneNumber, twoFactor } from 'better-auth/plugins';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/database';
import { composeActionEmail, localeOfRequest, mailIntl } from '../mail/compose';
import type { Mailer } from '../mail/mailer';
import { mailMessages } from '../mail/messages';
import type { SmsSender } from '../sms/sms-sender';
import { prepareAccountDeletion } from './account-deletion';
import type { FederatedSignIn } from './federated-providers';
import { consumeIdentifierAttempt } from './identifier-rate-limit';
import { inputLimits } from './input-limits';
import { passwordPolicy } from './password-policy';
import { revokeSessionById } from './revoke-session-by-id';
import { sameWorkAsNewAccount, sameWorkForUnknownAddresses } from './same-work';
import { secondFactorForEveryMethod } from './second-factor';
import { wantTokenHeader, withoutSessionToken } from './session-token';
import * as authSchema from './schema';

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
}

/** Better Auth reads the client IP from this header only; the server sets it from the connection. */
const clientIpHeader = 'x-admit-client-ip';

/** E.164: a plus, a country code that does not start with 0, at most 15 digits in all. */
const e164 = /^\+[1-9]\d{6,14}$/;

/**
 * Better Auth needs an email for every person; someone who signs up with a phone number gets one
 * that can never receive mail (`.invalid` is reserved, RFC 2606) until they add their own.
 */
export const phoneSignUpEmail = (phone: string) => `phone-${phone.replace(/\D/g, '')}@phone.admit.invalid`;

export function createAuth(options: {
  db: Db;
  mailer: Mailer;
  sms: SmsSender;
  secret: string;
  publicUrl: string;
  trustedOrigins: string[];
  rateLimit: boolean;
  federated: FederatedSignIn;
  /**
   * A person signed in, or verified an address: called with who they are now (app.ts gives them
   * the orders guests made with their verified address, decision 0060). Must not throw.
   */
  onPersonSeen?: (person: { id: string; email: string; emailVerified: boolean }) => Promise<void>;
}) {
  // A person without a password (email link, phone, provider) turns it on and off with their session alone.
  const secondFactor = twoFactor({ issuer: 'Admit', allowPasswordless: true });

  /** The email with the link to the page that sets a new password, in the asker's language. */
  async function resetPasswordEmail(to: string, name: string | null, token: string, request: Request | undefined) {
    // Straight to the app's page, which sends the token back with the new password.
    const url = new URL('/reset-password', options.publicUrl);
    url.searchParams.set('token', token);
    const locale = localeOfRequest(request?.headers);
    const t = mailIntl(locale).formatMessage;
    return composeActionEmail({
      to,
      locale,
      name,
      subject: t(mailMessages.resetSubject),
      paragraphs: [t(mailMessages.resetIntro)],
      action: { label: t(mailMessages.resetAction), url: url.href },
      note: t(mailMessages.resetIgnore),
    });
  }

  /** The email with the link that verifies an address (a new account's, or the new one of a change). */
  async function verificationEmail(
    user: { email: string; name: string; emailVerified: boolean },
    url: string,
    request?: Request,
  ) {
    const locale = localeOfRequest(request?.headers);
    const t = mailIntl(locale).formatMessage;
    // A person who has verified an address before is here because they asked to change it
    // (Better Auth passes the new address as user.email).
    const change = user.emailVerified;
    return composeActionEmail({
      to: user.email,
      locale,
      name: user.name,
      subject: t(change ? mailMessages.changeEmailSubject : mailMessages.verifySubject),
      paragraphs: [t(change ? mailMessages.changeEmailIntro : mailMessages.verifyIntro)],
      action: { label: t(change ? mailMessages.changeEmailAction : mailMessages.verifyAction), url },
      note: t(change ? mailMessages.changeEmailIgnore : mailMessages.verifyIgnore),
    });
  }

  return betterAuth({
    appName: 'Admit',
    baseURL: options.publicUrl,
    basePath: '/api/auth',
    secret: options.secret,
    trustedOrigins: options.trustedOrigins,
    telemetry: { enabled: false },
    // An error that is not one of its own answers (a database failure) is thrown to Fastify, which
    // logs it under the request id and answers `internal` with no detail (app.ts).
    onAPIError: { throw: true },
    socialProviders: options.federated.socialProviders,
    database: drizzleAdapter(options.db, { provider: 'pg', schema: authSchema }),
    databaseHooks: {
      session: {
        create: {
          async after(session) {
            const [person] = await options.db
              .select({ id: authSchema.user.id, email: authSchema.user.email, emailVerified: authSchema.user.emailVerified })
              .from(authSchema.user)
              .where(eq(authSchema.user.id, session.userId));
            if (person) await options.onPersonSeen?.(person);
          },
        },
      },
      user: {
        update: {
          async after(person) {
            await options.onPersonSeen?.(person);
          },
        },
      },
    },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      // And not on the list of common passwords (password-policy.ts, decision 0028).
      minPasswordLength: accountLimits.passwordMin,
      maxPasswordLength: accountLimits.passwordMax,
      // Whoever reset the password may be locking someone else out: every session ends.
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user, token }, request) {
        await options.mailer.send(await resetPasswordEmail(user.email, user.name, token, request));
      },
      // The rest of a new account's work for an address that has one (same-work.ts, decision 0028).
      onExistingUserSignUp: sameWorkAsNewAccount({
        db: options.db,
        secret: options.secret,
        publicUrl: options.publicUrl,
        composeVerificationEmail: verificationEmail,
      }),
    },
    user: {
      // The new address must be verified (the link goes to it) before it replaces the old one.
      changeEmail: { enabled: true },
      // Needs the password or a fresh session (Better Auth's defaults); see decision 0015.
      deleteUser: {
        enabled: true,
        beforeDelete: (user) => prepareAccountDeletion(options.db, user.id),
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      async sendVerificationEmail({ user, url }, request) {
        await options.mailer.send(await verificationEmail(user, url, request));
      },
    },
    rateLimit: {
      enabled: options.rateLimit,
      storage: 'database',
      // Per IP (the connection's, see headersOf); identifier-rate-limit.ts adds per email and phone.
      customRules: {
        '/sign-in/email': { window: 60, max: 10 },
        '/sign-in/magic-link': { window: 60, max: 5 },
        '/request-password-reset': { window: 60, max: 5 },
        '/phone-number/send-otp': { window: 60, max: 5 },
        '/phone-number/verify': { window: 60, max: 10 },
        '/two-factor/verify-totp': { window: 60, max: 10 },
        // Starting a provider's sign-in guesses nothing (the provider checks the person); Better
        // Auth's default for /sign-in/* (3 in 10 s) would stop someone who tries twice.
        '/sign-in/social': { window: 60, max: 20 },
        '/sign-in/oauth2': { window: 60, max: 20 },
        '/link-social': { window: 60, max: 20 },
        '/oauth2/link': { window: 60, max: 20 },
      },
    },
    plugins: [
      // Before every route: lengths and characters of every field, then the password list.
      inputLimits(),
      passwordPolicy(),
      sameWorkForUnknownAddresses({
        db: options.db,
        composeResetEmail: (to, token, request) => resetPasswordEmail(to, null, token, request),
      }),
      // API clients send `Authorization: Bearer <token>` (the `set-auth-token` header of a sign-in
      // that asked for it, see registerAuthRoutes) instead of the cookie; the plugin turns it into
      // the session cookie before any lookup. Only the signed token (`<token>.<signature>`): the
      // raw one alone, wherever it was seen (a database dump, a log), signs nobody in.
      bearer({ requireSignature: true }),
      // The account page signs another device out by the session's id, never its token.
      revokeSessionById(),
      magicLink({
        // Consumed atomically on first use (the plugin allows one attempt); unknown addresses get an account.
        expiresIn: 15 * 60,
        async sendMagicLink({ email, url }, ctx) {
          const locale = localeOfRequest(ctx?.headers);
          const t = mailIntl(locale).formatMessage;
          await options.mailer.send(
            await composeActionEmail({
              to: email,
              locale,
              name: null,
              subject: t(mailMessages.linkSubject),
              paragraphs: [t(mailMessages.linkIntro)],
              action: { label: t(mailMessages.linkAction), url },
              note: t(mailMessages.linkIgnore),
            }),
          );
        },
      }),
      phoneNumber({
        otpLength: 6,
        expiresIn: 5 * 60,
        allowedAttempts: 3,
        phoneNumberValidator: (phone) => e164.test(phone),
        async sendOTP({ phoneNumber: to, code }, ctx) {
          const text = mailIntl(localeOfRequest(ctx?.headers)).formatMessage(mailMessages.smsCode, { code });
          await options.sms.send({ to, text });
        },
        // No name yet: the app asks for one after the first sign-in (decision 0036); until then the
        // formatted number stands for the person (personLabel).
        signUpOnVerification: { getTempEmail: phoneSignUpEmail, getTempName: () => '' },
      }),
      // Asked after every sign-in: the plugin's own paths (password) and, through
      // secondFactorForEveryMethod, the email link and the phone code.
      secondFactor,
      secondFactorForEveryMethod(secondFactor),
      ...options.federated.plugins,
    ],
    advanced: { ipAddress: { ipAddressHeaders: [clientIpHeader] } },
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** The request's headers as a Fetch `Headers`, with the client IP Fastify determined (never the client's own claim). */
export function headersOf(request: FastifyRequest): Headers {
  const headers = new Headers();
  for (const [key, value] of Object.entries(request.headers)) {
    if (key === clientIpHeader || value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(key, item);
  }
  headers.set(clientIpHeader, request.ip);
  return headers;
}

/**
 * The person behind the request's session cookie or `Authorization: Bearer` token (the bearer
 * plugin turns the token into the cookie for getSession), or null.
 */
export async function getSessionUser(auth: Auth, request: FastifyRequest): Promise<SessionUser | null> {
  const session = await auth.api.getSession({ headers: headersOf(request) });
  if (!session) return null;
  const { id, name, email, emailVerified } = session.user;
  return { id, name, email, emailVerified };
}

/** Better Auth's own answer to a limited request, with the wait also in the body (the browser's client sees no headers). */
function tooManyAttempts(retryAfter: number): Response {
  return new Response(
    JSON.stringify({ code: 'RATE_LIMITED', message: 'Too many requests. Please try again later.', retryAfter }),
    {
      status: 429,
      headers: { 'content-type': 'application/json', 'x-retry-after': String(retryAfter) },
    },
  );
}

/** Better Auth's shape for an answer that must not say what went wrong (the log has it under the request id). */
function internalError(requestId: string): Response {
  return new Response(JSON.stringify({ code: 'INTERNAL_SERVER_ERROR', message: `Internal error (request ${requestId})` }), {
    status: 500,
    headers: { 'content-type': 'application/json' },
  });
}

/**
 * Mounts Better Auth's routes at /api/auth/*, after the per-identifier limits
 * (identifier-rate-limit.ts). Its answers go out without the session token unless the client
 * asked for one (session-token.ts), and a 5xx of its own without its message.
 */
export function registerAuthRoutes(
  app: FastifyInstance,
  auth: Auth,
  db: Db,
  /** Resolves when this instance's session cache has seen every change committed so far. */
  sessionsCaughtUp: () => Promise<void>,
) {
  app.route({
    method: ['GET', 'POST'],
    url: '/api/auth/*',
    async handler(request, reply) {
      const url = new URL(request.url, 'http://localhost');
      const body =
        request.method === 'GET' || request.body === undefined
          ? undefined
          : typeof request.body === 'string'
            ? request.body
            : JSON.stringify(request.body);
      const path = url.pathname.slice('/api/auth'.length);
      // Counted before Better Auth looks anyone up, so a limited unknown address answers like a known one.
      const identifierWait = auth.options.rateLimit?.enabled
        ? await consumeIdentifierAttempt(db, path, request.body, request.headers.cookie)
        : null;
      let response =
        identifierWait !== null
          ? tooManyAttempts(identifierWait)
          : await auth.handler(
              new Request(new URL(url.pathname + url.search, auth.options.baseURL as string), {
                method: request.method,
                headers: headersOf(request),
                body,
              }),
            );
      if (response.status === 429 && identifierWait === null) {
        const wait = Number(response.headers.get('x-retry-after')) || 60;
        response = tooManyAttempts(wait);
      }
      if (response.status >= 500) {
        request.log.error({ status: response.status, body: await response.text() }, 'sign-in route failed');
        response = internalError(request.id);
      }
      // A sign-out, a revoked session, a new password or a changed person: the caller's next request
      // must not find the old session in this instance's cache.
      if (request.method === 'POST' && response.status < 400 && !/^\/sign-(in|up)\//.test(path)) await sessionsCaughtUp();
      response = await withoutSessionToken(response, request.headers[wantTokenHeader] === '1');
      if (response.status === 429) reply.header('retry-after', response.headers.get('x-retry-after'));
      reply.status(response.status);
      response.headers.forEach((value, key) => {
        if (key !== 'set-cookie') reply.header(key, value);
      });
      const cookies = response.headers.getSetCookie();
      if (cookies.length > 0) reply.header('set-cookie', cookies);
      return reply.send(response.body ? Buffer.from(await response.arrayBuffer()) : null);
    },
  });
}
