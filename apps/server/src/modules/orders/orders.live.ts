import { eventOrders, myOrder } from '@admit/shared/orders';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import { picturesOf } from '../../platform/files/uploads';
import { CallableError } from '../../platform/http/callable-error';
import { defineLiveQuery } from '../../platform/live/live-query';
import { eventTopic, requireEventRole, titlesAndVenues } from '../events/events.api';
import { event } from '../events/schema';
import { eventQuestionsTopic, questionsOf } from '../questions/questions.api';
import { resaleOfTickets, transferSettingsOf, transferUntil } from '../tickets/tickets.api';
import { ticketResale } from '../tickets/schema';
import { attendeesOf, validTicketsOf } from './order-answers';
import { linesWithNames } from './order-lines';
import { tokenOpens } from './order-access';
import { order } from './schema';
import { eventOrdersTopic, orderTopic } from './topics';

export const eventOrdersLive = defineLiveQuery(eventOrders, {
  auth: 'required',
  async load(params, ctx) {
    await requireEventRole(ctx.db, ctx.user, params.eventId, 'admin');
    const rows = await ctx.db
      .select({
        id: order.id,
        eventId: order.eventId,
        buyerName: order.buyerName,
        email: order.email,
        status: order.status,
        total: order.total,
        currency: order.currency,
        // Qualified by hand: in a one-table select Drizzle leaves column names bare, and a bare "id"
        // inside the subquery would mean the ticket's own id (every count was 0).
        // A ticket sent on counts once: the void one it replaced is left out (decision 0065).
        ticketCount: sql<number>`(select count(*)::int from "ticket" where "ticket"."order_id" = "order"."id" and "ticket"."replaced_by" is null)`,
        createdAt: order.createdAt,
      })
      .from(order)
      .where(eq(order.eventId, params.eventId))
      .orderBy(desc(order.createdAt), desc(order.id))
      .limit(500);
    return rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() }));
  },
  topics: (params) => [eventOrdersTopic(params.eventId)],
});

/**
 * One order of the signed-in buyer, or the one a guest's token opens (another order's id is
 * `not-found`): the checkout watches it settle.
 */
export const myOrderLive = defineLiveQuery(myOrder, {
  auth: 'optional',
  async load(params, ctx) {
    if (params.accessToken === undefined && !ctx.user) throw new CallableError('unauthenticated', 'Sign in to see this');
    const opened = ctx.config !== undefined && tokenOpens(ctx.config, params.orderId, params.accessToken);
    if (params.accessToken !== undefined && !opened) throw new CallableError('not-found', 'No such order');
    const [found] = await ctx.db
      .select({
        id: order.id,
        eventId: order.eventId,
        eventTitle: event.title,
        contentLocale: event.contentLocale,
        eventTranslations: titlesAndVenues,
        eventSlug: event.slug,
        coverFile: event.coverFile,
        startsAt: event.startsAt,
        eventStatus: event.status,
        timeZone: event.timeZone,
        status: order.status,
        total: order.total,
        refundedAmount: order.refundedAmount,
        currency: order.currency,
        holdExpiresAt: order.holdExpiresAt,
        paymentProvider: order.paymentProvider,
        createdAt: order.createdAt,
      })
      .from(order)
      .innerJoin(event, eq(event.id, order.eventId))
      .where(and(eq(order.id, params.orderId), opened ? undefined : eq(order.buyerId, ctx.user!.id)));
    if (!found) throw new CallableError('not-found', 'No such order');
    const lines = await linesWithNames(ctx.db, found.id);
    const valid = await validTicketsOf(ctx.db, found.id);
    // A ticket sent on is its new holder's (decision 0065): the buyer sees to whom, but not their answers.
    const givenAway = (one: (typeof valid)[number]) =>
      one.transferredFrom !== null && (ctx.user === undefined || ctx.user === null || one.holderUserId !== ctx.user.id);
    const kept = valid.filter((one) => !givenAway(one));
    const attendees = await attendeesOf(ctx.db, found, await questionsOf(ctx.db, found.eventId), kept);
    const settings = await transferSettingsOf(ctx.db, found.eventId);
    const resales = await resaleOfTickets(
      ctx.db,
      kept.map((one) => one.id),
    );
    const tickets = valid.map((one) => ({
      id: one.id,
      ticketTypeId: one.ticketTypeId,
      holderName: one.holderName,
      givenAway: givenAway(one),
      transferUntil: givenAway(one)
        ? null
        : (transferUntil(one, { status: found.eventStatus, startsAt: found.startsAt }, settings)?.toISOString() ?? null),
      pendingTransfer: one.pendingTransfer,
      resale: resales.get(one.id)?.resale ?? null,
      resaleTerms: resales.get(one.id)?.resaleTerms ?? null,
    }));
    // Its tickets resold at face value (decision 0066): each refunded at its price less the fee.
    const resold = await ctx.db
      .select({
        ticketTypeId: ticketResale.ticketTypeId,
        price: ticketResale.price,
        fee: ticketResale.fee,
        soldAt: ticketResale.endedAt,
      })
      .from(ticketResale)
      .where(and(eq(ticketResale.orderId, found.id), eq(ticketResale.status, 'sold')))
      .orderBy(asc(ticketResale.endedAt));
    const { coverFile, startsAt, eventStatus, ...shown } = found;
    const covers = await picturesOf(ctx.db, [coverFile]);
    return [
      {
        ...shown,
        eventCover: (coverFile && covers.get(coverFile)) || null,
        lines,
        attendees,
        tickets,
        resold: resold.map((one) => ({
          ticketTypeId: one.ticketTypeId,
          payout: one.price - one.fee,
          soldAt: one.soldAt!.toISOString(),
        })),
        answersUntil: startsAt.toISOString(),
        holdExpiresAt: found.holdExpiresAt?.toISOString() ?? null,
        createdAt: found.createdAt.toISOString(),
      },
    ];
  },
  // The order, and its event (a new cover or title shows at once) and questions (a label changed).
  topics: (params, rows) => [
    orderTopic(params.orderId),
    ...rows.flatMap((row) => [eventTopic(row.eventId), eventQuestionsTopic(row.eventId)]),
  ],
});

export const ordersLiveQueries = [eventOrdersLive, myOrderLive];
