import type { SoldOutDetails } from '@admit/shared/orders';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Tx } from '../../platform/db/database';
import { CallableError } from '../../platform/http/callable-error';
import { enqueueInStatement, waitingJobExists } from '../../platform/jobs/in-statement';
import { event, ticketType } from './schema';

// The places of an event: every ticket sold or held counts once on its ticket type and once on the
// event (the event-wide capacity). Everything that takes or gives back places (checkout, payment,
// refunds, guest-list imports) goes through these functions, so the capacity rule is written once
// and the rows are always locked in the same order: the event row first, then its ticket types by
// id. Two transactions that lock in the same order wait for each other instead of deadlocking.

export type EventStatus = (typeof event.$inferSelect)['status'];

/** How many places of one ticket type. */
export interface PlaceLine {
  ticketTypeId: string;
  quantity: number;
}

/** A place is held while its buyer pays, sold once paid (or free, or given as a guest). */
export type PlaceKind = 'held' | 'sold';

/** The one sold-out answer: fewer places are left than were asked for (on a ticket type, or on the event). */
export class SoldOut extends CallableError {
  constructor(readonly soldOut: SoldOutDetails) {
    super('resource-exhausted', soldOut.remaining === 0 ? 'Sold out' : `Only ${soldOut.remaining} left`, soldOut);
  }
}

/** The lines per ticket type (a type named twice counts once, with both quantities), in lock order. */
export function inLockOrder(lines: readonly PlaceLine[]): PlaceLine[] {
  const byType = new Map<string, number>();
  for (const line of lines) byType.set(line.ticketTypeId, (byType.get(line.ticketTypeId) ?? 0) + line.quantity);
  return [...byType]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([ticketTypeId, quantity]) => ({ ticketTypeId, quantity }));
}

const totalOf = (lines: readonly PlaceLine[]) => lines.reduce((sum, line) => sum + line.quantity, 0);

/**
 * Takes places while they are free, with conditional updates (`sold + held + n <= capacity`), on
 * the event and on each ticket type. Throws SoldOut when any is short; the caller's transaction
 * then rolls back, so nothing is half taken. `eventStatuses`: the event must be in one of them
 * (checkout sells only while published; guests may be added until the event is over).
 * `waitlistFirst` (checkout): a ticket type with people on its waiting list has no places to give,
 * as they are offered to them first (decision 0064).
 */
export async function takePlaces(
  tx: Tx,
  input: {
    eventId: string;
    lines: readonly PlaceLine[];
    as: PlaceKind;
    eventStatuses?: readonly EventStatus[];
    waitlistFirst?: boolean;
  },
): Promise<void> {
  const lines = inLockOrder(input.lines);
  const quantity = totalOf(lines);
  if (quantity === 0) return;
  const counter = input.as;
  const reserved = await tx
    .update(event)
    .set({ [counter]: sql`${event[counter]} + ${quantity}` })
    .where(
      and(
        eq(event.id, input.eventId),
        input.eventStatuses ? inArray(event.status, [...input.eventStatuses]) : undefined,
        sql`${event.sold} + ${event.held} + ${quantity} <= ${event.capacity}`,
      ),
    )
    .returning({ id: event.id });
  if (reserved.length === 0) {
    const [now] = await tx.select().from(event).where(eq(event.id, input.eventId));
    throw new SoldOut({ requested: quantity, remaining: now ? Math.max(0, now.capacity - now.sold - now.held) : 0 });
  }
  for (const line of lines) {
    const taken = await tx
      .update(ticketType)
      .set({ [counter]: sql`${ticketType[counter]} + ${line.quantity}` })
      .where(
        and(
          eq(ticketType.id, line.ticketTypeId),
          eq(ticketType.eventId, input.eventId),
          sql`${ticketType.sold} + ${ticketType.held} + ${line.quantity} <= ${ticketType.capacity}`,
          input.waitlistFirst ? eq(ticketType.waitlistWaiting, 0) : undefined,
        ),
      )
      .returning({ id: ticketType.id });
    if (taken.length === 0) {
      const [now] = await tx.select().from(ticketType).where(eq(ticketType.id, line.ticketTypeId));
      throw new SoldOut({
        ticketTypeId: line.ticketTypeId,
        requested: line.quantity,
        remaining: now ? remainingOf(now, input.waitlistFirst) : 0,
      });
    }
  }
}

