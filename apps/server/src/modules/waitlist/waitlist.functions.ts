import { randomUUID } from 'node:crypto';
import type { FailureDetails } from '@admit/shared/failures';
import { personLabel } from '@admit/shared/people';
import {
  acceptWaitlistOffer,
  configureWaitlist,
  joinWaitlist,
  leaveWaitlist,
  offerWaitlistEntry,
  removeWaitlistEntry,
} from '@admit/shared/waitlist';
import { and, eq, or, sql } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit/audit-log';
import type { Db } from '../../platform/db/database';
import { defineCallable, type AuthedCallContext } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { countWaiting, eventTopic, findEvent, requireEventRole, wakeWaitlist } from '../events/events.api';
import { event, ticketType } from '../events/schema';
import { confirmFreeHold, orderTopics, releaseHold } from '../orders/orders.api';
import { order } from '../orders/schema';
import { closeList, offer } from './offer-places';
import { waitlistEntry, waitlistSettings } from './schema';
import { waitlistTopic } from './topics';

const failed = (message: string, details: FailureDetails) => new CallableError('failed-precondition', message, details);

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
      updatedAt: new Date(),
    };
    await ctx.db.transaction(async (tx) => {
      await tx
        .insert(waitlistSettings)
        .values({ eventId: found.id, ...settings })
        .onConflictDoUpdate({ target: waitlistSettings.eventId, set: settings });
      // Turned off: nobody waits any more, and the places go back to the public.
      if (!input.enabled) await closeList(tx, found.id);
      // On: the list closes when the event begins (the job closes it then).
      else await wakeWaitlist(tx, found.id, found.startsAt);
      await recordAudit(tx, {
        organizationId: found.organizationId,
        eventId: found.id,
        actor: ctx.user,
        action: input.enabled ? 'waitlist.open' : 'waitlist.close',
        target: found.title,
        details: { offerHours: input.offerHours, partialOffers: input.partialOffers },
      });
    });
    ctx.publish(waitlistTopic(found.id), eventTopic(found.id));
    return { enabled: input.enabled };
  },
});

/** Whether the list takes people for this ticket type: on, for the type, before the event begins. */
async function requireOpenFor(db: Db, found: { id: string; startsAt: Date; status: string }, ticketTypeId: string) {
  const [settings] = await db.select().from(waitlistSettings).where(eq(waitlistSettings.eventId, found.id));
  const open =
    settings?.enabled &&
    found.status === 'published' &&
    found.startsAt > new Date() &&
    (settings.ticketTypeIds.length === 0 || settings.ticketTypeIds.includes(ticketTypeId));
  if (!open) throw failed('The waiting list is not open', { reason: 'waitlist-closed' });
}

