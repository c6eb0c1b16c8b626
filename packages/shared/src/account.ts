import { z } from 'zod';
import { defineCallableContract } from './callable';
import { locales } from './locales';
import { OneLineText } from './text';

// What people type into sign-up and their account (Better Auth's routes, /api/auth/*): the limits the
// server enforces (apps/server/src/platform/auth/input-limits.ts) and the browser's forms check
// first. docs/contracts.md lists them with every callable's.

export const accountLimits = {
  /** A person's name. */
  name: 200,
  /** An address, RFC 5321's longest path. */
  email: 254,
  /** A new password: at least this long, and not on the list of common and leaked passwords. */
  passwordMin: 12,
  /** Any password (more would only be hashing work). */
  passwordMax: 128,
  /** A picture's address. */
  image: 2_048,
  /** E.164: a plus and at most 15 digits. */
  phoneNumber: 16,
  /** Where to go afterwards (`callbackURL`, `redirectTo`…). */
  url: 2_048,
  /** Any other text in a sign-in request: tokens, codes, provider ids. */
  other: 4_096,
} as const;

/** On one line, as the server's sign-in routes require of every field (platform/auth/input-limits.ts). */
export const PersonName = OneLineText.min(1).max(accountLimits.name);
export const AccountEmail = z.email().max(accountLimits.email);
export const NewPassword = z.string().min(accountLimits.passwordMin).max(accountLimits.passwordMax);

/**
 * The language of the app, saved with the signed-in person's account whenever they choose one: the
 * emails and text messages Admit sends them later are written in it.
 */
export const setAccountLanguage = defineCallableContract(
  'account.setLanguage',
  z.strictObject({ locale: z.enum(locales) }),
  z.object({ locale: z.enum(locales) }),
);
