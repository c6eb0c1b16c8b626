import { zonedLocalToInstant } from '@admit/shared/dates';
import {
  eventMoves,
  moveEvent,
  removeTicketType,
  reorderTicketTypes,
  updateEvent,
  updateTicketType,
  type EventMove,
} from '@admit/shared/event-changes';
import { and, count, eq, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import { recordAudit } from '../../platform/audit/audit-log';
import type { SessionUser } from '../../platform/auth/auth';
import type { Db, Tx } from '../../platform/db/database';
import { defineCallable } from '../../platform/http/callable';
import { CallableError, databaseErrorCode } from '../../platform/http/callable-error';
import { requireEventRole, type EventRecord } from './event-access';
import { ticket } from '../tickets/schema';
import { event, eventChange, ticketType, type TimeAndPlace } from './schema';
import { eventTopic, orgEventsTopic, publishedEventsTopic } from './topics';
import { emitEventWebhook } from './event-resource';
import { wakeWaitlist } from './places';

// An organizer's changes to an event over its life (admin and above), each checked here whatever
// the screen offered, made under the event's row lock (the lock order of places.ts: the event
// first, then its ticket types) and written to the audit log in the same transaction.
// Rules and why: docs/decisions/0036-event-lifecycle.md.

/** The event, locked for the rest of the transaction; a cancelled event takes no more changes. */
export async function lockEvent(tx: Tx, eventId: string): Promise<EventRecord> {
  const [locked] = await tx.select().from(event).where(eq(event.id, eventId)).for('update');
  if (!locked) throw new CallableError('not-found', 'No such event');
  if (locked.status === 'cancelled')
    throw new CallableError('failed-precondition', 'The event is cancelled', { reason: 'event-closed', status: 'cancelled' });
  return locked;
}

const capacityBelowTaken = (taken: number) =>
  new CallableError('failed-precondition', `The capacity cannot be below the ${taken} places sold and held`, {
    reason: 'capacity-below-taken',
    taken,
  });

/** The names of the fields whose values differ (dates compared as instants). */
function changedFields<T extends Record<string, unknown>>(before: T, after: Partial<T>): (keyof T & string)[] {
  const same = (a: unknown, b: unknown) =>
    a instanceof Date || b instanceof Date ? (a as Date | null)?.getTime() === (b as Date | null)?.getTime() : a === b;
  return (Object.keys(after) as (keyof T & string)[]).filter((key) => !same(before[key], after[key]));
}

const allTopics = (found: Pick<EventRecord, 'id' | 'organizationId'>) => [
  eventTopic(found.id),
  orgEventsTopic(found.organizationId),
  publishedEventsTopic,
];

export const updateEventCallable = defineCallable(updateEvent, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: checked } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
    const changed = await ctx.db.transaction(async (tx) => {
      const found = await lockEvent(tx, input.eventId);
      const taken = found.sold + found.held;
      if (input.capacity < taken) throw capacityBelowTaken(taken);
      // Prices were shown and times printed on tickets in these: fixed once anything was sold or
      // the event went on sale (decision 0036).
      const fixed = found.status !== 'draft' || taken > 0;
      for (const field of ['currency', 'timeZone'] as const) {
        if (fixed && input[field] !== found[field])
          throw new CallableError('failed-precondition', `The ${field} is fixed once the event has been on sale`, {
            reason: 'fixed-after-sales',
            field,
          });
      }
      const next = {
        title: input.title,
        description: input.description,
        venue: input.venue,
        timeZone: input.timeZone,
        startsAt: zonedLocalToInstant(input.startsAtLocal, input.timeZone),
        endsAt: zonedLocalToInstant(input.endsAtLocal, input.timeZone),
        capacity: input.capacity,
        maxPerBuyer: input.maxPerBuyer,
        currency: input.currency,
      };
      const fields = changedFields(found, next);
      if (fields.length === 0) return { changed: fields, change: null };
      // Buyers may hold tickets for anything but a draft: a new time or place is theirs to learn of,
      // and their calendars' to update (a higher SEQUENCE under the same UID).
      const moved = found.status !== 'draft' && fields.some((field) => (timeAndPlaceFields as readonly string[]).includes(field));
      const sequence = found.calendarSequence + (moved ? 1 : 0);
      await tx
        .update(event)
        .set({ ...next, calendarSequence: sequence })
        .where(eq(event.id, found.id));
      await recordAudit(
        tx,
        auditOf(ctx.user, found, 'event.update', found.title, { fields, ...smallChanges(found, next, fields) }),
      );
      await emitEventWebhook(tx, { organizationId: found.organizationId, eventId: found.id, type: 'event.updated' });
      // More places: to the people waiting first. A new start: their list closes then (decision 0064).
      if (fields.includes('capacity')) await wakeWaitlist(tx, found.id);
      if (fields.includes('startsAt')) await wakeWaitlist(tx, found.id, next.startsAt);
      if (!moved) return { changed: fields, change: null };
      const id = randomUUID();
      await tx.insert(eventChange).values({
        id,
        eventId: found.id,
        before: timeAndPlaceOf(found),
        after: timeAndPlaceOf(next),
        sequence,
        createdBy: ctx.user.id,
      });
      return { changed: fields, change: { id, holders: await countHolders(tx, found.id) } };
    });
    if (changed.changed.length > 0) ctx.publish(...allTopics(checked));
    return changed;
  },
});

