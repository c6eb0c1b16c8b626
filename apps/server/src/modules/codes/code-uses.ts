import type { Discount } from '@admit/shared/codes';
import { failureOf, type FailureDetails } from '@admit/shared/failures';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import { addressKeyOf } from '../../platform/live/live-limits';
import { consumeQuota, quotaKey, quotaWait, type Quota } from '../../platform/quotas/call-quota';
import { order, orderLine, ordersOf } from '../orders/schema';
import { ticket } from '../tickets/schema';
import { eventCode } from './schema';

// Ordering with a code (the codes module manages them), its rules written once: which code a buyer
// means, whether it works now, and whether its limits leave room for an order's tickets. A code's
// uses are the places taken with it: the lines of pending orders, and the valid tickets of paid
// ones (decision 0047).

export type EventCode = typeof eventCode.$inferSelect;

/** Wrong codes one address may try in ten minutes before every code it tries is refused for a while. */
const wrongCodes = { limit: 20, windowSeconds: 600 } as const;

const tooManyAttempts = (retryAfterSeconds: number) =>
  new CallableError('resource-exhausted', `Too many wrong codes; try again in ${retryAfterSeconds} s`, {
    reason: 'too-many-code-attempts',
    retryAfterSeconds,
  });

/**
 * The event's code as a buyer wrote it (in capitals). An unknown code is refused and counted
 * against the caller's address (an IPv6 address by its /64); once the address has tried too many,
 * every code is refused until its window ends, the right ones too, so guessing learns nothing.
 * Only wrong codes are counted: right ones, however many buyers behind one address send them at
 * once in a rush, and however often a page's live query reads them again, cost nothing (decision
 * 0047). Not inside a transaction: a refusal would roll its count back.
 */
export async function requireCode(db: Db, input: { eventId: string; code: string; clientAddress: string }): Promise<EventCode> {
  const quota = wrongCodesQuota(input.clientAddress);
  const blocked = await quotaWait(db, quota);
  if (blocked !== null) throw tooManyAttempts(blocked);
  const [found] = await db
    .select()
    .from(eventCode)
    .where(and(eq(eventCode.eventId, input.eventId), eq(eventCode.code, input.code)));
  if (found) return found;
  const wait = await consumeQuota(db, quota);
  if (wait !== null) throw tooManyAttempts(wait);
  throw new CallableError('failed-precondition', 'No such code', { reason: 'unknown-code' });
}

/** The wrong codes an address has tried: when it is used up, every code that address tries is refused. */
export function wrongCodesQuota(clientAddress: string): Quota {
  return { key: quotaKey('codes.wrong:address', addressKeyOf(clientAddress)), ...wrongCodes };
}

/** The code's discount, as the contracts carry it. */
export function discountOf(code: Pick<EventCode, 'discountPercent' | 'discountAmount'>): Discount | null {
  if (code.discountPercent !== null) return { kind: 'percent', percent: code.discountPercent };
  if (code.discountAmount !== null) return { kind: 'amount', amount: code.discountAmount };
  return null;
}

/**
 * Whether the code is for a ticket type: one it lists (a hidden one it unlocks, a visible one it
 * discounts), or, listing none, any visible one.
 */
export function codeAppliesTo(code: Pick<EventCode, 'ticketTypeIds'>, type: { id: string; hidden: boolean }): boolean {
  return code.ticketTypeIds.length === 0 ? !type.hidden : code.ticketTypeIds.includes(type.id);
}

/** Whether the code works at `now`: inside its window, where it has one. */
export function worksAt(code: Pick<EventCode, 'validFrom' | 'validUntil'>, now: Date): boolean {
  return (!code.validFrom || code.validFrom <= now) && (!code.validUntil || now < code.validUntil);
}

/** Refuses a code outside its window, saying when it works in the event's time zone. */
export function requireWorksNow(code: Pick<EventCode, 'validFrom' | 'validUntil'>, timeZone: string): void {
  if (!worksAt(code, new Date()))
    throw new CallableError('failed-precondition', 'This code does not work now', {
      reason: 'code-not-valid-now',
      validFrom: code.validFrom?.toISOString() ?? null,
      validUntil: code.validUntil?.toISOString() ?? null,
      timeZone,
    });
}

/**
 * The tickets held or sold with each of these codes now (of one buyer, if given: their orders and
 * those made with their address, as a guest or before they signed in).
 */
