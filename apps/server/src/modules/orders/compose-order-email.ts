import { calendarFilePath, eventCalendarEntry, googleCalendarUrl, outlookCalendarUrl } from '@admit/shared/calendar';
import type { Locale } from '@admit/shared/locales';
import { formatMoney } from '@admit/shared/money';
import { applePassPath, googleWalletPath } from '@admit/shared/tickets';
import { createElement } from 'react';
import { mailIntl, renderEmailParts } from '../../platform/mail/compose';
import { formatEventStart } from '../../platform/mail/formats';
import type { EmailImage } from '../../platform/mail/email-frame';
import type { Email, EmailAttachment } from '../../platform/mail/mailer';
import { mailMessages } from '../../platform/mail/messages';
import { renderWithSlots } from '../../platform/mail/email-template';
import { shorten, shownMax } from '../../platform/mail/shown-text';
import { ticketQrPng } from '../tickets/tickets.api';
import { OrderEmail, type OrderEmailProps } from './order-email';

/** What every email about an order needs: whom to write to, in which language, about which event. */
export interface OrderEmailRecipient {
  to: string;
  locale: Locale;
  /** The buyer's name as they gave it. */
  name: string;
  currency: string;
  event: { id: string; slug: string; title: string; venue: string; startsAt: Date; endsAt: Date; timeZone: string };
  /** The organization whose event it is: named at the top of the email, beside its logo. */
  organizer?: string;
  /** The server's public address: links in the email and the host in its footer. */
  publicUrl: string;
  /** The event's cover and its organization's logo, by absolute URL, where they have them. */
  images?: { cover: EmailImage | null; logo: EmailImage | null };
}

export interface OrderConfirmationContent extends OrderEmailRecipient {
  /** A short reference people can quote ("1A2B3C4D"). */
  reference: string;
  total: number;
  /** Each ticket's price as paid, and the discount its code took off. */
  lines: { ticketTypeName: string; quantity: number; unitPrice: number; discount: number; code: string | null }[];
  /**
   * The tickets that admit someone; each gets its QR code in the email, and with `accessToken` (the
   * token of the ticket's own link) links that add it to Apple Wallet and Google Wallet (decision 0067).
   */
  tickets: { id: string; code: string; holderName: string; ticketTypeName: string; accessToken?: string }[];
  pdf: { filename: string; content: Uint8Array };
  /** A guest's order: the link that opens it (decision 0060), in place of My tickets. */
  orderUrl?: string;
}

export function renderEmail(to: string, subject: string, props: OrderEmailProps, attachments: EmailAttachment[] = []): Email {
  return { to, subject, ...renderEmailParts(createElement(OrderEmail, props)), attachments };
}

const myTicketsUrl = (publicUrl: string) => new URL('/tickets', publicUrl).toString();

/**
 * "Add to Apple Wallet" and "Add to Google Wallet" for one ticket, opened by its own link's token so
 * that they work on the phone the email is read on, signed in or not. The server does not know here
 * whether its wallets are set up: in production without settings the links answer 404 with why.
 */
function walletLinks(ticket: { id: string; accessToken?: string }, publicUrl: string, intl: ReturnType<typeof mailIntl>) {
  if (!ticket.accessToken) return undefined;
  return [
    { label: intl.formatMessage(mailMessages.orderAppleWallet), url: applePassPath(ticket.id, ticket.accessToken) },
    { label: intl.formatMessage(mailMessages.orderGoogleWallet), url: googleWalletPath(ticket.id, ticket.accessToken) },
  ].map((link) => ({ ...link, url: new URL(link.url, publicUrl).toString() }));
}

/** "Add to calendar": the event's calendar file, and Google Calendar's and Outlook.com's forms filled in. */
function calendarLinks(content: OrderEmailRecipient, intl: ReturnType<typeof mailIntl>) {
  const { event } = content;
  const entry = eventCalendarEntry(event, content.publicUrl);
  return {
    label: intl.formatMessage(mailMessages.orderCalendar),
    links: [
      {
        label: intl.formatMessage(mailMessages.orderCalendarFile),
        url: new URL(calendarFilePath(event.slug, content.locale), content.publicUrl).toString(),
      },
      { label: 'Google', url: googleCalendarUrl(entry) },
      { label: 'Outlook.com', url: outlookCalendarUrl(entry) },
    ],
  };
}

