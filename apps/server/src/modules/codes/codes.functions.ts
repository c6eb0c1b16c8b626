import { createCode, deleteCode, generateCodes, randomCode, updateCode } from '@admit/shared/codes';
import { zonedLocalToInstant } from '@admit/shared/dates';
import { and, eq, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { recordAudit } from '../../platform/audit/audit-log';
import type { Db, Tx } from '../../platform/db/database';
import { defineCallable } from '../../platform/http/callable';
import { CallableError } from '../../platform/http/callable-error';
import { requireEventRole, type EventRecord } from '../events/events.api';
import { ticketType } from '../events/schema';
import { orderLine } from '../orders/schema';
import { usesOf } from './code-uses';
import { eventCode } from './schema';
import { eventCodesTopic } from './topics';

type CodeFields = Omit<z.output<typeof createCode.input>, 'eventId'>;
type Settings = Omit<CodeFields, 'code'>;

/** The row's fields from the form's: the window's wall-clock times in the event's zone. */
function columnsOf(input: CodeFields, found: EventRecord) {
  return { code: input.code, ...settingsOf(input, found) };
}

/** The row's fields but its code. */
function settingsOf(input: Settings, found: EventRecord) {
  return {
    ticketTypeIds: [...new Set(input.ticketTypeIds)],
    discountPercent: input.discount?.kind === 'percent' ? input.discount.percent : null,
    discountAmount: input.discount?.kind === 'amount' ? input.discount.amount : null,
    minQuantity: input.minQuantity,
    maxUses: input.maxUses,
    maxPerBuyer: input.maxPerBuyer,
    validFrom: input.validFromLocal ? zonedLocalToInstant(input.validFromLocal, found.timeZone) : null,
    validUntil: input.validUntilLocal ? zonedLocalToInstant(input.validUntilLocal, found.timeZone) : null,
  };
}

/**
 * Refuses a ticket type that is not the event's, or a visible one on a code without a discount:
 * only hidden types need a code to be sold.
 */
async function requireCodeTypes(db: Db | Tx, eventId: string, input: Settings) {
  const types = await db
    .select({ id: ticketType.id, hidden: ticketType.hidden })
    .from(ticketType)
    .where(eq(ticketType.eventId, eventId));
  const usable = new Set(types.filter((type) => type.hidden || input.discount !== null).map((type) => type.id));
  const wrong = input.ticketTypeIds.find((id) => !usable.has(id));
  if (wrong)
    throw new CallableError('failed-precondition', 'A code without a discount unlocks hidden ticket types of its event only', {
      reason: 'not-hidden-type',
      ticketTypeId: wrong,
    });
}

/** Another code of the event written the same way: the unique index refused it. */
const isTaken = (error: unknown) => (error as { cause?: { code?: string } }).cause?.code === '23505';
const taken = () => new CallableError('failed-precondition', 'The event has a code written so already', { reason: 'code-taken' });

export const createCodeCallable = defineCallable(createCode, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: found } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
    await requireCodeTypes(ctx.db, found.id, input);
    const codeId = randomUUID();
    await ctx.db
      .transaction(async (tx) => {
        await tx.insert(eventCode).values({ id: codeId, eventId: found.id, createdBy: ctx.user.id, ...columnsOf(input, found) });
        await recordAudit(tx, {
          organizationId: found.organizationId,
          eventId: found.id,
          actor: ctx.user,
          action: 'code.add',
          target: input.code,
        });
      })
      .catch((error: unknown) => {
        throw isTaken(error) ? taken() : error;
      });
    ctx.publish(eventCodesTopic(found.id));
    return { codeId };
  },
});

/**
 * Many made-up codes with the same settings, in one transaction: all of them or none. A made-up
 * code that another of the event's codes already has (one chance in about 10¹² each) is made up again.
 */
export const generateCodesCallable = defineCallable(generateCodes, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: found } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
    await requireCodeTypes(ctx.db, found.id, input);
    const settings = settingsOf(input, found);
    await ctx.db.transaction(async (tx) => {
      let made = 0;
      for (let round = 0; made < input.count && round < 5; round++) {
        const rows = Array.from({ length: input.count - made }, () => ({
          id: randomUUID(),
          eventId: found.id,
          createdBy: ctx.user.id,
          code: randomCode(input.prefix),
          ...settings,
        }));
        const inserted = await tx.insert(eventCode).values(rows).onConflictDoNothing().returning({ id: eventCode.id });
        made += inserted.length;
      }
      if (made < input.count) throw new Error(`Made ${made} of ${input.count} codes`);
      await recordAudit(tx, {
        organizationId: found.organizationId,
        eventId: found.id,
        actor: ctx.user,
        action: 'code.generate',
        target: String(input.count),
        details: { prefix: input.prefix },
      });
    });
    ctx.publish(eventCodesTopic(found.id));
    return { count: input.count };
  },
});

/** The code of the event, locked until the transaction ends. */
async function lockCode(tx: Tx, eventId: string, codeId: string) {
  const [found] = await tx
    .select()
    .from(eventCode)
    .where(and(eq(eventCode.id, codeId), eq(eventCode.eventId, eventId)))
    .for('update');
  if (!found) throw new CallableError('not-found', 'No such code');
  return found;
}

export const updateCodeCallable = defineCallable(updateCode, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: found } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
    await requireCodeTypes(ctx.db, found.id, input);
    await ctx.db
      .transaction(async (tx) => {
        // Locked as an order locks it: no order takes uses between the count and the change.
        const before = await lockCode(tx, found.id, input.codeId);
        const used = (await usesOf(tx, [before.id])).get(before.id) ?? 0;
        if (input.maxUses !== null && input.maxUses < used)
          throw new CallableError('failed-precondition', `${used} tickets were bought with this code`, {
            reason: 'code-limit-below-used',
            used,
          });
        await tx.update(eventCode).set(columnsOf(input, found)).where(eq(eventCode.id, before.id));
        await recordAudit(tx, {
          organizationId: found.organizationId,
          eventId: found.id,
          actor: ctx.user,
          action: 'code.update',
          target: input.code,
          details: before.code === input.code ? {} : { before: before.code },
        });
      })
      .catch((error: unknown) => {
        throw isTaken(error) ? taken() : error;
      });
    ctx.publish(eventCodesTopic(found.id));
    return {};
  },
});

export const deleteCodeCallable = defineCallable(deleteCode, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: found } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
    await ctx.db.transaction(async (tx) => {
      const code = await lockCode(tx, found.id, input.codeId);
      const [row] = await tx
        .select({ orders: sql<number>`count(distinct ${orderLine.orderId})::int` })
        .from(orderLine)
        .where(eq(orderLine.codeId, code.id));
      const orders = Number(row?.orders ?? 0);
      if (orders > 0)
        throw new CallableError('failed-precondition', 'Orders used this code: end its window instead', {
          reason: 'code-in-use',
          orders,
        });
      await tx.delete(eventCode).where(eq(eventCode.id, code.id));
      await recordAudit(tx, {
        organizationId: found.organizationId,
        eventId: found.id,
        actor: ctx.user,
        action: 'code.remove',
        target: code.code,
      });
    });
    ctx.publish(eventCodesTopic(found.id));
    return {};
  },
});

export const codesCallables = [createCodeCallable, updateCodeCallable, deleteCodeCallable, generateCodesCallable];
