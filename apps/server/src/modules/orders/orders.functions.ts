import { randomBytes, randomUUID } from 'node:crypto';
import { createOrder } from '@admit/shared/orders';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { defineCallable } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { event, ticketType } from '../events/schema';
import { order, orderLine, ticket } from './schema';

/** 128 random bits, base64url (22 characters): unguessable, and short enough for a small QR code. */
export const newTicketCode = () => randomBytes(16).toString('base64url');

class SoldOut extends CallableError {
  constructor(details: { ticketTypeId?: string; requested: number; remaining: number }) {
    super('resource-exhausted', details.remaining === 0 ? 'Sold out' : `Only ${details.remaining} left`, details);
  }
}

export const createOrderCallable = defineCallable(createOrder, {
  auth: 'required',
  async handler(input, ctx) {
    const buyer = ctx.user;
    if (input.idempotencyKey) {
      const [existing] = await ctx.db
        .select({ id: order.id, status: order.status })
        .from(order)
        .where(and(eq(order.buyerId, buyer.id), eq(order.idempotencyKey, input.idempotencyKey)));
      if (existing)
        return { orderId: existing.id, status: existing.status, ticketCount: await ticketCountOf(ctx.db, existing.id) };
    }

    const [found] = await ctx.db.select().from(event).where(eq(event.id, input.eventId));
    if (!found || found.status === 'draft') throw new CallableError('not-found', 'No such event');
    if (found.status !== 'published')
      throw new CallableError('failed-precondition', 'Tickets for this event are not on sale', { status: found.status });

    const types = await ctx.db.select().from(ticketType).where(eq(ticketType.eventId, input.eventId));
    const typeById = new Map(types.map((type) => [type.id, type]));
    const fields: { path: string; message: string; code: string }[] = [];
    input.lines.forEach((line, index) => {
      const type = typeById.get(line.ticketTypeId);
      if (!type || type.hidden)
        fields.push({ path: `lines.${index}.ticketTypeId`, message: 'No such ticket type for this event', code: 'not_found' });
      else if (line.quantity > type.maxPerOrder) {
        fields.push({ path: `lines.${index}.quantity`, message: `At most ${type.maxPerOrder} per order`, code: 'too_big' });
      }
    });
    if (fields.length > 0) throw new CallableError('invalid-argument', 'The order is not valid', { fields });
    if (input.lines.some((line) => typeById.get(line.ticketTypeId)!.price > 0)) {
      throw new CallableError('unimplemented', 'Paid tickets cannot be bought yet');
    }

    const quantity = input.lines.reduce((sum, line) => sum + line.quantity, 0);
    // Always lock the event row first and ticket types in id order: concurrent orders never deadlock.
    const lines = [...input.lines].sort((a, b) => (a.ticketTypeId < b.ticketTypeId ? -1 : 1));
    const orderId = randomUUID();

    try {
      await ctx.db.transaction(async (tx) => {
        const reserved = await tx
          .update(event)
          .set({ sold: sql`${event.sold} + ${quantity}` })
          .where(
            and(
              eq(event.id, found.id),
              eq(event.status, 'published'),
              sql`${event.sold} + ${event.held} + ${quantity} <= ${event.capacity}`,
            ),
          )
          .returning({ id: event.id });
        if (reserved.length === 0) {
          const [now] = await tx.select().from(event).where(eq(event.id, found.id));
          throw new SoldOut({ requested: quantity, remaining: Math.max(0, now!.capacity - now!.sold - now!.held) });
        }
        for (const line of lines) {
          const taken = await tx
            .update(ticketType)
            .set({ sold: sql`${ticketType.sold} + ${line.quantity}` })
            .where(
              and(
                eq(ticketType.id, line.ticketTypeId),
                sql`${ticketType.sold} + ${ticketType.held} + ${line.quantity} <= ${ticketType.capacity}`,
              ),
            )
            .returning({ id: ticketType.id });
          if (taken.length === 0) {
            const [now] = await tx.select().from(ticketType).where(eq(ticketType.id, line.ticketTypeId));
            throw new SoldOut({
              ticketTypeId: line.ticketTypeId,
              requested: line.quantity,
              remaining: Math.max(0, now!.capacity - now!.sold - now!.held),
            });
          }
        }
        await tx.insert(order).values({
          id: orderId,
          eventId: found.id,
          buyerId: buyer.id,
          buyerName: buyer.name,
          email: buyer.email,
          status: 'paid',
          total: 0,
          currency: found.currency,
          idempotencyKey: input.idempotencyKey ?? null,
        });
        await tx.insert(orderLine).values(
          lines.map((line) => ({
            id: randomUUID(),
            orderId,
            ticketTypeId: line.ticketTypeId,
            quantity: line.quantity,
            unitPrice: 0,
          })),
        );
        await tx.insert(ticket).values(
          lines.flatMap((line) =>
            Array.from({ length: line.quantity }, () => ({
              id: randomUUID(),
              orderId,
              ticketTypeId: line.ticketTypeId,
              eventId: found.id,
              code: newTicketCode(),
              holderName: buyer.name,
              holderEmail: buyer.email,
            })),
          ),
        );
      });
    } catch (error) {
      // The same key sent twice at once: the unique index let one through; answer with that order.
      if (input.idempotencyKey && (error as { code?: string; cause?: { code?: string } }).cause?.code === '23505') {
        const [existing] = await ctx.db
          .select({ id: order.id, status: order.status })
          .from(order)
          .where(and(eq(order.buyerId, buyer.id), eq(order.idempotencyKey, input.idempotencyKey)));
        if (existing)
          return { orderId: existing.id, status: existing.status, ticketCount: await ticketCountOf(ctx.db, existing.id) };
      }
      throw error;
    }

    ctx.publish(
      `event:${found.id}`,
      `event:${found.id}:orders`,
      `user:${buyer.id}:tickets`,
      `org:${found.organizationId}:events`,
    );
    return { orderId, status: 'paid' as const, ticketCount: quantity };
  },
});

async function ticketCountOf(db: Db, orderId: string) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(ticket)
    .where(eq(ticket.orderId, orderId));
  return row?.n ?? 0;
}

export const ordersCallables = [createOrderCallable];
