import { boolean, index, integer, jsonb, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';
import { organization } from '../auth/organization-schema';
import { user } from '../auth/schema';

/** One stored rendition of an image: its width, format and where the storage driver keeps it. */
export interface FileVariant {
  width: number;
  height: number;
  format: 'webp' | 'jpeg';
  /**
   * The storage key: a random name of this upload's own, so a served URL never changes meaning and
   * may be cached for a year, and no other file row names the same object.
   */
  key: string;
  bytes: number;
}

/**
 * An uploaded image (an event's cover, an organization's logo), re-encoded into sized variants with
 * its metadata stripped. Public images are served by content-hashed name; private files (`public`
 * false) only through permission-checked routes. Decision 0037.
 */
export const file = pgTable(
  'file',
  {
    id: text('id').primaryKey(),
    organizationId: text('organization_id')
      .notNull()
      .references(() => organization.id, { onDelete: 'cascade' }),
    /** What it is for: `event-cover`, `org-logo`. */
    purpose: text('purpose').notNull(),
    public: boolean('public').notNull().default(true),
    /** SHA-256 of the upload as received (hex); the base of its variants' names in rows stored before they had names of their own. */
    contentHash: text('content_hash').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** Where the picture's subject is, 0..1 from the left and from the top: wide and square crops keep it in view. */
    focalX: real('focal_x').notNull().default(0.5),
    focalY: real('focal_y').notNull().default(0.5),
    variants: jsonb('variants').$type<FileVariant[]>().notNull(),
    createdBy: text('created_by').references(() => user.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [index('file_organization_idx').on(table.organizationId)],
);
