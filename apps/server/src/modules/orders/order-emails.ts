import { localizeEvent, localizeTicketTypeName } from '@admit/shared/event-content';
import { defaultLocale, isLocale, type Locale } from '@admit/shared/locales';
import { formatOrderReference } from '@admit/shared/orders';
import { and, count, desc, eq, sql, type SQL } from 'drizzle-orm';
import { z } from 'zod';
import type { Config } from '../../platform/config';
import type { Db, Tx } from '../../platform/db/database';
import { enqueueInStatement } from '../../platform/jobs/in-statement';
import type { JobSender } from '../../platform/jobs/job-queue';
import { defineJob } from '../../platform/jobs/job-services';
import { personLanguage } from '../../platform/mail/language-schema';
import { canReceiveMail, canReceiveMailSql } from '../../platform/mail/can-receive-mail';
import type { Email, Mailer } from '../../platform/mail/mailer';
import {
  composeLatePaymentRefundNotice,
  composeOrderConfirmation,
  composeEventCancelledNotice,
  composeGuestLink,
  composeRefundNotice,
  type OrderEmailRecipient,
} from './compose-order-email';
import { organization } from '../../platform/auth/organization-schema';
import { imageUrl, jpegVariantOf, variantBytes } from '../../platform/files/uploads';
import type { FileStorage } from '../../platform/files/storage';
import { event } from '../events/schema';
import { ticket } from '../tickets/schema';
import { ticketAccessToken, ticketsPdf, validTicketsOf } from '../tickets/tickets.api';
import { recordActivityOnce } from './order-activity';
import { linesWithNames } from './order-lines';
import { ticketCountOf } from './order-places';
import { guestOrderUrl } from './order-access';
import { cancellationRefundKey, cancellationRefundKeyOf } from './refund-keys';
import { order } from './schema';
import { refund } from '../payments/schema';
import { orderTopic } from './topics';

export interface OrderEmailDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  /** Where the event's cover and the organization's logo are kept (for the PDF); without it, the PDF has none. */
  storage?: FileStorage;
  /** Refreshes the organizer's order detail, whose timeline gains an "email sent" line. */
  publish?: (...topics: string[]) => void;
  /** The secret order links are signed with: a guest's emails link to their order (decision 0060). */
  config?: Pick<Config, 'AUTH_SECRET'>;
}

// These run in jobs (orders.jobs.ts), enqueued with the change they tell of, so they run only once
// it has committed, and again after a failure: they throw when the email cannot be made or sent,
// and the job is tried again later; a mail server being down never undoes or fails a payment. Each
// email has its own key, so one sent already is not sent again. Each returns false, having sent
// nothing, when the buyer has no address that can receive mail (people who signed up with a phone
// number get a reserved `.invalid` one until they add theirs; a guest-list plus-one has none at
// all) or the email went out before.

export async function findOrderWithEvent(db: Db, orderId: string) {
  const [found] = await db
    .select({ order, event, organizer: organization.name, logoFile: organization.logo, accountLocale: personLanguage.locale })
    .from(order)
    .innerJoin(event, eq(event.id, order.eventId))
    .innerJoin(organization, eq(organization.id, event.organizationId))
    .leftJoin(personLanguage, eq(personLanguage.userId, order.buyerId))
    .where(eq(order.id, orderId));
  if (!found) throw new Error(`No order ${orderId}`);
  return found;
}

type Found = Awaited<ReturnType<typeof findOrderWithEvent>>;

/** The cover's and the logo's JPEG variants an email shows (by URL) and a PDF embeds (by bytes). */
export async function picturesFor(deps: OrderEmailDeps, found: Found) {
  const [cover, logo] = await Promise.all([
    jpegVariantOf(deps.db, found.event.coverFile, 800),
    jpegVariantOf(deps.db, found.logoFile, 100),
  ]);
  const image = (variant: typeof cover) =>
    variant && { src: new URL(imageUrl(variant.key), deps.publicUrl).toString(), width: variant.width, height: variant.height };
  return {
    images: { cover: image(cover), logo: image(logo) },
    bytes: async () => ({
      cover: cover && deps.storage ? await variantBytes(deps.storage, cover.key) : null,
      logo: logo && deps.storage ? await variantBytes(deps.storage, logo.key) : null,
    }),
  };
}

/**
 * The event as the buyer reads it: its title and venue in the order's language when the event has
 * a translation into it, else in its main language (decision 0040).
 */