/**
 * What every email about an order starts from, with the buyer's name and the event's words as far
 * as an email shows them (decision 0031): rows from before the entrances' limits may hold any
 * length, and the HTML and the text part each carry every word once more.
 */
export function frame(content: OrderEmailRecipient, slot: (value: string) => string = (value) => value) {
  const intl = mailIntl(content.locale);
  // The greeting chooses its words by the name ("none": no name), so a template gets the name's slot only when there is one.
  const name = shorten(content.name, shownMax.personName) || 'none';
  return {
    intl,
    money: (minor: number) => formatMoney(content.locale, minor, content.currency),
    event: { title: shorten(content.event.title, shownMax.title), venue: shorten(content.event.venue, shownMax.venue) },
    common: {
      lang: content.locale,
      greeting: intl.formatMessage(mailMessages.greeting, { name: name === 'none' ? name : slot(name) }),
      buttonFallback: intl.formatMessage(mailMessages.buttonFallback),
      footer: intl.formatMessage(mailMessages.orderFooter, { host: new URL(content.publicUrl).host }),
      banner: content.images?.cover ?? null,
      logo: content.images?.logo ?? null,
      sender: content.organizer ? shorten(content.organizer, shownMax.title) : null,
    },
  };
}

/**
 * The confirmation of a paid (or free) order: the summary, each ticket with its QR code as an
 * inline image (a `cid:` part: mail apps block data: URIs in images), and the PDF of all tickets.
 */
export async function composeOrderConfirmation(content: OrderConfirmationContent): Promise<Email> {
  const qrAttachments = content.tickets.map((ticket, index): EmailAttachment => ({
    filename: `ticket-${index + 1}-qr.png`,
    content: ticketQrPng(ticket.code),
    contentType: 'image/png',
    cid: `qr-${ticket.id}@admit`,
  }));
  const { intl } = frame(content);
  const event = shorten(content.event.title, shownMax.title);
  // What differs between two buyers of the same event goes through `slot`: the rest is rendered once (decision 0068).
  const parts = renderWithSlots(OrderEmail, (slot) => confirmationProps(content, qrAttachments, slot));
  return {
    to: content.to,
    subject: intl.formatMessage(mailMessages.orderSubject, { event }),
    ...parts,
    attachments: [
      ...qrAttachments,
      { filename: content.pdf.filename, content: Buffer.from(content.pdf.content), contentType: 'application/pdf' },
    ],
  };
}

function confirmationProps(
  content: OrderConfirmationContent,
  qrAttachments: EmailAttachment[],
  slot: (value: string) => string,
): OrderEmailProps {
  const { intl, money, event: shown, common } = frame(content, slot);
  const event = shown.title;
  const intro = intl.formatMessage(mailMessages.orderIntro, { count: content.tickets.length, event });
  return {
    ...common,
    preview: intro,
    paragraphs: [intro],
    summary: {
      reference: intl.formatMessage(mailMessages.orderReference, { reference: slot(content.reference) }),
      eventTitle: event,
      whenLabel: intl.formatMessage(mailMessages.orderWhen),
      when: formatEventStart(content.locale, content.event.startsAt, content.event.timeZone),
      whereLabel: intl.formatMessage(mailMessages.orderWhere),
      venue: shown.venue,
      calendar: calendarLinks(content, intl),
      lines: content.lines.map((line) => ({
        label: intl.formatMessage(line.discount > 0 ? mailMessages.orderLineDiscounted : mailMessages.orderLine, {
          quantity: line.quantity,
          ticketType: shorten(line.ticketTypeName, shownMax.title),
          unitPrice: money(line.unitPrice),
          discount: money(line.discount),
          code: line.code ?? '',
        }),
        amount: money(line.quantity * line.unitPrice),
      })),
      totalLabel: intl.formatMessage(mailMessages.orderTotal),
      total: money(content.total),
    },
    tickets: {
      heading: intl.formatMessage(mailMessages.orderTicketsHeading),
      items: content.tickets.map((ticket, index) => ({
        qrSrc: slot(`cid:${qrAttachments[index]!.cid}`),
        qrAlt: intl.formatMessage(mailMessages.orderQrAlt, { code: slot(ticket.code) }),
        ticketType: shorten(ticket.ticketTypeName, shownMax.title),
        holder: intl.formatMessage(mailMessages.orderTicketHolder, {
          name: slot(shorten(ticket.holderName, shownMax.personName)),
        }),
        code: intl.formatMessage(mailMessages.orderTicketCode, { code: slot(ticket.code) }),
        wallets: walletLinks(ticket, content.publicUrl, intl)?.map((link) => ({ ...link, url: slot(link.url) })),
      })),
    },
    notes: [
      intl.formatMessage(mailMessages.orderAtTheDoor),
      intl.formatMessage(content.orderUrl ? mailMessages.guestOrderNote : mailMessages.orderMyTickets),
    ],
    action: content.orderUrl
      ? { label: intl.formatMessage(mailMessages.guestOrderAction), url: slot(content.orderUrl) }
      : { label: intl.formatMessage(mailMessages.myTicketsAction), url: myTicketsUrl(content.publicUrl) },
  };
}

