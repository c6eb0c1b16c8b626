import { localizeTicketTypeName } from '@admit/shared/event-content';
import type { Locale } from '@admit/shared/locales';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { eventCode } from '../codes/schema';
import { ticketType } from '../events/schema';
import { order, orderLine } from '../orders/schema';
import { ticket } from './schema';

/**
 * Tickets that admit someone, in the event's order of ticket types, each with its holder, what it
 * cost (with its code's discount) and its ticket type's name in `shownIn` when the type has one in
 * it, else in the event's main language (decision 0040): what the emails and the PDF print. Of an
 * order: all of them (`buyersOnly`: those its buyer still holds, not those sent on, decision 0065);
 * or one ticket.
 */
export async function validTicketsOf(
  db: Db,
  which: { orderId: string; buyersOnly?: boolean } | { ticketId: string },
  language: { contentLocale: Locale; shownIn: Locale },
) {
  const where =
    'ticketId' in which
      ? eq(ticket.id, which.ticketId)
      : and(eq(ticket.orderId, which.orderId), which.buyersOnly ? isNull(ticket.transferredFrom) : undefined);
  const rows = await db
    .select({
      id: ticket.id,
      code: ticket.code,
      holderName: ticket.holderName,
      name: ticketType.name,
      nameTranslations: ticketType.nameTranslations,
      price: orderLine.unitPrice,
      discount: orderLine.discount,
      discountCode: eventCode.code,
      currency: order.currency,
    })
    .from(ticket)
    .innerJoin(ticketType, eq(ticketType.id, ticket.ticketTypeId))
    .innerJoin(order, eq(order.id, ticket.orderId))
    .innerJoin(orderLine, and(eq(orderLine.orderId, ticket.orderId), eq(orderLine.ticketTypeId, ticket.ticketTypeId)))
    .leftJoin(eventCode, eq(eventCode.id, orderLine.codeId))
    .where(and(where, eq(ticket.status, 'valid')))
    .orderBy(asc(ticketType.position), asc(ticket.createdAt), asc(ticket.id));
  return rows.map(({ name, nameTranslations, ...shown }) => ({
    ...shown,
    ticketTypeName: localizeTicketTypeName({ name, nameTranslations }, language.contentLocale, language.shownIn).name,
  }));
}
