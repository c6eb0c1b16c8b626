import { createHash } from 'node:crypto';
import { and, eq, gte, sql, type SQL } from 'drizzle-orm';
import type { Db, Tx } from '../db/database';
import { callQuota } from './schema';

// Fixed-window quotas kept in the database (decision 0030): the database is the only state,
// and several server instances count in the same row. Used for order attempts, invitations,
// attendee messages and mail to guests.

export interface Quota {
  /** What is limited and for whom, from quotaKey. */
  key: string;
  /** Uses allowed per window. */
  limit: number;
  windowSeconds: number;
}

/**
 * The key of a quota: its scope (`orders.create:account`) and a hash of whom it counts, so that
 * the table keeps no email or IP address in the clear.
 */
export function quotaKey(scope: string, subject: string): string {
  return `${scope}:${createHash('sha256').update(subject).digest('base64url')}`;
}

/**
 * Counts `uses` uses of the quota (one unless said) in one statement: a window that has run out
 * starts again at them, one they do not fit in is left unchanged (the upsert's condition fails and
 * returns no row). Answers null when the uses were counted, else the seconds until the window
 * ends. Inside a transaction the uses are rolled back with it, so only work that was done is counted.
 */
export async function consumeQuota(db: Db | Tx, quota: Quota, uses = 1): Promise<number | null> {
  if (uses > quota.limit) return quota.windowSeconds;
  const window = sql`(${quota.windowSeconds}::int * interval '1 second')`;
  const ended = sql`${callQuota.windowStart} <= now() - ${window}`;
  const counted = await db
    .insert(callQuota)
    .values({ key: quota.key, windowStart: sql`now()`, used: uses })
    .onConflictDoUpdate({
      target: callQuota.key,
      set: {
        used: sql`case when ${ended} then ${uses}::int else ${callQuota.used} + ${uses}::int end`,
        windowStart: sql`case when ${ended} then now() else ${callQuota.windowStart} end`,
      },
      setWhere: sql`${ended} or ${callQuota.used} + ${uses}::int <= ${quota.limit}`,
    })
    .returning({ used: callQuota.used });
  if (counted.length > 0) return null;
  const [full] = await db
    .select({ seconds: sql<number>`ceil(extract(epoch from ${callQuota.windowStart} + ${window} - now()))::int` })
    .from(callQuota)
    .where(eq(callQuota.key, quota.key));
  return Math.max(1, full?.seconds ?? quota.windowSeconds);
}

/**
 * What is left of a quota now, and the seconds until its window ends (null when nothing is counted
 * in it): a look that counts nothing.
 */
export async function quotaLeft(db: Db | Tx, quota: Quota): Promise<{ left: number; resetsInSeconds: number | null }> {
  const window = sql`(${quota.windowSeconds}::int * interval '1 second')`;
  const [current] = await db
    .select({
      used: callQuota.used,
      seconds: sql<number>`ceil(extract(epoch from ${callQuota.windowStart} + ${window} - now()))::int`,
    })
    .from(callQuota)
    .where(and(eq(callQuota.key, quota.key), sql`${callQuota.windowStart} > now() - ${window}`));
  if (!current) return { left: quota.limit, resetsInSeconds: null };
  return { left: Math.max(0, quota.limit - current.used), resetsInSeconds: Math.max(1, Number(current.seconds)) };
}

/**
 * Whether the quota whose key is `key` (an SQL expression) is used up now, as an SQL condition: what
 * quotaWait looks at, for a statement that decides for many callers at once (orders/place-order.ts).
 */
export function quotaUsedUpSql(key: SQL, quota: Pick<Quota, 'limit' | 'windowSeconds'>): SQL {
  return sql`exists (select 1 from call_quota q where q.key = ${key}
                        and q.window_start > now() - ${quota.windowSeconds}::int * interval '1 second' and q.used >= ${quota.limit}::int)`;
}

/** The seconds until a used-up quota's window ends, or null when it has room: a look that counts nothing. */
export async function quotaWait(db: Db | Tx, quota: Quota): Promise<number | null> {
  const window = sql`(${quota.windowSeconds}::int * interval '1 second')`;
  const [full] = await db
    .select({ seconds: sql<number>`ceil(extract(epoch from ${callQuota.windowStart} + ${window} - now()))::int` })
    .from(callQuota)
    .where(
      and(eq(callQuota.key, quota.key), sql`${callQuota.windowStart} > now() - ${window}`, gte(callQuota.used, quota.limit)),
    );
  return full ? Math.max(1, full.seconds) : null;
}

/** Counts one use of each quota in turn; the wait of the first that is used up, else null. */
export async function consumeQuotas(db: Db | Tx, quotas: readonly Quota[]): Promise<number | null> {
  for (const quota of quotas) {
    const wait = await consumeQuota(db, quota);
    if (wait !== null) return wait;
  }
  return null;
}

/**
 * The quotas of many uses counted inside one larger statement (orders made together,
 * place-order.ts): `uses` are (position, quota) pairs, a use's position being its request's.
 * Every use is counted; the CTE `within_quota` lists the positions all of whose uses were within
 * their quotas, counted in order of position after what each window held before.
 */
export function countQuotaUsesInStatement(uses: readonly (Quota & { position: number })[]): SQL {
  const column = <T>(values: readonly T[]) => sql.param([...values]);
  return sql`quota_use (position, key, quota_limit, window_seconds) as (
    select * from unnest(${column(uses.map((use) => use.position))}::int[], ${column(uses.map((use) => use.key))}::text[],
      ${column(uses.map((use) => use.limit))}::int[], ${column(uses.map((use) => use.windowSeconds))}::int[])
  ),
  quota_key as (
    select key, count(*)::int as uses, min(quota_limit) as quota_limit, min(window_seconds) as window_seconds
      from quota_use group by key
  ),
  quota_before as (
    select k.key, k.uses, k.quota_limit, k.window_seconds,
           case when q.key is null or q.window_start <= now() - k.window_seconds * interval '1 second' then 0 else q.used end as used
      from quota_key k left join call_quota q on q.key = k.key
  ),
  quota_counted as (
    insert into call_quota (key, window_start, used)
    select key, now(), uses from quota_before
    on conflict (key) do update set
      used = case when call_quota.window_start <= now() - (select window_seconds from quota_before b where b.key = excluded.key) * interval '1 second'
                  then excluded.used else call_quota.used + excluded.used end,
      window_start = case when call_quota.window_start <= now() - (select window_seconds from quota_before b where b.key = excluded.key) * interval '1 second'
                  then now() else call_quota.window_start end
  ),
  within_quota as (
    select use.position
      from (select position, key, row_number() over (partition by key order by position) as nth from quota_use) use
      join quota_before b on b.key = use.key
     group by use.position
    having bool_and(b.used + use.nth <= b.quota_limit)
  )`;
}
