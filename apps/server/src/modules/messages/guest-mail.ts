import type { GuestMailAllowance, GuestMailLimitDetails, GuestMailScope } from '@admit/shared/attendee-messages';
import { sql } from 'drizzle-orm';
import { member } from '../../platform/auth/organization-schema';
import type { Config } from '../../platform/config';
import type { Db, Tx } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import { event } from '../events/schema';
import { consumeQuota, quotaKey, quotaLeft, type Quota } from '../../platform/quotas/call-quota';
import { order } from '../orders/schema';

// Emails to people who never bought anything: guests typed into a guest list and emailed their
// tickets, and messages that reach such guests. Anyone can sign up, make an organization and an
// event, and type in a thousand addresses, so these are counted per account and per organization,
// in the last hour and day, lower until money has changed hands (decision 0053). Buyers who paid
// are not counted: they asked for the event's mail.

type GuestMailConfig = Pick<
  Config,
  | 'GUEST_MAIL_PER_ACCOUNT_HOUR'
  | 'GUEST_MAIL_PER_ACCOUNT_DAY'
  | 'GUEST_MAIL_PER_ORG_HOUR'
  | 'GUEST_MAIL_PER_ORG_DAY'
  | 'GUEST_MAIL_NEW_PER_HOUR'
  | 'GUEST_MAIL_NEW_PER_DAY'
>;

interface Sender {
  db: Db | Tx;
  config: GuestMailConfig;
  userId: string;
  organizationId: string;
}

type ScopedQuota = Quota & { scope: GuestMailScope };

const hour = 3_600;
const day = 24 * hour;

/** An order someone paid money for, and that was not given all back. */
const paid = sql`${order.status} in ('paid', 'partially_refunded') and ${order.total} > 0`;

/**
 * Whether the account and the organization have seen a paid order: the organization sold one; the
 * account paid for one itself, or runs (owner or admin) an organization that sold one.
 */
async function establishment({ db, userId, organizationId }: Sender): Promise<{ account: boolean; organization: boolean }> {
  const result = await db.execute(sql`select
      exists (select 1 from ${order} join ${event} on ${event.id} = ${order.eventId}
               where ${event.organizationId} = ${organizationId} and ${paid}) as organization,
      exists (select 1 from ${order} where ${order.buyerId} = ${userId} and ${paid})
        or exists (select 1 from ${order}
                     join ${event} on ${event.id} = ${order.eventId}
                     join ${member} on ${member.organizationId} = ${event.organizationId}
                    where ${member.userId} = ${userId} and ${member.role} in ('owner', 'admin') and ${paid}) as account`);
  const [row] = (result as unknown as { rows: { account: boolean; organization: boolean }[] }).rows;
  return { account: row?.account === true, organization: row?.organization === true };
}

async function quotasOf(sender: Sender): Promise<{ quotas: ScopedQuota[]; established: boolean }> {
  const { config } = sender;
  const known = await establishment(sender);
  const limits = (established: boolean, perHour: number, perDay: number) =>
    established ? [perHour, perDay] : [config.GUEST_MAIL_NEW_PER_HOUR, config.GUEST_MAIL_NEW_PER_DAY];
  const [accountHour, accountDay] = limits(known.account, config.GUEST_MAIL_PER_ACCOUNT_HOUR, config.GUEST_MAIL_PER_ACCOUNT_DAY);
  const [orgHour, orgDay] = limits(known.organization, config.GUEST_MAIL_PER_ORG_HOUR, config.GUEST_MAIL_PER_ORG_DAY);
  const account = (windowSeconds: number, limit: number): ScopedQuota => ({
    scope: 'account',
    key: quotaKey(`guest-mail:account:${windowSeconds}`, sender.userId),
    limit,
    windowSeconds,
  });
  const organization = (windowSeconds: number, limit: number): ScopedQuota => ({
    scope: 'organization',
    key: quotaKey(`guest-mail:organization:${windowSeconds}`, sender.organizationId),
    limit,
    windowSeconds,
  });
  return {
    quotas: [account(hour, accountHour!), account(day, accountDay!), organization(hour, orgHour!), organization(day, orgDay!)],
    established: known.account && known.organization,
  };
}

/** What each of the sender's quotas has left, and when it starts again. */
async function leftOf(sender: Sender) {
  const { quotas, established } = await quotasOf(sender);
  const left = await Promise.all(quotas.map(async (quota) => ({ quota, ...(await quotaLeft(sender.db, quota)) })));
  return { left, established };
}

/** How many more guest emails the sender may send now, and when more may go. */
export async function guestMailAllowanceOf(sender: Sender): Promise<GuestMailAllowance> {
  const { left, established } = await leftOf(sender);
  const least = left.reduce((a, b) => (b.left < a.left ? b : a));
  return {
    remaining: least.left,
    resetsAt: least.resetsInSeconds === null ? null : new Date(Date.now() + least.resetsInSeconds * 1000).toISOString(),
    established,
  };
}

function limitReached(details: Omit<GuestMailLimitDetails, 'reason'>): CallableError {
  return new CallableError(
    'resource-exhausted',
    `${details.requested} emails to guests asked for, ${details.remaining} left for this ${details.scope}; more in ${details.retryAfterSeconds} s`,
    { reason: 'guest-mail-limit', ...details } satisfies GuestMailLimitDetails,
  );
}

/**
 * Refuses, before anything is written, `emails` guest emails that do not fit in what the sender's
 * quotas have left: `resource-exhausted` (guest-mail-limit), with what is left and when more may go.
 * Counts nothing; answers the quotas it read.
 */
export async function requireGuestMailAllowance(sender: Sender & { emails: number }): Promise<ScopedQuota[]> {
  const { left } = await leftOf(sender);
  const short = left.filter((entry) => entry.left < sender.emails);
  if (short.length === 0) return left.map((entry) => entry.quota);
  const least = left.reduce((a, b) => (b.left < a.left ? b : a));
  // More may go when every quota that is short has started again.
  const wait = Math.max(...short.map((entry) => entry.resetsInSeconds ?? entry.quota.windowSeconds));
  throw limitReached({ scope: least.quota.scope, requested: sender.emails, remaining: least.left, retryAfterSeconds: wait });
}

/**
 * Counts `emails` guest emails against the sender's quotas, in the transaction that queues them:
 * all of them or, refused (guest-mail-limit), none, and the transaction rolls back with nothing queued.
 */
export async function countGuestMail(sender: Sender & { db: Tx; emails: number }): Promise<void> {
  if (sender.emails === 0) return;
  const quotas = await requireGuestMailAllowance(sender);
  for (const quota of quotas) {
    const wait = await consumeQuota(sender.db, quota, sender.emails);
    if (wait !== null) {
      // Another call took what was left since the look above.
      const { left } = await quotaLeft(sender.db, quota);
      throw limitReached({ scope: quota.scope, requested: sender.emails, remaining: left, retryAfterSeconds: wait });
    }
  }
}
