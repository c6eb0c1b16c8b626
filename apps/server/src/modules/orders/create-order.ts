import { randomUUID } from 'node:crypto';
import { personLabel } from '@admit/shared/people';
import { discountOn } from '@admit/shared/codes';
import type { Answers } from '@admit/shared/questions';
import { CreateOrderInput } from '@admit/shared/orders';
import type { z } from 'zod';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/database';
import type { AuthedCallContext, CallContext } from '../../platform/http/callable';
import { CallableError, databaseErrorCode } from '../../platform/http/callable-error';
import {
  codeAppliesTo,
  discountOf,
  fitsOneStatement,
  isCodeLimit,
  recentCode,
  requireCode,
  takeCodeUses,
  wrongCodesQuota,
  type EventCode,
} from '../codes/codes.api';
import { findEvent, recentSaleInfo, SoldOut, takePlaces } from '../events/events.api';
import { ticketType } from '../events/schema';
import { ticket } from '../tickets/schema';
import { checkOrderAnswers, questionsOf, recentQuestionSet } from '../questions/questions.api';
import { issueTickets } from '../tickets/tickets.api';
import { expireHoldJob, releaseExpiredHolds } from './holds';
import { recordActivity } from './order-activity';
import { orderAccessToken } from './order-access';
import { enqueueConfirmation, sendGuestLinkJob } from './order-emails';
import {
  countOrderAttempt,
  orderAttemptQuotas,
  requireHoldWithinLimit,
  requireWithinBuyerLimits,
  type Buyer,
} from './order-quotas';
import { emitOrderWebhook } from './order-resource';
import { placeOrder } from './order-batches';
import { orderFromResale } from './resale-checkout';
import type { OrderOutcome } from './place-order';
import { order, orderLine } from './schema';
import { orderTopics } from './topics';

type TicketType = typeof ticketType.$inferSelect;

/**
 * A buyer orders tickets. Free orders are complete at once (tickets issued, emailed by a job after
 * the commit); anything to pay holds the places until the hold ends (a job ends it then). The same idempotency key never
 * makes a second order: the first one's answer comes back.
 *
 * Without a session, a guest orders with a name and an address (decision 0060): their free places
 * are held until they open the link emailed to that address (confirm-guest-order.ts), or the hold
 * ends as an unpaid one does; an order to pay answers with the token that opens it.
 */
