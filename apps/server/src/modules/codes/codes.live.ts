import { codeTicketTypes, discountOn, eventCodes } from '@admit/shared/codes';
import { instantToZonedLocal } from '@admit/shared/dates';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import { CallableError } from '../../platform/http/callable-error';
import { defineLiveQuery } from '../../platform/live/live-query';
import { canSeeEvent, eventTopic, findEvent, requireEventRole } from '../events/events.api';
import { ticketType } from '../events/schema';
import { orderLine } from '../orders/schema';
import { codeAppliesTo, discountOf, requireCode, requireWorksNow, usesOf } from './code-uses';
import { eventCode } from './schema';
import { eventCodesTopic } from './topics';

/** An event's codes with their uses now (its admins): the uses change with every order, so the event's topic too. */
export const eventCodesLive = defineLiveQuery(eventCodes, {
  auth: 'required',
  async load(params, ctx) {
    const { event: found } = await requireEventRole(ctx.db, ctx.user, params.eventId, 'admin');
    const codes = await ctx.db
      .select()
      .from(eventCode)
      .where(eq(eventCode.eventId, found.id))
      .orderBy(asc(eventCode.code))
      .limit(1000);
    const ids = codes.map((code) => code.id);
    const uses = await usesOf(ctx.db, ids);
    const orders =
      ids.length === 0
        ? []
        : await ctx.db
            .select({ codeId: orderLine.codeId, count: sql<number>`count(distinct ${orderLine.orderId})::int` })
            .from(orderLine)
            .where(inArray(orderLine.codeId, ids))
            .groupBy(orderLine.codeId);
    const local = (instant: Date | null) => (instant ? instantToZonedLocal(instant, found.timeZone) : null);
    return codes.map((code) => ({
      id: code.id,
      code: code.code,
      ticketTypeIds: code.ticketTypeIds,
      discount: discountOf(code),
      minQuantity: code.minQuantity,
      maxUses: code.maxUses,
      maxPerBuyer: code.maxPerBuyer,
      validFromLocal: local(code.validFrom),
      validUntilLocal: local(code.validUntil),
      used: uses.get(code.id) ?? 0,
      orders: Number(orders.find((row) => row.codeId === code.id)?.count ?? 0),
      createdAt: code.createdAt.toISOString(),
    }));
  },
  topics: (params) => [eventCodesTopic(params.eventId), eventTopic(params.eventId)],
});

const least = (...limits: (number | null)[]) => {
  const given = limits.filter((limit): limit is number => limit !== null);
  return given.length === 0 ? null : Math.min(...given);
};

/**
 * The ticket types a code is for (hidden ones it unlocks, visible ones it discounts), as the
 * event's page shows its other types, with the code's price and what is left counting its own
 * limit. Anyone may watch it who may see the event and has the code.
 */
export const codeTicketTypesLive = defineLiveQuery(codeTicketTypes, {
  auth: 'optional',
  async load(params, ctx) {
    const found = await findEvent(ctx.db, params.eventId);
    if (!(await canSeeEvent(ctx.db, ctx.user, found))) throw new CallableError('not-found', 'No such event');
    const code = await requireCode(ctx.db, { eventId: found.id, code: params.code, clientAddress: ctx.clientAddress });
    requireWorksNow(code, found.timeZone);
    const types = (
      await ctx.db.select().from(ticketType).where(eq(ticketType.eventId, found.id)).orderBy(asc(ticketType.position))
    ).filter((type) => codeAppliesTo(code, type));
    const discount = discountOf(code);
    const used = code.maxUses === null ? 0 : ((await usesOf(ctx.db, [code.id])).get(code.id) ?? 0);
    const codeLeft = code.maxUses === null ? null : Math.max(0, code.maxUses - used);
    const eventLeft = found.capacity - found.sold - found.held;
    return types.map((type) => ({
      id: type.id,
      eventId: type.eventId,
      name: type.name,
      nameTranslations: type.nameTranslations,
      price: type.price - discountOn(type.price, discount),
      listPrice: type.price,
      unlocked: type.hidden,
      discount,
      minQuantity: code.minQuantity,
      capacity: type.capacity,
      maxPerOrder: type.maxPerOrder,
      maxPerBuyer: least(type.maxPerBuyer, code.maxPerBuyer),
      remaining: type.waitlistWaiting > 0 ? 0 : Math.max(0, least(type.capacity - type.sold - type.held, eventLeft, codeLeft)!),
      // Tickets offered back are sold at the price their sellers paid, never with a code (decision 0066).
      resale: 0,
      resalePrice: null,
      salesStart: type.salesStart?.toISOString() ?? null,
      salesEnd: type.salesEnd?.toISOString() ?? null,
      position: type.position,
      code: code.code,
    }));
  },
  topics: (params) => [eventTopic(params.eventId), eventCodesTopic(params.eventId)],
});

export const codesLiveQueries = [eventCodesLive, codeTicketTypesLive];
