import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Db } from '../../platform/db/database';
import { defineJob } from '../../platform/jobs/job-services';
import { analyticsOrgTopic, analyticsTopic } from './topics';

/** Rows are counted again this long before the last run: a beacon's batch may commit after its rows' time. */
const marginMinutes = 5;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Counts the raw beacons into daily rows (per event, day in the event's time zone, step, source
 * and campaign), deletes the raw rows older than `retentionDays` and salts older than yesterday.
 * Every (event, day) with a beacon since the last run is counted again from all its raw rows, so
 * a run is idempotent, and two at once wait for each other on the progress row. Returns the
 * events and organizations whose numbers changed.
 */
export async function aggregateAnalytics(db: Db, options: { retentionDays: number; now?: Date }) {
  const now = options.now ?? new Date();
  return db.transaction(async (tx) => {
    const [progress] = rowsOf<{ since: string }>(
      await tx.execute(
        sql`select (counted_until - make_interval(mins => ${marginMinutes}))::text as since from analytics_progress where id = 1 for update`,
      ),
    );
    const since = progress?.since ?? '-infinity';
    const touched = rowsOf<{ eventId: string; organizationId: string; day: string }>(
      await tx.execute(sql`
        select distinct ae.event_id as "eventId", e.organization_id as "organizationId",
               ((ae.at at time zone e.time_zone)::date)::text as day
          from analytics_event ae join event e on e.id = ae.event_id
         where ae.at > ${since}::timestamptz and ae.at <= ${now.toISOString()}::timestamptz`),
    );
    if (touched.length > 0) {
      const pairs = JSON.stringify(touched.map(({ eventId, day }) => ({ eventId, day })));
      await tx.execute(sql`
        delete from analytics_daily d
         using jsonb_to_recordset(${pairs}::jsonb) as t("eventId" text, day date)
         where d.event_id = t."eventId" and d.day = t.day`);
      // A day's rows lie within two days of any row of it, whatever the zone.
      await tx.execute(sql`
        with touched as (select * from jsonb_to_recordset(${pairs}::jsonb) as t("eventId" text, day date)),
        raw as (
          select ae.id, ae.event_id, (ae.at at time zone e.time_zone)::date as day, ae.step, ae.visitor,
                 ae.referrer_host, ae.utm_source, ae.utm_campaign, ae.order_id, date_trunc('minute', ae.at) as minute
            from analytics_event ae join event e on e.id = ae.event_id
           where ae.event_id in (select "eventId" from touched)
             and ae.at > ${since}::timestamptz - interval '3 days' and ae.at <= ${now.toISOString()}::timestamptz
             and ((ae.at at time zone e.time_zone)::date, ae.event_id) in (select day, "eventId" from touched)
        ),
        -- Where a visitor came from: their first view of the event that day.
        firsts as (
          select distinct on (event_id, day, visitor) event_id, day, visitor,
                 case when utm_source <> '' then utm_source else referrer_host end as source, utm_campaign as campaign
            from raw where step = 'view'
           order by event_id, day, visitor, id
        ),
        -- A checkout or paid beacon counts only for a real order of the event sold on the public
        -- page (paid: one that was paid), once per order and day: its first beacon says the source.
        claimed as (
          select distinct on (r.event_id, r.day, r.step, r.order_id) r.id, r.event_id, r.day, r.step, r.visitor, r.minute
            from raw r join "order" o on o.id = r.order_id and o.event_id = r.event_id
           where r.step in ('checkout', 'paid') and o.payment_provider is distinct from 'import'
             and (r.step = 'checkout' or o.status in ('paid', 'refunded', 'partially_refunded'))
           order by r.event_id, r.day, r.step, r.order_id, r.id
        ),
        counted as (
          select event_id, day, step, visitor, minute from raw where step in ('view', 'tickets')
          union all
          select event_id, day, step, visitor, minute from claimed
        )
        -- A visitor's beacons count once a minute per step, however often it sends (decision 0052).
        insert into analytics_daily (event_id, day, step, source, campaign, hits, visitors)
        select r.event_id, r.day, r.step, coalesce(f.source, ''), coalesce(f.campaign, ''),
               count(distinct (r.visitor, r.minute)), count(distinct r.visitor)
          from counted r left join firsts f on f.event_id = r.event_id and f.day = r.day and f.visitor = r.visitor
         group by r.event_id, r.day, r.step, coalesce(f.source, ''), coalesce(f.campaign, '')`);
    }
    await tx.execute(sql`update analytics_progress set counted_until = ${now.toISOString()}::timestamptz where id = 1`);
    await tx.execute(
      sql`delete from analytics_event where at < ${now.toISOString()}::timestamptz - make_interval(days => ${options.retentionDays})`,
    );
    await tx.execute(
      sql`delete from analytics_salt where day < (${now.toISOString()}::timestamptz at time zone 'UTC')::date - 1`,
    );
    return {
      eventIds: [...new Set(touched.map((row) => row.eventId))],
      organizationIds: [...new Set(touched.map((row) => row.organizationId))],
    };
  });
}

/** Every ANALYTICS_AGGREGATE_SECONDS, in one process at a time; open dashboards refresh after it. */
export const aggregateAnalyticsJob = defineJob({
  name: 'analytics.aggregate',
  data: z.object({}),
  policy: 'stately',
  concurrency: 1,
  retryLimit: 1,
  everySeconds: (services) => services.config.ANALYTICS_AGGREGATE_SECONDS,
  async handler(_data, { services, log }) {
    const changed = await aggregateAnalytics(services.db, { retentionDays: services.config.ANALYTICS_RETENTION_DAYS });
    if (changed.eventIds.length > 0) log.debug({ events: changed.eventIds.length }, 'analytics counted');
    services.publish(...changed.eventIds.map(analyticsTopic), ...changed.organizationIds.map(analyticsOrgTopic));
  },
});
