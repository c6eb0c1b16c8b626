import { eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { event, ticketType } from './schema';

/** What the order path needs to know of an event and its ticket types before it takes places. */
export interface SaleInfo {
  event: Pick<
    typeof event.$inferSelect,
    'id' | 'status' | 'organizationId' | 'currency' | 'checkinKey' | 'holdMinutes' | 'maxPerBuyer' | 'timeZone'
  >;
  ticketTypes: Map<string, typeof ticketType.$inferSelect>;
}

const maxAgeMs = 1_000;
const cache = new Map<string, { info: SaleInfo; until: number }>();
const inFlight = new Map<string, Promise<SaleInfo | null>>();

/**
 * An event and its ticket types as read at most a second ago (by this process): during a rush every
 * order would otherwise read the same rows. Only for a path that checks in its own statement what
 * it relies on (status, price, sales window), so that a change in the last second fails that
 * statement instead of being missed (see the one-statement order in orders/place-order.ts).
 */
export async function recentSaleInfo(db: Db, eventId: string): Promise<SaleInfo | null> {
  const cached = cache.get(eventId);
  if (cached && cached.until > Date.now()) return cached.info;
  const pending = inFlight.get(eventId);
  if (pending) return pending;
  const read = (async () => {
    const [found] = await db
      .select({
        id: event.id,
        status: event.status,
        organizationId: event.organizationId,
        currency: event.currency,
        checkinKey: event.checkinKey,
        holdMinutes: event.holdMinutes,
        maxPerBuyer: event.maxPerBuyer,
        timeZone: event.timeZone,
      })
      .from(event)
      .where(eq(event.id, eventId));
    if (!found) return null;
    const types = await db.select().from(ticketType).where(eq(ticketType.eventId, eventId));
    const info = { event: found, ticketTypes: new Map(types.map((type) => [type.id, type])) };
    if (cache.size > 10_000) cache.clear();
    cache.set(eventId, { info, until: Date.now() + maxAgeMs });
    return info;
  })().finally(() => inFlight.delete(eventId));
  inFlight.set(eventId, read);
  return read;
}