const timeAndPlaceFields = ['startsAt', 'endsAt', 'venue'] as const;

const timeAndPlaceOf = (values: { startsAt: Date; endsAt: Date; venue: string }): TimeAndPlace => ({
  startsAt: values.startsAt.toISOString(),
  endsAt: values.endsAt.toISOString(),
  venue: values.venue,
});

/** The people (addresses, as a message to attendees counts them) holding the event's valid tickets. */
async function countHolders(tx: Tx, eventId: string): Promise<number> {
  const [row] = await tx
    .select({ holders: sql<number>`count(distinct lower(${ticket.holderEmail}))::int` })
    .from(ticket)
    .where(and(eq(ticket.eventId, eventId), eq(ticket.status, 'valid')));
  return Number(row?.holders ?? 0);
}

/** Before and after of the fields a person reads in one line (not the description). */
function smallChanges(before: Record<string, unknown>, after: Record<string, unknown>, fields: string[]) {
  const shown = (value: unknown) => (value instanceof Date ? value.toISOString() : value);
  const small = fields.filter((field) => field !== 'description');
  return Object.fromEntries(small.map((field) => [field, { from: shown(before[field]), to: shown(after[field]) }]));
}

function auditOf(actor: SessionUser, found: EventRecord, action: string, target: string, details: Record<string, unknown> = {}) {
  return { organizationId: found.organizationId, eventId: found.id, actor, action, target, details };
}

/** A ticket type, its event locked first (the lock order), then the type itself. */
async function lockTicketType(tx: Tx, ticketTypeId: string) {
  const [owner] = await tx.select({ eventId: ticketType.eventId }).from(ticketType).where(eq(ticketType.id, ticketTypeId));
  if (!owner) throw new CallableError('not-found', 'No such ticket type');
  const found = await lockEvent(tx, owner.eventId);
  const [type] = await tx.select().from(ticketType).where(eq(ticketType.id, ticketTypeId)).for('update');
  if (!type) throw new CallableError('not-found', 'No such ticket type');
  return { event: found, type };
}

/** The event of a ticket type, for the role check before any lock is taken. */
async function eventOfTicketType(ctx: { db: Db }, ticketTypeId: string) {
  const [owner] =
    ticketTypeId.length <= 64
      ? await ctx.db.select({ eventId: ticketType.eventId }).from(ticketType).where(eq(ticketType.id, ticketTypeId))
      : [];
  if (!owner) throw new CallableError('not-found', 'No such ticket type');
  return owner.eventId;
}

export const updateTicketTypeCallable = defineCallable(updateTicketType, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: checked } = await requireEventRole(
      ctx.db,
      ctx.user,
      await eventOfTicketType(ctx, input.ticketTypeId),
      'admin',
    );
    const changed = await ctx.db.transaction(async (tx) => {
      const { event: found, type } = await lockTicketType(tx, input.ticketTypeId);
      const taken = type.sold + type.held;
      if (input.capacity < taken) throw capacityBelowTaken(taken);
      const local = (value: string | null) => (value ? zonedLocalToInstant(value, found.timeZone) : null);
      const next = {
        name: input.name,
        price: input.price,
        capacity: input.capacity,
        maxPerOrder: input.maxPerOrder,
        maxPerBuyer: input.maxPerBuyer,
        salesStart: local(input.salesStartLocal),
        salesEnd: local(input.salesEndLocal),
        hidden: input.hidden,
      };
      const fields = changedFields(type, next);
      if (fields.length === 0) return fields;
      // Orders keep the price of their order lines: a new price is for orders made from now on.
      await tx.update(ticketType).set(next).where(eq(ticketType.id, type.id));
      // More places: to the people waiting first (decision 0064).
      if (fields.includes('capacity')) await wakeWaitlist(tx, found.id);
      // Sales start at another time: a pre-sale list is offered its places then.
      if (fields.includes('salesStart')) await wakeWaitlist(tx, found.id, next.salesStart ?? undefined);
      await recordAudit(
        tx,
        auditOf(ctx.user, found, 'ticketType.update', type.name, { fields, ...smallChanges(type, next, fields) }),
      );
      return fields;
    });
    if (changed.length > 0) ctx.publish(...allTopics(checked));
    return { changed };
  },
});