/**
 * takePlaces inside a savepoint, for taking places back (a payment that came after its hold ended,
 * a refund the provider refused): false, with nothing changed, when they are gone meanwhile.
 */
export async function tryTakePlaces(
  tx: Tx,
  input: { eventId: string; lines: readonly PlaceLine[]; as: PlaceKind },
): Promise<boolean> {
  return tx
    .transaction(async (savepoint) => {
      await takePlaces(savepoint, input);
      return true;
    })
    .catch((error: unknown) => {
      if (error instanceof SoldOut) return false;
      throw error;
    });
}

/** Moves places between held and sold, or gives them back (a negative change), on the event and its ticket types. */
async function shiftPlaces(
  tx: Tx,
  input: { eventId: string; lines: readonly PlaceLine[] },
  change: { held: -1 | 0; sold: -1 | 0 | 1 },
) {
  const lines = inLockOrder(input.lines);
  const quantity = totalOf(lines);
  if (quantity === 0) return;
  await tx
    .update(event)
    .set({ held: sql`${event.held} + ${change.held * quantity}`, sold: sql`${event.sold} + ${change.sold * quantity}` })
    .where(eq(event.id, input.eventId));
  for (const line of lines) {
    await tx
      .update(ticketType)
      .set({
        held: sql`${ticketType.held} + ${change.held * line.quantity}`,
        sold: sql`${ticketType.sold} + ${change.sold * line.quantity}`,
      })
      .where(eq(ticketType.id, line.ticketTypeId));
  }
}

/** What a buyer at the public page may take of a ticket type: nothing while people wait for it. */
function remainingOf(type: typeof ticketType.$inferSelect, waitlistFirst = true): number {
  return waitlistFirst && type.waitlistWaiting > 0 ? 0 : Math.max(0, type.capacity - type.sold - type.held);
}

/**
 * Gives places back: a hold that ended, or tickets that became void. To the waiting list first,
 * when someone of the event waits: the job that offers them is woken in the same transaction.
 */
export async function releasePlaces(tx: Tx, input: { eventId: string; lines: readonly PlaceLine[]; from: PlaceKind }) {
  await shiftPlaces(tx, input, input.from === 'held' ? { held: -1, sold: 0 } : { held: 0, sold: -1 });
  await wakeWaitlist(tx, input.eventId);
}

/**
 * Counts people on a ticket type's waiting list (`change` +1 joined, -1 offered or gone): while any
 * wait, checkout sells none of the type and its freed places go to them (the waitlist module keeps it).
 */
export async function countWaiting(tx: Tx, ticketTypeId: string, change: 1 | -1): Promise<void> {
  await tx
    .update(ticketType)
    .set({ waitlistWaiting: sql`${ticketType.waitlistWaiting} + ${change}` })
    .where(eq(ticketType.id, ticketTypeId));
}

/**
 * Counts a ticket type's tickets offered back that nobody holds (`change` > 0 offered or given back
 * by an ended hold, < 0 held, sold or withdrawn): the public page shows them once the type's own
 * places are gone (the tickets module keeps it, decision 0066).
 */
export async function countResale(tx: Tx, ticketTypeId: string, change: number): Promise<void> {
  if (change === 0) return;
  await tx
    .update(ticketType)
    .set({ resaleListed: sql`${ticketType.resaleListed} + ${change}` })
    .where(eq(ticketType.id, ticketTypeId));
}

