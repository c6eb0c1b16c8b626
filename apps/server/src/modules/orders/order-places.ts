import type { Answers } from '@admit/shared/questions';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/database';
import type { PlaceLine } from '../events/events.api';
import { order, orderLine } from './schema';

export type Order = typeof order.$inferSelect;

/**
 * The places an order takes: the quantity of each of its lines, but for a line of tickets offered
 * back, which takes none (their sellers' tickets have them: decision 0066).
 */
export async function placesOf(tx: Tx | Db, orderId: string): Promise<PlaceLine[]> {
  return tx
    .select({ ticketTypeId: orderLine.ticketTypeId, quantity: orderLine.quantity })
    .from(orderLine)
    .where(and(eq(orderLine.orderId, orderId), eq(orderLine.resale, false)))
    .orderBy(asc(orderLine.ticketTypeId));
}

/** How many tickets an order is for: its places, and the tickets offered back that it buys. */
export async function ticketCountOf(tx: Tx | Db, orderId: string): Promise<number> {
  const [row] = await tx
    .select({ count: sql<number>`coalesce(sum(${orderLine.quantity}), 0)::int` })
    .from(orderLine)
    .where(eq(orderLine.orderId, orderId));
  return Number(row?.count ?? 0);
}

/** The tickets an order takes with each code it used: the uses it counts for while held or sold. */
export async function codeUsesOf(tx: Tx | Db, orderId: string): Promise<{ codeId: string; quantity: number }[]> {
  const rows = await tx
    .select({ codeId: orderLine.codeId, quantity: sql<number>`sum(${orderLine.quantity})::int` })
    .from(orderLine)
    .where(and(eq(orderLine.orderId, orderId), isNotNull(orderLine.codeId)))
    .groupBy(orderLine.codeId);
  return rows.map((row) => ({ codeId: row.codeId!, quantity: Number(row.quantity) }));
}

/** The answers given for each held place of an order, by ticket type: what its tickets carry once paid. */
export async function answersOf(tx: Tx | Db, orderId: string): Promise<Map<string, Answers[]>> {
  const rows = await tx
    .select({ ticketTypeId: orderLine.ticketTypeId, answers: orderLine.answers })
    .from(orderLine)
    .where(eq(orderLine.orderId, orderId));
  return new Map(rows.map((row) => [row.ticketTypeId, row.answers]));
}
