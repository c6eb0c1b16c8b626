import { localizeTicketTypeName } from '@admit/shared/event-content';
import { defaultLocale, isLocale, type Locale } from '@admit/shared/locales';
import { formatOrderReference } from '@admit/shared/orders';
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../platform/config';
import type { Tx } from '../../platform/db/database';
import type { JobSender } from '../../platform/jobs/job-queue';
import { defineJob } from '../../platform/jobs/job-services';
import { canReceiveMail } from '../../platform/mail/can-receive-mail';
import { personLanguage } from '../../platform/mail/language-schema';
import { ticketType } from '../events/schema';
import { ticket, ticketTransfer } from '../tickets/schema';
import {
  ticketAccessToken,
  ticketsPdf,
  transferSettingsOf,
  transfersCloseAt,
  transferToken,
  validTicketsOf,
} from '../tickets/tickets.api';
import { composeTicketGiven, composeTransferOffer, composeTransferredTicket } from './compose-transfer-email';
import { eventIn, findOrderWithEvent, picturesFor, recipientOf, sendOnce, type OrderEmailDeps } from './order-emails';

// The emails of a ticket sent on (decision 0065), sent by jobs enqueued with the step they tell of:
// each once (its own key), and written on the order's timeline as every email of an order is.

type Deps = OrderEmailDeps & { config: Pick<Config, 'AUTH_SECRET'> };

/** A transfer with its order and event, the ticket type's name, and the recipient's account language if they have one. */
async function findTransfer(deps: Deps, transferId: string) {
  const [row] = await deps.db
    .select({ transfer: ticketTransfer, ticketTypeName: ticketType.name, nameTranslations: ticketType.nameTranslations })
    .from(ticketTransfer)
    .innerJoin(ticket, eq(ticket.id, ticketTransfer.ticketId))
    .innerJoin(ticketType, eq(ticketType.id, ticket.ticketTypeId))
    .where(eq(ticketTransfer.id, transferId));
  if (!row) throw new Error(`No transfer ${transferId}`);
  const found = await findOrderWithEvent(deps.db, row.transfer.orderId);
  return { ...row, found };
}

/** What the email says of the event and the ticket type in `locale`, to `to`, named `name`. */
function writtenTo(
  deps: Deps,
  found: Awaited<ReturnType<typeof findTransfer>>,
  to: { email: string; name: string; locale: Locale },
) {
  const event = eventIn(found.found, to.locale);
  const ticketTypeName = localizeTicketTypeName(
    { name: found.ticketTypeName, nameTranslations: found.nameTranslations },
    found.found.event.contentLocale,
    to.locale,
  ).name;
  return { ...recipientOf(found.found, deps.publicUrl), to: to.email, name: to.name, locale: to.locale, event, ticketTypeName };
}

const localeOr = (locale: string | null | undefined): Locale => (isLocale(locale) ? locale : defaultLocale);

/** The link to accept a ticket, to its recipient, in the sender's language. Nothing once the transfer was decided. */
export async function sendTransferOffer(deps: Deps, transferId: string): Promise<boolean> {
  const found = await findTransfer(deps, transferId);
  const { transfer } = found;
  if (transfer.status !== 'pending' || !canReceiveMail(transfer.toEmail)) return false;
  const acceptUntil = transfersCloseAt(await transferSettingsOf(deps.db, transfer.eventId), found.found.event.startsAt);
  if (!acceptUntil) return false;
  const url = new URL(`/transfers/${encodeURIComponent(transfer.id)}`, deps.publicUrl);
  url.searchParams.set('token', transferToken(deps.config, transfer.id));
  const email = composeTransferOffer({
    ...writtenTo(deps, found, { email: transfer.toEmail, name: '', locale: localeOr(transfer.locale) }),
    images: (await picturesFor(deps, found.found)).images,
    from: transfer.fromName,
    acceptUntil,
    url: url.toString(),
  });
  return sendOnce(deps, transfer.orderId, email, `transfer-offer:${transfer.id}`, {
    kind: 'transfer-offer',
    to: transfer.toEmail,
  });
}

/** Once accepted: the ticket to its new holder (with its PDF and link), and a word to the person who sent it. */
export async function sendTransferAccepted(deps: Deps, transferId: string): Promise<void> {
  const found = await findTransfer(deps, transferId);
  const { transfer } = found;
  if (transfer.status !== 'accepted' || !transfer.newTicketId || !transfer.toName) return;
  const [held] = await deps.db
    .select({ holderUserId: ticket.holderUserId, locale: personLanguage.locale })
    .from(ticket)
    .leftJoin(personLanguage, eq(personLanguage.userId, ticket.holderUserId))
    .where(eq(ticket.id, transfer.newTicketId));
  const pictures = await picturesFor(deps, found.found);

  if (canReceiveMail(transfer.toEmail)) {
    const shown = writtenTo(deps, found, {
      email: transfer.toEmail,
      name: transfer.toName,
      locale: localeOr(held?.locale ?? transfer.locale),
    });
    const language = { contentLocale: found.found.event.contentLocale, shownIn: shown.locale };
    const [one] = await validTicketsOf(deps.db, { ticketId: transfer.newTicketId }, language);
    // Refunded (or sent on again) before this ran: there is no ticket to send.
    if (one) {
      const pdf = await ticketsPdf({
        locale: shown.locale,
        event: shown.event,
        organizer: found.found.organizer,
        orderReference: formatOrderReference(transfer.orderId),
        tickets: [one],
        pictures: await pictures.bytes(),
      });
      const url = new URL(`/tickets/${encodeURIComponent(one.id)}`, deps.publicUrl);
      url.searchParams.set('token', ticketAccessToken(deps.config, one.id));
      const email = composeTransferredTicket({
        ...shown,
        images: pictures.images,
        from: transfer.fromName,
        ticket: one,
        pdf: { filename: `${found.found.event.slug}-ticket.pdf`, content: pdf },
        url: url.toString(),
      });
      await sendOnce(deps, transfer.orderId, email, `transfer-ticket:${transfer.id}`, {
        kind: 'transfer-ticket',
        to: transfer.toEmail,
      });
    }
  }
  if (canReceiveMail(transfer.fromEmail)) {
    const shown = writtenTo(deps, found, {
      email: transfer.fromEmail,
      name: transfer.fromName,
      locale: localeOr(transfer.locale),
    });
    const email = composeTicketGiven({
      ...shown,
      images: pictures.images,
      recipientName: transfer.toName,
      url: new URL('/tickets', deps.publicUrl).toString(),
    });
    await sendOnce(deps, transfer.orderId, email, `transfer-given:${transfer.id}`, {
      kind: 'transfer-given',
      to: transfer.fromEmail,
    });
  }
}

export const sendTransferOfferJob = defineJob({
  name: 'orders.sendTransferOffer',
  data: z.object({ transferId: z.string() }),
  async handler({ transferId }, { services }) {
    await sendTransferOffer(services, transferId);
  },
});

export const sendTransferAcceptedJob = defineJob({
  name: 'orders.sendTransferAccepted',
  data: z.object({ transferId: z.string() }),
  async handler({ transferId }, { services }) {
    await sendTransferAccepted(services, transferId);
  },
});

/** The tickets module's TicketChangeOnOrder.tellOfTransfer: the step's emails, enqueued in its transaction. */
export async function tellOfTransfer(tx: Tx, jobs: JobSender, transferId: string, what: 'sent' | 'accepted') {
  await jobs.enqueue(tx, what === 'sent' ? sendTransferOfferJob : sendTransferAcceptedJob, { transferId });
}
