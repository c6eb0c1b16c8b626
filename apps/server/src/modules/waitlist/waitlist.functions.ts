import {
  acceptWaitlistOffer,
  configureWaitlist,
  leaveWaitlist,
  offerWaitlistEntry,
  removeWaitlistEntry,
} from '@admit/shared/waitlist';
import { and, eq, sql } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit/audit-log';
import type { Db } from '../../platform/db/database';
import { defineCallable, type AuthedCallContext, type CallContext } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { countWaiting, eventTopic, requireEventRole, wakeWaitlist } from '../events/events.api';
import { event, ticketType } from '../events/schema';
import { confirmFreeHold, orderTopics, releaseHold } from '../orders/orders.api';
import { order } from '../orders/schema';
import { entryTokenOpens } from './guest-entries';
import { confirmWaitlistEntryCallable, failed, joinWaitlistCallable } from './join';
import { closeAtStartJob, closeList, offer } from './offer-places';
import { waitlistEntry, waitlistSettings } from './schema';
import { waitlistTopic } from './topics';

export const configureWaitlistCallable = defineCallable(configureWaitlist, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: found } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
    const types = await ctx.db.select({ id: ticketType.id }).from(ticketType).where(eq(ticketType.eventId, found.id));
    const known = new Set(types.map((type) => type.id));
    const wrong = input.ticketTypeIds.findIndex((id) => !known.has(id));
    if (wrong >= 0)
      throw new CallableError('invalid-argument', 'No such ticket type for this event', {
        fields: [{ path: `ticketTypeIds.${wrong}`, message: 'No such ticket type for this event', code: 'not_found' }],
      });
    const settings = {
      enabled: input.enabled,
      ticketTypeIds: [...new Set(input.ticketTypeIds)],
      offerHours: input.offerHours,
      partialOffers: input.partialOffers,
      presale: input.presale,
      updatedAt: new Date(),
    };
    await ctx.db.transaction(async (tx) => {
      await tx
        .insert(waitlistSettings)
        .values({ eventId: found.id, ...settings })
        .onConflictDoUpdate({ target: waitlistSettings.eventId, set: settings });
      // Turned off: nobody waits any more, and the places go back to the public.
      if (!input.enabled) await closeList(tx, found.id);
      // On: the list closes when the event begins.
      else await ctx.jobs.enqueue(tx, closeAtStartJob, { eventId: found.id }, { startAfter: found.startsAt });
      await recordAudit(tx, {
        organizationId: found.organizationId,
        eventId: found.id,
        actor: ctx.user,
        action: input.enabled ? 'waitlist.open' : 'waitlist.close',
        target: found.title,
        details: { offerHours: input.offerHours, partialOffers: input.partialOffers, presale: input.presale },
      });
    });
    ctx.publish(waitlistTopic(found.id), eventTopic(found.id));
    return { enabled: input.enabled };
  },
});

/** The caller's own entry: by their session, or by the token of the link emailed to a guest. */
async function ownEntry(ctx: CallContext, input: { entryId: string; token?: string | undefined }) {
  const [entry] = await ctx.db.select().from(waitlistEntry).where(eq(waitlistEntry.id, input.entryId));
  const opens =
    entry &&
    (input.token !== undefined
      ? entryTokenOpens(ctx.config, entry.id, input.token)
      : ctx.user !== null && entry.personId === ctx.user.id);
  if (!opens) {
    if (!ctx.user && input.token === undefined)
      throw new CallableError('unauthenticated', 'Sign in, or open the link we emailed you');
    throw new CallableError('not-found', 'No such waiting-list entry');
  }
  return entry;
}

/** Takes an entry off the list, while it waits; false when it no longer did. */
async function endWaiting(db: Db, entryId: string, status: 'left' | 'removed'): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [ended] = await tx
      .update(waitlistEntry)
      .set({ status, endedAt: sql`now()` })
      .where(and(eq(waitlistEntry.id, entryId), eq(waitlistEntry.status, 'waiting')))
      .returning();
    if (!ended) return false;
    await countWaiting(tx, ended.ticketTypeId, -1);
    // The next entry may fit in what is free now (or, with nobody left, the public may buy).
    await wakeWaitlist(tx, ended.eventId);
    return true;
  });
}

export const leaveWaitlistCallable = defineCallable(leaveWaitlist, {
  auth: 'optional',
  async handler(input, ctx) {
    const entry = await ownEntry(ctx, input);
    if (entry.status === 'waiting') await endWaiting(ctx.db, entry.id, 'left');
    // A guest who never confirmed: the entry is simply gone.
    else if (entry.status === 'unconfirmed')
      await ctx.db
        .update(waitlistEntry)
        .set({ status: 'left', endedAt: sql`now()` })
        .where(and(eq(waitlistEntry.id, entry.id), eq(waitlistEntry.status, 'unconfirmed')));
    // An offer turned down: its hold ends now, and its places go to the next person waiting.
    else if (entry.status === 'offered' && entry.offerOrderId) {
      const released = await releaseHold(ctx.db, entry.offerOrderId, 'cancelled');
      if (released) ctx.publish(...orderTopics(released));
    }
    ctx.publish(waitlistTopic(entry.eventId), eventTopic(entry.eventId));
    const [now] = await ctx.db.select({ status: waitlistEntry.status }).from(waitlistEntry).where(eq(waitlistEntry.id, entry.id));
    return { status: now!.status };
  },
});

