import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { apiKeyPrefix, createApiKey, revokeApiKey } from '@admit/shared/api-keys';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit/audit-log';
import { requireOrgRole } from '../../platform/auth/roles';
import { defineCallable } from '../../platform/http/callable';
import { apiKey } from './schema';
import { orgApiKeysTopic } from './topics';

/** SHA-256 of a key, hex: what is stored and looked up (the key itself never is). */
export const hashOfKey = (key: string) => createHash('sha256').update(key).digest('hex');

/** Characters of the random part kept visible after the prefix: enough to tell keys apart, far too few to guess one. */
const visibleCharacters = 6;

/** Makes a key for the organization (admins): 256 random bits after `admit_key_`, shown this once. */
export const createApiKeyCallable = defineCallable(createApiKey, {
  auth: 'required',
  async handler(input, ctx) {
    await requireOrgRole(ctx.db, ctx.user, input.organizationId, 'admin');
    const key = `${apiKeyPrefix}${randomBytes(32).toString('base64url')}`;
    const prefix = key.slice(0, apiKeyPrefix.length + visibleCharacters);
    const id = randomUUID();
    await ctx.db.transaction(async (tx) => {
      await tx.insert(apiKey).values({
        id,
        organizationId: input.organizationId,
        name: input.name,
        prefix,
        keyHash: hashOfKey(key),
        scopes: input.scopes,
        createdBy: ctx.user.id,
      });
      await recordAudit(tx, {
        organizationId: input.organizationId,
        actor: ctx.user,
        action: 'apiKey.create',
        target: input.name,
        details: { prefix, scopes: input.scopes },
      });
    });
    ctx.publish(orgApiKeysTopic(input.organizationId));
    return { apiKeyId: id, key, prefix };
  },
});

/**
 * Revokes a key (admins): from the commit on, every server instance refuses it, since each
 * request reads its key from the database (decision 0062). Revoking it again changes nothing.
 */
export const revokeApiKeyCallable = defineCallable(revokeApiKey, {
  auth: 'required',
  async handler(input, ctx) {
    await requireOrgRole(ctx.db, ctx.user, input.organizationId, 'admin');
    const revoked = await ctx.db.transaction(async (tx) => {
      const [row] = await tx
        .update(apiKey)
        .set({ revokedAt: sql`now()` })
        .where(and(eq(apiKey.id, input.apiKeyId), eq(apiKey.organizationId, input.organizationId), isNull(apiKey.revokedAt)))
        .returning({ name: apiKey.name, prefix: apiKey.prefix });
      if (!row) return false;
      await recordAudit(tx, {
        organizationId: input.organizationId,
        actor: ctx.user,
        action: 'apiKey.revoke',
        target: row.name,
        details: { prefix: row.prefix },
      });
      return true;
    });
    ctx.publish(orgApiKeysTopic(input.organizationId));
    return { revoked };
  },
});

export const apiKeysCallables = [createApiKeyCallable, revokeApiKeyCallable];
