import { and, asc, eq, gt, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db, Tx } from '../../platform/db/database';
import type { JobSender } from '../../platform/jobs/job-queue';
import { defineJob } from '../../platform/jobs/job-services';
import { clearWaiting, countWaiting, eventTopic, offerFreedPlacesJob, SoldOut, wakeWaitlist } from '../events/events.api';
import { event, ticketType } from '../events/schema';
import { holdForWaitlist, orderTopics } from '../orders/orders.api';
import { emitWaitlistWebhook } from './waitlist-resource';
import { waitlistEntry, waitlistSettings } from './schema';
import { waitlistTopic } from './topics';

type Entry = typeof waitlistEntry.$inferSelect;

/** The waiting entries of a type one run reads: up to as many offers. */
const queueRead = 1_000;
type Settings = typeof waitlistSettings.$inferSelect;

/**
 * Offers an event's free places to the people waiting, in the order they joined, each as a hold of
 * the places they asked for (decision 0064). One transaction with the event's row and its waited-for
 * ticket types locked (in places.ts's order, `no key update` as an update takes, so that the rows
 * written with them that refer to them do not wait): two runs never offer the same places, and a crash
 * offers nothing, so the job that runs it again offers each place once. Returns the entries offered.
 *
 * On a type, the first entry waits until as many places are free as it asked for, and those after it
 * wait behind it; with `partialOffers`, it is offered what is free. An event that began, or whose
 * list was turned off, closes its list instead.
 */
export async function offerFreedPlaces(db: Db, jobs: JobSender, eventId: string): Promise<Entry[]> {
  return db.transaction(async (tx) => {
    const [found] = await tx.select().from(event).where(eq(event.id, eventId)).for('no key update');
    if (!found) return [];
    const [settings] = await tx.select().from(waitlistSettings).where(eq(waitlistSettings.eventId, eventId));
    if (!settings?.enabled || found.startsAt <= new Date() || ['ended', 'cancelled'].includes(found.status)) {
      await closeList(tx, eventId);
      return [];
    }
    // Sales closed by the organizer: the list waits; they may open sales again.
    if (found.status !== 'published') return [];
    const types = await tx
      .select()
      .from(ticketType)
      .where(and(eq(ticketType.eventId, eventId), gt(ticketType.waitlistWaiting, 0)))
      .orderBy(asc(ticketType.id))
      .for('no key update');
    let eventFree = found.capacity - found.sold - found.held;
    const offered: Entry[] = [];
    for (const type of types) {
      // A pre-sale list waits for its type's sales to start (a job is due then: decision 0064).
      if (type.salesStart && type.salesStart > new Date()) continue;
      let free = Math.min(eventFree, type.capacity - type.sold - type.held);
      const queue = await tx
        .select()
        .from(waitlistEntry)
        .where(and(eq(waitlistEntry.ticketTypeId, type.id), eq(waitlistEntry.status, 'waiting')))
        .orderBy(asc(waitlistEntry.joinedAt), asc(waitlistEntry.id))
        .limit(queueRead);
      let resale = type.resaleListed;
      for (const entry of queue) {
        const quantity = entry.quantity <= free ? entry.quantity : settings.partialOffers ? free : 0;
        if (quantity > 0) {
          offered.push(await offer(tx, jobs, { event: found, type, settings, entry, quantity }));
          free -= quantity;
          eventFree -= quantity;
          continue;
        }
        // The type's own places are not enough: tickets offered back, if as many are (decision 0066).
        const resold = entry.quantity <= resale && (await offerResale(tx, jobs, { event: found, type, settings, entry }));
        if (!resold) break;
        offered.push(resold);
        resale -= entry.quantity;
      }
      // A queue longer than one read, with places left: another run goes on from where this ends.
      if (queue.length === queueRead && free > 0) await wakeWaitlist(tx, eventId);
    }
    return offered;
  });
}

/**
 * One entry's offer, in the caller's transaction: its hold (a pending order), the entry marked
 * offered and no longer counted as waiting, and the `waitlist.offered` webhook.
 */
