import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';

/** A PostgreSQL database made for one run, dropped at the end. */
export interface ScratchDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export async function createScratchDatabase(adminUrl: string): Promise<ScratchDatabase> {
  const name = `admit_bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

export interface Person {
  userId: string;
  /** The raw session token: what `Authorization: Bearer` carries. */
  token: string;
}

/**
 * People with a session each, written straight into Better Auth's tables (set-up, not measured).
 *
 * Why not the sign-up endpoint: 10,000 sign-ups are each a password hash (scrypt) plus an email
 * verification round trip, and /api/auth is rate limited per address. The session row is all a
 * request needs: the bearer plugin (platform/auth/auth.ts) takes an unsigned token, signs it with
 * the server's secret itself (it only refuses unsigned tokens with `requireSignature`, which we do
 * not set) and hands it to getSession as the `better-auth.session_token` cookie, which looks the
 * row up by token and joins its user. Sessions expire in 7 days and were "updated" now, so
 * getSession never refreshes (writes) them during the run.
 */
export async function createPeople(databaseUrl: string, count: number, prefix: string): Promise<Person[]> {
  const people: Person[] = Array.from({ length: count }, () => ({
    userId: randomUUID(),
    token: randomBytes(16).toString('hex'),
  }));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (let start = 0; start < count; start += 5_000) {
      const batch = people.slice(start, start + 5_000);
      const ids = batch.map((person) => person.userId);
      const emails = batch.map((_, index) => `${prefix}-${start + index}@bench.admit.invalid`);
      await client.query(
        `insert into "user" (id, name, email, email_verified)
         select id, 'Bench ' || email, email, true from unnest($1::text[], $2::text[]) as p(id, email)`,
        [ids, emails],
      );
      await client.query(
        `insert into session (id, token, user_id, expires_at, created_at, updated_at)
         select gen_random_uuid()::text, token, user_id, now() + interval '7 days', now(), now()
         from unnest($1::text[], $2::text[]) as s(token, user_id)`,
        [batch.map((person) => person.token), ids],
      );
    }
  } finally {
    await client.end();
  }
  return people;
}

/** Calls a function the way an API client does (DESIGN §3.2) and returns its result; throws on an error. */
export async function call<T>(baseUrl: string, token: string, name: string, data: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}/fn/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ data }),
  });
  const body = (await response.json()) as { result?: T; error?: unknown };
  if (response.status !== 200) throw new Error(`${name} failed: ${response.status} ${JSON.stringify(body.error)}`);
  return body.result as T;
}

export interface SaleEvent {
  eventId: string;
  ticketTypeId: string;
  capacity: number;
  price: number;
}

/** A published event with one ticket type of `capacity` places (the event holds as many), made through the callables. */
export async function createSaleEvent(
  baseUrl: string,
  organizer: Person,
  organizationId: string,
  options: { title: string; capacity: number; price: number; publish?: boolean },
): Promise<SaleEvent> {
  const { eventId } = await call<{ eventId: string }>(baseUrl, organizer.token, 'events.create', {
    organizationId,
    title: options.title,
    venue: 'Bench Hall',
    timeZone: 'Europe/Berlin',
    startsAtLocal: '2030-01-10T19:00',
    endsAtLocal: '2030-01-10T23:00',
    capacity: options.capacity,
  });
  const { ticketTypeId } = await call<{ ticketTypeId: string }>(baseUrl, organizer.token, 'events.addTicketType', {
    eventId,
    name: options.price === 0 ? 'Free entry' : 'Standing',
    capacity: options.capacity,
    maxPerOrder: 10,
    price: options.price,
  });
  if (options.publish !== false) await call(baseUrl, organizer.token, 'events.publish', { eventId });
  return { eventId, ticketTypeId, capacity: options.capacity, price: options.price };
}
