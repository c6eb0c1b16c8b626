import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { organization } from '../../platform/auth/organization-schema';
import { user } from '../../platform/auth/schema';

/**
 * A key a program uses to call the REST API for one organization (decision 0062). Only the
 * SHA-256 of the key is kept (the key is 256 random bits, so a hash without salt or stretching is
 * as strong as the key); its first characters stay visible so that people can tell keys apart.
 */
export const apiKey = pgTable(
  'api_key',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** `admit_` and the key's first characters: shown in lists, never enough to use it. */
    prefix: text('prefix').notNull(),
    /** SHA-256 of the whole key, hex. */
    keyHash: text('key_hash').notNull().unique(),
    scopes: text('scopes').array().notNull(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    /** Written at most once a minute per key: a list shows it, nothing depends on it to the second. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (table) => [index('api_key_organization_idx').on(table.organizationId, table.createdAt)],
);

/**
 * The first answer to a POST with an `Idempotency-Key`, per key and API key, kept 24 hours: the
 * same request again gets it again; the same key with another request is refused. A row whose
 * `status` is null is a request still under way.
 */
export const apiIdempotency = pgTable(
  'api_idempotency',
  {
    apiKeyId: text('api_key_id')
      .notNull()
      .references(() => apiKey.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    /** SHA-256 of the method, path and body: what "the same request" means. */
    requestHash: text('request_hash').notNull(),
    status: integer('status'),
    body: jsonb('body'),
    createdAt: timestamp('created_at', { withTimezone: true })
      .default(sql`now()`)
      .notNull(),
  },
  (table) => [
    uniqueIndex('api_idempotency_key_idx').on(table.apiKeyId, table.key),
    index('api_idempotency_created_idx').on(table.createdAt),
  ],
);
