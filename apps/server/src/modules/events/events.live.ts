import { managedEvent, orgEvents, publicEvent, publishedEvents, ticketAvailability } from '@admit/shared/events';
import { and, asc, desc, eq, gt, sql } from 'drizzle-orm';
import { organization } from '../../platform/auth/organization-schema';
import { requireOrgRole } from '../../platform/auth/roles';
import type { Db } from '../../platform/db/database';
import { picturesOf } from '../../platform/files/uploads';
import { CallableError } from '../../platform/http/callable-error';
import { defineLiveQuery } from '../../platform/live/live-query';
import { canSeeEvent, findEvent, requireEventRole } from './event-access';
import { eventChangesLiveQueries } from './event-changes.live';
import { eventTopic, orgEventsTopic, publishedEventsTopic } from './topics';
import { event, ticketType } from './schema';

const eventColumns = {
  id: event.id,
  organizationId: event.organizationId,
  slug: event.slug,
  title: event.title,
  description: event.description,
  venue: event.venue,
  contentLocale: event.contentLocale,
  translations: event.translations,
  timeZone: event.timeZone,
  startsAt: event.startsAt,
  endsAt: event.endsAt,
  currency: event.currency,
  capacity: event.capacity,
  maxPerBuyer: event.maxPerBuyer,
  status: event.status,
  coverFile: event.coverFile,
};

/**
 * Rows as sent: ISO times, and the cover (and the organization's logo, where selected) as pictures
 * with their variants' URLs instead of file ids.
 */
async function shown<T extends { startsAt: Date; endsAt: Date; coverFile: string | null; organizationLogo?: string | null }>(
  db: Db,
  rows: T[],
) {
  const pictures = await picturesOf(db, [
    ...rows.map((row) => row.coverFile),
    ...rows.map((row) => row.organizationLogo ?? null),
  ]);
  return rows.map(({ coverFile, organizationLogo, ...row }) => ({
    ...row,
    startsAt: row.startsAt.toISOString(),
    endsAt: row.endsAt.toISOString(),
    cover: (coverFile && pictures.get(coverFile)) || null,
    // Rows without it drop it: a contract's row parses only its own fields.
    organizationLogo: (organizationLogo && pictures.get(organizationLogo)) || null,
  }));
}

/**
 * What a buyer can still take: the event's places left, but no more than its visible ticket types
 * whose sales have not ended have left between them (an event of 100 places with types of 30 and
 * 40 has 70 to sell). A type with people on its waiting list has none: they are offered its places first.
 */
const remainingToBuy = sql<number>`least(
  ${event.capacity} - ${event.sold} - ${event.held},
  (select coalesce(sum(greatest(0, t.capacity - t.sold - t.held)), 0) from ticket_type t
    where t.event_id = ${event.id} and not t.hidden and (t.sales_end is null or t.sales_end > now())
      and t.waitlist_waiting = 0)
)::int`;

/** Tickets offered back that buyers may take (decision 0066): of visible types on sale, with nobody on their list. */
const resaleToBuy = sql<number>`(select coalesce(sum(t.resale_listed), 0) from ticket_type t
    where t.event_id = ${event.id} and not t.hidden and (t.sales_end is null or t.sales_end > now())
      and t.waitlist_waiting = 0)::int`;

const publicColumns = {
  ...eventColumns,
  organizationName: organization.name,
  organizationLogo: organization.logo,
  remaining: remainingToBuy,
  resale: resaleToBuy,
};

export const publicEventLive = defineLiveQuery(publicEvent, {
  auth: 'optional',
  async load(params, ctx) {
    const rows = await ctx.db
      .select(publicColumns)
      .from(event)
      .innerJoin(organization, eq(organization.id, event.organizationId))
      .where(eq(event.slug, params.slug));
    const [found] = rows;
    if (!found || !(await canSeeEvent(ctx.db, ctx.user, found))) throw new CallableError('not-found', 'No such event');
    return shown(ctx.db, rows);
  },
  topics: (_params, rows) => rows.map((row) => eventTopic(row.id)),
});

