import { formatEventStart } from '../../platform/mail/formats';
import type { Email, EmailAttachment } from '../../platform/mail/mailer';
import { mailMessages } from '../../platform/mail/messages';
import { shorten, shownMax } from '../../platform/mail/shown-text';
import { ticketQrPng } from '../tickets/tickets.api';
import { frame, renderEmail, type OrderEmailRecipient } from './compose-order-email';

// The emails of a ticket sent on (decision 0065): the link to its recipient, the ticket itself once
// they accepted it, and a word to the person who sent it.

interface TransferContent extends OrderEmailRecipient {
  /** Who sent it, as they are named to the recipient. */
  from: string;
  ticketTypeName: string;
}

/** "Ana sent you a ticket for Jazz night": the link to accept (or decline) it, until the event's transfer deadline. */
export function composeTransferOffer(content: TransferContent & { acceptUntil: Date; url: string }): Email {
  const { intl, event: shown, common } = frame(content);
  const words = {
    from: shorten(content.from, shownMax.personName),
    event: shown.title,
    ticketType: shorten(content.ticketTypeName, shownMax.title),
  };
  const intro = intl.formatMessage(mailMessages.transferOfferIntro, words);
  const until = formatEventStart(content.locale, content.acceptUntil, content.event.timeZone);
  return renderEmail(content.to, intl.formatMessage(mailMessages.transferOfferSubject, words), {
    ...common,
    preview: intro,
    paragraphs: [intro, intl.formatMessage(mailMessages.transferOfferUntil, { until })],
    notes: [intl.formatMessage(mailMessages.transferOfferIgnore, words)],
    action: { label: intl.formatMessage(mailMessages.transferOfferAction), url: content.url },
  });
}

/** "Your ticket for Jazz night": the accepted ticket with its QR code, its PDF, and the link back to it. */
export function composeTransferredTicket(
  content: TransferContent & {
    ticket: { id: string; code: string; holderName: string };
    pdf: { filename: string; content: Uint8Array };
    url: string;
  },
): Email {
  const { intl, event: shown, common } = frame(content);
  const qr: EmailAttachment = {
    filename: 'ticket-qr.png',
    content: ticketQrPng(content.ticket.code),
    contentType: 'image/png',
    cid: `qr-${content.ticket.id}@admit`,
  };
  const intro = intl.formatMessage(mailMessages.transferTicketIntro, { from: shorten(content.from, shownMax.personName) });
  const ticketType = shorten(content.ticketTypeName, shownMax.title);
  return renderEmail(
    content.to,
    intl.formatMessage(mailMessages.transferTicketSubject, { event: shown.title }),
    {
      ...common,
      preview: intro,
      paragraphs: [intro],
      tickets: {
        heading: shown.title,
        items: [
          {
            qrSrc: `cid:${qr.cid}`,
            qrAlt: intl.formatMessage(mailMessages.orderQrAlt, { code: content.ticket.code }),
            ticketType,
            holder: intl.formatMessage(mailMessages.orderTicketHolder, {
              name: shorten(content.ticket.holderName, shownMax.personName),
            }),
            code: intl.formatMessage(mailMessages.orderTicketCode, { code: content.ticket.code }),
          },
        ],
      },
      notes: [intl.formatMessage(mailMessages.orderAtTheDoor), intl.formatMessage(mailMessages.transferTicketNote)],
      action: { label: intl.formatMessage(mailMessages.transferTicketAction), url: content.url },
    },
    [qr, { filename: content.pdf.filename, content: Buffer.from(content.pdf.content), contentType: 'application/pdf' }],
  );
}

/** "Bo accepted your ticket for Jazz night": to its sender, whose old code no longer admits. */
export function composeTicketGiven(
  content: OrderEmailRecipient & { recipientName: string; ticketTypeName: string; url: string },
): Email {
  const { intl, event: shown, common } = frame(content);
  const words = {
    to: shorten(content.recipientName, shownMax.personName),
    event: shown.title,
    ticketType: shorten(content.ticketTypeName, shownMax.title),
  };
  const intro = intl.formatMessage(mailMessages.transferGivenIntro, words);
  return renderEmail(content.to, intl.formatMessage(mailMessages.transferGivenSubject, words), {
    ...common,
    preview: intro,
    paragraphs: [intro],
    notes: [],
    action: { label: intl.formatMessage(mailMessages.myTicketsAction), url: content.url },
  });
}
