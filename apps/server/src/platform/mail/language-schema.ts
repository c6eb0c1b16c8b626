import { pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { user } from '../auth/schema';

/**
 * The language a person chose in the app, kept with their account: what Admit writes to them in
 * when no request of theirs says it (an order's emails sent later, an event's cancellation).
 */
export const personLanguage = pgTable('person_language', {
  userId: text('user_id')
    .primaryKey()
    .references(() => user.id, { onDelete: 'cascade' }),
  locale: text('locale').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
});
