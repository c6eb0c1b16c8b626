import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { eventCode } from '../codes/schema';
import { ticketType } from '../events/schema';
import { orderLine } from './schema';

/**
 * An order's lines with their ticket types' names, their codes (in the event's main language, and in its other
 * languages: decision 0040), in the event's order of ticket types.
 */
export function linesWithNames(db: Db, orderId: string) {
  return db
    .select({
      ticketTypeId: orderLine.ticketTypeId,
      ticketTypeName: ticketType.name,
      nameTranslations: ticketType.nameTranslations,
      quantity: orderLine.quantity,
      unitPrice: orderLine.unitPrice,
      discount: orderLine.discount,
      code: eventCode.code,
    })
    .from(orderLine)
    .innerJoin(ticketType, eq(ticketType.id, orderLine.ticketTypeId))
    .leftJoin(eventCode, eq(eventCode.id, orderLine.codeId))
    .where(eq(orderLine.orderId, orderId))
    .orderBy(asc(ticketType.position), asc(ticketType.name));
}
