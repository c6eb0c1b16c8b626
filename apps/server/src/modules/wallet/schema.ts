import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { ticket } from '../tickets/schema';

/**
 * A device that keeps a ticket's Apple Wallet pass and asked to hear of its changes (the PassKit web
 * service, decision 0067): Wallet registers it with the pass's token. `pushed_at` is the pass's
 * last change the device was told of (or had when it registered); a change after it is pushed.
 */
export const walletRegistration = pgTable(
  'wallet_registration',
  {
    deviceLibraryId: text('device_library_id').notNull(),
    passTypeId: text('pass_type_id').notNull(),
    /** The pass's serial number: its ticket's id. */
    ticketId: text('ticket_id')
      .notNull()
      .references(() => ticket.id, { onDelete: 'cascade' }),
    pushToken: text('push_token').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).defaultNow().notNull(),
    pushedAt: timestamp('pushed_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.deviceLibraryId, table.passTypeId, table.ticketId] }),
    index('wallet_registration_ticket_idx').on(table.ticketId),
  ],
);