export const eventIn = (found: Found, locale: Locale) => {
  const { title, venue } = localizeEvent(found.event, locale);
  return { ...found.event, title, venue };
};

export function recipientOf(found: Found, publicUrl: string): OrderEmailRecipient {
  // The language the buyer chose last in the app, else the one they ordered in.
  const locale = isLocale(found.accountLocale)
    ? found.accountLocale
    : isLocale(found.order.locale)
      ? found.order.locale
      : defaultLocale;
  return {
    to: found.order.email,
    locale,
    name: found.order.buyerName,
    currency: found.order.currency,
    event: eventIn(found, locale),
    organizer: found.organizer,
    publicUrl,
  };
}

/**
 * Sends an email of an order once, and writes its "email sent" line on the order's timeline once:
 * also when an earlier try sent it and stopped (a worker killed) before writing the line. False
 * when an earlier try had sent it.
 */
export async function sendOnce(deps: OrderEmailDeps, orderId: string, email: Email, key: string, detail: Record<string, string>) {
  const sent = await deps.mailer.send(email, { idempotencyKey: key });
  if (await recordActivityOnce(deps.db, `email:${key}`, orderId, 'email_sent', detail)) deps.publish?.(orderTopic(orderId));
  return sent;
}

/**
 * Emails the buyer of a paid order its summary, each valid ticket's QR code and a PDF of the
 * tickets, in the order's language and currency. Sent once per order, however often it is called
 * (a job tried again): false, having sent nothing, when it went out before.
 */
export async function sendOrderConfirmation(deps: OrderEmailDeps, orderId: string): Promise<boolean> {
  const found = await findOrderWithEvent(deps.db, orderId);
  if (!['paid', 'partially_refunded'].includes(found.order.status))
    throw new Error(`Order ${orderId} is ${found.order.status}: there is nothing to confirm`);
  if (!canReceiveMail(found.order.email)) return false;

  const recipient = recipientOf(found, deps.publicUrl);
  // Ticket type names in the language the event's words are shown in (decision 0040).
  const language = { contentLocale: found.event.contentLocale, shownIn: localizeEvent(found.event, recipient.locale).locale };
  const lines = (await linesWithNames(deps.db, orderId)).map(({ nameTranslations, ...line }) => ({
    ...line,
    ticketTypeName: localizeTicketTypeName(
      { name: line.ticketTypeName, nameTranslations },
      language.contentLocale,
      language.shownIn,
    ).name,
  }));
  const tickets = await validTicketsOf(deps.db, { orderId, buyersOnly: true }, language);
  if (tickets.length === 0) throw new Error(`Order ${orderId} has no valid tickets to send`);

  const pictures = await picturesFor(deps, found);
  const reference = formatOrderReference(orderId);
  const pdf = await ticketsPdf({
    locale: recipient.locale,
    event: recipient.event,
    organizer: found.organizer,
    orderReference: reference,
    tickets,
    pictures: await pictures.bytes(),
  });
  const email = await composeOrderConfirmation({
    ...recipient,
    images: pictures.images,
    reference,
    total: found.order.total,
    lines,
    // Each ticket's own token opens its wallet passes (and its PDF) from any device, without a session.
    // Without the secret (deps made by hand in tests), the email has no wallet links.
    tickets: tickets.map((one) => ({
      ...one,
      accessToken: deps.config?.AUTH_SECRET ? ticketAccessToken(deps.config, one.id) : undefined,
    })),
    pdf: { filename: `${found.event.slug}-tickets.pdf`, content: pdf },
    // Nobody's account holds a guest's order: the email's link opens it.
    orderUrl: found.order.buyerId === null && deps.config ? guestOrderUrl(deps.config, deps.publicUrl, orderId) : undefined,
  });
  return sendOnce(deps, orderId, email, `order-confirmation:${orderId}`, { kind: 'confirmation', to: found.order.email });
}

/**
 * The link that confirms a guest's free places (decision 0060): opening it issues the tickets.
 * Sent once per order; not when the hold ended or was confirmed meanwhile.
 */
