import { defaultLocale, isLocale } from '@admit/shared/locales';
import { and, asc, count, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import {
  composeLatePaymentRefundNotice,
  composeOrderConfirmation,
  composeRefundNotice,
  type OrderEmailRecipient,
} from '../../platform/mail/compose-order-email';
import { formatOrderReference } from '../../platform/mail/formats';
import type { Mailer } from '../../platform/mail/mailer';
import { ticketsPdf } from '../../platform/pdf/ticket-pdf';
import { event, ticketType } from '../events/schema';
import { recordActivity } from './order-activity';
import { order, orderLine, refund, ticket } from './schema';

export interface OrderEmailDeps {
  db: Db;
  mailer: Mailer;
  publicUrl: string;
  /** Refreshes the organizer's order detail, whose timeline gains an "email sent" line. */
  publish?: (...topics: string[]) => void;
}

// These run after the change they tell of has committed (an email cannot be rolled back), and they
// throw when the email cannot be made or sent: the caller catches and logs, so that a mail server
// being down never undoes or fails a payment. Each returns false, having sent nothing, when the
// buyer has no address that can receive mail (people who signed up with a phone number get a
// reserved `.invalid` one until they add theirs).

const canReceiveMail = (email: string) => !/\.invalid$/i.test(email);

async function findOrderWithEvent(db: Db, orderId: string) {
  const [found] = await db
    .select({ order, event })
    .from(order)
    .innerJoin(event, eq(event.id, order.eventId))
    .where(eq(order.id, orderId));
  if (!found) throw new Error(`No order ${orderId}`);
  return found;
}

function recipientOf(found: Awaited<ReturnType<typeof findOrderWithEvent>>, publicUrl: string): OrderEmailRecipient {
  return {
    to: found.order.email,
    locale: isLocale(found.order.locale) ? found.order.locale : defaultLocale,
    name: found.order.buyerName,
    currency: found.order.currency,
    event: found.event,
    publicUrl,
  };
}

async function recordSent(deps: OrderEmailDeps, orderId: string, detail: Record<string, string>) {
  await recordActivity(deps.db, orderId, 'email_sent', detail);
  deps.publish?.(`order:${orderId}`);
}

/**
 * Emails the buyer of a paid order its summary, each valid ticket's QR code and a PDF of the
 * tickets, in the order's language and currency. Call it once per order that became paid (or a
 * free order that completed); calling it again sends it again.
 */
export async function sendOrderConfirmation(deps: OrderEmailDeps, orderId: string): Promise<boolean> {
  const found = await findOrderWithEvent(deps.db, orderId);
  if (!['paid', 'partially_refunded'].includes(found.order.status))
    throw new Error(`Order ${orderId} is ${found.order.status}: there is nothing to confirm`);
  if (!canReceiveMail(found.order.email)) return false;

  const lines = await deps.db
    .select({ ticketTypeName: ticketType.name, quantity: orderLine.quantity, unitPrice: orderLine.unitPrice })
    .from(orderLine)
    .innerJoin(ticketType, eq(ticketType.id, orderLine.ticketTypeId))
    .where(eq(orderLine.orderId, orderId))
    .orderBy(asc(ticketType.position), asc(ticketType.name));
  const tickets = await deps.db
    .select({ id: ticket.id, code: ticket.code, holderName: ticket.holderName, ticketTypeName: ticketType.name })
    .from(ticket)
    .innerJoin(ticketType, eq(ticketType.id, ticket.ticketTypeId))
    .where(and(eq(ticket.orderId, orderId), eq(ticket.status, 'valid')))
    .orderBy(asc(ticketType.position), asc(ticket.createdAt), asc(ticket.id));
  if (tickets.length === 0) throw new Error(`Order ${orderId} has no valid tickets to send`);

  const recipient = recipientOf(found, deps.publicUrl);
  const reference = formatOrderReference(orderId);
  const pdf = await ticketsPdf({ locale: recipient.locale, event: found.event, orderReference: reference, tickets });
  const email = await composeOrderConfirmation({
    ...recipient,
    reference,
    total: found.order.total,
    lines,
    tickets,
    pdf: { filename: `${found.event.slug}-tickets.pdf`, content: pdf },
  });
  await deps.mailer.send(email);
  await recordSent(deps, orderId, { kind: 'confirmation', to: found.order.email });
  return true;
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
  await deps.mailer.send(email);
  await recordSent(deps, given.orderId, { kind: 'refund', refundId, to: found.order.email });
  return true;
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
  await deps.mailer.send(email);
  await recordSent(deps, orderId, { kind: 'late_payment_refund', to: found.order.email });
  return true;
}