export async function createOrder({ ctx, input }: { ctx: CallContext; input: z.output<typeof CreateOrderInput> }) {
  const buyer: Buyer = ctx.user
    ? { id: ctx.user.id, name: personLabel(ctx.user), email: ctx.user.email }
    : input.guest
      ? { id: null, name: input.guest.name, email: input.guest.email }
      : unauthenticated();
  const quick = ctx.user ? await tryInOneStatement({ ...ctx, user: ctx.user }, input) : notInOneStatement;
  if (quick.orderId) return quick.answer;
  if (input.idempotencyKey) {
    const existing = await orderWithKey(ctx.db, buyer, input.idempotencyKey);
    if (existing) return answerFor(ctx, existing);
  }
  // After the replay above, which makes nothing: a device that sends its order again is not counted
  // twice; nor is an attempt that the one-statement path counted already.
  if (!quick.quotaCounted) await countOrderAttempt(ctx, buyer);

  const found = await findEvent(ctx.db, input.eventId);
  if (found.status === 'draft') throw new CallableError('not-found', 'No such event');
  if (found.status !== 'published')
    throw new CallableError('failed-precondition', 'Tickets for this event are not on sale', {
      reason: 'event-not-on-sale',
      status: found.status,
    });

  // Looked up before the transaction: a wrong code is counted against the caller's address, and a
  // refusal inside the transaction would roll that count back.
  const code = input.code
    ? await requireCode(ctx.db, { eventId: found.id, code: input.code, clientAddress: ctx.clientAddress })
    : null;
  const types = await ctx.db.select().from(ticketType).where(eq(ticketType.eventId, input.eventId));
  const typeById = checkLines(input, types, code);
  // Each ticket's answers to the event's questions, as they are now; kept with the hold, then on the tickets.
  const answers = checkOrderAnswers(await questionsOf(ctx.db, found.id), input.lines);
  const withCode = (ticketTypeId: string) => code !== null && codeAppliesTo(code, typeById.get(ticketTypeId)!);
  const codeQuantity = input.lines.filter((line) => withCode(line.ticketTypeId)).reduce((sum, line) => sum + line.quantity, 0);
  // Prices are the server's, never the browser's: each ticket's, less its code's discount.
  const discountFor = (ticketTypeId: string) =>
    withCode(ticketTypeId) ? discountOn(typeById.get(ticketTypeId)!.price, discountOf(code!)) : 0;
  const unitPriceOf = (ticketTypeId: string) => typeById.get(ticketTypeId)!.price - discountFor(ticketTypeId);
  const total = input.lines.reduce((sum, line) => sum + unitPriceOf(line.ticketTypeId) * line.quantity, 0);
  // Anything to pay: the places are held, not sold; so are a guest's free places, until the link is opened.
  const paid = total > 0;
  const held = paid || buyer.id === null;
  const holdExpiresAt = held ? new Date(Date.now() + found.holdMinutes * 60_000) : null;
  const quantity = input.lines.reduce((sum, line) => sum + line.quantity, 0);
  const orderId = randomUUID();

  const place = () =>
    ctx.db.transaction(async (tx) => {
      await takePlaces(tx, {
        eventId: found.id,
        lines: input.lines,
        as: held ? 'held' : 'sold',
        eventStatuses: ['published'],
        waitlistFirst: true,
      });
      if (held)
        await requireHoldWithinLimit(tx, {
          buyer,
          eventId: found.id,
          quantity,
          limit: ctx.config.ORDER_MAX_HELD_PLACES,
        });
      await requireWithinBuyerLimits(tx, {
        buyerId: buyer.id,
        email: buyer.email,
        event: found,
        lines: input.lines,
        types: typeById,
      });
      if (code)
        await takeCodeUses(tx, {
          codeId: code.id,
          buyer,
          quantity: codeQuantity,
          as: 'order',
          priced: code,
          timeZone: found.timeZone,
        });
      await tx.insert(order).values({
        id: orderId,
        eventId: found.id,
        buyerId: buyer.id,
        buyerName: buyer.name,
        email: buyer.email,
        status: held ? 'pending' : 'paid',
        total,
        currency: found.currency,
        holdExpiresAt,
        locale: ctx.locale,
        idempotencyKey: input.idempotencyKey ?? null,
      });
      await recordActivity(tx, orderId, 'created', {
        total,
        tickets: quantity,
        ...(code && codeQuantity > 0 ? { code: code.code } : {}),
      });
      await tx.insert(orderLine).values(
        input.lines.map((line, index) => ({
          id: randomUUID(),
          orderId,
          ticketTypeId: line.ticketTypeId,
          quantity: line.quantity,
          unitPrice: unitPriceOf(line.ticketTypeId),
          discount: discountFor(line.ticketTypeId),
          codeId: withCode(line.ticketTypeId) ? code!.id : null,
          answers: answers[index],
        })),
      );
      // Paid orders get their tickets when the payment succeeds (settle-payment.ts), a guest's free
      // ones when the emailed link is opened (confirm-guest-order.ts).
      if (!held)
        await issueTickets(tx, {
          orderId,
          event: found,
          tickets: input.lines.map((line, index) => ({
            ticketTypeId: line.ticketTypeId,
            quantity: line.quantity,
            holderName: buyer.name,
            holderEmail: buyer.email,
            answers: answers[index],
          })),
        });
      await emitOrderWebhook(tx, { organizationId: found.organizationId, orderId, type: 'order.created' });
      // Complete now when free; a guest's free places when their link is opened (confirmFreeHold).
      if (!held) await emitOrderWebhook(tx, { organizationId: found.organizationId, orderId, type: 'order.paid' });
      // A free order is complete: its tickets go out by email, from a job (not on the answer's path).
      if (!held) await enqueueConfirmation(ctx.jobs, tx, { orderId, email: buyer.email });
      // A hold ends at its time, even if nobody orders again.
      else await ctx.jobs.enqueue(tx, expireHoldJob, { orderId }, { startAfter: holdExpiresAt! });
      // A guest's free places: the link that confirms them goes to the address they gave.
      if (held && !paid) await ctx.jobs.enqueue(tx, sendGuestLinkJob, { orderId });
    });
  try {
    await place().catch(async (error: unknown) => {
      // Holds that ended but whose jobs have not run yet must never make a buyer hear "sold out"
      // (or that a code is used up): they are released here, and the order tried once more.
      if (!(error instanceof SoldOut || isCodeLimit(error)) || found.held === 0) throw error;
      const expired = await releaseExpiredHolds(ctx.db, input.eventId);
      if (expired.length === 0) throw error;
      for (const released of expired) ctx.publish(...orderTopics(released));
      await place();
    });
  } catch (error) {
    // The type's own places are gone: tickets its holders offer back may serve a one-line order (decision 0066).
    if (error instanceof SoldOut && error.soldOut.remaining === 0 && input.lines.length === 1 && !code) {
      const resold = await orderFromResale(ctx, {
        buyer,
        event: found,
        line: input.lines[0]!,
        idempotencyKey: input.idempotencyKey ?? null,
      });
      if (resold) return resold;
    }
    // The same key sent twice at once: the unique index let one through; answer with that order.
    if (input.idempotencyKey && databaseErrorCode(error) === '23505') {
      const existing = await orderWithKey(ctx.db, buyer, input.idempotencyKey);
      if (existing) return answerFor(ctx, existing);
    }
    throw error;
  }

  ctx.publish(...orderTopics({ id: orderId, eventId: found.id, buyerId: buyer.id }, found.organizationId));
  return {
    orderId,
    status: held ? ('pending' as const) : ('paid' as const),
    ticketCount: held ? 0 : quantity,
    total,
    holdExpiresAt: holdExpiresAt?.toISOString() ?? null,
    // A guest pays on the order's page, which this opens; free places wait for the emailed link.
    ...(buyer.id === null && paid ? { accessToken: orderAccessToken(ctx.config, orderId) } : {}),
  };
}

