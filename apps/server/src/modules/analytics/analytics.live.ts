import {
  eventAnalytics,
  funnelSteps,
  orgAnalytics,
  type AnalyticsDay,
  type EventAnalyticsRow,
  type FunnelStep,
  type OrgAnalyticsRow,
} from '@admit/shared/analytics';
import { sql } from 'drizzle-orm';
import { requireOrgRole } from '../../platform/auth/roles';
import type { Db } from '../../platform/db/database';
import { defineLiveQuery } from '../../platform/live/live-query';
import { checkInsTopic } from '../checkin/checkin.api';
import { eventTopic, orgEventsTopic, requireEventRole } from '../events/events.api';
import { eventTicketsTopic } from '../tickets/tickets.api';
import { analyticsOrgTopic, analyticsTopic } from './topics';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
/** The days a chart shows at most: the last ones with anything in them. */
const maxDays = 120;
/** Quarter hours of admissions shown at most (a day and a half). */
const maxSlots = 144;

// Sales are the tickets that still admit someone, at the price their order paid, dated by when they
// were issued (when the order was paid) in the event's time zone; a refunded ticket is void and
// leaves them. Views and visitors come from the aggregation job's daily rows.

async function trafficByDay(db: Db, eventId: string) {
  return rowsOf<{ day: string; views: number; visitors: number }>(
    await db.execute(sql`
      select day::text as day,
             coalesce(sum(hits) filter (where step = 'view'), 0)::int as views,
             coalesce(sum(visitors) filter (where step = 'view'), 0)::int as visitors
        from analytics_daily where event_id = ${eventId} group by day`),
  );
}

async function salesByDay(db: Db, eventId: string, timeZone: string) {
  return rowsOf<{ day: string; tickets: number; revenue: number }>(
    await db.execute(sql`
      select ((t.created_at at time zone ${timeZone})::date)::text as day, count(*)::int as tickets,
             coalesce(sum((select ol.unit_price from order_line ol
                            where ol.order_id = t.order_id and ol.ticket_type_id = t.ticket_type_id limit 1)), 0)::int as revenue
        from ticket t where t.event_id = ${eventId} and t.status = 'valid' group by 1`),
  );
}

/** Every day from the first with anything to the last, gaps filled with zeros, at most `maxDays`. */
function joinDays(
  traffic: { day: string; views: number; visitors: number }[],
  sales: { day: string; tickets: number; revenue: number }[],
) {
  const byDay = new Map<string, AnalyticsDay>();
  const dayOf = (day: string) => {
    let found = byDay.get(day);
    if (!found) byDay.set(day, (found = { day, views: 0, visitors: 0, tickets: 0, revenue: 0 }));
    return found;
  };
  for (const row of traffic) Object.assign(dayOf(row.day), { views: row.views, visitors: row.visitors });
  for (const row of sales) Object.assign(dayOf(row.day), { tickets: row.tickets, revenue: row.revenue });
  const known = [...byDay.keys()].sort();
  if (known.length === 0) return [];
  const days: AnalyticsDay[] = [];
  const last = new Date(`${known.at(-1)}T00:00:00Z`);
  for (let day = new Date(`${known[0]}T00:00:00Z`); day <= last; day.setUTCDate(day.getUTCDate() + 1)) {
    const key = day.toISOString().slice(0, 10);
    days.push(byDay.get(key) ?? { day: key, views: 0, visitors: 0, tickets: 0, revenue: 0 });
  }
  return days.slice(-maxDays);
}

/**
 * Visitors at each step. Viewed and chose tickets come from the beacons' daily rows; placed an
 * order and paid from the orders themselves (decision 0052), so that no beacon can add a buyer:
 * the distinct buyers of each day, in the event's zone, of orders from the public page (not guest
 * lists), paid ones counting also when refunded since.
 */
async function funnelOf(db: Db, eventIds: string[]) {
  const within = eventIds.length > 0 ? sql`(${sql.join(eventIds, sql`, `)})` : sql`(null)`;
  const [beacons, orders] = await Promise.all([
    db.execute(sql`
      select event_id as "eventId", step, sum(visitors)::int as visitors from analytics_daily
       where event_id in ${within} and step in ('view', 'tickets')
       group by event_id, step`),
    db.execute(sql`
      select event_id as "eventId", count(distinct day || buyer)::int as checkout,
             count(distinct day || buyer) filter (where paid)::int as paid
        from (select o.event_id, ((o.created_at at time zone e.time_zone)::date)::text as day,
                     coalesce(o.buyer_id, lower(o.email)) as buyer,
                     o.status in ('paid', 'refunded', 'partially_refunded') as paid
                from "order" o join event e on e.id = o.event_id
               where o.event_id in ${within} and o.payment_provider is distinct from 'import') placed
       group by event_id`),
  ]);
  const beaconRows = rowsOf<{ eventId: string; step: FunnelStep; visitors: number }>(beacons);
  const orderRows = rowsOf<{ eventId: string; checkout: number; paid: number }>(orders);
  return (eventId: string) =>
    funnelSteps.map((step) => {
      if (step === 'checkout' || step === 'paid')
        return { step, visitors: orderRows.find((row) => row.eventId === eventId)?.[step] ?? 0 };
      return { step, visitors: beaconRows.find((row) => row.eventId === eventId && row.step === step)?.visitors ?? 0 };
    });
}

