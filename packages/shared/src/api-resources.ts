import { z } from 'zod';

/**
 * The objects as the outside world sees them: the REST API (`/api/v1`) answers with them and a
 * webhook's `data` carries them, so a client reads one shape from both (decision 0063). Fields are
 * in snake_case; times are UTC ISO 8601 with the event's IANA time zone alongside
 * (`time_zone`); money is an integer in the currency's minor units beside its ISO 4217 `currency`.
 */

const utcTime = z.iso.datetime();

export const EventResource = z.object({
  object: z.literal('event'),
  id: z.string(),
  organization_id: z.string(),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  venue: z.string(),
  status: z.enum(['draft', 'published', 'sales_closed', 'ended', 'cancelled']),
  starts_at: utcTime,
  ends_at: utcTime,
  time_zone: z.string(),
  currency: z.string(),
  capacity: z.number().int(),
  sold: z.number().int(),
  created_at: utcTime,
});
export type EventResource = z.infer<typeof EventResource>;

export const OrderLineResource = z.object({
  id: z.string(),
  ticket_type_id: z.string(),
  ticket_type_name: z.string(),
  quantity: z.number().int(),
  /** What each ticket of the line cost, after `discount`. */
  unit_price: z.number().int(),
  discount: z.number().int(),
  code_id: z.string().nullable(),
});
export type OrderLineResource = z.infer<typeof OrderLineResource>;

export const OrderResource = z.object({
  object: z.literal('order'),
  id: z.string(),
  organization_id: z.string(),
  event_id: z.string(),
  status: z.enum(['pending', 'paid', 'expired', 'cancelled', 'refunded', 'partially_refunded']),
  buyer_name: z.string(),
  email: z.string(),
  total: z.number().int(),
  refunded_amount: z.number().int(),
  currency: z.string(),
  lines: z.array(OrderLineResource),
  hold_expires_at: utcTime.nullable(),
  created_at: utcTime,
  time_zone: z.string(),
});
export type OrderResource = z.infer<typeof OrderResource>;

export const TicketResource = z.object({
  object: z.literal('ticket'),
  id: z.string(),
  organization_id: z.string(),
  event_id: z.string(),
  order_id: z.string(),
  ticket_type_id: z.string(),
  ticket_type_name: z.string(),
  status: z.enum(['valid', 'void']),
  holder_name: z.string(),
  holder_email: z.string(),
  /** The attendee's answers to the event's questions, by question id. */
  answers: z.record(z.string(), z.unknown()),
  checked_in_at: utcTime.nullable(),
  /** The ticket this one was issued in place of, when its holder sent it to someone (`ticket.transferred`). */
  transferred_from: z.string().nullable(),
  /** The ticket issued in place of this one (now void), when it was sent to someone. */
  replaced_by: z.string().nullable(),
  created_at: utcTime,
  time_zone: z.string(),
});
export type TicketResource = z.infer<typeof TicketResource>;

/** A waiting-list entry as the webhooks show it (`waitlist.offered`, decision 0064). */
export const WaitlistEntryResource = z.object({
  object: z.literal('waitlist_entry'),
  id: z.string(),
  organization_id: z.string(),
  event_id: z.string(),
  ticket_type_id: z.string(),
  name: z.string(),
  email: z.string(),
  quantity: z.number().int(),
  status: z.enum(['unconfirmed', 'waiting', 'offered', 'left', 'removed', 'closed']),
  joined_at: utcTime,
  /** The hold offered: an order to pay (or accept, when free) until `hold_expires_at`. */
  offer: z.object({ order_id: z.string(), quantity: z.number().int(), hold_expires_at: utcTime.nullable() }).nullable(),
});
export type WaitlistEntryResource = z.infer<typeof WaitlistEntryResource>;
