import type { WebhookEventType } from '@admit/shared/webhooks';
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { organization } from '../../platform/auth/organization-schema';

/** Where an organization's webhooks go, what it wants to hear, and the secret that signs them. */
export const webhookEndpoint = pgTable(
  'webhook_endpoint',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    eventTypes: text('event_types').array().$type<WebhookEventType[]>().notNull(),
    /** `whsec_` and 32 random bytes in base64 (the Standard Webhooks form). */
    secret: text('secret').notNull(),
    /** The secret before the last rotation: it signs beside the new one until previousSecretUntil. */
    previousSecret: text('previous_secret'),
    previousSecretUntil: timestamp('previous_secret_until', { withTimezone: true }),
    status: text('status', { enum: ['enabled', 'disabled'] })
      .notNull()
      .default('enabled'),
    disabledReason: text('disabled_reason', { enum: ['manual', 'gone', 'failing'] }),
    /** The first failure since its last success: three days of them disable it. */
    failingSince: timestamp('failing_since', { withTimezone: true }),
    /** The job sending its deliveries now, and until when it holds them (one at a time per endpoint). */
    drainJob: text('drain_job'),
    drainUntil: timestamp('drain_until', { withTimezone: true }),
    /**
     * How far it has read the outbox: the (txid, seq) of the last message it took. It reads on in
     * that order, only messages of transactions that have all ended (below every snapshot's xmin),
     * so none committed later can fall behind it. Made or enabled: from then on.
     */
    cursorTxid: bigint('cursor_txid', { mode: 'number' })
      .notNull()
      .default(sql`pg_current_xact_id()::text::bigint`),
    cursorSeq: bigint('cursor_seq', { mode: 'number' }).notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [index('webhook_endpoint_organization_idx').on(table.organizationId)],
);

/**
 * The outbox: one row per change reported, written in the transaction of the change (only when an
 * endpoint wants it). Its id is the `webhook-id` every endpoint and every try sees. Each endpoint
 * reads it on from its cursor; a delivery row is written when it is first tried.
 */
export const webhookMessage = pgTable(
  'webhook_message',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    type: text('type').notNull(),
    objectId: text('object_id').notNull(),
    /** The object as the API shows it: the body's `data`. */
    payload: jsonb('payload').notNull(),
    /** The transaction that wrote it, and its place in the outbox: endpoints read it in this order. */
    txid: bigint('txid', { mode: 'number' })
      .notNull()
      .default(sql`pg_current_xact_id()::text::bigint`),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [
    index('webhook_message_organization_idx').on(table.organizationId, table.createdAt),
    index('webhook_message_outbox_idx').on(table.organizationId, table.txid, table.seq),
  ],
);

/**
 * One message for one endpoint, and its log: how many tries, the last answer. `seq` orders an
 * object's deliveries to one endpoint: a later one waits while an earlier one is pending.
 */
export const webhookDelivery = pgTable(
  'webhook_delivery',
  {
    id: text('id').primaryKey(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    messageId: text('message_id')
      .notNull()
      .references(() => webhookMessage.id, { onDelete: 'cascade' }),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoint.id, { onDelete: 'cascade' }),
    objectId: text('object_id').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).defaultNow(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    responseStatus: integer('response_status'),
    /** The start of the last answer's body, or why there was none; bounded. */
    responseExcerpt: text('response_excerpt'),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [
    index('webhook_delivery_endpoint_idx').on(table.endpointId, table.createdAt),
    index('webhook_delivery_pending_idx')
      .on(table.endpointId, table.objectId, table.seq)
      .where(sql`${table.status} = 'pending'`),
    // A round takes an endpoint's oldest pending deliveries first: read in this order, it stops at its size.
    index('webhook_delivery_pending_order_idx')
      .on(table.endpointId, table.seq)
      .where(sql`${table.status} = 'pending'`),
    index('webhook_delivery_message_idx').on(table.messageId),
  ],
);
