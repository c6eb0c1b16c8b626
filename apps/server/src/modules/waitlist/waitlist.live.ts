import {
  eventWaitlist,
  guestWaitlistEntry,
  myWaitlistEntries,
  waitlistSettings as settingsContract,
  type WaitlistStatus,
} from '@admit/shared/waitlist';
import { and, asc, eq, gt, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import { defineLiveQuery } from '../../platform/live/live-query';
import { canSeeEvent, eventTopic, findEvent, requireEventRole } from '../events/events.api';
import { event, ticketType } from '../events/schema';
import { orderAccessToken } from '../orders/orders.api';
import { order } from '../orders/schema';
import { entryTokenOpens } from './guest-entries';
import { waitlistEntry, waitlistSettings } from './schema';
import { waitlistTopic } from './topics';

/** The list's settings, for anyone who may see the event: the public page offers to join from them. */
export const waitlistSettingsLive = defineLiveQuery(settingsContract, {
  auth: 'optional',
  async load(params, ctx) {
    const found = await findEvent(ctx.db, params.eventId);
    if (!(await canSeeEvent(ctx.db, ctx.user, found))) throw new CallableError('not-found', 'No such event');
    const [settings] = await ctx.db.select().from(waitlistSettings).where(eq(waitlistSettings.eventId, found.id));
    const waiting = await ctx.db
      .select({ id: ticketType.id })
      .from(ticketType)
      .where(and(eq(ticketType.eventId, found.id), gt(ticketType.waitlistWaiting, 0)));
    return [
      {
        id: found.id,
        // Closed for joining once the event begins.
        enabled: (settings?.enabled ?? false) && found.startsAt > new Date(),
        ticketTypeIds: settings?.ticketTypeIds ?? [],
        offerHours: settings?.offerHours ?? 24,
        partialOffers: settings?.partialOffers ?? false,
        presale: settings?.presale ?? false,
        waitingTypeIds: waiting.map((type) => type.id),
      },
    ];
  },
  // Not the event's topic, which every sale publishes: every visitor of the event's page watches
  // this, and what it shows changes only with the list (joins, offers, settings), which publish waitlistTopic.
  topics: (params) => [waitlistTopic(params.eventId)],
});

/**
 * An entry's status as people read it: an offer's outcome is its order's (paid or accepted, it
 * became tickets; ended unpaid, it expired).
 */
function statusOf(entryStatus: string, orderStatus: string | null): WaitlistStatus {
  if (entryStatus !== 'offered') return entryStatus as WaitlistStatus;
  if (orderStatus === 'pending') return 'offered';
  return orderStatus === 'expired' || orderStatus === 'cancelled' || orderStatus === null ? 'expired' : 'accepted';
}

/** Entries with their place in their type's queue and their offer, in the order they joined. */
async function entriesWhere(db: Db, where: SQL) {
  const rows = await db
    .select({
      entry: waitlistEntry,
      orderStatus: order.status,
      total: order.total,
      holdExpiresAt: order.holdExpiresAt,
      position: sql<number | null>`case when ${waitlistEntry.status} = 'waiting' then (
        select count(*)::int from waitlist_entry ahead
         where ahead.ticket_type_id = ${waitlistEntry.ticketTypeId} and ahead.status = 'waiting'
           and (ahead.joined_at, ahead.id) <= (${waitlistEntry.joinedAt}, ${waitlistEntry.id})) end`,
    })
    .from(waitlistEntry)
    .leftJoin(order, eq(order.id, waitlistEntry.offerOrderId))
    .where(where)
    .orderBy(asc(waitlistEntry.joinedAt), asc(waitlistEntry.id))
    .limit(5_000);
  return rows.map(({ entry, orderStatus, total, holdExpiresAt, position }) => ({
    id: entry.id,
    eventId: entry.eventId,
    ticketTypeId: entry.ticketTypeId,
    quantity: entry.quantity,
    status: statusOf(entry.status, orderStatus),
    position: position === null ? null : Number(position),
    joinedAt: entry.joinedAt.toISOString(),
    offer:
      entry.offerOrderId && entry.offeredAt
        ? {
            orderId: entry.offerOrderId,
            quantity: entry.offeredQuantity ?? entry.quantity,
            total: total ?? 0,
            offeredAt: entry.offeredAt.toISOString(),
            expiresAt: (holdExpiresAt ?? entry.offeredAt).toISOString(),
          }
        : null,
    name: entry.name,
    email: entry.email,
  }));
}

/** The signed-in person's entries for an event, live: their place moves as others leave or are offered. */
export const myWaitlistEntriesLive = defineLiveQuery(myWaitlistEntries, {
  auth: 'required',
  async load(params, ctx) {
    const found = await findEvent(ctx.db, params.eventId);
    if (!(await canSeeEvent(ctx.db, ctx.user, found))) throw new CallableError('not-found', 'No such event');
    const rows = await entriesWhere(
      ctx.db,
      and(
        eq(waitlistEntry.eventId, found.id),
        eq(waitlistEntry.personId, ctx.user.id),
        sql`${waitlistEntry.status} in ('waiting', 'offered')`,
      )!,
    );
    return rows.map(({ name: _name, email: _email, ...row }) => row);
  },
  topics: (params) => [waitlistTopic(params.eventId), eventTopic(params.eventId)],
});

/** An event's list for its admins, live: who waits, in which order, and what became of each offer. */
export const eventWaitlistLive = defineLiveQuery(eventWaitlist, {
  auth: 'required',
  async load(params, ctx) {
    const { event: found } = await requireEventRole(ctx.db, ctx.user, params.eventId, 'admin');
    // A guest's entry counts once they confirm their address; until then it is nobody's business.
    return entriesWhere(ctx.db, and(eq(waitlistEntry.eventId, found.id), ne(waitlistEntry.status, 'unconfirmed'))!);
  },
  topics: (params) => [waitlistTopic(params.eventId), eventTopic(params.eventId)],
});

/**
 * A guest's entry, opened by the token of the link emailed to them: its place live, and its offer
 * with the token that opens the offer's order (to pay it).
 */
export const guestWaitlistEntryLive = defineLiveQuery(guestWaitlistEntry, {
  auth: 'optional',
  async load(params, ctx) {
    const { config } = ctx;
    if (!config || !entryTokenOpens(config, params.entryId, params.token))
      throw new CallableError('not-found', 'No such waiting-list entry');
    const [row] = await entriesWhere(ctx.db, eq(waitlistEntry.id, params.entryId));
    if (!row) throw new CallableError('not-found', 'No such waiting-list entry');
    const [about] = await ctx.db
      .select({ slug: event.slug, title: event.title, typeName: ticketType.name })
      .from(ticketType)
      .innerJoin(event, eq(event.id, ticketType.eventId))
      .where(eq(ticketType.id, row.ticketTypeId));
    const { name: _name, email: _email, ...entry } = row;
    return [
      {
        ...entry,
        offer: entry.offer && { ...entry.offer, accessToken: orderAccessToken(config, entry.offer.orderId) },
        eventSlug: about!.slug,
        eventTitle: about!.title,
        ticketTypeName: about!.typeName,
      },
    ];
  },
  topics: (_params, rows) => rows.flatMap((row) => [waitlistTopic(row.eventId), eventTopic(row.eventId)]),
});

export const waitlistLiveQueries = [waitlistSettingsLive, myWaitlistEntriesLive, eventWaitlistLive, guestWaitlistEntryLive];
