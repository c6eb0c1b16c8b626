import type { ResaleTerms } from '@admit/shared/resale';
import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/database';
import { transferSettings } from './schema';

// Until when an event's tickets may be sent on (decision 0065): without settings, until the event
// starts; turned off, never; otherwise until `closesHoursBeforeStart` hours before the start. Resale
// (decision 0066), when the organizer turns it on, closes at the same moment, whether or not
// transfers are on (an organizer may allow resale at face value and no transfers).

export type TransferSettingsRecord = {
  enabled: boolean;
  closesHoursBeforeStart: number;
  resaleEnabled?: boolean;
  resaleFee?: number;
} | null;

/** The last moment a ticket of the event may be sent or accepted; null when transfers are off. */
export function transfersCloseAt(settings: TransferSettingsRecord, startsAt: Date): Date | null {
  if (settings && !settings.enabled) return null;
  return new Date(startsAt.getTime() - (settings?.closesHoursBeforeStart ?? 0) * 3_600_000);
}

/**
 * Until when this ticket may be sent on, or null: a valid ticket, not admitted at the door, of a
 * published event whose transfers are open now.
 */
export function transferUntil(
  found: { status: string; checkedInAt: Date | null },
  event: { status: string; startsAt: Date },
  settings: TransferSettingsRecord,
  now = new Date(),
): Date | null {
  if (found.status !== 'valid' || found.checkedInAt !== null || event.status !== 'published') return null;
  const closesAt = transfersCloseAt(settings, event.startsAt);
  return closesAt && closesAt > now ? closesAt : null;
}

/**
 * What offering this ticket back would give its seller now, or null when it cannot be offered: resale
 * on and open, a valid ticket not admitted, of a published event, bought in its order (a ticket that
 * came by a transfer is not its holder's to sell: its money is its buyer's), of an order with its
 * payment (not fully refunded), and not on its way elsewhere (`busy`: a pending transfer, or offered).
 */
export function resaleTermsOf(
  found: { status: string; checkedInAt: Date | null; transferredFrom: string | null },
  event: { status: string; startsAt: Date },
  settings: TransferSettingsRecord,
  sale: { orderStatus: string; price: number; currency: string; busy: boolean },
  now = new Date(),
): ResaleTerms | null {
  if (!settings?.resaleEnabled || sale.busy || found.transferredFrom !== null) return null;
  if (sale.orderStatus !== 'paid' && sale.orderStatus !== 'partially_refunded') return null;
  if (!transferUntil(found, event, { enabled: true, closesHoursBeforeStart: settings.closesHoursBeforeStart }, now)) return null;
  const fee = Math.min(settings.resaleFee ?? 0, sale.price);
  return { price: sale.price, fee, payout: sale.price - fee, currency: sale.currency };
}

/** The columns of TransferSettingsRecord, for a query that joins the settings. */
export const transferSettingsColumns = {
  enabled: transferSettings.enabled,
  closesHoursBeforeStart: transferSettings.closesHoursBeforeStart,
  resaleEnabled: transferSettings.resaleEnabled,
  resaleFee: transferSettings.resaleFee,
};

/** An event's transfer settings (null: none saved, the defaults). */
export async function transferSettingsOf(db: Db | Tx, eventId: string): Promise<TransferSettingsRecord> {
  const [found] = await db.select(transferSettingsColumns).from(transferSettings).where(eq(transferSettings.eventId, eventId));
  return found ?? null;
}
