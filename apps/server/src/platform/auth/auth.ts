import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { bearer, magicLink, phoneNumber, twoFactor } from 'better-auth/plugins';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../db/database';
import { composeActionEmail, localeOfRequest, mailIntl } from '../mail/compose';
import type { Mailer } from '../mail/mailer';
import { mailMessages } from '../mail/messages';
import type { SmsSender } from '../sms/sms-sender';
import { prepareAccountDeletion } from './account-deletion';
import type { FederatedSignIn } from './federated-providers';
import { consumeIdentifierAttempt } from './identifier-rate-limit';
import { secondFactorForEveryMethod } from './second-factor';
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
}) {
  // A person without a password (email link, phone, provider) turns it on and off with their session alone.
  const secondFactor = twoFactor({ issuer: 'Admit', allowPasswordless: true });
  return betterAuth({
    appName: 'Admit',
    baseURL: options.publicUrl,
    basePath: '/api/auth',
    secret: options.secret,
    trustedOrigins: options.trustedOrigins,
    telemetry: { enabled: false },
    socialProviders: options.federated.socialProviders,
    database: drizzleAdapter(options.db, { provider: 'pg', schema: authSchema }),
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: true,
      minPasswordLength: 8,
      // Whoever reset the password may be locking someone else out: every session ends.
      revokeSessionsOnPasswordReset: true,
      async sendResetPassword({ user, token }, request) {
        // Straight to the app's page, which sends the token back with the new password.
        const url = new URL('/reset-password', options.publicUrl);
        url.searchParams.set('token', token);
        const locale = localeOfRequest(request?.headers);
        const t = mailIntl(locale).formatMessage;
        await options.mailer.send(
          await composeActionEmail({
            to: user.email,
            locale,
            name: user.name,
            subject: t(mailMessages.resetSubject),
            paragraphs: [t(mailMessages.resetIntro)],
            action: { label: t(mailMessages.resetAction), url: url.href },
            note: t(mailMessages.resetIgnore),
          }),
        );
      },
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
        const locale = localeOfRequest(request?.headers);
        const t = mailIntl(locale).formatMessage;
        // A person who has verified an address before is here because they asked to change it
        // (Better Auth passes the new address as user.email).
        const change = user.emailVerified;
        await options.mailer.send(
          await composeActionEmail({
            to: user.email,
            locale,
            name: user.name,
            subject: t(change ? mailMessages.changeEmailSubject : mailMessages.verifySubject),
            paragraphs: [t(change ? mailMessages.changeEmailIntro : mailMessages.verifyIntro)],
            action: { label: t(change ? mailMessages.changeEmailAction : mailMessages.verifyAction), url },
            note: t(change ? mailMessages.changeEmailIgnore : mailMessages.verifyIgnore),
          }),
        );
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
    // API clients send `Authorization: Bearer <token>` (the `set-auth-token` header of sign-in)
    // instead of the cookie; the plugin turns it into the session cookie before any lookup.
    plugins: [
      bearer(),
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
        signUpOnVerification: { getTempEmail: phoneSignUpEmail },
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

/** Mounts Better Auth's routes at /api/auth/*, after the per-identifier limits (identifier-rate-limit.ts). */
export function registerAuthRoutes(app: FastifyInstance, auth: Auth, db: Db) {
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
