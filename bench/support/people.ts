import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { call } from './callable';

export interface Person {
  userId: string;
  /** The raw session token: signed, what `Authorization: Bearer` carries and the session cookie holds (sign-in.ts). */
  token: string;
  email: string;
  /**
   * A client address of this person's own (10.x.y.z), sent as `X-Forwarded-For` where a run stands
   * in for a load balancer (a server with TRUST_PROXY=true): buyers of a real on-sale come from many
   * addresses, and the limits per address (Better Auth's, 100 requests in 10 s per path) would
   * otherwise refuse thousands of buyers from the benchmark's one.
   */
  address: string;
}

/**
 * Where people's email goes. `deliverable`: `@bench.example.com`, to which Admit sends (into the
 * dev outbox when no SMTP_URL is set), so every order's confirmation is rendered and stored as for
 * a real buyer. `none`: `@bench.admit.invalid`, to which Admit sends nothing (an address that cannot
 * receive mail): for benchmarks whose set-up orders must not render emails while they measure.
 */
export type PeopleMail = 'deliverable' | 'none';

const mailDomains: Record<PeopleMail, string> = { deliverable: 'bench.example.com', none: 'bench.admit.invalid' };

let addressesGiven = 0;
function nextAddress(): string {
  const n = ++addressesGiven;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/**
 * People with a session each, written straight into Better Auth's tables (set-up, not measured).
 * Their emails are `<prefix>-<n>@<domain>` (see PeopleMail) and their names `Bench <email>`.
 *
 * Why not the sign-up endpoint: 10,000 sign-ups are each a password hash (scrypt) plus an email
 * verification round trip, and /api/auth is rate limited per address. The session row is all a
 * request needs: the token signed with the server's secret (sign-in.ts, `signedToken`), which the
 * bearer plugin (platform/auth/auth.ts) checks and hands to getSession as the
 * `better-auth.session_token` cookie, which looks the row up by token and joins its user. Sessions expire in 7 days and were "updated" now, so
 * getSession never refreshes (writes) them during the run.
 */
export async function createPeople(
  databaseUrl: string,
  count: number,
  prefix: string,
  options: { mail?: PeopleMail } = {},
): Promise<Person[]> {
  const domain = mailDomains[options.mail ?? 'none'];
  const people: Person[] = Array.from({ length: count }, (_, index) => ({
    userId: randomUUID(),
    token: randomBytes(16).toString('hex'),
    email: `${prefix}-${index}@${domain}`,
    address: nextAddress(),
  }));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (let start = 0; start < count; start += 5_000) {
      const batch = people.slice(start, start + 5_000);
      const ids = batch.map((person) => person.userId);
      const emails = batch.map((person) => person.email);
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

/** An organizer and the organization they made through `orgs.create`, which makes them its owner. */
export async function createOrganization(baseUrl: string, databaseUrl: string, name: string) {
  const [organizer] = await createPeople(databaseUrl, 1, 'organizer');
  const { organizationId } = await call<{ organizationId: string }>(baseUrl, organizer!, 'orgs.create', { name });
  return { organizer: organizer!, organizationId };
}

/** Makes people door staff of an organization: member rows with the staff role, as the test fixtures' `addMember` adds them. */
export async function addStaff(databaseUrl: string, organizationId: string, staff: Person[]) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into member (id, organization_id, user_id, role)
       select gen_random_uuid()::text, $1, id, 'staff' from unnest($2::text[]) as id`,
      [organizationId, staff.map((person) => person.userId)],
    );
  } finally {
    await client.end();
  }
}

/** People in turn, from the first; wraps around (in a timed run a buyer may order more than once). */
export function inTurn(people: Person[]): () => Person {
  let next = 0;
  return () => people[next++ % people.length]!;
}
