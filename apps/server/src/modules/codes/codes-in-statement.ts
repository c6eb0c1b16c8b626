import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../platform/db/database';
import { codeAppliesTo, pricingOf, usesOf, worksAt, type EventCode } from './code-uses';
import { eventCode } from './schema';

// Orders with a code made in one statement with others (orders/place-order.ts, decision 0071): the
// code as read a moment ago says whether an order may go there, and its row, locked, whether the
// statement may still rely on it and how many uses it has left. Everything else about codes (a
// wrong one counted, a limit per buyer, a precise refusal) is the general path's.

const maxAgeMs = 1_000;
const recent = new Map<string, { read: Promise<Map<string, EventCode>>; until: number }>();

/**
 * The event's code as a buyer wrote it (in capitals), as this process read the event's codes at
 * most a second ago, or null when it has none by that name: during a rush the orders with a code
 * learn what it does without a query each. A wrong code is the general path's to count.
 */
export async function recentCode(db: Db, eventId: string, code: string): Promise<EventCode | null> {
  let cached = recent.get(eventId);
  if (!cached || cached.until <= Date.now()) {
    if (recent.size > 10_000) recent.clear();
    const read = db
      .select()
      .from(eventCode)
      .where(eq(eventCode.eventId, eventId))
      .then((rows) => new Map(rows.map((row) => [row.code, row])));
    cached = { read, until: Date.now() + maxAgeMs };
    recent.set(eventId, cached);
    read.catch(() => recent.delete(eventId));
  }
  return (await cached.read).get(code) ?? null;
}

/**
 * Whether an order of `quantity` tickets of one type with this code may be made in one statement:
 * the code is for the type, works now, lets the order use it, and has no limit per buyer (which
 * the general path counts).
 */
export function fitsOneStatement(code: EventCode, type: { id: string; hidden: boolean }, quantity: number, now: Date): boolean {
  return codeAppliesTo(code, type) && code.maxPerBuyer === null && worksAt(code, now) && quantity >= code.minQuantity;
}

/**
 * Locks the code's row for a statement making orders with it, after the event's (as takeCodeUses
 * does), and answers how many uses it has left (`usesLeft` null: no limit), counted after the lock
 * so that every order made with it before is seen. Null when the code changed since `read` in what
 * the statement relies on (its pricing, its minimum, its limit per buyer), or stopped working: its
 * orders then take the general path.
 */
export async function lockCodeForStatement(tx: Tx, read: EventCode): Promise<{ usesLeft: number | null } | null> {
  const [code] = await tx
    .select()
    .from(eventCode)
    .where(and(eq(eventCode.id, read.id), eq(eventCode.eventId, read.eventId)))
    .for('update');
  if (
    !code ||
    pricingOf(code) !== pricingOf(read) ||
    code.minQuantity !== read.minQuantity ||
    code.maxPerBuyer !== read.maxPerBuyer ||
    !worksAt(code, new Date())
  )
    return null;
  if (code.maxUses === null) return { usesLeft: null };
  const used = (await usesOf(tx, [code.id])).get(code.id) ?? 0;
  return { usesLeft: Math.max(0, code.maxUses - used) };
}
