import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Config } from '../config';

// The tokens in the links of emails to people without a session (a guest's order, a guest's place
// on a waiting list): an HMAC of what the link opens under the server's secret, so nothing is stored
// that opens it, and a token made for one thing opens nothing else (decision 0060).

/** The secret the tokens are signed with: the auth secret (set for every process by app.ts; required in production). */
function secretOf(config: Pick<Config, 'AUTH_SECRET'>): string {
  if (!config.AUTH_SECRET) throw new Error('AUTH_SECRET is needed to make and check email links');
  return config.AUTH_SECRET;
}

/** The token that opens `id` for `purpose` ("order access", "waitlist entry"): 43 URL-safe characters. */
export function linkToken(config: Pick<Config, 'AUTH_SECRET'>, purpose: string, id: string): string {
  return createHmac('sha256', secretOf(config)).update(`admit ${purpose}\u0000${id}`).digest('base64url');
}

/** Whether the token is the one that opens `id` for `purpose` (compared in constant time). */
export function linkTokenOpens(
  config: Pick<Config, 'AUTH_SECRET'>,
  purpose: string,
  id: string,
  token: string | undefined,
): boolean {
  if (!token) return false;
  const expected = Buffer.from(linkToken(config, purpose, id));
  const given = Buffer.from(token);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
