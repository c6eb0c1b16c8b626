import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { organization } from '../auth/organization-schema';
import { user } from '../auth/schema';

/**
 * Who changed what, when: every change an organizer makes to an event and its ticket types. The
 * event is named by id without a foreign key, so the record of a deleted draft outlives it; the
 * target's name is copied as it was then.
 */
export const auditLog = pgTable(
  'audit_log',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    eventId: text('event_id'),
    /** Null once the person deleted their account; their name stays in `actorName`. */
    actorId: text('actor_id').references(() => user.id, { onDelete: 'set null' }),
    actorName: text('actor_name').notNull(),
    action: text('action').notNull(),
    target: text('target').notNull(),
    details: jsonb('details')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
    at: timestamp('at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [index('audit_log_event_idx').on(table.eventId, table.at)],
);
