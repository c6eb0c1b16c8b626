import { orderDetail } from '@admit/shared/orders';
import { shownAnswers } from '@admit/shared/questions';
import { asc, eq } from 'drizzle-orm';
import { user } from '../../platform/auth/schema';
import { CallableError } from '../../platform/http/callable-error';
import { defineLiveQuery } from '../../platform/live/live-query';
import { requireEventRole } from '../events/events.api';
import { event, ticketType } from '../events/schema';
import { eventQuestionsTopic, questionsOf } from '../questions/questions.api';
import { linesWithNames } from './order-lines';
import { order, orderActivity } from './schema';
import { refund } from '../payments/schema';
import { orderTopic } from './topics';
import { ticket } from '../tickets/schema';

/** One order as its event's admins see it: buyer, lines, tickets, refunds and the payment timeline. */
export const orderDetailLive = defineLiveQuery(orderDetail, {
  auth: 'required',
  async load(params, ctx) {
    const [found] = await ctx.db
      .select({ order, eventTitle: event.title })
      .from(order)
      .innerJoin(event, eq(event.id, order.eventId))
      .where(eq(order.id, params.orderId));
    if (!found) throw new CallableError('not-found', 'No such order');
    await requireEventRole(ctx.db, ctx.user, found.order.eventId, 'admin');
    const { order: row } = found;

    const lines = await linesWithNames(ctx.db, row.id);
    const priceOf = new Map(lines.map((line) => [line.ticketTypeId, line.unitPrice]));
    const tickets = await ctx.db
      .select({
        id: ticket.id,
        ticketTypeId: ticket.ticketTypeId,
        ticketTypeName: ticketType.name,
        holderName: ticket.holderName,
        status: ticket.status,
        answers: ticket.answers,
      })
      .from(ticket)
      .innerJoin(ticketType, eq(ticketType.id, ticket.ticketTypeId))
      .where(eq(ticket.orderId, row.id))
      .orderBy(asc(ticketType.position), asc(ticketType.name), asc(ticket.createdAt), asc(ticket.id));
    const questions = await questionsOf(ctx.db, row.eventId);
    const refunds = await ctx.db
      .select()
      .from(refund)
      .where(eq(refund.orderId, row.id))
      .orderBy(asc(refund.createdAt), asc(refund.id));
    const activity = await ctx.db
      .select({
        id: orderActivity.id,
        kind: orderActivity.kind,
        detail: orderActivity.detail,
        actorName: user.name,
        at: orderActivity.at,
      })
      .from(orderActivity)
      .leftJoin(user, eq(user.id, orderActivity.actorId))
      .where(eq(orderActivity.orderId, row.id))
      .orderBy(asc(orderActivity.at), asc(orderActivity.id));

    return [
      {
        id: row.id,
        eventId: row.eventId,
        eventTitle: found.eventTitle,
        buyerName: row.buyerName,
        email: row.email,
        status: row.status,
        total: row.total,
        refundedAmount: row.refundedAmount,
        currency: row.currency,
        locale: row.locale,
        holdExpiresAt: row.holdExpiresAt?.toISOString() ?? null,
        paymentProvider: row.paymentProvider,
        paymentRef: row.paymentRef,
        createdAt: row.createdAt.toISOString(),
        lines,
        tickets: tickets.map((one) => ({
          ...one,
          price: priceOf.get(one.ticketTypeId) ?? 0,
          answers: shownAnswers(questions, one.answers),
        })),
        refunds: refunds.map((one) => ({
          id: one.id,
          amount: one.amount,
          reason: one.reason,
          status: one.status,
          ticketCount: one.ticketIds.length,
          createdAt: one.createdAt.toISOString(),
        })),
        activity: activity.map((one) => ({ ...one, at: one.at.toISOString() })),
      },
    ];
  },
  topics: (params, rows) => [orderTopic(params.orderId), ...rows.map((row) => eventQuestionsTopic(row.eventId))],
});

export const orderDetailLiveQueries = [orderDetailLive];
