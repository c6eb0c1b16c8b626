import { APIError } from 'better-auth/api';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/database';

/** What replaces a deleted person's name and email on the orders and tickets the organizer keeps. */
export const deletedAccountPlaceholder = 'Deleted account';

/** The error code the browser turns into a sentence (features/account/delete-account-section.tsx). */
export const ownsOrganizationWithUpcomingSalesCode = 'OWNS_ORGANIZATION_WITH_UPCOMING_SALES';
/** Refused while the person owns an organization others belong to: it would be left without an owner. */
export const ownsOrganizationWithMembersCode = 'OWNS_ORGANIZATION_WITH_MEMBERS';

/**
 * Runs before Better Auth deletes a person (decision 0015). Raw SQL because platform code may not
 * import the modules that own these tables. Refuses while the person owns an organization with an
 * event not yet ended that has a paid order, or one that has other members (who would be left
 * without an owner); otherwise erases their name and email from the orders
 * they placed, those orders' tickets, which stay valid, and the records of the messages sent to them. The erasure must happen before the
 * deletion: afterwards `order.buyer_id` is null (ON DELETE SET NULL) and the orders are anonymous.
 */
export async function prepareAccountDeletion(db: Db, userId: string) {
  const blocking = (await db.execute(sql`
    select 1 from member m
    join event e on e.organization_id = m.organization_id
    where m.user_id = ${userId} and m.role = 'owner' and e.ends_at > now()
      and exists (select 1 from "order" o where o.event_id = e.id and o.status = 'paid')
    limit 1`)) as unknown as { rows: unknown[] };
  if (blocking.rows.length > 0)
    throw new APIError('BAD_REQUEST', {
      code: ownsOrganizationWithUpcomingSalesCode,
      message: 'You own an organization with an upcoming event that has paid orders; transfer ownership first.',
    });
  const withMembers = (await db.execute(sql`
    select 1 from member m
    where m.user_id = ${userId} and m.role = 'owner'
      and exists (select 1 from member other where other.organization_id = m.organization_id and other.user_id <> ${userId})
    limit 1`)) as unknown as { rows: unknown[] };
  if (withMembers.rows.length > 0)
    throw new APIError('BAD_REQUEST', {
      code: ownsOrganizationWithMembersCode,
      message: 'You own an organization that has other members; transfer ownership to one of them first.',
    });
  await db.transaction(async (tx) => {
    // The record of who got an organizer's message keeps that someone did, not who (nor sends to them now).
    await tx.execute(sql`
      update attendee_message_recipient
      set name = ${deletedAccountPlaceholder}, email = 'deleted-' || md5(email), status = coalesce(status, 'unreachable')
      where order_ids && array(select id from "order" where buyer_id = ${userId})
        or email = (select lower(email) from "user" where id = ${userId})`);
    await tx.execute(sql`
      update ticket set holder_name = ${deletedAccountPlaceholder}, holder_email = ${deletedAccountPlaceholder}
      where order_id in (select id from "order" where buyer_id = ${userId})`);
    await tx.execute(sql`
      update "order" set buyer_name = ${deletedAccountPlaceholder}, email = ${deletedAccountPlaceholder}
      where buyer_id = ${userId}`);
  });
}
