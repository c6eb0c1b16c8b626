import { z } from 'zod';
import { defineCallableContract } from './callable';
import { Id } from './ids';
import { defineLiveQueryContract } from './live';

// Keys a program uses to call the REST API (/api/v1) for one organization, made and revoked by its
// admins (decision 0062). A key is shown once, when it is made; afterwards only its prefix.

/**
 * read: every GET (orders, emails, money included); write: every POST (check-ins); door: the
 * events and their check-ins only (reading them and scanning), never an email or an amount.
 */
export const ApiScope = z.enum(['read', 'write', 'door']);
export type ApiScope = z.infer<typeof ApiScope>;

/** What every key starts with: a secret scanner (and a person) can tell it from a session token. */
export const apiKeyPrefix = 'admit_key_';

export const CreateApiKeyInput = z.strictObject({
  organizationId: Id,
  name: z.string().trim().min(1, 'Name the key, e.g. Accounting export').max(80),
  scopes: z
    .array(ApiScope)
    .min(1, 'Choose at least one scope')
    .max(3)
    .transform((scopes) => [...new Set(scopes)]),
});
export type CreateApiKeyInput = z.input<typeof CreateApiKeyInput>;
export const CreateApiKeyOutput = z.object({
  apiKeyId: z.string(),
  /** The whole key: shown this once, never again. */
  key: z.string(),
  prefix: z.string(),
});
export const createApiKey = defineCallableContract('apiKeys.create', CreateApiKeyInput, CreateApiKeyOutput);

export const RevokeApiKeyInput = z.strictObject({ organizationId: Id, apiKeyId: Id });
export const revokeApiKey = defineCallableContract('apiKeys.revoke', RevokeApiKeyInput, z.object({ revoked: z.boolean() }));

export const ApiKeyRow = z.object({
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(ApiScope),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKeyRow = z.infer<typeof ApiKeyRow>;
/** An organization's keys that still work, newest first (admins). */
export const orgApiKeys = defineLiveQueryContract('apiKeys.ofOrg', z.strictObject({ organizationId: Id }), ApiKeyRow);