function unauthenticated(): never {
  throw new CallableError('unauthenticated', 'Sign in, or give a name and an email address to order as a guest');
}

const notInOneStatement = { orderId: null, quotaCounted: false, answer: null } as const;

/**
 * Most orders of a rush: one line of a ticket type that is on sale, as this process saw the event a
 * moment ago, with no code or one without a limit per buyer, by a buyer signed in, with its answers
 * if the ticket type asks any:
 * free, complete at once, or to pay, held. Made in one statement, with the orders arriving at the
 * same moment (order-batches.ts, place-order.ts), which checks again what it relies on; when it makes
 * nothing, or the database refuses it, the general path below decides and answers precisely.
 */
async function tryInOneStatement(ctx: AuthedCallContext, input: z.output<typeof CreateOrderInput>) {
  const none = { orderId: null, quotaCounted: false, answer: null } as const;
  const [line] = input.lines;
  if (!line || input.lines.length > 1) return none;
  // A wrong code is counted, and a code's limit per buyer checked, on the general path.
  const code = input.code ? await recentCode(ctx.db, input.eventId, input.code) : null;
  if (input.code && !code) return none;
  // Answers are checked against the event's questions as read a moment ago; the statement makes
  // nothing if they changed since. Wrong answers: the general path refuses them on a fresh read.
  const { questions, version: questionsVersion } = await recentQuestionSet(ctx.db, input.eventId);
  let answers: Answers[];
  try {
    [answers = []] = checkOrderAnswers(questions, input.lines);
  } catch {
    return none;
  }
  const sale = await recentSaleInfo(ctx.db, input.eventId);
  const type = sale?.ticketTypes.get(line.ticketTypeId);
  const now = new Date();
  if (
    !sale ||
    sale.event.status !== 'published' ||
    sale.event.maxPerBuyer !== null ||
    !type ||
    (code ? !fitsOneStatement(code, type, line.quantity, now) : type.hidden) ||
    type.maxPerBuyer !== null ||
    line.quantity > type.maxPerOrder ||
    (type.salesStart && now < type.salesStart) ||
    (type.salesEnd && now >= type.salesEnd)
  )
    return none;
  let placed: OrderOutcome;
  try {
    placed = await placeOrder({
      db: ctx.db,
      sale,
      ticketTypeId: line.ticketTypeId,
      code,
      heldPlacesLimit: ctx.config.ORDER_MAX_HELD_PLACES,
      request: {
        buyer: ctx.user,
        locale: ctx.locale,
        idempotencyKey: input.idempotencyKey ?? null,
        quantity: line.quantity,
        quotas: orderAttemptQuotas(ctx, ctx.user),
        answers,
        questionsVersion,
        codeQuota: code ? wrongCodesQuota(ctx.clientAddress) : null,
      },
    });
  } catch (error) {
    // Undone whole (a capacity check, a lock given up to a deadlock): each order finds its answer on
    // the general path. Anything else is a bug worth a line in the log, though the buyer is served.
    const expected = ['23514', '40P01', '23505'].includes(databaseErrorCode(error) ?? '');
    ctx.log[expected ? 'debug' : 'error']({ err: error }, 'orders made together failed; this one takes the general path');
    return none;
  }
  // Too few places and none held: the answer the general path would give, without taking its turn
  // on the event's row (most buyers of a sold-out rush hear it).
  // Tickets offered back are for the general path (one read of the type's count, without a lock).
  if (placed.soldOut) {
    const [now] = await ctx.db
      .select({ resaleListed: ticketType.resaleListed })
      .from(ticketType)
      .where(eq(ticketType.id, type.id));
    if ((now?.resaleListed ?? 0) > 0) return { ...none, quotaCounted: placed.withinQuota };
    throw new SoldOut(placed.soldOut);
  }
  // Counted in the statement, made or not: the general path does not count it again, unless it was
  // over a quota, which the general path then refuses with the wait.
  if (!placed.orderId) return { ...none, quotaCounted: placed.withinQuota };
  ctx.publish(...orderTopics({ id: placed.orderId, eventId: sale.event.id, buyerId: ctx.user.id }, sale.event.organizationId));
  return {
    orderId: placed.orderId,
    quotaCounted: true,
    answer: placed.holdExpiresAt
      ? {
          orderId: placed.orderId,
          status: 'pending' as const,
          ticketCount: 0,
          total: placed.total,
          holdExpiresAt: placed.holdExpiresAt,
        }
      : { orderId: placed.orderId, status: 'paid' as const, ticketCount: line.quantity, total: 0, holdExpiresAt: null },
  };
}