export const publishedEventsLive = defineLiveQuery(publishedEvents, {
  auth: 'optional',
  load: (_params, ctx) =>
    ctx.db
      .select(publicColumns)
      .from(event)
      .innerJoin(organization, eq(organization.id, event.organizationId))
      .where(and(eq(event.status, 'published'), gt(event.endsAt, sql`now()`)))
      .orderBy(asc(event.startsAt))
      .limit(100)
      .then((rows) => shown(ctx.db, rows)),
  topics: (_params, rows) => [publishedEventsTopic, ...rows.map((row) => eventTopic(row.id))],
});

/**
 * What the next ticket offered back of each type costs: the oldest offer's price (decision 0066). The
 * tickets module keeps the offers; read here by the table's name, as an import would make a cycle.
 */
async function oldestResalePrices(db: Db, ticketTypeIds: string[]): Promise<Map<string, number>> {
  if (ticketTypeIds.length === 0) return new Map();
  const result = await db.execute(sql`
    select distinct on (ticket_type_id) ticket_type_id, price from ticket_resale
     where ticket_type_id in ${ticketTypeIds} and status = 'listed'
     order by ticket_type_id, listed_at, id`);
  const rows = (result as unknown as { rows: { ticket_type_id: string; price: number }[] }).rows;
  return new Map(rows.map((row) => [row.ticket_type_id, Number(row.price)]));
}

export const ticketAvailabilityLive = defineLiveQuery(ticketAvailability, {
  auth: 'optional',
  async load(params, ctx) {
    const found = await findEvent(ctx.db, params.eventId);
    if (!(await canSeeEvent(ctx.db, ctx.user, found))) throw new CallableError('not-found', 'No such event');
    const eventRemaining = found.capacity - found.sold - found.held;
    const types = await ctx.db
      .select()
      .from(ticketType)
      .where(and(eq(ticketType.eventId, params.eventId), eq(ticketType.hidden, false)))
      .orderBy(asc(ticketType.position));
    const resalePrices = await oldestResalePrices(
      ctx.db,
      types.filter((type) => type.resaleListed > 0).map((type) => type.id),
    );
    return types.map((type) => {
      // People on the type's waiting list are offered its free places before the public (decision 0064).
      const remaining =
        type.waitlistWaiting > 0 ? 0 : Math.max(0, Math.min(type.capacity - type.sold - type.held, eventRemaining));
      return {
        id: type.id,
        eventId: type.eventId,
        name: type.name,
        nameTranslations: type.nameTranslations,
        price: type.price,
        capacity: type.capacity,
        maxPerOrder: type.maxPerOrder,
        maxPerBuyer: type.maxPerBuyer,
        remaining,
        // Tickets offered back are sold once the type's own places are gone, to its list first (decision 0066).
        resale: remaining === 0 && type.waitlistWaiting === 0 ? type.resaleListed : 0,
        resalePrice: resalePrices.get(type.id) ?? null,
        salesStart: type.salesStart?.toISOString() ?? null,
        salesEnd: type.salesEnd?.toISOString() ?? null,
        position: type.position,
      };
    });
  },
  topics: (params) => [eventTopic(params.eventId)],
});

const managedColumns = { ...eventColumns, sold: event.sold, held: event.held, embedSites: event.embedSites };

export const orgEventsLive = defineLiveQuery(orgEvents, {
  auth: 'required',
  async load(params, ctx) {
    await requireOrgRole(ctx.db, ctx.user, params.organizationId, 'staff');
    const rows = await ctx.db
      .select(managedColumns)
      .from(event)
      .where(eq(event.organizationId, params.organizationId))
      .orderBy(desc(event.startsAt));
    return shown(ctx.db, rows);
  },
  topics: (params, rows) => [orgEventsTopic(params.organizationId), ...rows.map((row) => eventTopic(row.id))],
});

export const managedEventLive = defineLiveQuery(managedEvent, {
  auth: 'required',
  async load(params, ctx) {
    await requireEventRole(ctx.db, ctx.user, params.eventId, 'staff');
    const rows = await ctx.db.select(managedColumns).from(event).where(eq(event.id, params.eventId));
    return shown(ctx.db, rows);
  },
  topics: (params) => [eventTopic(params.eventId)],
});

export const eventsLiveQueries = [
  publicEventLive,
  publishedEventsLive,
  ticketAvailabilityLive,
  orgEventsLive,
  managedEventLive,
  ...eventChangesLiveQueries,
];