export async function usesOf(
  tx: Tx | Db,
  codeIds: readonly string[],
  buyer?: { id: string | null; email: string },
): Promise<Map<string, number>> {
  const uses = new Map(codeIds.map((id) => [id, 0]));
  if (codeIds.length === 0) return uses;
  const ofBuyer = buyer ? ordersOf(buyer) : undefined;
  const held = await tx
    .select({ codeId: orderLine.codeId, count: sql<number>`sum(${orderLine.quantity})::int` })
    .from(orderLine)
    .innerJoin(order, eq(order.id, orderLine.orderId))
    .where(and(inArray(orderLine.codeId, [...codeIds]), eq(order.status, 'pending'), ofBuyer))
    .groupBy(orderLine.codeId);
  const sold = await tx
    .select({ codeId: orderLine.codeId, count: sql<number>`count(*)::int` })
    .from(orderLine)
    .innerJoin(order, eq(order.id, orderLine.orderId))
    .innerJoin(ticket, and(eq(ticket.orderId, orderLine.orderId), eq(ticket.ticketTypeId, orderLine.ticketTypeId)))
    .where(and(inArray(orderLine.codeId, [...codeIds]), eq(ticket.status, 'valid'), ofBuyer))
    .groupBy(orderLine.codeId);
  for (const row of [...held, ...sold]) uses.set(row.codeId!, (uses.get(row.codeId!) ?? 0) + Number(row.count));
  return uses;
}

/** The one used-up answer: fewer uses are left on the code than tickets were asked for with it. */
export class CodeUsedUp extends CallableError {
  constructor(remaining: number) {
    super('failed-precondition', remaining === 0 ? 'This code has been used up' : `This code has ${remaining} uses left`, {
      reason: 'code-used-up',
      remaining,
    });
  }
}

/**
 * Refuses `quantity` more tickets with the code when it needs more in one order, or its limits
 * have no room for them: its total and its limit per buyer. Called after the order's places were
 * taken, in the same transaction: it locks the code's row after the event's and the types' (always
 * in that order), so orders with one code wait for each other here and each counts the uses of
 * those that committed before it, in statements begun after the lock.
 *
 * A new order (`as: 'order'`) also needs the code to work now, to have its tickets in one order,
 * and to be as `priced` read it before the transaction (else `aborted`: it changed meanwhile, the
 * order is tried again by its buyer). Tickets taken back (`as: 'again'`: a payment that came after
 * its hold ended, a refund the provider refused) were bought while the code worked: only its
 * limits count.
 */
export async function takeCodeUses(
  tx: Tx,
  input: { codeId: string; buyer: { id: string | null; email: string }; quantity: number } & (
    { as: 'order'; priced: EventCode; timeZone: string } | { as: 'again' }
  ),
): Promise<void> {
  if (input.quantity === 0) return;
  const [code] = await tx.select().from(eventCode).where(eq(eventCode.id, input.codeId)).for('update');
  if (!code) throw new CallableError('failed-precondition', 'No such code', { reason: 'unknown-code' });
  if (input.as === 'order') requireNewOrderFits(code, input);
  if (code.maxUses !== null) {
    const used = (await usesOf(tx, [code.id])).get(code.id) ?? 0;
    if (used + input.quantity > code.maxUses) throw new CodeUsedUp(Math.max(0, code.maxUses - used));
  }
  if (code.maxPerBuyer !== null) {
    const have = (await usesOf(tx, [code.id], input.buyer)).get(code.id) ?? 0;
    if (have + input.quantity > code.maxPerBuyer)
      throw new CallableError('failed-precondition', `At most ${code.maxPerBuyer} tickets per buyer with this code`, {
        reason: 'code-buyer-limit',
        limit: code.maxPerBuyer,
        have,
      });
  }
}

/** A new order's code works now, has its tickets, and still prices them as they were priced. */
function requireNewOrderFits(code: EventCode, input: { quantity: number; priced: EventCode; timeZone: string }) {
  requireWorksNow(code, input.timeZone);
  if (pricingOf(code) !== pricingOf(input.priced))
    throw new CallableError('aborted', 'The code changed while the order was made: try again', { reason: 'code-changed' });
  if (input.quantity < code.minQuantity)
    throw new CallableError('failed-precondition', `This code needs at least ${code.minQuantity} tickets in one order`, {
      reason: 'code-min-quantity',
      minQuantity: code.minQuantity,
    });
}

/** What prices an order with the code (its types and its discount), to compare two readings of it. */
export const pricingOf = (code: EventCode) => JSON.stringify([code.ticketTypeIds, code.discountPercent, code.discountAmount]);

/** Whether an error is a code's limit refusing (the order cannot be made with it as it is). */
export function isCodeLimit(error: unknown): boolean {
  const reason: FailureDetails['reason'] | undefined =
    error instanceof CallableError ? failureOf(error.details)?.reason : undefined;
  return reason === 'code-used-up' || reason === 'code-buyer-limit';
}
