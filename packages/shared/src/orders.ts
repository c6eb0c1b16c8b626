import { z } from 'zod';
import { defineCallableContract } from './callable';
import { CodeText } from './codes';
import { ContentLocale, EventTitlesRow, NameTranslationsRow } from './event-content';
import { EventStatus } from './events';
import { defineLiveQueryContract } from './live';
import { Picture } from './files';
import { AnswersInput, ShownAnswer } from './questions';
import { ResaleState, ResaleTerms } from './resale';

const Id = z.string().min(1).max(64);

/**
 * What opens one order without an account: the token in the links of a guest's emails (and, for
 * an order to pay, in orders.create's answer). It opens only the order it was made for.
 */
export const OrderAccessToken = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'Not an order link token');

/** A visitor who buys without signing in: the name on the tickets and the address they go to. */
export const GuestBuyer = z.strictObject({
  name: z.string().trim().min(1, 'Give your name').max(200),
  email: z.string().trim().toLowerCase().pipe(z.email('Give an email address').max(254)),
});
export type GuestBuyer = z.input<typeof GuestBuyer>;

export const CreateOrderInput = z.strictObject({
  eventId: Id,
  lines: z
    .array(
      z.strictObject({
        ticketTypeId: Id,
        quantity: z.int().min(1).max(100),
        /** Each ticket's answers to the event's questions for its type, one per ticket (checked by the server against them). */
        answers: z.array(AnswersInput).max(100).optional(),
      }),
    )
    .min(1)
    .max(20)
    .refine((lines) => new Set(lines.map((line) => line.ticketTypeId)).size === lines.length, {
      message: 'Each ticket type appears once',
    }),
  /** Made by the buyer's device: the same key never creates a second order. */
  idempotencyKey: z.string().min(8).max(100).optional(),
  /** A code of the event: the hidden types it unlocks may be ordered, its discount is taken off, within its limits. */
  code: CodeText.optional(),
  /**
   * Without a session: who buys (refused `unauthenticated` without it). Free tickets are held
   * until the link emailed to this address is opened; a signed-in caller buys as themselves.
   */
  guest: GuestBuyer.optional(),
});
export type CreateOrderInput = z.input<typeof CreateOrderInput>;

/**
 * pending: capacity held until holdExpiresAt while the buyer pays; paid: tickets issued;
 * expired: the hold ran out unpaid; cancelled: the buyer left, or the payment came too late and
 * was refunded; refunded / partially_refunded: an admin gave money back.
 */
export const OrderStatus = z.enum(['pending', 'paid', 'expired', 'cancelled', 'refunded', 'partially_refunded']);
export type OrderStatus = z.infer<typeof OrderStatus>;

/**
 * The status people read. A free order given back (its event cancelled, or an organizer voided its
 * tickets) returned no money: it reads as cancelled when all its tickets went, and as it was when
 * some are still valid, never as refunded.
 */
export function shownOrderStatus(order: { status: OrderStatus; total: number }): OrderStatus {
  if (order.total > 0) return order.status;
  if (order.status === 'refunded') return 'cancelled';
  if (order.status === 'partially_refunded') return 'paid';
  return order.status;
}
export const CreateOrderOutput = z.object({
  orderId: z.string(),
  status: OrderStatus,
  ticketCount: z.number(),
  /** In minor units of the currency; 0 for free orders. */
  total: z.number().optional(),
  /** Set on a pending order: when its hold ends. */
  holdExpiresAt: z.string().nullable().optional(),
  /** A guest's order to pay: the token that opens it (its page, the payment). Free guest orders get theirs by email only. */
  accessToken: z.string().optional(),
});
export const createOrder = defineCallableContract('orders.create', CreateOrderInput, CreateOrderOutput);

/** The details of a `resource-exhausted` answer when fewer tickets remain than were asked for. */
export const SoldOutDetails = z.object({
  /** Absent when the event as a whole, rather than one ticket type, has too few places left. */
  ticketTypeId: z.string().optional(),
  requested: z.number(),
  remaining: z.number(),
});
export type SoldOutDetails = z.infer<typeof SoldOutDetails>;

export const EventOrderRow = z.object({
  id: z.string(),
  eventId: z.string(),
  buyerName: z.string(),
  email: z.string(),
  status: OrderStatus,
  total: z.number(),
  currency: z.string(),
  ticketCount: z.number(),
  createdAt: z.string(),
});
export type EventOrderRow = z.infer<typeof EventOrderRow>;
export const eventOrders = defineLiveQueryContract('orders.forEvent', z.strictObject({ eventId: Id }), EventOrderRow);

/** An order: the signed-in buyer's, or the one a guest's token opens. */
const OrderIdInput = z.strictObject({ orderId: Id, accessToken: OrderAccessToken.optional() });

