import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/database';
import { authInputProblem } from './input-limits';
import { rateLimit } from './schema';

/**
 * Per-identifier limits for the sign-in paths. Better Auth's limiter counts per
 * IP and path; these count per email address, phone number or pending second-factor sign-in, so
 * that many addresses cannot wear one account down. Both share the `rate_limit` table; keys here
 * start with `id:` and never collide with Better Auth's `<ip>|<path>` keys.
 */
interface Rule {
  /** Seconds. */
  window: number;
  max: number;
  identifier(body: Record<string, unknown>, cookie: string | undefined): string | undefined;
}

/**
 * A value Better Auth will look up, or undefined for one it refuses before any lookup (too long,
 * control characters: input-limits.ts), which is then not counted and never reaches the database here.
 */
const lookedUp = (value: unknown): string | undefined =>
  typeof value === 'string' && authInputProblem(value, 'email') === null ? value : undefined;
const email = (body: Record<string, unknown>) => {
  const value = lookedUp(body.email);
  return value === undefined ? undefined : `email:${value.trim().toLowerCase()}`;
};
const phone = (body: Record<string, unknown>) => {
  const value = lookedUp(body.phoneNumber);
  return value === undefined ? undefined : `phone:${value.replace(/[^\d+]/g, '')}`;
};
/** The two-factor plugin's signed cookie names the one pending sign-in the code is for. */
const pendingTwoFactor = (_body: Record<string, unknown>, cookie: string | undefined) => {
  const value = cookie?.match(/(?:^|;\s*)(?:__Secure-)?better-auth\.two_factor=([^;]+)/)?.[1];
  return value ? `two-factor:${value}` : undefined;
};

export const identifierRules: Record<string, Rule> = {
  '/sign-in/email': { window: 15 * 60, max: 10, identifier: email },
  '/sign-in/magic-link': { window: 15 * 60, max: 5, identifier: email },
  '/request-password-reset': { window: 15 * 60, max: 5, identifier: email },
  '/phone-number/send-otp': { window: 15 * 60, max: 5, identifier: phone },
  '/phone-number/verify': { window: 15 * 60, max: 10, identifier: phone },
  '/two-factor/verify-totp': { window: 15 * 60, max: 10, identifier: pendingTwoFactor },
};

/**
 * Counts one attempt for the request's identifier in one statement (a window that has run out
 * starts again at 1) and answers the seconds to wait when it is over the limit, else null.
 */
export async function consumeIdentifierAttempt(
  db: Db,
  path: string,
  body: unknown,
  cookie: string | undefined,
): Promise<number | null> {
  const rule = identifierRules[path];
  if (!rule || typeof body !== 'object' || body === null) return null;
  const identifier = rule.identifier(body as Record<string, unknown>, cookie);
  if (!identifier) return null;
  const now = Date.now();
  const windowStart = now - rule.window * 1000;
  const [row] = await db
    .insert(rateLimit)
    .values({ id: randomUUID(), key: `id:${path}|${identifier}`, count: 1, lastRequest: now })
    .onConflictDoUpdate({
      target: rateLimit.key,
      set: {
        count: sql`case when ${rateLimit.lastRequest} <= ${windowStart} then 1 else ${rateLimit.count} + 1 end`,
        lastRequest: sql`case when ${rateLimit.lastRequest} <= ${windowStart} then ${now} else ${rateLimit.lastRequest} end`,
      },
    })
    .returning({ count: rateLimit.count, lastRequest: rateLimit.lastRequest });
  if (!row || row.count <= rule.max) return null;
  return Math.max(1, Math.ceil((row.lastRequest + rule.window * 1000 - now) / 1000));
}