export async function sendGuestLink(deps: OrderEmailDeps & { config: Pick<Config, 'AUTH_SECRET'> }, orderId: string) {
  const found = await findOrderWithEvent(deps.db, orderId);
  if (found.order.status !== 'pending' || !canReceiveMail(found.order.email)) return false;
  const email = await composeGuestLink({
    ...recipientOf(found, deps.publicUrl),
    images: (await picturesFor(deps, found)).images,
    count: await ticketCountOf(deps.db, orderId),
    holdMinutes: found.event.holdMinutes,
    url: guestOrderUrl(deps.config, deps.publicUrl, orderId),
  });
  return sendOnce(deps, orderId, email, `guest-link:${orderId}`, { kind: 'guest-link', to: found.order.email });
}

/**
 * "We refunded €25.00 for Jazz night": the amount, the reason and what became of the tickets, to
 * the buyer. Call it once a refund is made (succeeded, or pending at the provider); a refund that
 * failed or was cancelled throws, as nothing was refunded.
 */
export async function sendRefundNotice(deps: OrderEmailDeps, refundId: string): Promise<boolean> {
  const [given] = await deps.db.select().from(refund).where(eq(refund.id, refundId));
  if (!given) throw new Error(`No refund ${refundId}`);
  if (!['succeeded', 'pending'].includes(given.status))
    throw new Error(`Refund ${refundId} is ${given.status}: nothing was refunded`);
  // A cancelled event's refunds are told in its cancellation notice, one email per order.
  if (given.idempotencyKey === cancellationRefundKey(given.orderId)) return false;
  const found = await findOrderWithEvent(deps.db, given.orderId);
  if (!canReceiveMail(found.order.email)) return false;

  const [valid] = await deps.db
    .select({ count: count() })
    .from(ticket)
    .where(and(eq(ticket.orderId, given.orderId), eq(ticket.status, 'valid')));
  const email = await composeRefundNotice({
    ...recipientOf(found, deps.publicUrl),
    amount: given.amount,
    reason: given.reason,
    voidedTickets: given.ticketIds.length,
    validTicketsLeft: valid?.count ?? 0,
  });
  return sendOnce(deps, given.orderId, email, `refund-notice:${refundId}`, {
    kind: 'refund',
    refundId,
    to: found.order.email,
  });
}

/**
 * Tells the buyer that their payment came after the hold had ended, the places were gone, and the
 * whole payment was refunded with no tickets issued (checkout's `refunded-late` outcome).
 */
export async function sendLatePaymentRefundNotice(deps: OrderEmailDeps, orderId: string): Promise<boolean> {
  const found = await findOrderWithEvent(deps.db, orderId);
  if (found.order.refundedAmount <= 0) throw new Error(`Order ${orderId} has no refund to tell of`);
  if (!canReceiveMail(found.order.email)) return false;

  const email = await composeLatePaymentRefundNotice({
    ...recipientOf(found, deps.publicUrl),
    amount: found.order.refundedAmount,
    eventUrl: new URL(`/e/${encodeURIComponent(found.event.slug)}`, deps.publicUrl).toString(),
  });
  return sendOnce(deps, orderId, email, `late-payment-refund:${orderId}`, { kind: 'late_payment_refund', to: found.order.email });
}

/**
 * Tells one person (an email address) that the event is cancelled, their tickets void, and what
 * they get back: the cancellation's refunds of all their orders of it (recorded before this is
 * enqueued), with the organizer's message, in the language of their newest order. Once per person
 * and event; each order's timeline says it was sent.
 */
export async function sendEventCancelledNotice(
  deps: OrderEmailDeps,
  input: { eventId: string; email: string; message: string },
): Promise<boolean> {
  const email = input.email.toLowerCase();
  if (!canReceiveMail(email)) return false;
  const theirs = await deps.db
    .select({ id: order.id, amount: refund.amount, status: refund.status })
    .from(order)
    .innerJoin(refund, and(eq(refund.orderId, order.id), eq(refund.idempotencyKey, cancellationRefundKeyOf(order.id))))
    .where(and(eq(order.eventId, input.eventId), sql`lower(${order.email}) = ${email}`))
    .orderBy(desc(order.createdAt), desc(order.id));
  // Orders whose refund the provider refused stay paid, for the organizer to settle: not told of here.
  const told = theirs.filter((one) => one.status !== 'failed' && one.status !== 'canceled');
  if (told.length === 0) return false;
  const found = await findOrderWithEvent(deps.db, told[0]!.id);
  if (found.event.status !== 'cancelled') throw new Error(`The event ${input.eventId} is not cancelled`);
  const composed = await composeEventCancelledNotice({
    ...recipientOf(found, deps.publicUrl),
    refunded: told.reduce((sum, one) => sum + one.amount, 0),
    orderReferences: told.length > 1 ? told.map((one) => formatOrderReference(one.id)).reverse() : [],
    message: input.message,
  });
  const key = `event-cancelled:${input.eventId}:${email}`;
  const sent = await deps.mailer.send(composed, { idempotencyKey: key });
  for (const one of told)
    if (
      await recordActivityOnce(deps.db, `email:event-cancelled:${one.id}`, one.id, 'email_sent', {
        kind: 'event_cancelled',
        to: found.order.email,
      })
    )
      deps.publish?.(orderTopic(one.id));
  return sent;
}

