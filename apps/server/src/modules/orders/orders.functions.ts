import { randomUUID } from 'node:crypto';
import { cancelOrder, confirmPayment, createOrder, startPayment } from '@admit/shared/orders';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import { defineCallable } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { event, ticketType } from '../events/schema';
import { orderTopics, releaseExpiredHolds, releaseHold } from './checkout';
import { recordActivity } from './order-activity';
import { sendOrderConfirmation } from './order-emails';
import { sendQuietly, settleAndAnnounce } from './payment-outcome';
import { order, orderLine, ticket } from './schema';
import { newTicketCode } from './ticket-code';

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
      if (existing) return answerFor(ctx.db, existing.id);
    }

    const [found] = await ctx.db.select().from(event).where(eq(event.id, input.eventId));
    if (!found || found.status === 'draft') throw new CallableError('not-found', 'No such event');
    // Checked on read: an expired hold never blocks a buyer, whenever the sweeper last ran. Only
    // when something is held at all (a free flash sale skips the query).
    if (found.held > 0) {
      const expired = await releaseExpiredHolds(ctx.db, input.eventId);
      for (const released of expired) ctx.publish(...orderTopics(released));
    }
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
    const now = new Date();
    for (const line of input.lines) {
      const type = typeById.get(line.ticketTypeId)!;
      if (type.salesStart && now < type.salesStart)
        throw new CallableError('failed-precondition', 'Sales have not started', {
          reason: 'sales-not-started',
          ticketTypeId: type.id,
          salesStart: type.salesStart.toISOString(),
        });
      if (type.salesEnd && now >= type.salesEnd)
        throw new CallableError('failed-precondition', 'Sales have ended', { reason: 'sales-ended', ticketTypeId: type.id });
    }
    // Prices are the server's, never the browser's. Anything to pay: the places are held, not sold.
    const total = input.lines.reduce((sum, line) => sum + typeById.get(line.ticketTypeId)!.price * line.quantity, 0);
    const paid = total > 0;
    const counter = paid ? 'held' : 'sold';
    const holdExpiresAt = paid ? new Date(now.getTime() + found.holdMinutes * 60_000) : null;

    const quantity = input.lines.reduce((sum, line) => sum + line.quantity, 0);
    // Always lock the event row first and ticket types in id order: concurrent orders never deadlock.
    const lines = [...input.lines].sort((a, b) => (a.ticketTypeId < b.ticketTypeId ? -1 : 1));
    const orderId = randomUUID();

    try {
      await ctx.db.transaction(async (tx) => {
        const reserved = await tx
          .update(event)
          .set({ [counter]: sql`${event[counter]} + ${quantity}` })
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
            .set({ [counter]: sql`${ticketType[counter]} + ${line.quantity}` })
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
          status: paid ? 'pending' : 'paid',
          total,
          currency: found.currency,
          holdExpiresAt,
          locale: ctx.locale,
          idempotencyKey: input.idempotencyKey ?? null,
        });
        await recordActivity(tx, orderId, 'created', { total, tickets: quantity });
        await tx.insert(orderLine).values(
          lines.map((line) => ({
            id: randomUUID(),
            orderId,
            ticketTypeId: line.ticketTypeId,
            quantity: line.quantity,
            unitPrice: typeById.get(line.ticketTypeId)!.price,
          })),
        );
        // Paid orders get their tickets when the payment succeeds (checkout.ts settlePayment).
        if (paid) return;
        await tx.insert(ticket).values(
          lines.flatMap((line) =>
            Array.from({ length: line.quantity }, () => ({
              id: randomUUID(),
              orderId,
              ticketTypeId: line.ticketTypeId,
              eventId: found.id,
              code: newTicketCode(found.checkinKey),
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
          .select({ id: order.id })
          .from(order)
          .where(and(eq(order.buyerId, buyer.id), eq(order.idempotencyKey, input.idempotencyKey)));
        if (existing) return answerFor(ctx.db, existing.id);
      }
      throw error;
    }

    ctx.publish(...orderTopics({ id: orderId, eventId: found.id, buyerId: buyer.id }, found.organizationId));
    // A free order is complete: its tickets go out by email, after the answer (not on the hot path).
    if (!paid) void sendQuietly(ctx, 'confirmation', () => sendOrderConfirmation(ctx, orderId));
    return {
      orderId,
      status: paid ? ('pending' as const) : ('paid' as const),
      ticketCount: paid ? 0 : quantity,
      total,
      holdExpiresAt: holdExpiresAt?.toISOString() ?? null,
    };
  },
});

/** The buyer's own order, or not-found (another person's order id reveals nothing). */
async function ownOrder(db: Db, orderId: string, userId: string) {
  const [found] = await db
    .select()
    .from(order)
    .where(and(eq(order.id, orderId), eq(order.buyerId, userId)));
  if (!found) throw new CallableError('not-found', 'No such order');
  return found;
}

export const startPaymentCallable = defineCallable(startPayment, {
  auth: 'required',
  async handler(input, ctx) {
    let found = await ownOrder(ctx.db, input.orderId, ctx.user.id);
    if (found.status === 'pending' && found.holdExpiresAt && found.holdExpiresAt <= new Date()) {
      const released = await releaseHold(ctx.db, found.id, 'expired', { onlyIfDue: true });
      if (released) ctx.publish(...orderTopics(released));
      found = released ?? found;
    }
    if (found.status !== 'pending')
      throw new CallableError('failed-precondition', 'This order cannot be paid', {
        reason: 'not-pending',
        status: found.status,
      });
    const [{ title } = { title: '' }] = await ctx.db
      .select({ title: event.title })
      .from(event)
      .where(eq(event.id, found.eventId));
    // Unreachable provider: `unavailable`, and the hold stays for a retry.
    const intent = await ctx.payments.createPaymentIntent({
      orderId: found.id,
      amount: found.total,
      currency: found.currency.toLowerCase(),
      locale: found.locale ?? ctx.locale,
      email: found.email,
      description: title,
    });
    await ctx.db.transaction(async (tx) => {
      await tx.update(order).set({ paymentProvider: ctx.payments.kind, paymentRef: intent.ref }).where(eq(order.id, found.id));
      // Once per payment, not per visit to the payment step.
      if (found.paymentRef !== intent.ref)
        await recordActivity(tx, found.id, 'payment_started', { provider: ctx.payments.kind, paymentRef: intent.ref });
    });
    return {
      provider: ctx.payments.kind,
      clientSecret: intent.clientSecret,
      publishableKey: ctx.payments.publishableKey,
      amount: found.total,
      currency: found.currency,
    };
  },
});

export const confirmPaymentCallable = defineCallable(confirmPayment, {
  auth: 'required',
  async handler(input, ctx) {
    const found = await ownOrder(ctx.db, input.orderId, ctx.user.id);
    if (!found.paymentRef) return { status: found.status, paymentStatus: null };
    // The browser's word is not enough: the payment is read back from the provider.
    const payment = await ctx.payments.retrievePaymentIntent(found.paymentRef);
    const settled = await settleAndAnnounce(ctx, found.id, payment);
    return { status: settled.order.status, paymentStatus: payment.status };
  },
});

export const cancelOrderCallable = defineCallable(cancelOrder, {
  auth: 'required',
  async handler(input, ctx) {
    const found = await ownOrder(ctx.db, input.orderId, ctx.user.id);
    const released = await releaseHold(ctx.db, found.id, 'cancelled');
    if (!released) return { status: found.status };
    ctx.publish(...orderTopics(released));
    return { status: released.status };
  },
});

/** orders.create's answer for an order that exists (the same idempotency key sent again). */
async function answerFor(db: Db, orderId: string) {
  const [found] = await db.select().from(order).where(eq(order.id, orderId));
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(ticket)
    .where(eq(ticket.orderId, orderId));
  return {
    orderId,
    status: found!.status,
    ticketCount: row?.n ?? 0,
    total: found!.total,
    holdExpiresAt: found!.holdExpiresAt?.toISOString() ?? null,
  };
}

export const ordersCallables = [createOrderCallable, startPaymentCallable, confirmPaymentCallable, cancelOrderCallable];
