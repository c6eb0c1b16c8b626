import { asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { ticketType } from '../events/schema';
import { orderLine } from './schema';

/**
 * An order's lines with their ticket types' names (in the event's main language, and in its other
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
    })
    .from(orderLine)
    .innerJoin(ticketType, eq(ticketType.id, orderLine.ticketTypeId))
    .where(eq(orderLine.orderId, orderId))
    .orderBy(asc(ticketType.position), asc(ticketType.name));
}