const OrderJobData = z.object({ orderId: z.string() });

/** The tickets of an order that became paid (or a free order), with their QR codes and PDF. */
export const sendConfirmationJob = defineJob({
  name: 'orders.sendConfirmation',
  data: OrderJobData,
  // A rush makes thousands at once: two workers, each taking twenty at a time (one fetch and one
  // completion for twenty emails; an email takes a few milliseconds, decision 0068).
  concurrency: 2,
  batchSize: 20,
  async handler({ orderId }, { services, log }) {
    const [found] = await services.db.select({ status: order.status }).from(order).where(eq(order.id, orderId));
    // Refunded in full before the email went out: there is nothing left to confirm.
    if (!found || !['paid', 'partially_refunded'].includes(found.status)) {
      log.info({ orderId, status: found?.status }, 'confirmation not sent: the order has no tickets any more');
      return;
    }
    await sendOrderConfirmation(services, orderId);
  },
});

/**
 * Enqueues the confirmation of an order that became complete, in the change's transaction: none for
 * a buyer who cannot be emailed (no job to run for nothing).
 */
export async function enqueueConfirmation(jobs: JobSender, tx: Tx | Db, placed: { orderId: string; email: string }) {
  if (canReceiveMail(placed.email)) await jobs.enqueue(tx, sendConfirmationJob, { orderId: placed.orderId });
}

/**
 * The same as part of a larger statement (orders placed in one round trip): a confirmation job for
 * each row of `placed` (with `order_id` and `email` columns) whose buyer can be emailed.
 */
export function confirmationsInStatement(placed: SQL): SQL {
  return enqueueInStatement(
    sendConfirmationJob as never,
    sql`jsonb_build_object('orderId', mailable.order_id)`,
    sql`(select order_id from ${placed} where ${canReceiveMailSql(sql`email`)}) as mailable`,
  );
}

/** A guest's free places: the link that confirms the address and issues the tickets. */
export const sendGuestLinkJob = defineJob({
  name: 'orders.sendGuestLink',
  data: OrderJobData,
  async handler({ orderId }, { services }) {
    await sendGuestLink(services, orderId);
  },
});

/** "We refunded €25.00": once the provider has the refund. */
export const sendRefundNoticeJob = defineJob({
  name: 'orders.sendRefundNotice',
  data: z.object({ refundId: z.string() }),
  async handler({ refundId }, { services }) {
    await sendRefundNotice(services, refundId);
  },
});

/**
 * A person's orders of a cancelled event are done (payments/cancel-event-orders.ts enqueues it after their
 * last one). An `orderId` instead of a person: a job enqueued before notices went to people; it
 * tells that order's buyer of all their orders.
 */
export const sendEventCancelledNoticeJob = defineJob({
  name: 'orders.sendEventCancelledNotice',
  data: z.union([
    z.object({ eventId: z.string(), email: z.string().max(320), message: z.string().max(1_000) }),
    z.object({ orderId: z.string(), message: z.string().max(1_000) }),
  ]),
  concurrency: 2,
  batchSize: 5,
  async handler(data, { services }) {
    if ('eventId' in data) {
      await sendEventCancelledNotice(services, data);
      return;
    }
    const [found] = await services.db
      .select({ eventId: order.eventId, email: order.email })
      .from(order)
      .where(eq(order.id, data.orderId));
    if (found) await sendEventCancelledNotice(services, { ...found, message: data.message });
  },
});

/** A payment that came after its hold had ended and its places were gone was refunded in full. */
export const sendLatePaymentRefundNoticeJob = defineJob({
  name: 'orders.sendLatePaymentRefundNotice',
  data: OrderJobData,
  async handler({ orderId }, { services }) {
    await sendLatePaymentRefundNotice(services, orderId);
  },
});
