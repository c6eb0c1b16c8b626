import { eventAnalytics, orgAnalytics, type EventAnalyticsRow, type OrgAnalyticsRow } from '@admit/shared/analytics';
import { scanTicket } from '@admit/shared/checkin';
import { confirmPayment, createOrder, startPayment } from '@admit/shared/orders';
import { sandboxConfirm } from '@admit/shared/payments';
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addMember, addTicketTypeAs, createEventAs, createOrgAs, createPublishedEvent, publishAs } from '../../testing/fixtures';
import { watch } from '../../testing/live-watch';
import { createTestApp, type TestApp } from '../../testing/test-app';
import { ticket } from '../tickets/schema';
import { aggregateAnalytics, aggregateAnalyticsJob } from './aggregate';
import { visitorsPerAddressMinute } from './beacons';
import { analyticsDaily, analyticsEvent, analyticsSalt } from './schema';

let t: TestApp;
let url: string;
let owner: Awaited<ReturnType<TestApp['signUp']>>;

beforeAll(async () => {
  t = await createTestApp();
  url = await t.app.listen({ port: 0, host: '127.0.0.1' });
  owner = await t.signUp('Olga Organizer');
});
afterAll(() => t?.close());

const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

/** A beacon as `navigator.sendBeacon` sends it: a text/plain JSON string. */
function beacon(body: unknown, headers: Record<string, string> = {}, remoteAddress = '203.0.113.7') {
  return t.app.inject({
    method: 'POST',
    url: '/a',
    remoteAddress,
    headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': chrome, ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const rawRowsOf = (eventId: string) => t.db.select().from(analyticsEvent).where(eq(analyticsEvent.eventId, eventId));
const aggregate = () => aggregateAnalytics(t.db, { retentionDays: t.config.ANALYTICS_RETENTION_DAYS });
/** Counts everything from this moment on again, as if the job had last run then. */
const countFrom = (since: Date) =>
  t.db.execute(sql`update analytics_progress set counted_until = ${since.toISOString()}::timestamptz`);

describe('POST /a', () => {
  it('keeps a view with a daily visitor hash, the other site’s host and the campaign, but no address', async () => {
    const { eventId } = await createPublishedEvent(t, owner.cookie);
    const response = await beacon({
      eventId,
      step: 'view',
      referrer: 'https://www.Instagram.com/p/abc?igshid=secret',
      utm: { source: 'Newsletter', medium: 'email', campaign: 'Winter 26' },
    });
    expect(response.statusCode).toBe(204);
    expect(response.headers['set-cookie']).toBeUndefined();
    await t.app.beacons.flush();

    const [row] = await rawRowsOf(eventId);
    expect(row).toMatchObject({
      step: 'view',
      referrerHost: 'instagram.com',
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'Winter 26',
    });
    expect(row!.visitor).toMatch(/^[\w-]{22}$/);
    expect(JSON.stringify(row)).not.toContain('203.0.113.7');
    expect(JSON.stringify(row)).not.toContain('igshid');
  });

  it('gives the same visitor the same hash on a day, another browser or address another one, and keeps no referrer of our own pages', async () => {
    const { eventId } = await createPublishedEvent(t, owner.cookie);
    const own = { eventId, step: 'view', referrer: 'http://localhost:3000/' };
    await beacon(own);
    await beacon({ eventId, step: 'tickets' });
    await beacon(own, { 'user-agent': `${chrome} Edg/131.0` });
    await beacon(own, {}, '198.51.100.4');
    await t.app.beacons.flush();

    const rows = await rawRowsOf(eventId);
    expect(rows.map((row) => row.referrerHost)).toEqual(['', '', '', '']);
    expect(rows[0]!.visitor).toBe(rows[1]!.visitor);
    expect(new Set(rows.map((row) => row.visitor)).size).toBe(3);
    const [salt] = await t.db
      .select()
      .from(analyticsSalt)
      .where(eq(analyticsSalt.day, new Date().toISOString().slice(0, 10)));
    expect(salt!.salt.length).toBeGreaterThanOrEqual(40);
  });

  it('drops the beacon of a browser that sends Do-Not-Track or Global Privacy Control, and of a crawler', async () => {
    const { eventId } = await createPublishedEvent(t, owner.cookie);
    for (const headers of [
      { dnt: '1' },
      { 'sec-gpc': '1' },
      { 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' },
    ] as Record<string, string>[]) {
      expect((await beacon({ eventId, step: 'view' }, headers)).statusCode).toBe(204);
    }
    expect((await beacon({ eventId, step: 'view' }, { dnt: '0' })).statusCode).toBe(204);
    await t.app.beacons.flush();
    expect(await rawRowsOf(eventId)).toHaveLength(1);
  });

  it('refuses what is not a beacon with 4xx, and keeps nothing of a draft or an unknown event', async () => {
    const draft = await createEventAs(t, owner.cookie, (await createOrgAs(t, owner.cookie)).organizationId);
    for (const body of [
      'not json',
      '[]',
      { eventId: 'x', step: 'bought' },
      { eventId: 'x', step: 'view', extra: 1 },
      'a'.repeat(5_000),
    ]) {
      const response = await beacon(body);
      expect(response.statusCode, JSON.stringify(body).slice(0, 40)).toBeGreaterThanOrEqual(400);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.body).not.toMatch(/select|insert|at \w+ \(/i);
    }
    expect((await beacon({ eventId: draft.eventId, step: 'view' })).statusCode).toBe(204);
    expect((await beacon({ eventId: randomUUID(), step: 'view' })).statusCode).toBe(204);
    await t.app.beacons.flush();
    expect(await rawRowsOf(draft.eventId)).toHaveLength(0);
  });

  it('answers at once and writes a crowd of beacons in a few statements, not one each', async () => {
    const { eventId } = await createPublishedEvent(t, owner.cookie);
    const before = t.app.beacons.stats();
    await Promise.all(
      Array.from({ length: 300 }, (_, n) => beacon({ eventId, step: 'view' }, {}, `10.0.${Math.floor(n / 250)}.${n % 250}`)),
    );
    // Answered, and still waiting for the next write.
    expect(t.app.beacons.stats().queued).toBe(300);
    expect(await rawRowsOf(eventId)).toHaveLength(0);
    await t.app.beacons.flush();
    expect(t.app.beacons.stats().written - before.written).toBe(300);
    expect(await rawRowsOf(eventId)).toHaveLength(300);
  });

  it('refuses a campaign, referrer or event that PostgreSQL cannot store (a NUL, a control character, half a surrogate pair), and keeps the honest beacons sent with it', async () => {
    const { eventId } = await createPublishedEvent(t, owner.cookie);
    const hostile = [
      { eventId, step: 'view', utm: { source: 'news\u0000letter' } },
      { eventId, step: 'view', utm: { campaign: '\uD800' } },
      { eventId, step: 'view', utm: { medium: 'a\uDC00b' } },
      { eventId, step: 'view', referrer: 'https://example.org/\u0000' },
      { eventId, step: 'view', referrer: 'https://example.org/\uDBFF' },
      { eventId, step: 'view', referrer: 'https://example.org/\u001b[0m' },
      { eventId: `${eventId}\u0000`, step: 'view' },
      { eventId, step: 'paid', orderId: '\uD83D' },
    ];
    const honest = Array.from({ length: 100 }, (_, n) => beacon({ eventId, step: 'view' }, {}, `10.1.0.${n}`));
    const refused = hostile.map((body) => beacon(body, {}, '10.1.1.1'));
    for (const response of await Promise.all(refused)) {
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toMatchObject({ error: { status: 'INVALID_ARGUMENT' } });
    }
    expect((await Promise.all(honest)).map((response) => response.statusCode)).toEqual(Array(100).fill(204));
    // An emoji is a whole surrogate pair, and is kept.
    expect((await beacon({ eventId, step: 'view', utm: { campaign: 'Winter 🎄' } }, {}, '10.1.2.1')).statusCode).toBe(204);
    await t.app.beacons.flush();
    expect(await rawRowsOf(eventId)).toHaveLength(101);
  });

  it('lets one address bring 20 new visitors a minute, counting an IPv6 /64 as one address, and drops the rest', async () => {
    const { eventId } = await createPublishedEvent(t, owner.cookie);
    // The budget is per minute: start well inside one.
    const left = 60_000 - (Date.now() % 60_000);
    if (left < 5_000) await new Promise((resolve) => setTimeout(resolve, left + 100));
    const before = t.app.beacons.stats().limited;
    const browser = (n: number) => ({ 'user-agent': `${chrome} Build/${n}` });
    // One home's /64, a new address and browser each time.
    for (let n = 1; n <= 25; n += 1) await beacon({ eventId, step: 'view' }, browser(n), `2001:db8:1:2::${n.toString(16)}`);
    // A visitor already counted this minute is still taken; the same /64 written out in full is not another network.
    await beacon({ eventId, step: 'view' }, browser(1), '2001:db8:1:2::1');
    await beacon({ eventId, step: 'view' }, browser(99), '2001:0db8:0001:0002:0000:0000:0000:00ff');
    // Another network, and an IPv4 address however it is written, each with a budget of their own.
    for (let n = 1; n <= 5; n += 1) await beacon({ eventId, step: 'view' }, browser(n), `2001:db8:1:3::${n}`);
    for (let n = 1; n <= 22; n += 1)
      await beacon({ eventId, step: 'view' }, browser(n), n % 2 === 0 ? '198.51.100.77' : '::ffff:198.51.100.77');
    await t.app.beacons.flush();
    // 20 + the first visitor again + 5 + 20.
    expect(await rawRowsOf(eventId)).toHaveLength(46);
    expect(t.app.beacons.stats().limited - before).toBe(5 + 1 + 2);
  });

  it('writes the other rows of a batch when the database refuses one of them, and counts that one as dropped', async () => {
    const { eventId } = await createPublishedEvent(t, owner.cookie);
    await t.app.beacons.flush();
    const before = t.app.beacons.stats();
    await Promise.all(Array.from({ length: 99 }, (_, n) => beacon({ eventId, step: 'view' }, {}, `10.2.0.${n}`)));
    // A row the door would refuse now, as one from an older intake could still be queued.
    t.app.beacons.add({
      eventId,
      step: 'view',
      visitor: 'unstorable',
      referrerHost: '',
      utmSource: 'news\u0000letter',
      utmMedium: '',
      utmCampaign: '\uD800',
      orderId: '',
      at: new Date().toISOString(),
    });
    await t.app.beacons.flush();
    expect(await rawRowsOf(eventId)).toHaveLength(99);
    expect(t.app.beacons.stats().written - before.written).toBe(99);
    expect(t.app.beacons.stats().dropped - before.dropped).toBe(1);
  });
});

describe('POST /a over a real connection (taken before Fastify routes it)', () => {
  const send = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${url}/a`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'text/plain;charset=UTF-8', 'user-agent': chrome, ...headers },
    });

  it('takes a beacon as sendBeacon sends it, and drops one with Do-Not-Track or Global Privacy Control', async () => {
    const { eventId } = await createPublishedEvent(t, owner.cookie);
    const kept = await send(JSON.stringify({ eventId, step: 'view', referrer: 'https://news.example.org/x' }));
    expect(kept.status).toBe(204);
    expect(kept.headers.get('set-cookie')).toBeNull();
    expect((await send(JSON.stringify({ eventId, step: 'tickets' }), { dnt: '1' })).status).toBe(204);
    expect((await send(JSON.stringify({ eventId, step: 'paid' }), { 'sec-gpc': '1' })).status).toBe(204);
    await t.app.beacons.flush();
    const rows = await rawRowsOf(eventId);
    expect(rows.map((row) => [row.step, row.referrerHost])).toEqual([['view', 'news.example.org']]);
  });

  it('refuses what is not a beacon with 400 in the protocol’s shape, and leaves other requests to the app', async () => {
    const { eventId } = await createPublishedEvent(t, owner.cookie);
    for (const [body, type] of [
      ['{"eventId":', 'text/plain'],
      [JSON.stringify({ eventId, step: 'view', extra: true }), 'application/json'],
      [JSON.stringify({ eventId, step: 'view' }), 'application/x-www-form-urlencoded'],
      [JSON.stringify({ eventId, step: 'view', referrer: 'x'.repeat(5_000) }), 'text/plain'],
      [JSON.stringify({ eventId, step: 'view', utm: { source: 'a\u0000b', campaign: '\uDFFF' } }), 'text/plain'],
    ] as const) {
      const response = await send(body, { 'content-type': type });
      expect(response.status, body.slice(0, 30)).toBe(400);
      expect(await response.json()).toMatchObject({ error: { status: 'INVALID_ARGUMENT', message: expect.any(String) } });
    }
    expect((await fetch(`${url}/a`)).status).toBe(404);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);
    await t.app.beacons.flush();
    expect(await rawRowsOf(eventId)).toHaveLength(0);
  });

  it('does not take X-Forwarded-For from a client when no proxy is trusted', async () => {
    const { eventId } = await createPublishedEvent(t, owner.cookie);
    await send(JSON.stringify({ eventId, step: 'view' }), { 'x-forwarded-for': '198.51.100.1' });
    await send(JSON.stringify({ eventId, step: 'view' }), { 'x-forwarded-for': '198.51.100.2' });
    await t.app.beacons.flush();
    const rows = await rawRowsOf(eventId);
    expect(rows).toHaveLength(2);
    expect(rows[0]!.visitor).toBe(rows[1]!.visitor);
  });
});

describe('the aggregation job', () => {
  it('counts views, visitors and each step per day in the event’s time zone, across its midnight', async () => {
    const organizationId = (await createOrgAs(t, owner.cookie)).organizationId;
    // India is UTC+5:30 all year: midnight there is 18:30 UTC.
    const { eventId } = await createEventAs(t, owner.cookie, organizationId, { timeZone: 'Asia/Kolkata' });
    const ticketTypeId = await addTicketTypeAs(t, owner.cookie, eventId, { capacity: 10 });
    await publishAs(t, owner.cookie, eventId);
    // Checkout and paid beacons count only for a real order of the event.
    const buyer = await t.signUp('Cem Buyer');
    const placed = await t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity: 1 }] }, buyer.cookie);
    expect(placed.body.result.status).toBe('paid');
    const orderId = placed.body.result.orderId as string;
    const day = new Date(Date.now() - 3 * 86_400_000);
    const utc = (time: string) => new Date(`${day.toISOString().slice(0, 10)}T${time}Z`);
    const raw = (
      step: 'view' | 'tickets' | 'checkout' | 'paid',
      visitor: string,
      at: Date,
      referrerHost = '',
      utmCampaign = '',
      order = '',
    ) => ({
      eventId,
      step,
      visitor,
      referrerHost,
      utmCampaign,
      orderId: order,
      at,
    });
    await t.db.insert(analyticsEvent).values([
      raw('view', 'ann', utc('18:00:00'), 'instagram.com'), // 23:30 in Kolkata
      raw('view', 'ann', utc('18:10:00'), 'instagram.com'),
      raw('tickets', 'ann', utc('18:20:00')),
      raw('view', 'bob', utc('18:29:59')),
      raw('view', 'bob', utc('18:30:00'), '', 'spring'), // 00:00, the next day there
      raw('view', 'cem', utc('19:00:00'), 'instagram.com'),
      raw('checkout', 'cem', utc('19:05:00'), '', '', orderId),
      raw('paid', 'cem', utc('19:09:00'), '', '', orderId),
      // Named twice, or not at all, or an order that does not exist: none of these count again.
      raw('paid', 'cem', utc('19:10:00'), '', '', orderId),
      raw('paid', 'dan', utc('19:10:00'), '', '', orderId),
      raw('checkout', 'eve', utc('19:11:00')),
      raw('paid', 'eve', utc('19:11:00'), '', '', 'made-up'),
      // Ann reloads: two views in one minute count as one.
      raw('view', 'ann', utc('18:10:30'), 'instagram.com'),
    ]);
    await countFrom(new Date(day.getTime() - 86_400_000));
    const changed = await aggregate();
    expect(changed.eventIds).toContain(eventId);

    const rows = await t.db.select().from(analyticsDaily).where(eq(analyticsDaily.eventId, eventId));
    const local = (offsetDays: number) => new Date(day.getTime() + offsetDays * 86_400_000).toISOString().slice(0, 10);
    const simple = rows
      .map(({ day: date, step, source, campaign, hits, visitors }) => ({ date, step, source, campaign, hits, visitors }))
      .sort((a, b) => `${a.date}${a.step}${a.source}`.localeCompare(`${b.date}${b.step}${b.source}`));
    expect(simple).toEqual([
      { date: local(0), step: 'tickets', source: 'instagram.com', campaign: '', hits: 1, visitors: 1 },
      { date: local(0), step: 'view', source: '', campaign: '', hits: 1, visitors: 1 },
      { date: local(0), step: 'view', source: 'instagram.com', campaign: '', hits: 2, visitors: 1 },
      { date: local(1), step: 'checkout', source: 'instagram.com', campaign: '', hits: 1, visitors: 1 },
      { date: local(1), step: 'paid', source: 'instagram.com', campaign: '', hits: 1, visitors: 1 },
      { date: local(1), step: 'view', source: '', campaign: 'spring', hits: 1, visitors: 1 },
      { date: local(1), step: 'view', source: 'instagram.com', campaign: '', hits: 1, visitors: 1 },
    ]);

    // Counted again (a second run, or the same day's later beacons): the same rows, not doubled.
    await countFrom(new Date(day.getTime() - 86_400_000));
    await aggregate();
    expect(await t.db.select().from(analyticsDaily).where(eq(analyticsDaily.eventId, eventId))).toHaveLength(7);
  });

  it('deletes raw beacons after the retention period and salts after a day, and keeps the daily rows', async () => {
    const { eventId } = await createPublishedEvent(t, owner.cookie);
    const daysAgo = (days: number) => new Date(Date.now() - days * 86_400_000);
    await t.db.insert(analyticsEvent).values([
      { eventId, step: 'view', visitor: 'old', at: daysAgo(31) },
      { eventId, step: 'view', visitor: 'recent', at: daysAgo(29) },
    ]);
    await t.db
      .insert(analyticsSalt)
      .values({ day: daysAgo(3).toISOString().slice(0, 10), salt: 'old-salt' })
      .onConflictDoNothing();
    await countFrom(daysAgo(32));
    await aggregate();

    expect((await rawRowsOf(eventId)).map((row) => row.visitor)).toEqual(['recent']);
    const days = await t.db.select().from(analyticsDaily).where(eq(analyticsDaily.eventId, eventId));
    expect(days).toHaveLength(2);
    expect(await t.db.select().from(analyticsSalt).where(eq(analyticsSalt.salt, 'old-salt'))).toEqual([]);
  });

  it('runs as a recurring job of the queue, one at a time', async () => {
    const { rows } = (await t.database.execute(`select policy from pgboss.queue where name = 'analytics.aggregate'`, [])) as {
      rows: { policy: string }[];
    };
    expect(rows).toEqual([{ policy: 'stately' }]);
    const runs = (await t.database.execute(
      `select count(*)::int as n from pgboss.job where name = 'analytics.aggregate'`,
      [],
    )) as {
      rows: { n: number }[];
    };
    expect(Number(runs.rows[0]!.n)).toBeGreaterThanOrEqual(1);
  });
});

describe('the dashboard', () => {
  async function buyAndPay(eventId: string, ticketTypeId: string, quantity: number) {
    const buyer = await t.signUp('Bea Buyer');
    const ordered = await t.call(createOrder, { eventId, lines: [{ ticketTypeId, quantity }] }, buyer.cookie);
    const orderId = ordered.body.result.orderId;
    const started = await t.call(startPayment, { orderId }, buyer.cookie);
    if (started.status === 200) {
      await t.call(
        sandboxConfirm,
        { clientSecret: started.body.result.clientSecret, cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123' },
        buyer.cookie,
      );
      expect((await t.call(confirmPayment, { orderId }, buyer.cookie)).body.result.status).toBe('paid');
    }
    return orderId;
  }

  it('shows an admin views, the funnel, sales per day and ticket type, sources and check-ins, live', async () => {
    const created = await createPublishedEvent(t, owner.cookie, {
      ticketTypes: [
        { name: 'Seat', capacity: 20, price: 2500 },
        { name: 'Guest', capacity: 20, price: 0 },
      ],
    });
    const [seat, guest] = created.ticketTypeIds as [string, string];
    const admin = await t.signUp('Ada Admin');
    await addMember(t, created.organizationId, admin.user.id, 'admin');
    const live = await watch(url, eventAnalytics.name, { eventId: created.eventId }, admin.cookie);
    const report = () => live.rows()[0] as EventAnalyticsRow;
    expect(report().totals).toEqual({ views: 0, visitors: 0, tickets: 0, revenue: 0, checkedIn: 0 });

    const paidOrder = await buyAndPay(created.eventId, seat, 2);
    await buyAndPay(created.eventId, guest, 1);
    await expect.poll(() => report().totals.tickets).toBe(3);
    expect(report().totals.revenue).toBe(5000);
    expect(report().ticketTypes).toEqual([
      { name: 'Seat', tickets: 2, revenue: 5000 },
      { name: 'Guest', tickets: 1, revenue: 0 },
    ]);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date());
    expect(report().days).toEqual([{ day: today, views: 0, visitors: 0, tickets: 3, revenue: 5000 }]);

    await countFrom(new Date(Date.now() - 60_000));
    await beacon({ eventId: created.eventId, step: 'view', utm: { source: 'newsletter', campaign: 'launch' } });
    await beacon({ eventId: created.eventId, step: 'view', utm: { source: 'newsletter', campaign: 'launch' } });
    await beacon({ eventId: created.eventId, step: 'checkout', orderId: paidOrder });
    await beacon({ eventId: created.eventId, step: 'paid', orderId: paidOrder });
    await beacon({ eventId: created.eventId, step: 'view' }, {}, '198.51.100.9');
    await t.app.beacons.flush();
    await t.jobs.enqueue(t.db, aggregateAnalyticsJob as never, {} as never);
    // The newsletter reader's two views in one minute count once.
    await expect.poll(() => report().totals.views, { timeout: 10_000 }).toBe(2);
    expect(report().totals.visitors).toBe(2);
    // Checkout and paid are the two buyers' orders, beacon or not; the beacon says where one came from.
    expect(report().funnel).toEqual([
      { step: 'view', visitors: 2 },
      { step: 'tickets', visitors: 0 },
      { step: 'checkout', visitors: 2 },
      { step: 'paid', visitors: 2 },
    ]);
    expect(report().sources).toEqual([
      { source: 'newsletter', campaign: 'launch', visitors: 1, checkout: 1, paid: 1 },
      { source: '', campaign: '', visitors: 1, checkout: 0, paid: 0 },
    ]);

    const [code] = await t.db.select({ code: ticket.code }).from(ticket).where(eq(ticket.orderId, paidOrder));
    await t.call(
      scanTicket,
      {
        eventId: created.eventId,
        code: code!.code,
        device: 'Door 1',
        scannedAt: new Date().toISOString(),
        idempotencyKey: randomUUID(),
      },
      owner.cookie,
    );
    await expect.poll(() => report().totals.checkedIn).toBe(1);
    expect(report().checkIns).toEqual([{ slot: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:(00|15|30|45)$/), admitted: 1 }]);
    live.close();

    const org = await watch(url, orgAnalytics.name, { organizationId: created.organizationId }, admin.cookie);
    const row = org.rows().find((one: OrgAnalyticsRow) => one.id === created.eventId) as OrgAnalyticsRow;
    expect(row.totals).toEqual({ views: 2, visitors: 2, tickets: 3, revenue: 5000, checkedIn: 1 });
    expect(row.funnel.map((step) => step.visitors)).toEqual([2, 0, 2, 2]);
    org.close();
  });

  it('moves no figure by more than 1 % when one address floods it with 20,000 beacons of changing browsers, and counts what it dropped', async () => {
    const created = await createPublishedEvent(t, owner.cookie, { ticketTypes: [{ name: 'Free', capacity: 100 }] });
    const { eventId } = created;
    /** The dashboard as an admin who opens it now sees it. */
    const report = async () => {
      const live = await watch(url, eventAnalytics.name, { eventId }, owner.cookie);
      const row = live.rows()[0] as EventAnalyticsRow;
      live.close();
      return row;
    };
    const figures = (row: EventAnalyticsRow) => ({
      ...row.totals,
      ...Object.fromEntries(row.funnel.map((step) => [`funnel ${step.step}`, step.visitors])),
      sourceVisitors: row.sources.reduce((sum, source) => sum + source.visitors, 0),
      sourceCheckout: row.sources.reduce((sum, source) => sum + source.checkout, 0),
      sourcePaid: row.sources.reduce((sum, source) => sum + source.paid, 0),
    });

    // The honest crowd: 4,000 people, each on an address of their own; half choose tickets, and
    // three place (free) orders and say so with their order.
    await countFrom(new Date(Date.now() - 60_000));
    const honest = 4_000;
    const address = (n: number) => `10.${100 + Math.floor(n / 62_500)}.${Math.floor(n / 250) % 250}.${n % 250}`;
    for (let start = 0; start < honest; start += 500)
      await Promise.all(
        Array.from({ length: 500 }, async (_, index) => {
          const n = start + index;
          await beacon({ eventId, step: 'view', utm: { source: n % 3 === 0 ? 'newsletter' : undefined } }, {}, address(n));
          if (n % 2 === 0) await beacon({ eventId, step: 'tickets' }, {}, address(n));
        }),
      );
    const orderIds: string[] = [];
    for (let n = 0; n < 3; n += 1) {
      const buyer = await t.signUp(`Buyer ${n}`);
      const placed = await t.call(
        createOrder,
        { eventId, lines: [{ ticketTypeId: created.ticketTypeIds[0]!, quantity: 1 }] },
        buyer.cookie,
      );
      expect(placed.body.result.status).toBe('paid');
      orderIds.push(placed.body.result.orderId);
      await beacon({ eventId, step: 'checkout', orderId: placed.body.result.orderId }, {}, address(n * 3));
      await beacon({ eventId, step: 'paid', orderId: placed.body.result.orderId }, {}, address(n * 3));
    }
    await t.app.beacons.flush();
    await aggregate();
    const fair = figures(await report());
    expect(fair).toMatchObject({
      views: honest,
      visitors: honest,
      tickets: 3,
      'funnel view': honest,
      'funnel tickets': honest / 2,
      'funnel checkout': 3,
      'funnel paid': 3,
    });
    expect(fair.sourcePaid).toBe(3);

    // One script, one address, a new User-Agent each time, every step, made-up and real orders.
    const limitedBefore = t.app.beacons.stats().limited;
    const steps = ['view', 'tickets', 'checkout', 'paid'] as const;
    for (let start = 0; start < 20_000; start += 1_000)
      await Promise.all(
        Array.from({ length: 1_000 }, (_, index) => {
          const n = start + index;
          const step = steps[n % 4]!;
          const orderId = step === 'view' || step === 'tickets' ? undefined : n % 8 < 4 ? randomUUID() : orderIds[n % 3];
          return beacon(
            { eventId, step, utm: step === 'view' ? { source: 'flood' } : undefined, orderId },
            { 'user-agent': `${chrome} Flood/${n}` },
            '192.0.2.66',
          );
        }),
      );
    await t.app.beacons.flush();
    await countFrom(new Date(Date.now() - 120_000));
    await aggregate();
    const flooded = figures(await report());
    for (const [name, value] of Object.entries(fair))
      expect(
        Math.abs(flooded[name as keyof typeof flooded] - value),
        `${name}: ${value} → ${flooded[name as keyof typeof flooded]}`,
      ).toBeLessThanOrEqual(value / 100);

    // What the budget dropped is counted, in /metrics too.
    const limited = t.app.beacons.stats().limited - limitedBefore;
    expect(limited).toBeGreaterThanOrEqual(20_000 - 2 * visitorsPerAddressMinute * 4);
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(Number(/^admit_analytics_beacons_limited_total (\d+)$/m.exec(metrics.body)?.[1])).toBe(t.app.beacons.stats().limited);
  }, 300_000);

  it('is refused to staff and to people outside the organization', async () => {
    const created = await createPublishedEvent(t, owner.cookie);
    const staff = await t.signUp('Sam Staff');
    const outsider = await t.signUp('Otto Outsider');
    await addMember(t, created.organizationId, staff.user.id, 'staff');
    await expect(watch(url, eventAnalytics.name, { eventId: created.eventId }, staff.cookie)).rejects.toThrow(
      'permission-denied',
    );
    await expect(watch(url, eventAnalytics.name, { eventId: created.eventId }, outsider.cookie)).rejects.toThrow('not-found');
    await expect(watch(url, orgAnalytics.name, { organizationId: created.organizationId }, staff.cookie)).rejects.toThrow(
      'permission-denied',
    );
    await expect(watch(url, orgAnalytics.name, { organizationId: created.organizationId })).rejects.toThrow();
  });
});