async function eventReport(db: Db, eventId: string): Promise<EventAnalyticsRow> {
  const found = (await db.execute(sql`select title, currency, time_zone from event where id = ${eventId}`)) as unknown as {
    rows: { title: string; currency: string; time_zone: string }[];
  };
  const { title, currency, time_zone: timeZone } = found.rows[0]!;
  const [traffic, sales, funnel, sources, ticketTypes, checkIns] = await Promise.all([
    trafficByDay(db, eventId),
    salesByDay(db, eventId, timeZone),
    funnelOf(db, [eventId]),
    db.execute(sql`
      select source, campaign,
             coalesce(sum(visitors) filter (where step = 'view'), 0)::int as visitors,
             coalesce(sum(visitors) filter (where step = 'checkout'), 0)::int as checkout,
             coalesce(sum(visitors) filter (where step = 'paid'), 0)::int as paid
        from analytics_daily where event_id = ${eventId}
       group by source, campaign order by paid desc, visitors desc, source, campaign limit 25`),
    db.execute(sql`
      select tt.name, count(t.id)::int as tickets,
             coalesce(sum((select ol.unit_price from order_line ol
                            where ol.order_id = t.order_id and ol.ticket_type_id = t.ticket_type_id limit 1)), 0)::int as revenue
        from ticket_type tt left join ticket t on t.ticket_type_id = tt.id and t.status = 'valid'
       where tt.event_id = ${eventId}
       group by tt.id, tt.name, tt.position order by tt.position, tt.name`),
    db.execute(sql`
      select to_char(date_trunc('hour', local) + floor(extract(minute from local) / 15) * interval '15 minutes',
                     'YYYY-MM-DD"T"HH24:MI') as slot, count(*)::int as admitted
        from (select c.scanned_at at time zone ${timeZone} as local from check_in c
               where c.event_id = ${eventId} and c.result = 'accepted' and c.undone_at is null) admissions
       group by 1 order by 1`),
  ]);
  const days = joinDays(traffic, sales);
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
  const slots = rowsOf<{ slot: string; admitted: number }>(checkIns).slice(-maxSlots);
  return {
    id: eventId,
    title,
    currency,
    timeZone,
    totals: {
      views: sum(traffic.map((row) => row.views)),
      visitors: sum(traffic.map((row) => row.visitors)),
      tickets: sum(sales.map((row) => row.tickets)),
      revenue: sum(sales.map((row) => row.revenue)),
      checkedIn: sum(rowsOf<{ admitted: number }>(checkIns).map((row) => row.admitted)),
    },
    days,
    funnel: funnel(eventId),
    sources: rowsOf(sources),
    ticketTypes: rowsOf(ticketTypes),
    checkIns: slots,
  };
}

/** One event's dashboard (admins and owners; staff are refused). */
export const eventAnalyticsLive = defineLiveQuery(eventAnalytics, {
  auth: 'required',
  async load(params, ctx) {
    await requireEventRole(ctx.db, ctx.user, params.eventId, 'admin');
    return [await eventReport(ctx.db, params.eventId)];
  },
  topics: (params) => [
    eventTopic(params.eventId),
    analyticsTopic(params.eventId),
    eventTicketsTopic(params.eventId),
    checkInsTopic(params.eventId),
  ],
});

/** Every event of an organization with its totals and funnel, soonest first (admins and owners). */
export const orgAnalyticsLive = defineLiveQuery(orgAnalytics, {
  auth: 'required',
  async load(params, ctx): Promise<OrgAnalyticsRow[]> {
    await requireOrgRole(ctx.db, ctx.user, params.organizationId, 'admin');
    const events = rowsOf<
      Omit<OrgAnalyticsRow, 'funnel'> & { views: number; visitors: number; tickets: number; revenue: number; checkedIn: number }
    >(
      await ctx.db.execute(sql`
        select e.id, e.title, e.slug, e.status, to_char(e.starts_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as "startsAt",
               e.time_zone as "timeZone", e.currency,
               coalesce((select sum(hits) from analytics_daily d where d.event_id = e.id and d.step = 'view'), 0)::int as views,
               coalesce((select sum(visitors) from analytics_daily d where d.event_id = e.id and d.step = 'view'), 0)::int as visitors,
               (select count(*) from ticket t where t.event_id = e.id and t.status = 'valid')::int as tickets,
               coalesce((select sum((select ol.unit_price from order_line ol
                                      where ol.order_id = t.order_id and ol.ticket_type_id = t.ticket_type_id limit 1))
                           from ticket t where t.event_id = e.id and t.status = 'valid'), 0)::int as revenue,
               (select count(*) from ticket t where t.event_id = e.id and t.status = 'valid' and t.checked_in_at is not null)::int as "checkedIn"
          from event e where e.organization_id = ${params.organizationId}
         order by e.starts_at, e.id`),
    );
    const funnel = await funnelOf(
      ctx.db,
      events.map((row) => row.id),
    );
    return events.map(({ views, visitors, tickets, revenue, checkedIn, ...row }) => ({
      ...row,
      totals: { views, visitors, tickets, revenue, checkedIn },
      funnel: funnel(row.id),
    }));
  },
  topics: (params, rows) => [
    orgEventsTopic(params.organizationId),
    analyticsOrgTopic(params.organizationId),
    ...rows.map((row) => eventTicketsTopic(row.id)),
  ],
});

export const analyticsLiveQueries = [eventAnalyticsLive, orgAnalyticsLive];
