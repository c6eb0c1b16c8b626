import { z } from 'zod';
import { defineCallableContract } from './callable';
import { ContentLocale, EventTitlesRow, NameTranslationsRow } from './event-content';
import { Id } from './ids';
import { defineLiveQueryContract } from './live';
import { OrderAccessToken } from './orders';
import { resaleLimits } from './resale';
import { AnswersInput } from './questions';
import { MyTicketRow } from './tickets';

// Ticket transfers (decision 0065). The person who holds a ticket sends it to someone else by
// email, until the organizer's deadline; the recipient accepts (signed in or as a guest, answering
// the event's questions for that ticket), and the ticket is issued anew to them: a new code and
// their name, while the old code turns void on every scanner. The money stays with the order that
// paid for it: a refund goes to its buyer, as before the transfer.

export const transferLimits = { hoursBeforeStart: { min: 0, max: 720 }, shown: 5_000 } as const;

/**
 * Whether an event's tickets may be sent on, and until when: until `closesHoursBeforeStart` hours
 * before the event starts (0: until it starts). Without settings, transfers are open until the start.
 */
export const TransferSettings = z.strictObject({
  eventId: Id,
  enabled: z.boolean(),
  closesHoursBeforeStart: z.int().min(transferLimits.hoursBeforeStart.min).max(transferLimits.hoursBeforeStart.max).default(0),
  /** Holders may offer tickets back for resale at face value until transfers close (decision 0066). */
  resaleEnabled: z.boolean().default(false),
  /** Kept from each resold ticket's refund, in minor units of the event's currency. */
  resaleFee: z.int().min(0).max(resaleLimits.fee.max).default(0),
});
export type TransferSettings = z.input<typeof TransferSettings>;
export const configureTransfers = defineCallableContract(
  'tickets.configureTransfers',
  TransferSettings,
  z.object({ enabled: z.boolean() }),
);

/** An event's transfer settings as anyone who may see the event sees them, and the moment transfers close. */
export const TransferSettingsRow = z.object({
  /** The event's id. */
  id: z.string(),
  enabled: z.boolean(),
  closesHoursBeforeStart: z.number(),
  /** The last moment a ticket may be sent or accepted; null when transfers are off. */
  closesAt: z.string().nullable(),
  resaleEnabled: z.boolean(),
  resaleFee: z.number(),
});
export type TransferSettingsRow = z.infer<typeof TransferSettingsRow>;
export const transferSettings = defineLiveQueryContract(
  'tickets.transferSettings',
  z.strictObject({ eventId: Id }),
  TransferSettingsRow,
);

/** A guest's way to a ticket: the token of their order's link, or of the ticket's own (a guest who was sent it). */
const TicketAccess = { ticketId: Id, accessToken: OrderAccessToken.optional() };

/**
 * The holder sends a ticket to an address. One transfer at a time per ticket; the ticket stays
 * theirs, and valid, until the recipient accepts.
 */
export const transferTicket = defineCallableContract(
  'tickets.transfer',
  z.strictObject({ ...TicketAccess, email: z.email().trim().toLowerCase().max(254) }),
  z.object({ transferId: z.string() }),
);

/** One transfer, as its recipient opens it: the token of the link emailed to them. */
const TransferAccess = { transferId: Id, token: OrderAccessToken };

/**
 * The recipient takes the ticket: it is issued to them (a new code, their name, their answers to
 * the event's questions for its type), and the old one turns void.
 */
export const acceptTransfer = defineCallableContract(
  'tickets.acceptTransfer',
  z.strictObject({
    ...TransferAccess,
    name: z.string().trim().min(1).max(200),
    answers: AnswersInput.default({}),
  }),
  /** The new ticket, and the token of its own link (for a guest: their way back to it). */
  z.object({ ticketId: z.string(), accessToken: z.string() }),
);

/**
 * A transfer not yet accepted is withdrawn: by the person who sent it (their session or order
 * token), by its recipient declining (the transfer's token), or by an admin of the event.
 */