export const reorderTicketTypesCallable = defineCallable(reorderTicketTypes, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: checked } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
    await ctx.db.transaction(async (tx) => {
      const found = await lockEvent(tx, input.eventId);
      const types = await tx
        .select({ id: ticketType.id, name: ticketType.name })
        .from(ticketType)
        .where(eq(ticketType.eventId, found.id));
      const known = new Set(types.map((type) => type.id));
      const named = new Set(input.ticketTypeIds);
      if (named.size !== input.ticketTypeIds.length || named.size !== known.size || [...named].some((id) => !known.has(id)))
        throw new CallableError('invalid-argument', 'Name every ticket type of the event once', {
          fields: [{ path: 'ticketTypeIds', message: 'Name every ticket type of the event once', code: 'custom' }],
        });
      for (const [position, id] of input.ticketTypeIds.entries())
        await tx.update(ticketType).set({ position }).where(eq(ticketType.id, id));
      const nameOf = new Map(types.map((type) => [type.id, type.name]));
      await recordAudit(
        tx,
        auditOf(ctx.user, found, 'ticketType.reorder', found.title, { order: input.ticketTypeIds.map((id) => nameOf.get(id)) }),
      );
    });
    ctx.publish(...allTopics(checked));
    return { ok: true as const };
  },
});

export const removeTicketTypeCallable = defineCallable(removeTicketType, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: checked } = await requireEventRole(
      ctx.db,
      ctx.user,
      await eventOfTicketType(ctx, input.ticketTypeId),
      'admin',
    );
    await ctx.db.transaction(async (tx) => {
      const { event: found, type } = await lockTicketType(tx, input.ticketTypeId);
      if (type.sold + type.held > 0) throw ticketTypeOrdered();
      // Lines of orders that ended unpaid still name it: the database refuses, and the type stays.
      const removed = await tx
        .transaction((savepoint) => savepoint.delete(ticketType).where(eq(ticketType.id, type.id)))
        .then(() => true)
        .catch((error: unknown) => {
          if (databaseErrorCode(error) === '23503') return false;
          throw error;
        });
      if (!removed) throw ticketTypeOrdered();
      await recordAudit(tx, auditOf(ctx.user, found, 'ticketType.remove', type.name));
    });
    ctx.publish(...allTopics(checked));
    return { ok: true as const };
  },
});

const ticketTypeOrdered = () =>
  new CallableError('failed-precondition', 'This ticket type has orders: hide it instead', { reason: 'ticket-type-ordered' });

/**
 * Moves an event between statuses by hand (see eventMoves): a move not open from the event's
 * status, or an unpublish with places sold or held, is refused with the reason.
 */
export async function applyMove(tx: Tx, actor: SessionUser, eventId: string, move: EventMove): Promise<EventRecord> {
  const found = await lockEvent(tx, eventId);
  const rule = eventMoves[move];
  if (!(rule.from as readonly string[]).includes(found.status))
    throw new CallableError('failed-precondition', `The event is ${found.status}: it cannot ${move}`, {
      reason: 'move-not-allowed',
      status: found.status,
      move,
    });
  if (move === 'unpublish' && found.sold + found.held > 0)
    throw new CallableError('failed-precondition', 'Tickets are sold or held: close sales or cancel instead', {
      reason: 'has-sales',
      sold: found.sold,
      held: found.held,
    });
  if (move === 'publish') {
    const [{ types }] = (await tx.select({ types: count() }).from(ticketType).where(eq(ticketType.eventId, eventId))) as [
      { types: number },
    ];
    if (types === 0)
      throw new CallableError('failed-precondition', 'Add a ticket type before publishing', { reason: 'no-ticket-types' });
  }
  const [moved] = await tx.update(event).set({ status: rule.to }).where(eq(event.id, eventId)).returning();
  await recordAudit(tx, auditOf(actor, found, `event.${move}`, found.title, { from: found.status, to: rule.to }));
  await emitEventWebhook(tx, { organizationId: found.organizationId, eventId: found.id, type: 'event.updated' });
  return moved!;
}

export const moveEventCallable = defineCallable(moveEvent, {
  auth: 'required',
  async handler(input, ctx) {
    const { event: checked } = await requireEventRole(ctx.db, ctx.user, input.eventId, 'admin');
    const moved = await ctx.db.transaction((tx) => applyMove(tx, ctx.user, input.eventId, input.move));
    ctx.publish(...allTopics(checked));
    return { status: moved.status };
  },
});

export const eventChangesCallables = [
  updateEventCallable,
  updateTicketTypeCallable,
  reorderTicketTypesCallable,
  removeTicketTypeCallable,
  moveEventCallable,
];
