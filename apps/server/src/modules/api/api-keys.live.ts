import { orgApiKeys } from '@admit/shared/api-keys';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { requireOrgRole } from '../../platform/auth/roles';
import { defineLiveQuery } from '../../platform/live/live-query';
import { apiKey } from './schema';
import { orgApiKeysTopic } from './topics';

/** The organization's keys that still work, newest first (admins): never the key, only its prefix. */
export const orgApiKeysLive = defineLiveQuery(orgApiKeys, {
  auth: 'required',
  async load(params, ctx) {
    await requireOrgRole(ctx.db, ctx.user, params.organizationId, 'admin');
    const keys = await ctx.db
      .select()
      .from(apiKey)
      .where(and(eq(apiKey.organizationId, params.organizationId), isNull(apiKey.revokedAt)))
      .orderBy(desc(apiKey.createdAt))
      .limit(500);
    return keys.map((key) => ({
      id: key.id,
      name: key.name,
      prefix: key.prefix,
      scopes: key.scopes as ('read' | 'write' | 'door')[],
      createdAt: key.createdAt.toISOString(),
      lastUsedAt: key.lastUsedAt?.toISOString() ?? null,
    }));
  },
  topics: (params) => [orgApiKeysTopic(params.organizationId)],
});

export const apiKeysLiveQueries = [orgApiKeysLive];