export interface GuestLinkContent extends OrderEmailRecipient {
  /** The places held. */
  count: number;
  /** How long the hold lasts from the order. */
  holdMinutes: number;
  /** The order's page with its token: opening it confirms the address and issues the tickets. */
  url: string;
}

/** "Confirm your tickets for Jazz night": a guest's free places, issued when the link is opened. */
export async function composeGuestLink(content: GuestLinkContent): Promise<Email> {
  const { intl, event: shown, common } = frame(content);
  const event = shown.title;
  const intro = intl.formatMessage(mailMessages.guestLinkIntro, { count: content.count, event });
  return renderEmail(content.to, intl.formatMessage(mailMessages.guestLinkSubject, { event }), {
    ...common,
    preview: intro,
    paragraphs: [intro, intl.formatMessage(mailMessages.guestLinkHold, { minutes: content.holdMinutes })],
    notes: [intl.formatMessage(mailMessages.guestLinkIgnore)],
    action: { label: intl.formatMessage(mailMessages.guestLinkAction), url: content.url },
  });
}

/** "Confirm your place on the waiting list for Jazz night": to a guest who joined, with their link (decision 0064). */
export function composeWaitlistConfirmation(content: OrderEmailRecipient & { count: number; url: string }): Email {
  const { intl, event: shown, common } = frame(content);
  const event = shown.title;
  const intro = intl.formatMessage(mailMessages.waitlistJoinIntro, { count: content.count, event });
  return renderEmail(content.to, intl.formatMessage(mailMessages.waitlistJoinSubject, { event }), {
    ...common,
    preview: intro,
    paragraphs: [intro],
    notes: [intl.formatMessage(mailMessages.waitlistJoinIgnore)],
    action: { label: intl.formatMessage(mailMessages.waitlistJoinAction), url: content.url },
  });
}

export interface WaitlistOfferContent extends OrderEmailRecipient {
  count: number;
  total: number;
  expiresAt: Date;
  /** The order's page (to pay) or the event's (to accept free tickets). */
  url: string;
}

/** "Places came free for Jazz night": an offer to someone on the waiting list, held until a time (decision 0064). */
export function composeWaitlistOffer(content: WaitlistOfferContent): Email {
  const { intl, money, event: shown, common } = frame(content);
  const event = shown.title;
  const intro = intl.formatMessage(mailMessages.waitlistOfferIntro, { count: content.count, event, total: money(content.total) });
  const until = formatEventStart(content.locale, content.expiresAt, content.event.timeZone);
  return renderEmail(content.to, intl.formatMessage(mailMessages.waitlistOfferSubject, { event }), {
    ...common,
    preview: intro,
    paragraphs: [intro, intl.formatMessage(mailMessages.waitlistOfferHold, { until })],
    notes: [intl.formatMessage(mailMessages.waitlistOfferIgnore)],
    action: {
      label: intl.formatMessage(content.total > 0 ? mailMessages.waitlistOfferPay : mailMessages.waitlistOfferAccept),
      url: content.url,
    },
  });
}

