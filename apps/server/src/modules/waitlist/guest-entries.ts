import { localizeEvent } from '@admit/shared/event-content';
import { defaultLocale, isLocale } from '@admit/shared/locales';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { linkToken, linkTokenOpens } from '../../platform/auth/link-tokens';
import { organization } from '../../platform/auth/organization-schema';
import type { Config } from '../../platform/config';
import { defineJob, type JobServices } from '../../platform/jobs/job-services';
import { canReceiveMail } from '../../platform/mail/can-receive-mail';
import { event } from '../events/schema';
import { composeWaitlistConfirmation } from '../orders/orders.api';
import { waitlistEntry } from './schema';

// A guest on a waiting list (decision 0064): they join with a name and an address, and their place
// counts once they open the link emailed there, as a guest's free places do (decision 0060). The
// link's token (an HMAC of the entry's id) then opens their entry: its place live, leaving, taking
// an offer.

const purpose = 'waitlist entry';

/** The token that opens one guest's entry. */
export const entryToken = (config: Pick<Config, 'AUTH_SECRET'>, entryId: string) => linkToken(config, purpose, entryId);

/** Whether the token opens this entry (compared in constant time). */
export const entryTokenOpens = (config: Pick<Config, 'AUTH_SECRET'>, entryId: string, token: string | undefined) =>
  linkTokenOpens(config, purpose, entryId, token);

/** The page a guest's link opens: their entry, confirmed on the way. */
export function guestEntryUrl(config: Pick<Config, 'AUTH_SECRET'>, publicUrl: string, entryId: string): string {
  const url = new URL(`/waitlist/${encodeURIComponent(entryId)}`, publicUrl);
  url.searchParams.set('token', entryToken(config, entryId));
  return url.toString();
}

/**
 * "Confirm your place on the waiting list": the link to a guest who joined, in the language they
 * joined in. Once per entry (the mailer's key); nothing once it is confirmed or gone.
 */
export async function sendWaitlistConfirmation(services: JobServices, entryId: string): Promise<boolean> {
  const [found] = await services.db
    .select({ entry: waitlistEntry, event, organizer: organization.name })
    .from(waitlistEntry)
    .innerJoin(event, eq(event.id, waitlistEntry.eventId))
    .innerJoin(organization, eq(organization.id, event.organizationId))
    .where(eq(waitlistEntry.id, entryId));
  if (!found || found.entry.status !== 'unconfirmed' || !canReceiveMail(found.entry.email)) return false;
  const locale = isLocale(found.entry.locale) ? found.entry.locale : defaultLocale;
  const { title, venue } = localizeEvent(found.event, locale);
  const email = composeWaitlistConfirmation({
    to: found.entry.email,
    locale,
    name: found.entry.name,
    currency: found.event.currency,
    event: { ...found.event, title, venue },
    organizer: found.organizer,
    publicUrl: services.publicUrl,
    count: found.entry.quantity,
    url: guestEntryUrl(services.config, services.publicUrl, entryId),
  });
  return services.mailer.send(email, { idempotencyKey: `waitlist-confirm:${entryId}` });
}

export const sendWaitlistConfirmationJob = defineJob({
  name: 'waitlist.sendConfirmation',
  data: z.object({ entryId: z.string() }),
  async handler({ entryId }, { services }) {
    await sendWaitlistConfirmation(services, entryId);
  },
});