/**
 * Each line names a ticket type of the event that is visible or that the order's code unlocks,
 * within its per-order limit (else `invalid-argument` naming every field), on sale now (else
 * `failed-precondition` with the reason).
 */
function checkLines(
  input: z.output<typeof CreateOrderInput>,
  types: TicketType[],
  code: EventCode | null,
): Map<string, TicketType> {
  const typeById = new Map(types.map((type) => [type.id, type]));
  const fields: { path: string; message: string; code: string }[] = [];
  input.lines.forEach((line, index) => {
    const type = typeById.get(line.ticketTypeId);
    if (!type || (type.hidden && !code?.ticketTypeIds.includes(type.id)))
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
  return typeById;
}

async function orderWithKey(db: Db, buyer: Buyer, idempotencyKey: string) {
  const [existing] = await db
    .select({ id: order.id })
    .from(order)
    .where(
      and(
        // A guest's: under the same address, and still a guest's.
        buyer.id ? eq(order.buyerId, buyer.id) : and(isNull(order.buyerId), eq(order.email, buyer.email)),
        eq(order.idempotencyKey, idempotencyKey),
      ),
    );
  return existing?.id;
}

/** createOrder's answer for an order that exists (the same idempotency key sent again). */
async function answerFor(ctx: CallContext, orderId: string) {
  const { db } = ctx;
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
    ...(found!.buyerId === null && found!.total > 0 ? { accessToken: orderAccessToken(ctx.config, orderId) } : {}),
  };
}