export async function offer(
  tx: Tx,
  jobs: JobSender,
  input: {
    event: typeof event.$inferSelect;
    type: typeof ticketType.$inferSelect;
    settings: Settings;
    entry: Entry;
    quantity: number;
    by?: string;
    /** Tickets offered back instead of the type's own places. */
    resale?: boolean;
  },
): Promise<Entry> {
  const { event: found, type, entry } = input;
  // An offer never outlives the list: it ends at the latest when the event begins.
  const expiresAt = new Date(Math.min(Date.now() + input.settings.offerHours * 3_600_000, found.startsAt.getTime()));
  const { orderId } = await holdForWaitlist(tx, jobs, {
    event: found,
    ticketTypeId: type.id,
    unitPrice: type.price,
    quantity: input.quantity,
    person: { id: entry.personId, name: entry.name, email: entry.email },
    locale: entry.locale,
    expiresAt,
    resale: input.resale,
  });
  const [updated] = await tx
    .update(waitlistEntry)
    .set({
      status: 'offered',
      offeredAt: sql`now()`,
      offerOrderId: orderId,
      offeredQuantity: input.quantity,
      offeredBy: input.by ?? null,
    })
    .where(and(eq(waitlistEntry.id, entry.id), eq(waitlistEntry.status, 'waiting')))
    .returning();
  if (!updated) throw new Error(`Waitlist entry ${entry.id} is no longer waiting`);
  await countWaiting(tx, type.id, -1);
  await emitWaitlistWebhook(tx, { organizationId: found.organizationId, entryId: entry.id, type: 'waitlist.offered' });
  return updated;
}

/**
 * An entry offered tickets their holders offer back, all of its quantity at one price, in a
 * savepoint: null, with nothing changed, when too few are offered at one price (the entry waits).
 */
async function offerResale(tx: Tx, jobs: JobSender, input: Omit<Parameters<typeof offer>[2], 'quantity'>): Promise<Entry | null> {
  return tx
    .transaction((savepoint) => offer(savepoint, jobs, { ...input, quantity: input.entry.quantity, resale: true }))
    .catch((error: unknown) => {
      if (error instanceof SoldOut) return null;
      throw error;
    });
}

/** Entries that wait no more: the list closed. Its types' places go back to the public. */
export async function closeList(tx: Tx, eventId: string): Promise<void> {
  await tx
    .update(waitlistEntry)
    .set({ status: 'closed', endedAt: sql`now()` })
    .where(and(eq(waitlistEntry.eventId, eventId), eq(waitlistEntry.status, 'waiting')));
  await clearWaiting(tx, eventId);
}

/**
 * Offers an event's freed places (places.ts enqueues it with every release while someone waits,
 * waitlist.join with every entry, and configure at the event's start, which closes the list). A
 * crash before its commit leaves the job to be tried again, with nothing offered yet.
 */
export const offerFreedPlacesJobDefinition = defineJob({
  name: offerFreedPlacesJob.name,
  data: z.object({ eventId: z.string() }),
  concurrency: 2,
  async handler({ eventId }, { services }) {
    const offered = await offerFreedPlaces(services.db, services.jobs, eventId).catch((error: unknown) => {
      // The places went meanwhile (a rare race with a buyer of another type): the next release wakes it again.
      if (error instanceof SoldOut) return [];
      throw error;
    });
    services.publish(waitlistTopic(eventId), eventTopic(eventId));
    for (const entry of offered) services.publish(...orderTopics({ id: entry.offerOrderId!, eventId, buyerId: entry.personId }));
  },
});

/**
 * Closes an event's list when the event begins (enqueued for its start when the list is turned
 * on): people still waiting are told by their entry's status, and the places go back to the
 * public. A start moved later leaves this a no-op; the move wakes offerFreedPlacesJob for the new one.
 */
export const closeAtStartJob = defineJob({
  name: 'waitlist.closeAtStart',
  data: z.object({ eventId: z.string() }),
  async handler({ eventId }, { services }) {
    const closed = await services.db.transaction(async (tx) => {
      const [found] = await tx.select().from(event).where(eq(event.id, eventId)).for('no key update');
      if (!found || found.startsAt > new Date()) return false;
      await closeList(tx, eventId);
      return true;
    });
    if (closed) services.publish(waitlistTopic(eventId), eventTopic(eventId));
  },
});
