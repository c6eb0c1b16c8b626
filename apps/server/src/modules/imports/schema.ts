import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { event } from '../events/schema';

/**
 * One guest-list row that has been imported into an event, by its key (docs/decisions/0023):
 * the primary key makes a re-imported or overlapping row, even from two imports at once, create
 * nothing twice. `orderId` is the complimentary order the row made; it is claimed in the same
 * transaction before that order exists, so it carries no foreign key.
 */
export const importRow = pgTable(
  'import_row',
  {
    eventId: text('event_id')
      .notNull()
      .references(() => event.id, { onDelete: 'cascade' }),
    rowKey: text('row_key').notNull(),
    orderId: text('order_id').notNull(),
    note: text('note'),
    importedBy: text('imported_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [primaryKey({ columns: [table.eventId, table.rowKey] }), index('import_row_order_idx').on(table.orderId)],
);