/** The buyer starts paying a pending order: the server creates the payment with the provider. */
export const StartPaymentOutput = z.object({
  provider: z.enum(['stripe', 'sandbox']),
  clientSecret: z.string(),
  /** Stripe's publishable key (null for the sandbox). */
  publishableKey: z.string().nullable(),
  amount: z.number(),
  currency: z.string(),
});
export type StartPaymentOutput = z.infer<typeof StartPaymentOutput>;
export const startPayment = defineCallableContract('orders.startPayment', OrderIdInput, StartPaymentOutput);

/** After the browser confirmed: the server reads the payment from the provider and completes the order. */
export const confirmPayment = defineCallableContract(
  'orders.confirmPayment',
  OrderIdInput,
  z.object({ status: OrderStatus, paymentStatus: z.string().nullable() }),
);

/** The buyer leaves a pending order: its hold is released at once. */
export const cancelOrder = defineCallableContract('orders.cancel', OrderIdInput, z.object({ status: OrderStatus }));

/**
 * A guest opened the link emailed for their free order: its held places become their tickets
 * (`status: paid`), once; an order whose hold ended answers `expired`.
 */
export const confirmGuestOrder = defineCallableContract(
  'orders.confirmEmail',
  z.strictObject({ orderId: Id, accessToken: OrderAccessToken }),
  z.object({ status: OrderStatus }),
);

export const OrderLineRow = z.object({
  ticketTypeId: z.string(),
  ticketTypeName: z.string(),
  quantity: z.number(),
  /** What each ticket cost, with the discount taken off. */
  unitPrice: z.number(),
  /** Taken off each ticket by the line's code. */
  discount: z.number(),
  /** The code the line was bought with (an access or discount code), if any. */
  code: z.string().nullable(),
});

/** One of the buyer's own orders, as the checkout and order pages show it. */
export const MyOrderRow = z.object({
  id: z.string(),
  eventId: z.string(),
  eventTitle: z.string(),
  /** The language of eventTitle and the lines' names, and their translations (decision 0040). */
  contentLocale: ContentLocale,
  eventTranslations: EventTitlesRow,
  eventSlug: z.string(),
  eventCover: Picture.nullable(),
  status: OrderStatus,
  total: z.number(),
  refundedAmount: z.number(),
  currency: z.string(),
  holdExpiresAt: z.string().nullable(),
  paymentProvider: z.string().nullable(),
  lines: z.array(OrderLineRow.extend({ nameTranslations: NameTranslationsRow })),
  /**
   * Each ticket's answers to the event's questions: of the valid tickets once paid (`ticketId`
   * set: they can be changed until the event starts), of the held places before.
   */
  attendees: z.array(
    z.object({
      ticketId: z.string().nullable(),
      ticketTypeId: z.string(),
      holderName: z.string().nullable(),
      answers: z.array(ShownAnswer),
    }),
  ),
  /** Its valid tickets and whom each is for (its holder name changes until the event starts). */
  tickets: z.array(
    z.object({
      id: z.string(),
      ticketTypeId: z.string(),
      holderName: z.string(),
      /** Sent to someone else, who accepted (decision 0065): theirs now, not the buyer's to change or send. */
      givenAway: z.boolean(),
      /** Until when it may be sent to someone else; null: it cannot be. */
      transferUntil: z.string().nullable(),
      /** Its transfer waiting for the recipient to accept, if any. */
      pendingTransfer: z.object({ id: z.string(), toEmail: z.string() }).nullable(),
      /** Its offer for resale (decision 0066), if offered and not sold yet. */
      resale: ResaleState.nullable(),
      /** What offering it back would give now; null: it cannot be offered. */
      resaleTerms: ResaleTerms.nullable(),
    }),
  ),
  /** Its tickets resold at face value (decision 0066): when, and what came back for each. */
  resold: z.array(z.object({ ticketTypeId: z.string(), payout: z.number(), soldAt: z.string() })),
  /** Until when answers can be changed: the event's start. */
  answersUntil: z.string(),
  /** The event's time zone: the order page writes its times (a transfer's deadline) in it. */
  timeZone: z.string(),
  createdAt: z.string(),
});
export type MyOrderRow = z.infer<typeof MyOrderRow>;
export const myOrder = defineLiveQueryContract('orders.mine', OrderIdInput, MyOrderRow);

/**
 * An admin gives money back: the whole order (no ticketIds) or the chosen tickets, which become
 * void and free their places. The key makes a retried refund the same refund.
 */
