import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { user } from './schema';

// Organizations and their members decide every permission (docs/product.md), so they sit with sign-in.
// Shaped like Better Auth's organization plugin tables, so that invitations can move onto it.
export const organization = pgTable('organization', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  slug: text('slug').notNull().unique(),
  logo: text('logo'),
  /** Members without a second factor are refused everything in this organization. */
  requireTwoFactor: boolean('require_two_factor').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
});

export const member = pgTable(
  'member',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    role: text('role', { enum: ['owner', 'admin', 'staff'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [
    uniqueIndex('member_organization_user_idx').on(table.organizationId, table.userId),
    index('member_user_idx').on(table.userId),
  ],
);

// An invitation to join an organization, addressed to an email; shaped like the organization
// plugin's `invitation` table. Owners are never invited: ownership moves by transfer.
export const invitation = pgTable(
  'invitation',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    /** Stored lower-cased, so that it matches the invitee's sign-in email whatever its case. */
    email: text('email').notNull(),
    role: text('role', { enum: ['admin', 'staff'] }).notNull(),
    status: text('status', { enum: ['pending', 'accepted', 'declined', 'revoked'] })
      .notNull()
      .default('pending'),
    inviterId: text('inviter_id')
      .notNull()
      .references(() => user.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [
    index('invitation_organization_idx').on(table.organizationId),
    index('invitation_email_idx').on(table.email),
    // One open invitation per person and organization: a second invite is `already-exists`.
    uniqueIndex('invitation_pending_idx')
      .on(table.organizationId, table.email)
      .where(sql`${table.status} = 'pending'`),
  ],
);