export interface RefundNoticeContent extends OrderEmailRecipient {
  amount: number;
  /** As the organizer wrote it. */
  reason: string;
  /** Tickets this refund voided, and valid tickets the order still has. */
  voidedTickets: number;
  validTicketsLeft: number;
}

/** "We refunded €25.00 for Jazz night", with the organizer's reason and what became of the tickets. */
export async function composeRefundNotice(content: RefundNoticeContent): Promise<Email> {
  const { intl, money, event: shown, common } = frame(content);
  const event = shown.title;
  const intro = intl.formatMessage(mailMessages.refundIntro, { amount: money(content.amount), event });
  const reason = shorten(content.reason, shownMax.reason);
  const paragraphs = [intro, intl.formatMessage(mailMessages.refundReason, { reason })];
  if (content.voidedTickets > 0)
    paragraphs.push(
      intl
        .formatMessage(mailMessages.refundVoidedTickets, {
          count: content.voidedTickets,
          remaining: content.validTicketsLeft,
        })
        .trim(),
    );
  return renderEmail(content.to, intl.formatMessage(mailMessages.refundSubject, { event }), {
    ...common,
    preview: intro,
    paragraphs,
    notes: [intl.formatMessage(mailMessages.refundTiming)],
    action: { label: intl.formatMessage(mailMessages.myTicketsAction), url: myTicketsUrl(content.publicUrl) },
  });
}

export interface LatePaymentRefundContent extends OrderEmailRecipient {
  amount: number;
  /** The event's page, to try again if places come free. */
  eventUrl: string;
}

/** A payment that arrived after the hold ended, when the places were gone: refunded in full, no tickets. */
export async function composeLatePaymentRefundNotice(content: LatePaymentRefundContent): Promise<Email> {
  const { intl, money, event: shown, common } = frame(content);
  const event = shown.title;
  const intro = intl.formatMessage(mailMessages.lateRefundIntro, { amount: money(content.amount), event });
  return renderEmail(content.to, intl.formatMessage(mailMessages.lateRefundSubject, { event }), {
    ...common,
    preview: intro,
    paragraphs: [intro, intl.formatMessage(mailMessages.lateRefundOutcome)],
    notes: [intl.formatMessage(mailMessages.refundTiming)],
    action: { label: intl.formatMessage(mailMessages.lateRefundAction), url: content.eventUrl },
  });
}

export interface EventCancelledContent extends OrderEmailRecipient {
  /** What the person's orders get back together; 0 for free tickets. */
  refunded: number;
  /** The references of the person's orders when there are several (one email tells of all of them). */
  orderReferences?: string[];
  /** The organizer's words to their buyers, maybe empty. */
  message: string;
}

/** "Jazz night is cancelled": the tickets are void, the money comes back, with the organizer's message. */
export async function composeEventCancelledNotice(content: EventCancelledContent): Promise<Email> {
  const { intl, money, event: shown, common } = frame(content);
  const event = shown.title;
  const when = formatEventStart(content.locale, content.event.startsAt, content.event.timeZone);
  const intro = intl.formatMessage(mailMessages.cancelledIntro, { event, when });
  const paragraphs = [intro];
  const references = content.orderReferences ?? [];
  if (references.length > 1)
    paragraphs.push(
      intl.formatMessage(mailMessages.cancelledOrders, {
        count: references.length,
        references: intl.formatList(references, { type: 'conjunction' }),
      }),
    );
  const message = shorten(content.message, shownMax.reason);
  if (message) paragraphs.push(intl.formatMessage(mailMessages.cancelledMessage, { message }));
  paragraphs.push(
    content.refunded > 0
      ? intl.formatMessage(mailMessages.cancelledRefund, { amount: money(content.refunded) })
      : intl.formatMessage(mailMessages.cancelledFree),
  );
  return renderEmail(content.to, intl.formatMessage(mailMessages.cancelledSubject, { event }), {
    ...common,
    preview: intro,
    paragraphs,
    notes: content.refunded > 0 ? [intl.formatMessage(mailMessages.refundTiming)] : [],
    action: { label: intl.formatMessage(mailMessages.myTicketsAction), url: myTicketsUrl(content.publicUrl) },
  });
}
