import { apiKeyPrefix, type ApiScope } from '@admit/shared/api-keys';
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../platform/db/database';
import { consumeQuota, quotaKey, quotaLeft, type Quota } from '../../platform/quotas/call-quota';
import { hashOfKey } from './api-keys.functions';
import { ApiProblem } from './problem';
import { apiKey } from './schema';

/** The key a request came with, once it has been found, working, and within its rate. */
export interface CallingKey {
  id: string;
  organizationId: string;
  scopes: ApiScope[];
}

/** How long between two writes of a key's last use. */
const lastUseEveryMs = 60_000;

/**
 * The request's API key, from `Authorization: Bearer admit_key_…`. Read from the database on every
 * request, not kept: a revoked key is refused by every server process from the moment the revoke
 * commits (decision 0062). One indexed lookup, about what a kept entry would save.
 */
export async function authenticateKey(db: Db, request: FastifyRequest): Promise<CallingKey & { lastUsedAt: Date | null }> {
  const header = request.headers.authorization;
  const given = typeof header === 'string' && /^bearer /i.test(header) ? header.slice(7).trim() : '';
  if (!given.startsWith(apiKeyPrefix) || given.length > 200)
    throw new ApiProblem(401, 'unauthenticated', 'Send an API key as Authorization: Bearer admit_key_…');
  const [found] = await db
    .select({ id: apiKey.id, organizationId: apiKey.organizationId, scopes: apiKey.scopes, lastUsedAt: apiKey.lastUsedAt })
    .from(apiKey)
    .where(and(eq(apiKey.keyHash, hashOfKey(given)), isNull(apiKey.revokedAt)));
  if (!found) throw new ApiProblem(401, 'unauthenticated', 'This API key does not exist or was revoked');
  return { ...found, scopes: found.scopes as ApiScope[] };
}

/** Notes the key's use, at most once a minute; true when it did (the keys' list then changes). */
export async function noteUse(db: Db, key: { id: string; lastUsedAt: Date | null }): Promise<boolean> {
  if (key.lastUsedAt && Date.now() - key.lastUsedAt.getTime() < lastUseEveryMs) return false;
  const noted = await db
    .update(apiKey)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(apiKey.id, key.id),
        or(isNull(apiKey.lastUsedAt), lt(apiKey.lastUsedAt, sql`now() - ${lastUseEveryMs / 1000}::int * interval '1 second'`)),
      ),
    )
    .returning({ id: apiKey.id });
  return noted.length > 0;
}

/**
 * Counts the request against its key's rate, in the database so that every process counts
 * together (a fixed window of a minute), and sets the draft IETF `RateLimit-*` headers. Over the
 * limit: 429 with `Retry-After`.
 */
export async function countRate(db: Db, reply: FastifyReply, key: CallingKey, perMinute: number) {
  const quota: Quota = { key: quotaKey('api:key', key.id), limit: perMinute, windowSeconds: 60 };
  const wait = await consumeQuota(db, quota);
  const { left, resetsInSeconds } = wait === null ? await quotaLeft(db, quota) : { left: 0, resetsInSeconds: wait };
  const reset = resetsInSeconds ?? quota.windowSeconds;
  reply.header('RateLimit-Limit', String(perMinute));
  reply.header('RateLimit-Remaining', String(left));
  reply.header('RateLimit-Reset', String(reset));
  reply.header('RateLimit-Policy', `${perMinute};w=${quota.windowSeconds}`);
  if (wait !== null) {
    reply.header('Retry-After', String(wait));
    throw new ApiProblem(
      429,
      'rate-limited',
      `This key made more than ${perMinute} requests this minute; try again in ${wait} s`,
    );
  }
}

/** Refuses a key without one of the scopes a route takes. */
export function requireScope(key: CallingKey, scopes: readonly ApiScope[]) {
  if (!scopes.some((scope) => key.scopes.includes(scope)))
    throw new ApiProblem(403, 'insufficient-scope', `This needs a key with the scope ${scopes.join(' or ')}`);
}
