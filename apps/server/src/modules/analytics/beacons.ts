import { Beacon, beaconMaxBytes, type FunnelStep } from '@admit/shared/analytics';
import { callableErrorBody } from '@admit/shared/callable';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createHash, randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { sendError } from '../../platform/http/send-error';
import { analyticsSalt } from './schema';

// POST /a: the public pages' beacons (decision 0038). Nothing about the person is stored but a
// hash of today's salt, their address and their browser; Do-Not-Track and Global Privacy Control
// drop the beacon. Beacons are answered at once and written in batches, so that a crowd on a
// public page costs checkout one insert a second, not one per view.

export interface BeaconRow {
  eventId: string;
  step: FunnelStep;
  visitor: string;
  referrerHost: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  /** The order a checkout or paid beacon names, or ''. */
  orderId: string;
  at: string;
}

export interface BeaconWriter {
  /** Queues a row; false when the queue is full (the row is dropped and counted). */
  add(row: BeaconRow): boolean;
  /** Counts a beacon the intake dropped before the queue: its address brought too many visitors this minute. */
  limited(): void;
  /** Writes what is queued (tests, and the server's close). */
  flush(): Promise<void>;
  stop(): Promise<void>;
  /** `dropped` counts every lost beacon; `limited` those of them dropped for their address's visitor budget. */
  stats(): { queued: number; written: number; dropped: number; limited: number };
}

export interface BeaconWriterOptions {
  /** How often the queue is written (default 1 s). */
  flushMs?: number;
  /** Most rows in one insert (default 2,000). */
  batchSize?: number;
  /** Most rows waiting; beyond, beacons are dropped rather than memory grow (default 50,000). */
  maxQueued?: number;
}

/** Rows go in with one statement per batch; those of unknown or draft events are left out by the join. */
export function createBeaconWriter(db: Db, log: FastifyBaseLogger, options: BeaconWriterOptions = {}): BeaconWriter {
  const { flushMs = 1_000, batchSize = 2_000, maxQueued = 50_000 } = options;
  let queue: BeaconRow[] = [];
  let written = 0;
  let dropped = 0;
  let limited = 0;
  let writing: Promise<void> = Promise.resolve();

  const insert = (rows: BeaconRow[]) =>
    db.execute(sql`
      insert into analytics_event (event_id, step, visitor, referrer_host, utm_source, utm_medium, utm_campaign, order_id, at)
      select v."eventId", v.step, v.visitor, v."referrerHost", v."utmSource", v."utmMedium", v."utmCampaign", v."orderId", v.at
        from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as v("eventId" text, step text, visitor text,
             "referrerHost" text, "utmSource" text, "utmMedium" text, "utmCampaign" text, "orderId" text, at timestamptz)
        join event e on e.id = v."eventId" and e.status <> 'draft'`);

  /**
   * One statement for the batch; if the database refuses it, each half is tried on its own, down to
   * the single row it cannot take, so one bad row costs its own beacon and about 2·log₂(batch)
   * statements, not the batch (the intake refuses such rows already: this is the second line).
   */
  const writeBatch = async (rows: BeaconRow[]): Promise<void> => {
    try {
      await insert(rows);
      written += rows.length;
    } catch (error) {
      if (rows.length > 1) {
        const half = Math.ceil(rows.length / 2);
        await writeBatch(rows.slice(0, half));
        await writeBatch(rows.slice(half));
        return;
      }
      // Analytics may lose a beacon; checkout must never wait for it.
      dropped += rows.length;
      log.warn({ err: error, rows: rows.length }, 'analytics: a beacon was not written');
    }
  };

  const flush = () => {
    // One write at a time, each taking what is queued when its turn comes.
    writing = writing.then(async () => {
      while (queue.length > 0) {
        const rows = queue.slice(0, batchSize);
        queue = queue.slice(rows.length);
        await writeBatch(rows);
      }
    });
    return writing;
  };
  const timer = setInterval(() => void flush(), flushMs);
  timer.unref();

  return {
    add(row) {
      if (queue.length >= maxQueued) {
        dropped += 1;
        return false;
      }
      queue.push(row);
      return true;
    },
    limited() {
      dropped += 1;
      limited += 1;
    },
    flush,
    async stop() {
      clearInterval(timer);
      await flush();
    },
    stats: () => ({ queued: queue.length, written, dropped, limited }),
  };
}

