import { z } from 'zod';
import { Id } from './events';
import { defineLiveQueryContract } from './live';

// First-party, cookie-less analytics of the public pages (decision 0038): the browser sends a
// beacon per page view and funnel step to `POST /a`; the server keeps no cookie and no address, only
// a hash that changes every day, and drops beacons of people who asked not to be tracked.

/** The buyer's way through an event's page: viewed → tickets chosen → checkout started → paid. */
export const FunnelStep = z.enum(['view', 'tickets', 'checkout', 'paid']);
export type FunnelStep = z.infer<typeof FunnelStep>;
export const funnelSteps = FunnelStep.options;

/**
 * Text a browser could have sent and PostgreSQL can store: no control characters (a NUL cannot be
 * stored at all) and no half of a surrogate pair without its other half (not valid UTF-8). One such
 * string in a batch made the database refuse the whole batch's insert.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const unstorable = /[\u0000-\u001f\u007f]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const storable = (text: z.ZodString) => text.refine((value) => !unstorable.test(value), 'No control or broken characters');

const Campaign = storable(z.string().trim().max(100));

/** One beacon: `navigator.sendBeacon('/a', JSON.stringify(beacon))`. */
export const Beacon = z.strictObject({
  eventId: storable(Id),
  step: FunnelStep,
  /** `document.referrer` as the browser gives it; only its host is kept, and only another site's. */
  referrer: storable(z.string().max(2_000)).optional(),
  /** The page address's `utm_source`, `utm_medium` and `utm_campaign`, when it had them. */
  utm: z.strictObject({ source: Campaign.optional(), medium: Campaign.optional(), campaign: Campaign.optional() }).optional(),
  /**
   * The order a `checkout` or `paid` beacon is about. Those steps are counted from the orders
   * themselves; the beacon only tells which source brought the order, and counts only when it names
   * a real order of the event (decision 0052).
   */
  orderId: storable(Id).optional(),
});
export type Beacon = z.infer<typeof Beacon>;
/** The largest beacon body the server reads, in bytes. */
export const beaconMaxBytes = 4_096;

/** One day in the event's time zone (`2026-12-01`): page views, visitors, and what was sold. */
export const AnalyticsDay = z.object({
  day: z.string(),
  views: z.number(),
  visitors: z.number(),
  tickets: z.number(),
  /** In minor units of the report's currency. */
  revenue: z.number(),
});
export type AnalyticsDay = z.infer<typeof AnalyticsDay>;

/**
 * People who reached each step (summed over days: a person on two days counts twice): visitors for
 * view and tickets, from the beacons; buyers for checkout and paid, from the orders themselves.
 */
export const FunnelRow = z.object({ step: FunnelStep, visitors: z.number() });

/**
 * Where visitors came from: another site's host or the link's `utm_source` ('' = direct), and the
 * campaign. `checkout` and `paid` count the real orders whose browser named them in its beacon.
 */
export const SourceRow = z.object({
  source: z.string(),
  campaign: z.string(),
  visitors: z.number(),
  checkout: z.number(),
  paid: z.number(),
});
export type SourceRow = z.infer<typeof SourceRow>;

export const TicketTypeSales = z.object({ name: z.string(), tickets: z.number(), revenue: z.number() });

/** Admissions per quarter hour, as wall-clock time in the event's zone (`2026-12-01T19:15`). */
export const CheckInSlot = z.object({ slot: z.string(), admitted: z.number() });

export const AnalyticsTotals = z.object({
  views: z.number(),
  visitors: z.number(),
  tickets: z.number(),
  revenue: z.number(),
  checkedIn: z.number(),
});

/**
 * An event's dashboard (admins and owners): one row whose id is the event's. Views and visitors
 * come from the daily rows the aggregation job writes (up to a minute behind); sales and
 * check-ins from the orders and scans themselves.
 */
export const EventAnalyticsRow = z.object({
  id: z.string(),
  title: z.string(),
  currency: z.string(),
  timeZone: z.string(),
  totals: AnalyticsTotals,
  days: z.array(AnalyticsDay),
  funnel: z.array(FunnelRow),
  sources: z.array(SourceRow),
  ticketTypes: z.array(TicketTypeSales),
  checkIns: z.array(CheckInSlot),
});
export type EventAnalyticsRow = z.infer<typeof EventAnalyticsRow>;
export const eventAnalytics = defineLiveQueryContract('analytics.event', z.strictObject({ eventId: Id }), EventAnalyticsRow);

/**
 * An organization's dashboard (admins and owners): one row per event with its totals and funnel;
 * revenue is per event, in the event's currency (an organization may sell in several).
 */
export const OrgAnalyticsRow = z.object({
  id: z.string(),
  title: z.string(),
  slug: z.string(),
  status: z.string(),
  startsAt: z.string(),
  timeZone: z.string(),
  currency: z.string(),
  totals: AnalyticsTotals,
  funnel: z.array(FunnelRow),
});
export type OrgAnalyticsRow = z.infer<typeof OrgAnalyticsRow>;
export const orgAnalytics = defineLiveQueryContract('analytics.org', z.strictObject({ organizationId: Id }), OrgAnalyticsRow);
