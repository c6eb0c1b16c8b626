import { readFileSync } from 'node:fs';
import { accountLimits } from '@admit/shared/account';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware } from 'better-auth/api';

/**
 * Where each route that sets a password takes the new one from. Sign-in paths are not here: a
 * password someone already has is checked against its hash, not against the list.
 */
const newPasswordField: Record<string, string> = {
  '/sign-up/email': 'password',
  '/change-password': 'newPassword',
  '/reset-password': 'newPassword',
  '/set-password': 'newPassword',
  '/phone-number/reset-password': 'newPassword',
};

let commonPasswords: Set<string> | undefined;

/** The bundled list (decision 0028), read once: 43,940 passwords of 12 to 128 characters, lower-cased. */
function loadCommonPasswords(): Set<string> {
  commonPasswords ??= new Set(
    readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('# ')),
  );
  return commonPasswords;
}

/** Whether a password is on the list of common and leaked ones, whatever its letters' case. */
export function isCommonPassword(password: string): boolean {
  return loadCommonPasswords().has(password.toLowerCase());
}

export const passwordCompromised = {
  code: 'PASSWORD_COMPROMISED',
  message: 'This password is common or has appeared in a data leak; choose another',
} as const;

/**
 * Refuses a new password that is on the list, on every route that sets one, before anyone is
 * looked up (so the answer is the same for every address). Its length (12 to 128) is Better
 * Auth's own check (`minPasswordLength`, `maxPasswordLength` in auth.ts).
 */
export function passwordPolicy(): BetterAuthPlugin {
  loadCommonPasswords();
  return {
    id: 'admit-password-policy',
    hooks: {
      before: [
        {
          matcher: (context) => context.path !== undefined && context.path in newPasswordField,
          handler: createAuthMiddleware(async (ctx) => {
            const password = (ctx.body as Record<string, unknown> | undefined)?.[newPasswordField[ctx.path!]!];
            if (typeof password !== 'string' || password.length < accountLimits.passwordMin) return;
            if (isCommonPassword(password)) throw APIError.from('BAD_REQUEST', passwordCompromised);
          }),
        },
      ],
    },
  };
}