/** Today's salt (UTC), made by whichever process asks first and read by the others. */
function createSalts(db: Db) {
  let current: { day: string; salt: Promise<string> } | null = null;
  return (now: Date) => {
    const day = now.toISOString().slice(0, 10);
    if (current?.day !== day) {
      const salt = (async () => {
        await db
          .insert(analyticsSalt)
          .values({ day, salt: randomBytes(32).toString('base64url') })
          .onConflictDoNothing();
        const [found] = await db
          .select({ salt: analyticsSalt.salt })
          .from(analyticsSalt)
          .where(sql`${analyticsSalt.day} = ${day}`);
        if (!found) throw new Error(`No analytics salt for ${day}`);
        return found.salt;
      })();
      current = { day, salt };
      // A failed read is tried again by the next beacon.
      salt.catch(() => {
        if (current?.salt === salt) current = null;
      });
    }
    return current.salt;
  };
}

/** The host of another site's address, without `www.`; '' for our own pages, other schemes and nonsense. */
export function referrerHostOf(referrer: string | undefined, ownHost: string): string {
  if (!referrer) return '';
  try {
    const url = new URL(referrer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return '';
    const host = url.hostname.toLowerCase().replace(/^www\./, '');
    return host === ownHost ? '' : host.slice(0, 253);
  } catch {
    return '';
  }
}

const robot = /bot|crawl|spider|slurp|preview|facebookexternalhit/i;

/** New visitors one address may bring a process in a minute; beacons of further ones are dropped (decision 0052). */
export const visitorsPerAddressMinute = 20;
/**
 * Visitors a process keeps track of in one minute, of all addresses together (about 16 MB); beyond,
 * beacons of further visitors are dropped. 50,000 visitors a minute is a crowd of 2,000 beacons a
 * second (bench/analytics).
 */
const visitorsPerMinute = 200_000;

/**
 * The address a visitor budget is kept for: an IPv4 address, or an IPv6 address's /64 network (one
 * home or one machine is given a whole /64, so counting its addresses one by one would bound nothing).
 */
function budgetAddressOf(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1]!;
  if (!address.includes(':')) return address;
  const [head = '', tail = ''] = address.toLowerCase().split('::');
  const front = head === '' ? [] : head.split(':');
  const back = tail === '' ? [] : tail.split(':');
  const groups = address.includes('::')
    ? [...front, ...Array<string>(Math.max(0, 8 - front.length - back.length)).fill('0'), ...back]
    : front;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * How many different visitors (address and browser) each address has brought this minute, in this
 * process. A script that changes its User-Agent with every beacon would otherwise be a new visitor
 * each time. Kept in memory like the queue: with several processes the bound is per process.
 */
function createVisitorBudget() {
  let minute = -1;
  let seen = new Map<string, Set<string>>();
  let tracked = 0;
  return (address: string, visitor: string): boolean => {
    const current = Math.floor(Date.now() / 60_000);
    if (current !== minute) {
      minute = current;
      seen = new Map();
      tracked = 0;
    }
    const key = budgetAddressOf(address);
    let visitors = seen.get(key);
    if (visitors?.has(visitor)) return true;
    if ((visitors?.size ?? 0) >= visitorsPerAddressMinute || tracked >= visitorsPerMinute) return false;
    if (!visitors) seen.set(key, (visitors = new Set()));
    visitors.add(visitor);
    tracked += 1;
    return true;
  };
}

/** What became of one beacon: taken or dropped (204), or refused with the protocol's error. */
type Outcome = { status: 204 } | { status: 400; code: 'invalid-argument'; message: string };

export interface BeaconIntake {
  /** Checks one beacon's body and headers and queues its row (or drops it, for DNT, GPC or a crawler). */
  take(body: unknown, headers: IncomingHttpHeaders, clientAddress: string): Promise<Outcome>;
}

/** 204: the beacon was queued, or dropped on purpose (the page learns nothing either way). */
const noContent: Outcome = { status: 204 };
const refused = (message: string): Outcome => ({ status: 400, code: 'invalid-argument', message });

export function createBeaconIntake(deps: { db: Db; writer: BeaconWriter; publicUrl: string }): BeaconIntake {
  const saltOf = createSalts(deps.db);
  const withinBudget = createVisitorBudget();
  const ownHost = new URL(deps.publicUrl).hostname.toLowerCase().replace(/^www\./, '');
  return {
    async take(body, headers, clientAddress) {
      let value = body;
      if (typeof value === 'string') {
        try {
          value = JSON.parse(value);
        } catch {
          return refused('The beacon is not JSON');
        }
      }
      const parsed = Beacon.safeParse(value);
      if (!parsed.success) return refused('The beacon is not valid');
      const userAgent = headers['user-agent'] ?? '';
      if (headers.dnt === '1' || headers['sec-gpc'] === '1' || robot.test(userAgent)) return noContent;
      const now = new Date();
      let salt: string;
      try {
        salt = await saltOf(now);
      } catch {
        // No salt (the database is away): the beacon is lost, the page is not kept waiting.
        return noContent;
      }
      const beacon = parsed.data;
      const visitor = createHash('sha256').update(`${salt}|${clientAddress}|${userAgent}`).digest('base64url').slice(0, 22);
      if (!withinBudget(clientAddress, visitor)) {
        deps.writer.limited();
        return noContent;
      }
      deps.writer.add({
        eventId: beacon.eventId,
        step: beacon.step,
        visitor,
        referrerHost: referrerHostOf(beacon.referrer, ownHost),
        utmSource: beacon.utm?.source?.toLowerCase() ?? '',
        utmMedium: beacon.utm?.medium?.toLowerCase() ?? '',
        utmCampaign: beacon.utm?.campaign ?? '',
        orderId: beacon.step === 'checkout' || beacon.step === 'paid' ? (beacon.orderId ?? '') : '',
        at: now.toISOString(),
      });
      return noContent;
    },
  };
}

/** POST /a as a Fastify route: what `app.inject` reaches, and any request the fast path below did not take. */
export function registerBeaconRoute(app: FastifyInstance, intake: BeaconIntake) {
  // sendBeacon with a string sends text/plain; a fetch may send JSON.
  app.post('/a', { bodyLimit: beaconMaxBytes }, async (request, reply) => {
    const outcome = await intake.take(request.body, request.headers, request.ip);
    if (outcome.status === 204) return reply.code(204).send();
    return sendError(reply, outcome.code, outcome.message);
  });
}

const acceptedTypes = /^(text\/plain|application\/json)\s*(;|$)/i;

/**
 * POST /a straight from Node's HTTP server, before Fastify routes it: a crowd on a public page
 * sends thousands of beacons a second to the same process that sells the tickets, and this path
 * costs each one its body, a parse and a hash, not the routing, hooks and security headers of a page
 * request. Returns false for any other request (Fastify's). The client's address is found as
 * Fastify finds it: the first `X-Forwarded-For` entry behind a trusted proxy, else the socket's.
 */
export function beaconFastPath(intake: BeaconIntake, options: { trustProxy: boolean }) {
  const answer = (response: ServerResponse, outcome: Outcome) => {
    if (outcome.status === 204) return response.writeHead(204).end();
    const body = JSON.stringify(callableErrorBody(outcome.code, outcome.message));
    response.writeHead(outcome.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  };
  return (request: IncomingMessage, response: ServerResponse): boolean => {
    if (request.method !== 'POST' || (request.url !== '/a' && !request.url?.startsWith('/a?'))) return false;
    if (!acceptedTypes.test(request.headers['content-type'] ?? '')) {
      answer(response, refused('A beacon is text/plain or application/json'));
      request.resume();
      return true;
    }
    const forwarded = options.trustProxy ? request.headers['x-forwarded-for'] : undefined;
    const clientAddress =
      (typeof forwarded === 'string' && forwarded.split(',')[0]!.trim()) || request.socket.remoteAddress || '';
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > beaconMaxBytes) tooLarge = true;
      else chunks.push(chunk);
    });
    request.on('error', () => response.destroy());
    request.on('end', () => {
      if (tooLarge) return answer(response, refused('A beacon is at most 4 KB'));
      intake.take(Buffer.concat(chunks).toString('utf8'), request.headers, clientAddress).then(
        (outcome) => answer(response, outcome),
        () => answer(response, noContent),
      );
    });
    return true;
  };
}