export const cancelTransfer = defineCallableContract(
  'tickets.cancelTransfer',
  z.strictObject({ transferId: Id, accessToken: OrderAccessToken.optional(), token: OrderAccessToken.optional() }),
  z.object({ status: z.string() }),
);

/** `pending` until accepted; `cancelled` by its sender, declined by its recipient or withdrawn by an admin; `void` the ticket was refunded or used meanwhile. */
export const TransferStatus = z.enum(['pending', 'accepted', 'cancelled', 'declined', 'void']);
export type TransferStatus = z.infer<typeof TransferStatus>;

/** A transfer as its recipient sees it before accepting: what they are given, by whom, and what they will be asked. */
export const IncomingTransferRow = z.object({
  id: z.string(),
  status: TransferStatus,
  fromName: z.string(),
  toEmail: z.string(),
  eventId: z.string(),
  eventSlug: z.string(),
  eventTitle: z.string(),
  venue: z.string(),
  contentLocale: ContentLocale,
  eventTranslations: EventTitlesRow,
  timeZone: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  ticketTypeId: z.string(),
  ticketTypeName: z.string(),
  ticketTypeNameTranslations: NameTranslationsRow,
  /** Until when it may be accepted: the event's transfer deadline. */
  acceptUntil: z.string().nullable(),
  /** Once accepted: the new ticket, and the token of its link. */
  ticketId: z.string().nullable(),
  ticketAccessToken: z.string().nullable(),
});
export type IncomingTransferRow = z.infer<typeof IncomingTransferRow>;
export const incomingTransfer = defineLiveQueryContract(
  'tickets.incomingTransfer',
  z.strictObject(TransferAccess),
  IncomingTransferRow,
);

/** A ticket as its holder opens it without a session: the token of the ticket's own link. */
export const HeldTicketRow = MyTicketRow;
export const heldTicket = defineLiveQueryContract(
  'tickets.held',
  z.strictObject({ ticketId: Id, accessToken: OrderAccessToken }),
  HeldTicketRow,
);

/** An event's transfers, newest first, for its admins. */
export const EventTransferRow = z.object({
  id: z.string(),
  status: TransferStatus,
  ticketTypeName: z.string(),
  fromName: z.string(),
  fromEmail: z.string(),
  toEmail: z.string(),
  /** The recipient's name, once accepted. */
  toName: z.string().nullable(),
  orderId: z.string(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type EventTransferRow = z.infer<typeof EventTransferRow>;
export const eventTransfers = defineLiveQueryContract(
  'tickets.eventTransfers',
  z.strictObject({ eventId: Id }),
  EventTransferRow,
);

/** Resale (decision 0066): the holder offers the ticket back, on the terms they were shown (a changed fee is refused, not applied). */
export const resellTicket = defineCallableContract(
  'tickets.resell',
  z.strictObject({ ...TicketAccess, fee: z.int().min(0).max(resaleLimits.fee.max) }),
  z.object({ resaleId: z.string() }),
);

/** The holder takes the offer back, while nobody is paying for it. */
export const withdrawResale = defineCallableContract(
  'tickets.withdrawResale',
  z.strictObject(TicketAccess),
  z.object({ status: z.string() }),
);

/** Why a transfer cannot happen now: the `reason` in a `failed-precondition` answer's details. */
export const transferFailures = [
  /** Transfers are off for this event, or its deadline passed, or it started or was cancelled. */
  z.object({ reason: z.literal('transfers-closed') }),
  /** The ticket is void, admitted at the door already, or on its way to someone else. */
  z.object({ reason: z.literal('ticket-not-transferable') }),
  /** The transfer was accepted, cancelled or declined already. */
  z.object({ reason: z.literal('transfer-decided'), status: TransferStatus }),
  /** A ticket cannot be sent to the address that holds it. */
  z.object({ reason: z.literal('same-holder') }),
  /** `resource-exhausted`: this ticket was sent `limit` times already (each sends an email). */
  z.object({ reason: z.literal('too-many-transfers'), limit: z.number() }),
] as const;