/** Nobody waits for the event's ticket types any more (its list closed): their places are everyone's again. */
export async function clearWaiting(tx: Tx, eventId: string): Promise<void> {
  await tx
    .update(ticketType)
    .set({ waitlistWaiting: 0 })
    .where(and(eq(ticketType.eventId, eventId), sql`${ticketType.waitlistWaiting} > 0`));
}

/** The job that offers an event's free places to its waiting list, in turn (the waitlist module runs it). */
export const offerFreedPlacesJob = { name: 'waitlist.offerFreedPlaces' } as const;

/**
 * Enqueues offerFreedPlacesJob for the event when one of its ticket types has people waiting and
 * no such job waits already (a burst of releases wakes one job). One statement; nothing without a list.
 */
export async function wakeWaitlist(tx: Tx, eventId: string, startAfter?: Date): Promise<void> {
  const start = startAfter ? sql`${startAfter.toISOString()}::timestamptz` : sql`now()`;
  await tx.execute(
    enqueueInStatement(
      offerFreedPlacesJob,
      sql`jsonb_build_object('eventId', ${eventId}::text)`,
      sql`(select 1 where exists (select 1 from ticket_type where event_id = ${eventId} and waitlist_waiting > 0)
              and not ${waitingJobExists(offerFreedPlacesJob, 'eventId', sql`${eventId}::text`, start)}) as due`,
      start,
    ),
  );
}

/** A paid hold: its places go from held to sold (they were taken when the hold began). */
export function sellHeldPlaces(tx: Tx, input: { eventId: string; lines: readonly PlaceLine[] }) {
  return shiftPlaces(tx, input, { held: -1, sold: 1 });
}

/**
 * The same rule as takePlaces, for orders made inside one larger statement (orders/place-order.ts,
 * many orders of one ticket type at a time). `room` locks the event's row and the ticket type's (for
 * update) and says how many places both still have and how long the event's holds last, while the
 * event is on sale and the ticket type is still what the caller saw (its price, visible unless
 * `hiddenToo` (orders with a code that unlocks it), on sale now, with no limit per buyer: counting
 * a buyer's other orders needs a statement that starts after the lock, orders/order-quotas.ts; with
 * nobody on its waiting list). The caller decides which
 * orders fit in `room.places`; `takeRoomInStatement` then counts their places on both rows. The
 * capacity check constraints stay the last word: a statement that would oversell fails whole.
 */
export function roomInStatement(input: { eventId: string; ticketTypeId: string; price: number; hiddenToo?: boolean }): SQL {
  return sql`room as (
    select least(e.capacity - e.sold - e.held, t.capacity - t.sold - t.held) as places, t.max_per_order,
           e.capacity - e.sold - e.held as event_places, t.capacity - t.sold - t.held as type_places,
           e.hold_minutes
      from event e join ticket_type t on t.event_id = e.id
     where e.id = ${input.eventId} and e.status = 'published' and e.max_per_buyer is null
       and t.id = ${input.ticketTypeId} and t.price = ${input.price} ${input.hiddenToo ? sql`` : sql`and not t.hidden`} and t.max_per_buyer is null
       and t.waitlist_waiting = 0
       and (t.sales_start is null or t.sales_start <= now()) and (t.sales_end is null or now() < t.sales_end)
     for update of e, t
  )`;
}

/** Counts as sold or held, on the event and on its ticket type, the `quantity` of every row of the CTE `from`. */
export function takeRoomInStatement(input: { eventId: string; ticketTypeId: string; from: SQL; as: PlaceKind }): SQL {
  const total = sql`(select sum(quantity) from ${input.from})`;
  const any = sql`exists (select 1 from ${input.from})`;
  const counter = sql.raw(input.as === 'held' ? 'held' : 'sold');
  return sql`taken_event as (
    update event set ${counter} = ${counter} + ${total} where id = ${input.eventId} and ${any}
  ), taken_type as (
    update ticket_type set ${counter} = ${counter} + ${total} where id = ${input.ticketTypeId} and ${any}
  )`;
}