export const acceptWaitlistOfferCallable = defineCallable(acceptWaitlistOffer, {
  auth: 'optional',
  async handler(input, ctx) {
    const entry = await ownEntry(ctx, input);
    if (entry.status !== 'offered' || !entry.offerOrderId)
      throw failed('Nothing is offered to this entry', { reason: 'not-waiting', status: entry.status });
    const [held] = await ctx.db.select({ total: order.total }).from(order).where(eq(order.id, entry.offerOrderId));
    if (held && held.total > 0)
      throw failed('This offer is taken by paying its order', { reason: 'not-waiting', status: 'offered' });
    const { status } = await confirmFreeHold(ctx, entry.offerOrderId, { buyerId: entry.personId, by: 'waitlist' });
    ctx.publish(waitlistTopic(entry.eventId));
    return { orderId: entry.offerOrderId, status };
  },
});

/** An entry of an event the caller is an admin of. */
async function requireEntryAdmin(ctx: AuthedCallContext, entryId: string) {
  const [entry] = await ctx.db.select().from(waitlistEntry).where(eq(waitlistEntry.id, entryId));
  if (!entry) throw new CallableError('not-found', 'No such waiting-list entry');
  const { event: found } = await requireEventRole(ctx.db, ctx.user, entry.eventId, 'admin');
  return { entry, found };
}

export const removeWaitlistEntryCallable = defineCallable(removeWaitlistEntry, {
  auth: 'required',
  async handler(input, ctx) {
    const { entry, found } = await requireEntryAdmin(ctx, input.entryId);
    if (!(await endWaiting(ctx.db, entry.id, 'removed')))
      throw failed('Only an entry that waits can be removed', { reason: 'not-waiting', status: entry.status });
    await recordAudit(ctx.db, {
      organizationId: found.organizationId,
      eventId: found.id,
      actor: ctx.user,
      action: 'waitlist.remove',
      target: entry.email,
    });
    ctx.publish(waitlistTopic(found.id), eventTopic(found.id));
    return { status: 'removed' };
  },
});

export const offerWaitlistEntryCallable = defineCallable(offerWaitlistEntry, {
  auth: 'required',
  async handler(input, ctx) {
    const { entry, found } = await requireEntryAdmin(ctx, input.entryId);
    const orderId = await ctx.db.transaction(async (tx) => {
      const [eventNow] = await tx.select().from(event).where(eq(event.id, found.id)).for('no key update');
      const [type] = await tx.select().from(ticketType).where(eq(ticketType.id, entry.ticketTypeId)).for('no key update');
      const [current] = await tx.select().from(waitlistEntry).where(eq(waitlistEntry.id, entry.id)).for('no key update');
      const [settings] = await tx.select().from(waitlistSettings).where(eq(waitlistSettings.eventId, found.id));
      if (current!.status !== 'waiting' || !settings?.enabled)
        throw failed('Only an entry that waits can be offered places', { reason: 'not-waiting', status: current!.status });
      if (eventNow!.status !== 'published' || eventNow!.startsAt <= new Date())
        throw failed('The waiting list is not open', { reason: 'waitlist-closed' });
      const free = Math.min(type!.capacity - type!.sold - type!.held, eventNow!.capacity - eventNow!.sold - eventNow!.held);
      if (free < current!.quantity)
        throw failed('Too few places are free', { reason: 'too-few-places', free: Math.max(0, free) });
      const offered = await offer(tx, ctx.jobs, {
        event: eventNow!,
        type: type!,
        settings,
        entry: current!,
        quantity: current!.quantity,
        by: ctx.user.id,
      });
      await recordAudit(tx, {
        organizationId: found.organizationId,
        eventId: found.id,
        actor: ctx.user,
        action: 'waitlist.offer',
        target: entry.email,
        details: { quantity: current!.quantity },
      });
      return offered.offerOrderId!;
    });
    ctx.publish(waitlistTopic(found.id), ...orderTopics({ id: orderId, eventId: found.id, buyerId: entry.personId }));
    return { orderId };
  },
});

export const waitlistCallables = [
  configureWaitlistCallable,
  joinWaitlistCallable,
  confirmWaitlistEntryCallable,
  leaveWaitlistCallable,
  acceptWaitlistOfferCallable,
  removeWaitlistEntryCallable,
  offerWaitlistEntryCallable,
];
