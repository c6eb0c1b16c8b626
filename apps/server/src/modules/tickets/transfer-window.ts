import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/database';
import { transferSettings } from './schema';

// Until when an event's tickets may be sent on (decision 0065): without settings, until the event
// starts; turned off, never; otherwise until `closesHoursBeforeStart` hours before the start.

export type TransferSettingsRecord = { enabled: boolean; closesHoursBeforeStart: number } | null;

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

/** An event's transfer settings (null: none saved, the defaults). */
export async function transferSettingsOf(db: Db | Tx, eventId: string): Promise<TransferSettingsRecord> {
  const [found] = await db
    .select({ enabled: transferSettings.enabled, closesHoursBeforeStart: transferSettings.closesHoursBeforeStart })
    .from(transferSettings)
    .where(eq(transferSettings.eventId, eventId));
  return found ?? null;
}
