import { randomUUID } from 'node:crypto';
import type { FailureDetails } from '@admit/shared/failures';
import { personLabel } from '@admit/shared/people';
import { confirmWaitlistEntry, joinWaitlist } from '@admit/shared/waitlist';
import { and, eq, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/database';
import { defineCallable } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { countWaiting, eventTopic, findEvent, wakeWaitlist } from '../events/events.api';
import { event, ticketType } from '../events/schema';
import { countOrderAttempt, requireWithinBuyerLimits } from '../orders/orders.api';
import { order } from '../orders/schema';
import { entryTokenOpens, sendWaitlistConfirmationJob } from './guest-entries';
import { waitlistEntry, waitlistSettings } from './schema';
import { waitlistTopic } from './topics';

export const failed = (message: string, details: FailureDetails) => new CallableError('failed-precondition', message, details);

/**
 * Whether the list takes people for this ticket type: on, for the type, before the event begins;
 * for a type whose sales have not started, only as a pre-sale list. Returns when its places may be
 * offered: now, or when its sales start.
 */
async function requireOpenFor(
  db: Db | Tx,
  found: { id: string; startsAt: Date; status: string },
  type: { id: string; salesStart: Date | null },
): Promise<Date | undefined> {
  const [settings] = await db.select().from(waitlistSettings).where(eq(waitlistSettings.eventId, found.id));
  const open =
    settings?.enabled &&
    found.status === 'published' &&
    found.startsAt > new Date() &&
    (settings.ticketTypeIds.length === 0 || settings.ticketTypeIds.includes(type.id));
  if (!open) throw failed('The waiting list is not open', { reason: 'waitlist-closed' });
  const before = type.salesStart !== null && type.salesStart > new Date() ? type.salesStart : undefined;
  if (before && !settings.presale)
    throw failed('Sales have not started', {
      reason: 'sales-not-started',
      ticketTypeId: type.id,
      salesStart: before.toISOString(),
    });
  return before;
}

/**
 * The event's row and the type's, locked in places.ts's order (the event first): joins and offers
 * take their turn. `no key update`, as an update takes: the rows that refer to them (an entry, an
 * offer's order) only need their keys to stay.
 */
async function lockEventAndType(tx: Tx, eventId: string, ticketTypeId: string) {
  const [eventNow] = await tx.select().from(event).where(eq(event.id, eventId)).for('no key update');
  const [type] = await tx.select().from(ticketType).where(eq(ticketType.id, ticketTypeId)).for('no key update');
  return { eventNow: eventNow!, type: type! };
}

/**
 * An entry starts to wait: counted on its type, and the places free now offered in turn (a pre-sale
 * entry's when its type's sales start).
 */
async function startWaiting(tx: Tx, entry: { eventId: string; ticketTypeId: string }, offerFrom?: Date) {
  await countWaiting(tx, entry.ticketTypeId, 1);
  await wakeWaitlist(tx, entry.eventId, offerFrom);
}

/**
 * A person joins a sold-out ticket type's list: signed in, they wait at once; as a guest (a name and
 * an address), once they open the link emailed to them (waitlist.confirm). A guest's join counts as
 * an order attempt of theirs and of their client address, as a guest's order does (decision 0060).
 */
export const joinWaitlistCallable = defineCallable(joinWaitlist, {
  auth: 'optional',
  async handler(input, ctx) {
    const person = ctx.user
      ? { id: ctx.user.id, name: personLabel(ctx.user), email: ctx.user.email }
      : input.guest
        ? { id: null, name: input.guest.name, email: input.guest.email }
        : null;
    if (!person) throw new CallableError('unauthenticated', 'Sign in, or give a name and an email address to join as a guest');
    if (!person.id) await countOrderAttempt(ctx, person);
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
    const offerFrom = await requireOpenFor(ctx.db, found, type);
    const entryId = randomUUID();
    await ctx.db.transaction(async (tx) => {
      const { eventNow, type: locked } = await lockEventAndType(tx, found.id, type.id);
      const remaining = Math.min(locked.capacity - locked.sold - locked.held, eventNow.capacity - eventNow.sold - eventNow.held);
      // Places anyone may buy: no list to wait on (unless others wait already: they come first, and
      // before the type's sales start, when the list is a pre-sale one).
      if (remaining > 0 && locked.waitlistWaiting === 0 && !offerFrom)
        throw failed('Tickets are available', { reason: 'not-sold-out', remaining });
      // The limits per buyer hold for what a person waits for, as for what they order: their tickets,
      // their holds and this entry's places together (an offer is a hold made for them later).
      await requireWithinBuyerLimits(tx, {
        buyerId: person.id,
        email: person.email,
        event: { id: found.id, maxPerBuyer: eventNow.maxPerBuyer },
        lines: [{ ticketTypeId: type.id, quantity: input.quantity }],
        types: new Map([[type.id, locked]]),
      });
      // A signed-in person learns they are on it already; a guest's address is not told to whoever typed it.
      if (person.id) {
        const already = await entryOf(tx, type.id, person.email);
        if (already) throw failed('You are on this waiting list already', { reason: 'already-on-list', entryId: already.id });
      }
      await tx.insert(waitlistEntry).values({
        id: entryId,
        eventId: found.id,
        ticketTypeId: type.id,
        personId: person.id,
        name: person.name,
        email: person.email,
        quantity: input.quantity,
        status: person.id ? 'waiting' : 'unconfirmed',
        locale: ctx.locale,
      });
      if (person.id) await startWaiting(tx, { eventId: found.id, ticketTypeId: type.id }, offerFrom);
      else await ctx.jobs.enqueue(tx, sendWaitlistConfirmationJob, { entryId });
    });
    if (!person.id) return { entryId, position: null };
    ctx.publish(waitlistTopic(found.id), eventTopic(found.id));
    return { entryId, position: await positionOf(ctx.db, entryId) };
  },
});

/** The address's entry for a ticket type that waits, or holds an offer still running. */
async function entryOf(tx: Tx, ticketTypeId: string, email: string) {
  const [found] = await tx
    .select({ id: waitlistEntry.id })
    .from(waitlistEntry)
    .leftJoin(order, eq(order.id, waitlistEntry.offerOrderId))
    .where(
      and(
        eq(waitlistEntry.ticketTypeId, ticketTypeId),
        sql`lower(${waitlistEntry.email}) = ${email.toLowerCase()}`,
        or(eq(waitlistEntry.status, 'waiting'), and(eq(waitlistEntry.status, 'offered'), eq(order.status, 'pending'))),
      ),
    );
  return found;
}

/**
 * A guest opened their link: the entry takes its place at the end of the queue now (a place is
 * counted from when the address is known to be theirs). Once; opened again, it answers as it is.
 */
export const confirmWaitlistEntryCallable = defineCallable(confirmWaitlistEntry, {
  auth: 'optional',
  async handler(input, ctx) {
    if (!entryTokenOpens(ctx.config, input.entryId, input.token))
      throw new CallableError('not-found', 'No such waiting-list entry');
    const [entry] = await ctx.db.select().from(waitlistEntry).where(eq(waitlistEntry.id, input.entryId));
    if (!entry) throw new CallableError('not-found', 'No such waiting-list entry');
    if (entry.status === 'unconfirmed') {
      const [type] = await ctx.db.select().from(ticketType).where(eq(ticketType.id, entry.ticketTypeId));
      const offerFrom = await requireOpenFor(ctx.db, await findEvent(ctx.db, entry.eventId), type!);
      await ctx.db.transaction(async (tx) => {
        await lockEventAndType(tx, entry.eventId, entry.ticketTypeId);
        const already = await entryOf(tx, entry.ticketTypeId, entry.email);
        if (already)
          throw failed('This address is on this waiting list already', { reason: 'already-on-list', entryId: already.id });
        const [confirmed] = await tx
          .update(waitlistEntry)
          .set({ status: 'waiting', joinedAt: sql`now()` })
          .where(and(eq(waitlistEntry.id, entry.id), eq(waitlistEntry.status, 'unconfirmed')))
          .returning();
        if (confirmed) await startWaiting(tx, confirmed, offerFrom);
      });
      ctx.publish(waitlistTopic(entry.eventId), eventTopic(entry.eventId));
    }
    const [now] = await ctx.db.select({ status: waitlistEntry.status }).from(waitlistEntry).where(eq(waitlistEntry.id, entry.id));
    return { status: now!.status, position: now!.status === 'waiting' ? await positionOf(ctx.db, entry.id) : null };
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
