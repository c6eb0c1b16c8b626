import { z } from 'zod';
import { defineCallableContract } from './callable';
import { ContentLocale, EventTitlesRow, NameTranslationsRow } from './event-content';
import { EventStatus } from './events';
import { defineLiveQueryContract } from './live';
import { ResaleState, ResaleTerms } from './resale';

/**
 * Where an order's valid tickets are, as one PDF (one page each) in the asker's language: for its
 * buyer and its organization's admins.
 */
export function ticketsPdfPath(orderId: string, accessToken?: string): string {
  const path = `/files/orders/${encodeURIComponent(orderId)}/tickets.pdf`;
  return accessToken ? `${path}?token=${encodeURIComponent(accessToken)}` : path;
}

/**
 * Where one ticket is as a PDF, for whoever holds it: a ticket sent on to someone (decision 0065) is
 * theirs, and no longer in its order's PDF for the buyer. `accessToken`: the token of the ticket's own link.
 */
export function ticketPdfPath(ticketId: string, accessToken?: string): string {
  const path = `/files/tickets/${encodeURIComponent(ticketId)}/ticket.pdf`;
  return accessToken ? `${path}?token=${encodeURIComponent(accessToken)}` : path;
}

/**
 * Where one ticket is as an Apple Wallet pass (decision 0067), for whoever may get its PDF.
 * `accessToken`: the token of the ticket's own link, or of a guest's order.
 */
export function applePassPath(ticketId: string, accessToken?: string): string {
  const path = `/files/tickets/${encodeURIComponent(ticketId)}/pass.pkpass`;
  return accessToken ? `${path}?token=${encodeURIComponent(accessToken)}` : path;
}

/** Where one ticket is saved to Google Wallet: a redirect to Google's save page (decision 0067), for whoever may get its PDF. */
export function googleWalletPath(ticketId: string, accessToken?: string): string {
  const path = `/files/tickets/${encodeURIComponent(ticketId)}/google-wallet`;
  return accessToken ? `${path}?token=${encodeURIComponent(accessToken)}` : path;
}

export const TicketStatus = z.enum(['valid', 'void']);

export const MyTicketRow = z.object({
  id: z.string(),
  code: z.string(),
  status: TicketStatus,
  holderName: z.string(),
  ticketTypeName: z.string(),
  orderId: z.string(),
  /** Whether its order cost nothing: a free ticket given back is cancelled, not refunded. */
  freeOrder: z.boolean(),
  eventId: z.string(),
  eventSlug: z.string(),
  eventTitle: z.string(),
  eventStatus: EventStatus,
  venue: z.string(),
  /** The language of eventTitle, venue and ticketTypeName, and their translations (decision 0040). */
  contentLocale: ContentLocale,
  eventTranslations: EventTitlesRow,
  ticketTypeNameTranslations: NameTranslationsRow,
  timeZone: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  checkedInAt: z.string().nullable(),
  /** Until when it may be sent to someone else (decision 0065); null: it cannot be (transfers off, or too late). */
  transferUntil: z.string().nullable(),
  /** Its transfer waiting for the recipient to accept, if any. */
  pendingTransfer: z.object({ id: z.string(), toEmail: z.string() }).nullable(),
  /** Who sent it, when it came by a transfer. */
  receivedFrom: z.string().nullable(),
  /** Its offer for resale (decision 0066), while it waits for a buyer or one is paying; null: not offered. */
  resale: ResaleState.nullable(),
  /** What offering it back would give now; null: it cannot be offered (resale off, or not its holder's to sell). */
  resaleTerms: ResaleTerms.nullable(),
});
export type MyTicketRow = z.infer<typeof MyTicketRow>;
export const myTickets = defineLiveQueryContract('tickets.mine', z.strictObject({}), MyTicketRow);

/** The buyer names who uses a ticket: shown at the door, in the emails, the PDF and the organizer's lists. */
export const SetTicketHolderInput = z.strictObject({
  ticketId: z.string().min(1).max(64),
  name: z.string().trim().min(1).max(200),
  /** A guest's: the token of the ticket's order (emailed to them). */
  accessToken: z
    .string()
    .regex(/^[A-Za-z0-9_-]{20,100}$/)
    .optional(),
});
export const setTicketHolder = defineCallableContract(
  'tickets.setHolder',
  SetTicketHolderInput,
  z.object({ holderName: z.string() }),
);

/** Why a ticket's holder cannot change now: the `reason` in a `failed-precondition` answer's details. */
export const ticketFailures = [
  /** The event has started (or ended, or was cancelled), or the ticket is void. */
  z.object({ reason: z.literal('holder-fixed') }),
] as const;
