import { randomBytes, randomUUID } from 'node:crypto';
import type { BetterAuthPlugin, User } from 'better-auth';
import { createAuthMiddleware, createEmailVerificationToken } from 'better-auth/api';
import { z } from 'zod';
import type { Db } from '../db/database';
import { verification } from './schema';

// The time of an answer must not tell whether an address has an account (decision 0028). Where
// Better Auth does less for one kind of address than for the other, the rest is done here too: as
// many rows written and the same email composed, which is then written with them instead of sent.

/**
 * Writes rows as Better Auth writes its tokens, one statement each, with these values, already
 * expired: they can never be used, and Better Auth's own sweep of expired rows removes them.
 */
async function writeUnusableRows(db: Db, kind: string, values: string[]) {
  await db.transaction(async (tx) => {
    for (const value of values)
      await tx.insert(verification).values({
        id: randomUUID(),
        identifier: `${kind}:${randomBytes(18).toString('base64url')}`,
        value,
        expiresAt: new Date(),
      });
  });
}

/**
 * A password reset for an address with no account. For a known address Better Auth writes a reset
 * token and calls sendResetPassword, which composes the email and sends it; for an unknown one it
 * only looks the address up: about half the time. Here, before it looks, an unknown address gets
 * the same email composed and as many rows written.
 */
export function sameWorkForUnknownAddresses(options: {
  db: Db;
  composeResetEmail(to: string, token: string, request: Request | undefined): Promise<unknown>;
}): BetterAuthPlugin {
  return {
    id: 'admit-same-work-for-unknown-addresses',
    hooks: {
      before: [
        {
          matcher: (context) => context.path === '/request-password-reset',
          handler: createAuthMiddleware(async (ctx) => {
            const email = (ctx.body as { email?: unknown } | undefined)?.email;
            // Better Auth refuses what is not an address, for every address alike.
            if (typeof email !== 'string' || !z.email().safeParse(email).success) return;
            if (await ctx.context.internalAdapter.findUserByEmail(email)) return;
            const composed = await options.composeResetEmail(email, randomBytes(18).toString('base64url'), ctx.request);
            // A known address's reset token, and its email in the outbox.
            await writeUnusableRows(options.db, 'reset-password', ['', JSON.stringify(composed)]);
          }),
        },
      ],
    },
  };
}

/**
 * Better Auth's `onExistingUserSignUp`: a sign-up with an address that has an account answers like
 * a new one, and Better Auth hashes the password for both. A new account then also gets its rows
 * written and its verification email (a signed link) composed and sent; the existing one gets the
 * same email composed, not sent (the person has an account already), and as many rows written.
 */
export function sameWorkAsNewAccount(options: {
  db: Db;
  secret: string;
  publicUrl: string;
  composeVerificationEmail(user: User, url: string, request: Request | undefined): Promise<unknown>;
}) {
  return async ({ user }: { user: User }, request?: Request) => {
    const token = await createEmailVerificationToken(options.secret, user.email, undefined, 3600, { userId: user.id });
    const composed = await options.composeVerificationEmail(
      { ...user, emailVerified: false },
      `${options.publicUrl}/api/auth/verify-email?token=${token}&callbackURL=%2F`,
      request,
    );
    // A new account's user and credential rows, and its email in the outbox.
    await writeUnusableRows(options.db, 'sign-up', ['', '', JSON.stringify(composed)]);
  };
}