export const RefundOrderInput = z.strictObject({
  orderId: Id,
  ticketIds: z.array(Id).min(1).max(100).optional(),
  reason: z.string().trim().min(1, 'Give a reason').max(500),
  idempotencyKey: z.string().min(8).max(100),
});
export type RefundOrderInput = z.input<typeof RefundOrderInput>;
export const RefundStatus = z.enum(['pending', 'succeeded', 'failed', 'canceled', 'requires_action']);
export const refundOrder = defineCallableContract(
  'orders.refund',
  RefundOrderInput,
  z.object({ refundId: z.string(), amount: z.number(), status: RefundStatus, orderStatus: OrderStatus }),
);

export const OrderActivityKind = z.enum([
  'created',
  'payment_started',
  'payment_failed',
  'paid',
  /** A guest's free places, confirmed by the link emailed to them: the tickets are issued. */
  'confirmed',
  'expired',
  'cancelled',
  'late_payment_refunded',
  'refund_requested',
  'refund_succeeded',
  'refund_failed',
  'webhook',
  'email_sent',
  'holder_changed',
  'answers_changed',
  /** A ticket was sent to someone else, the transfer was withdrawn or declined, or it was accepted (decision 0065). */
  'transfer_sent',
  'transfer_cancelled',
  'ticket_transferred',
  /** A ticket was offered back for resale, the offer taken back, or it sold (its refund follows: decision 0066). */
  'resale_listed',
  'resale_withdrawn',
  'ticket_resold',
]);
export type OrderActivityKind = z.infer<typeof OrderActivityKind>;

/** One order as its event's admins see it: lines, tickets, refunds and the payment timeline. */
export const OrderDetailRow = z.object({
  id: z.string(),
  eventId: z.string(),
  eventTitle: z.string(),
  buyerName: z.string(),
  email: z.string(),
  status: OrderStatus,
  total: z.number(),
  refundedAmount: z.number(),
  currency: z.string(),
  locale: z.string().nullable(),
  holdExpiresAt: z.string().nullable(),
  paymentProvider: z.string().nullable(),
  paymentRef: z.string().nullable(),
  createdAt: z.string(),
  lines: z.array(OrderLineRow),
  tickets: z.array(
    z.object({
      id: z.string(),
      ticketTypeId: z.string(),
      ticketTypeName: z.string(),
      holderName: z.string(),
      status: z.enum(['valid', 'void']),
      price: z.number(),
      /** Its answers to the event's questions. */
      answers: z.array(ShownAnswer),
    }),
  ),
  refunds: z.array(
    z.object({
      id: z.string(),
      amount: z.number(),
      reason: z.string(),
      status: RefundStatus,
      ticketCount: z.number(),
      createdAt: z.string(),
    }),
  ),
  activity: z.array(
    z.object({
      id: z.string(),
      kind: OrderActivityKind,
      detail: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
      actorName: z.string().nullable(),
      at: z.string(),
    }),
  ),
});
export type OrderDetailRow = z.infer<typeof OrderDetailRow>;
export const orderDetail = defineLiveQueryContract('orders.detail', OrderIdInput, OrderDetailRow);

/** A short reference people can quote to an organizer ("1A2B3C4D"): the start of the order's id. */
export const formatOrderReference = (orderId: string) => orderId.replaceAll('-', '').slice(0, 8).toUpperCase();

/** Why an order or a refund cannot be done now: the `reason` in a `failed-precondition` answer's details. */
export const orderFailures = [
  z.object({ reason: z.literal('event-not-on-sale'), status: EventStatus }),
  z.object({ reason: z.literal('sales-not-started'), ticketTypeId: z.string(), salesStart: z.string() }),
  z.object({ reason: z.literal('sales-ended'), ticketTypeId: z.string() }),
  z.object({ reason: z.literal('not-pending'), status: OrderStatus }),
  z.object({ reason: z.literal('not-refundable'), status: OrderStatus }),
  z.object({ reason: z.literal('nothing-to-refund') }),
  /** The payment provider said no (already refunded there, more than what is left, disputed). */
  z.object({ reason: z.literal('refund-refused'), providerReason: z.string().optional() }),
  /**
   * `resource-exhausted`: the buyer already holds places of this event in pending orders, and with
   * this order would hold more than `limit` (ORDER_MAX_HELD_PLACES).
   */
  z.object({ reason: z.literal('too-many-holds'), limit: z.number() }),
  /** `resource-exhausted`: too many order attempts from this account or address; try again after the wait. */
  z.object({ reason: z.literal('too-many-orders'), retryAfterSeconds: z.number() }),
  /**
   * `failed-precondition`: with this order the buyer would have more than `limit` tickets of the type
   * (`ticketTypeId`), or of the event (null), valid ones and held ones across all their orders; they
   * have `have` already.
   */
  z.object({ reason: z.literal('buyer-limit'), ticketTypeId: z.string().nullable(), limit: z.number(), have: z.number() }),
] as const;
