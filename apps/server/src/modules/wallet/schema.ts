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

/**
 * A ticket whose "Add to Google Wallet" link was given out (decision 0067): Google may keep its
 * object from then on. `synced_at` is the pass's last change Google was given (by the link's JWT, or
 * by its REST API since); a later change is sent to Google by the sweep.
 */
export const googleWalletObject = pgTable('google_wallet_object', {
  ticketId: text('ticket_id')
    .primaryKey()
    .references(() => ticket.id, { onDelete: 'cascade' }),
  issuedAt: timestamp('issued_at', { withTimezone: true }).defaultNow().notNull(),
  syncedAt: timestamp('synced_at', { withTimezone: true }).notNull(),
});
