import { z } from 'zod';
import { defineCallableContract } from './callable';
import { defineLiveQueryContract } from './live';

// Messages to attendees: an event's admin writes once to everyone holding a valid ticket, or to
// the holders of some ticket types, or to those let in (or not yet) at the door. Each person gets
// it once, by email in their language, through the job queue; buyers read it again on their order.

const Id = z.string().min(1).max(64);

/** One line: no control characters at all. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const oneLine = /^[^\u0000-\u001f\u007f]*$/;
/** Several lines: line breaks and tabs, no other control characters. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const lines = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;

export const CheckInFilter = z.enum(['any', 'checked-in', 'not-checked-in']);
export type CheckInFilter = z.infer<typeof CheckInFilter>;

/** Who gets a message: holders of valid tickets of these types (none listed: every type), by their state at the door. */
export const MessageAudience = z.strictObject({
  ticketTypeIds: z.array(Id).max(100).default([]),
  checkIn: CheckInFilter.default('any'),
});
export type MessageAudience = z.output<typeof MessageAudience>;

/** Whose limit of emails to people who never bought anything was reached. */
export const GuestMailScope = z.enum(['account', 'organization']);
export type GuestMailScope = z.infer<typeof GuestMailScope>;

export const GuestMailLimitDetails = z.object({
  reason: z.literal('guest-mail-limit'),
  scope: GuestMailScope,
  /** The emails the call would have queued. */
  requested: z.number(),
  /** The emails that may still go now. */
  remaining: z.number(),
  /** When more may go: the end of the hour or day whose limit was reached. */
  retryAfterSeconds: z.number(),
});
export type GuestMailLimitDetails = z.infer<typeof GuestMailLimitDetails>;

export const messageFailures = [
  /** `failed-precondition`: no valid ticket matches the chosen audience. */
  z.object({ reason: z.literal('no-recipients') }),
  /** `resource-exhausted`: this event's admins sent many messages in the last hour; try again after the wait. */
  z.object({ reason: z.literal('too-many-messages'), retryAfterSeconds: z.number() }),
  /**
   * `resource-exhausted`: the emails asked for (to guests who never bought anything: an imported
   * guest list's ticket emails, a message to such guests) are more than the account or the
   * organization may still send in the hour or the day; `remaining` may still go, the wait frees more.
   */
  GuestMailLimitDetails,
] as const;

export const messageLimits = { subject: 150, body: 5_000 } as const;

export const AttendeeMessageDraft = z.strictObject({
  eventId: Id,
  subject: z
    .string()
    .trim()
    .min(1, 'Write a subject')
    .max(messageLimits.subject)
    .regex(oneLine, 'One line, without control characters'),
  body: z.string().trim().min(1, 'Write the message').max(messageLimits.body).regex(lines, 'No control characters'),
  audience: MessageAudience,
});
export type AttendeeMessageDraft = z.input<typeof AttendeeMessageDraft>;

/** How many people a draft would reach, and the email as the caller would get it. */
export const previewAttendeeMessage = defineCallableContract(
  'messages.preview',
  AttendeeMessageDraft,
  z.object({
    recipients: z.number(),
    /** People among them without an address that takes mail (signed up with a phone number). */
    unreachable: z.number(),
    /** People among them, with an address, who never bought a ticket (imported guests): they count against the guest-mail limits. */
    guests: z.number(),
    email: z.object({ subject: z.string(), html: z.string(), text: z.string() }),
  }),
);

/**
 * Sends a draft: the people it reaches are fixed when it is sent. The key is made by the page
 * once per draft: a send repeated (a double click, a retry after the network dropped) is one message.
 */
export const sendAttendeeMessage = defineCallableContract(
  'messages.send',
  AttendeeMessageDraft.extend({ idempotencyKey: z.string().min(8).max(100) }),
  z.object({ messageId: z.string(), recipients: z.number() }),
);

/** A message as its event's admins follow it: whom it reaches, and how far its sending has come. */
export const EventMessageRow = z.object({
  id: z.string(),
  subject: z.string(),
  body: z.string(),
  audience: z.object({ ticketTypeIds: z.array(z.string()), checkIn: CheckInFilter }),
  authorName: z.string().nullable(),
  recipients: z.number(),
  sent: z.number(),
  /** Recipients with no address that takes mail: they read it on their order only. */
  unreachable: z.number(),
  createdAt: z.string(),
  /** When the last recipient was done; null while it is being sent. */
  finishedAt: z.string().nullable(),
});
export type EventMessageRow = z.infer<typeof EventMessageRow>;
export const eventMessages = defineLiveQueryContract('messages.ofEvent', z.strictObject({ eventId: Id }), EventMessageRow);

/** Who a message reached (the first 500, by address), for the record. */
export const MessageRecipientRow = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  locale: z.string(),
  status: z.enum(['waiting', 'sent', 'unreachable']),
  sentAt: z.string().nullable(),
});
export const messageRecipientsShown = 500;
export const messageRecipients = defineLiveQueryContract(
  'messages.recipients',
  z.strictObject({ eventId: Id, messageId: Id }),
  MessageRecipientRow,
);

/**
 * Tells the holders of an event's valid tickets that its time or place changed (the change
 * `events.update` answered with): each gets Admit's notice, old and new, in their language, with
 * the updated calendar file. Once per change: asked again, it answers with the notice sent.
 */
export const sendChangeNotice = defineCallableContract(
  'messages.sendChangeNotice',
  z.strictObject({ eventId: Id, changeId: Id }),
  z.object({ messageId: z.string(), recipients: z.number() }),
);

/** An event's time and place before or after a change (instants as ISO strings). */
export const TimeAndPlaceRow = z.object({ startsAt: z.string(), endsAt: z.string(), venue: z.string() });

/** The organizer's messages that reached an order's ticket holders, as its buyer reads them. */
export const OrderMessageRow = z.object({
  id: z.string(),
  subject: z.string(),
  body: z.string(),
  organizationName: z.string(),
  createdAt: z.string(),
  /** Set when this is the notice of a change of time or place: what it was and what it is, in the event's zone. */
  change: z.object({ before: TimeAndPlaceRow, after: TimeAndPlaceRow, timeZone: z.string() }).nullable(),
});
export type OrderMessageRow = z.infer<typeof OrderMessageRow>;
export const orderMessages = defineLiveQueryContract(
  'messages.ofOrder',
  z.strictObject({ eventId: Id, orderId: Id }),
  OrderMessageRow,
);

/**
 * How many more emails to people who never bought anything (imported guests) the caller may send
 * for the event's organization now: the least that the account's and the organization's hour and
 * day allow, and when more may go (null when nothing is counted). `established` is false while the
 * account or the organization has no paid order, which lowers the limits.
 */
export const GuestMailAllowance = z.object({
  remaining: z.number(),
  resetsAt: z.string().nullable(),
  established: z.boolean(),
});
export type GuestMailAllowance = z.infer<typeof GuestMailAllowance>;
export const guestMailAllowance = defineCallableContract(
  'messages.guestMailAllowance',
  z.strictObject({ eventId: Id }),
  GuestMailAllowance,
);