export const joinWaitlistCallable = defineCallable(joinWaitlist, {
  auth: 'required',
  async handler(input, ctx) {
    const found = await findEvent(ctx.db, input.eventId);
    if (found.status === 'draft') throw new CallableError('not-found', 'No such event');
    const [type] = await ctx.db
      .select()
      .from(ticketType)
      .where(and(eq(ticketType.id, input.ticketTypeId), eq(ticketType.eventId, found.id), eq(ticketType.hidden, false)));
    if (!type) throw new CallableError('not-found', 'No such ticket type');
    if (input.quantity > type.maxPerOrder)
      throw new CallableError('invalid-argument', `At most ${type.maxPerOrder} per order`, {
        fields: [{ path: 'quantity', message: `At most ${type.maxPerOrder} per order`, code: 'too_big' }],
      });
    await requireOpenFor(ctx.db, found, type.id);
    const email = ctx.user.email.toLowerCase();
    const entryId = randomUUID();
    await ctx.db.transaction(async (tx) => {
      // The event's row and the type's, locked in places.ts's order (the event first): joins and
      // offers take their turn. `no key update`, as an update takes: the rows that refer to them
      // (this entry, an offer's order) only need their keys to stay.
      const [eventNow] = await tx.select().from(event).where(eq(event.id, found.id)).for('no key update');
      const [locked] = await tx.select().from(ticketType).where(eq(ticketType.id, type.id)).for('no key update');
      const remaining = Math.min(
        locked!.capacity - locked!.sold - locked!.held,
        eventNow!.capacity - eventNow!.sold - eventNow!.held,
      );
      // Places anyone may buy: no list to wait on (unless others wait already: they come first).
      if (remaining > 0 && locked!.waitlistWaiting === 0)
        throw failed('Tickets are available', { reason: 'not-sold-out', remaining });
      const [already] = await tx
        .select({ id: waitlistEntry.id })
        .from(waitlistEntry)
        .leftJoin(order, eq(order.id, waitlistEntry.offerOrderId))
        .where(
          and(
            eq(waitlistEntry.ticketTypeId, type.id),
            sql`lower(${waitlistEntry.email}) = ${email}`,
            or(eq(waitlistEntry.status, 'waiting'), and(eq(waitlistEntry.status, 'offered'), eq(order.status, 'pending'))),
          ),
        );
      if (already) throw failed('You are on this waiting list already', { reason: 'already-on-list', entryId: already.id });
      await tx.insert(waitlistEntry).values({
        id: entryId,
        eventId: found.id,
        ticketTypeId: type.id,
        personId: ctx.user.id,
        name: personLabel(ctx.user),
        email: ctx.user.email,
        quantity: input.quantity,
        locale: ctx.locale,
      });
      await countWaiting(tx, type.id, 1);
      // Places that came free while the list was empty are offered now, in turn.
      await wakeWaitlist(tx, found.id);
    });
    ctx.publish(waitlistTopic(found.id), eventTopic(found.id));
    return { entryId, position: await positionOf(ctx.db, entryId) };
  },
});

/** 1 for the first entry waiting for its ticket type. */
export async function positionOf(db: Db, entryId: string): Promise<number> {
  const result = await db.execute(sql`
    select count(*)::int as position from waitlist_entry ahead, waitlist_entry mine
     where mine.id = ${entryId} and ahead.ticket_type_id = mine.ticket_type_id and ahead.status = 'waiting'
       and (ahead.joined_at, ahead.id) <= (mine.joined_at, mine.id)`);
  const [row] = (result as unknown as { rows: { position: number }[] }).rows;
  return Number(row?.position ?? 0);
}

/** The caller's own entry (an admin's entry is found by requireEntryAdmin). */
async function ownEntry(ctx: AuthedCallContext, entryId: string) {
  const [entry] = await ctx.db
    .select()
    .from(waitlistEntry)
    .where(and(eq(waitlistEntry.id, entryId), eq(waitlistEntry.personId, ctx.user.id)));
  if (!entry) throw new CallableError('not-found', 'No such waiting-list entry');
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
  auth: 'required',
  async handler(input, ctx) {
    const entry = await ownEntry(ctx, input.entryId);
    if (entry.status === 'waiting') await endWaiting(ctx.db, entry.id, 'left');
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
  auth: 'required',
  async handler(input, ctx) {
    const entry = await ownEntry(ctx, input.entryId);
    if (entry.status !== 'offered' || !entry.offerOrderId)
      throw failed('Nothing is offered to this entry', { reason: 'not-waiting', status: entry.status });
    const [held] = await ctx.db.select({ total: order.total }).from(order).where(eq(order.id, entry.offerOrderId));
    if (held && held.total > 0)
      throw failed('This offer is taken by paying its order', { reason: 'not-waiting', status: 'offered' });
    const { status } = await confirmFreeHold(ctx, entry.offerOrderId, { buyerId: ctx.user.id, by: 'waitlist' });
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
  leaveWaitlistCallable,
  acceptWaitlistOfferCallable,
  removeWaitlistEntryCallable,
  offerWaitlistEntryCallable,
];
