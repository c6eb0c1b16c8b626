import { accountLimits } from '@admit/shared/account';
import { oneLine } from '@admit/shared/text';
import type { BetterAuthPlugin } from 'better-auth';
import { APIError, createAuthMiddleware } from 'better-auth/api';

/**
 * The longest value each field of Better Auth's requests may have, by its name wherever it is
 * (sign-up, update-user, change-email, magic link, phone, second factor…); any other text gets
 * `accountLimits.other`. Better Auth itself bounds none of them but the password.
 */
const fieldLimits: Record<string, number> = {
  name: accountLimits.name,
  email: accountLimits.email,
  newEmail: accountLimits.email,
  password: accountLimits.passwordMax,
  newPassword: accountLimits.passwordMax,
  currentPassword: accountLimits.passwordMax,
  image: accountLimits.image,
  phoneNumber: accountLimits.phoneNumber,
  callbackURL: accountLimits.url,
  newUserCallbackURL: accountLimits.url,
  errorCallbackURL: accountLimits.url,
  redirectTo: accountLimits.url,
};

// PostgreSQL refuses NUL in text, and no field of a sign-in has a line break or another control
// character: every field is one line, by the rule names, titles and venues share.

/** Deep enough for Better Auth's bodies (an ID token's fields, a provider's extra data); deeper is refused. */
const maxDepth = 8;

/** What is wrong with a request's body or query, as a sentence for API clients, or null. */
export function authInputProblem(value: unknown, field = 'body', depth = 0): { code: string; message: string } | null {
  if (typeof value === 'string') {
    if (!oneLine.test(value)) return { code: 'INVALID_CHARACTERS', message: `${field} must not contain control characters` };
    const limit = fieldLimits[field] ?? accountLimits.other;
    if (value.length > limit) return { code: 'VALUE_TOO_LONG', message: `${field} is too long: at most ${limit} characters` };
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  if (depth === 0 && !Array.isArray(value)) {
    // update-user takes any record, so a `name: null` would reach the database's NOT NULL (a 500).
    for (const [key, item] of Object.entries(value)) {
      const nullable = key === 'image' && item === null; // how a client removes its picture
      if (key in fieldLimits && item !== undefined && typeof item !== 'string' && !nullable)
        return { code: 'INVALID_INPUT', message: `${key} must be text` };
    }
  }
  if (depth >= maxDepth) return { code: 'INVALID_INPUT', message: `${field} is nested too deeply` };
  for (const [key, item] of Object.entries(value)) {
    if (!oneLine.test(key) || key.length > 100) return { code: 'INVALID_INPUT', message: 'A field name is not valid' };
    const problem = authInputProblem(item, Array.isArray(value) ? field : key, depth + 1);
    if (problem) return problem;
  }
  return null;
}

/**
 * Refuses, before any Better Auth route runs, a request whose body is not an object or whose body
 * or query has a value that is too long or has control characters: a `400 {code, message}` in
 * Better Auth's own shape, instead of a 900,000-character name in the database or a NUL that
 * PostgreSQL cannot store (a 500). It must come first among the plugins.
 */
export function inputLimits(): BetterAuthPlugin {
  return {
    id: 'admit-input-limits',
    hooks: {
      before: [
        {
          matcher: () => true,
          handler: createAuthMiddleware(async (ctx) => {
            // Every route takes an object; other plugins' matchers look into it (`'phoneNumber' in body`).
            if (ctx.body !== undefined && (typeof ctx.body !== 'object' || ctx.body === null || Array.isArray(ctx.body)))
              throw APIError.from('BAD_REQUEST', { code: 'INVALID_INPUT', message: 'The body must be a JSON object' });
            const problem = authInputProblem(ctx.body) ?? authInputProblem(ctx.query, 'query');
            if (problem) throw APIError.from('BAD_REQUEST', problem);
          }),
        },
      ],
    },
  };
}
