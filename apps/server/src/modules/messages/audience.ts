import type { MessageAudience } from '@admit/shared/attendee-messages';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { user } from '../../platform/auth/schema';
import type { Db, Tx } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import { personLanguage } from '../../platform/mail/language-schema';
import { ticketType } from '../events/schema';
import { order } from '../orders/schema';
import { ticket } from '../tickets/schema';
import { attendeeMessageRecipient } from './schema';
import { canReceiveMailSql } from '../../platform/mail/can-receive-mail';

/** How many people one job sends to: a try that dies is tried again by another worker after `expireInSeconds`. */
export const recipientsPerBatch = 10;

/**
 * No address that takes mail: people who signed up with a phone number have a reserved one until they
 * add theirs (decision 0028), and a deleted account's tickets keep no address at all.
 */
const unreachable = (email: SQL) => sql`not ${canReceiveMailSql(email)}`;

/** The ticket types named must be the event's own. */
export async function checkAudience(db: Db | Tx, eventId: string, audience: MessageAudience): Promise<void> {
  if (audience.ticketTypeIds.length === 0) return;
  const found = await db
    .select({ id: ticketType.id })
    .from(ticketType)
    .where(and(eq(ticketType.eventId, eventId), inArray(ticketType.id, audience.ticketTypeIds)));
  if (found.length !== new Set(audience.ticketTypeIds).size)
    throw new CallableError('invalid-argument', 'A chosen ticket type is not one of this event’s', {
      fields: [{ path: 'audience.ticketTypeIds', message: 'Choose ticket types of this event', code: 'custom' }],
    });
}

/**
 * The people a message reaches, one row per address (lower case): holders of the event's valid
 * tickets of the chosen types, by their state at the door. Each is written to in the language
 * they chose in the app, else the one they ordered in, else the event's own.
 */
function audienceQuery(eventId: string, audience: MessageAudience, fallbackLocale: string): SQL {
  const conditions = [eq(ticket.eventId, eventId), eq(ticket.status, 'valid')];
  if (audience.ticketTypeIds.length > 0) conditions.push(inArray(ticket.ticketTypeId, audience.ticketTypeIds));
  if (audience.checkIn === 'checked-in') conditions.push(sql`${ticket.checkedInAt} is not null`);
  if (audience.checkIn === 'not-checked-in') conditions.push(sql`${ticket.checkedInAt} is null`);
  return sql`select lower(${ticket.holderEmail}) as email,
      min(${ticket.holderName}) as name,
      coalesce(max(${personLanguage.locale}), max(${order.locale}), ${fallbackLocale}) as locale,
      array_agg(distinct ${ticket.orderId}) as order_ids,
      bool_and(${order.paymentProvider} = 'import') as guest
    from ${ticket}
    inner join ${order} on ${order.id} = ${ticket.orderId}
    left join ${user} on ${user.email} = lower(${ticket.holderEmail})
    left join ${personLanguage} on ${personLanguage.userId} = ${user.id}
    where ${and(...conditions)}
    group by lower(${ticket.holderEmail})`;
}

/**
 * How many people a message would reach now, how many of them have no address that takes mail,
 * and how many of those with one never bought a ticket: every ticket of theirs came from a guest
 * list (their emails count against the guest-mail limits, guest-mail.ts).
 */
export async function countAudience(
  db: Db | Tx,
  eventId: string,
  audience: MessageAudience,
): Promise<{ recipients: number; unreachable: number; guests: number }> {
  const result = await db.execute(
    sql`select count(*)::int as recipients, (count(*) filter (where ${unreachable(sql.raw('email'))}))::int as unreachable,
        (count(*) filter (where guest and not ${unreachable(sql.raw('email'))}))::int as guests
      from (${audienceQuery(eventId, audience, 'en')}) as audience`,
  );
  const [row] = (result as unknown as { rows: { recipients: number; unreachable: number; guests: number }[] }).rows;
  return {
    recipients: Number(row?.recipients ?? 0),
    unreachable: Number(row?.unreachable ?? 0),
    guests: Number(row?.guests ?? 0),
  };
}

/**
 * Writes the message's recipients as they are now (a ticket sold or given to someone else later is
 * not among them), each in a batch of `recipientsPerBatch`; those without an address are done at
 * once. Returns how many there are, and how many of those waiting never bought a ticket.
 */
export async function fixRecipients(
  tx: Tx,
  message: { id: string; eventId: string; audience: MessageAudience; fallbackLocale: string },
): Promise<{ recipients: number; unreachable: number; guests: number }> {
  await tx.execute(
    sql`insert into ${attendeeMessageRecipient} (message_id, email, name, locale, order_ids, batch, status)
      select ${message.id}, email, name, locale, order_ids,
        ((row_number() over (order by email)) - 1) / ${recipientsPerBatch},
        case when ${unreachable(sql.raw('email'))} then 'unreachable' end
      from (${audienceQuery(message.eventId, message.audience, message.fallbackLocale)}) as audience`,
  );
  const [counts] = await tx
    .select({
      recipients: sql<number>`count(*)::int`,
      unreachable: sql<number>`(count(*) filter (where ${attendeeMessageRecipient.status} = 'unreachable'))::int`,
      // Waiting for their email, and none of their orders is one they placed: guests typed into a list.
      guests: sql<number>`(count(*) filter (where ${attendeeMessageRecipient.status} is null and not exists (
        select 1 from ${order} where ${order.id} = any(${attendeeMessageRecipient.orderIds})
          and ${order.paymentProvider} is distinct from 'import')))::int`,
    })
    .from(attendeeMessageRecipient)
    .where(eq(attendeeMessageRecipient.messageId, message.id));
  return {
    recipients: Number(counts?.recipients ?? 0),
    unreachable: Number(counts?.unreachable ?? 0),
    guests: Number(counts?.guests ?? 0),
  };
}
