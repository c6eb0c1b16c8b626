import { z } from 'zod';
import { defineCallableContract } from './callable';
import { LocalDateTime, TimeZone } from './dates';
import { EventDescription, EventTitle, EventVenue, NameTranslationsRow, TicketTypeName } from './event-content';
import { Currency, EventStatus, Id, MaxPerBuyer } from './events';
import { defineLiveQueryContract } from './live';

// Changing an event over its life: its fields, its ticket types, its status, cancelling and
// deleting it, and the audit log that records each change. Rules: docs/decisions/0036-event-lifecycle.md.

const Capacity = z.int().min(1).max(1_000_000);

export const UpdateEventInput = z
  .strictObject({
    eventId: Id,
    title: EventTitle,
    description: EventDescription,
    venue: EventVenue,
    timeZone: TimeZone,
    startsAtLocal: LocalDateTime,
    endsAtLocal: LocalDateTime,
    /** Never below what is sold and held. */
    capacity: Capacity,
    /** Tickets of the event one buyer may have across all their orders; null: no limit. */
    maxPerBuyer: MaxPerBuyer.default(null),
    /** Fixed, with the time zone, once anything is sold or held, or the event left draft. */
    currency: Currency,
  })
  .refine((input) => input.endsAtLocal > input.startsAtLocal, {
    path: ['endsAtLocal'],
    message: 'The event must end after it starts',
  });
export type UpdateEventInput = z.input<typeof UpdateEventInput>;
/**
 * `change` is set when the event's time or place changed while buyers could hold tickets (any status
 * but draft): the change to tell them about with `messages.sendChangeNotice`, and how many people
 * (addresses) hold its valid tickets now.
 */
export const UpdateEventOutput = z.object({
  changed: z.array(z.string()),
  change: z.object({ id: z.string(), holders: z.number() }).nullable(),
});
export const updateEvent = defineCallableContract('events.update', UpdateEventInput, UpdateEventOutput);

export const UpdateTicketTypeInput = z
  .strictObject({
    ticketTypeId: Id,
    name: TicketTypeName,
    /** Applies to orders made from now on; orders made before keep what they paid. */
    price: z.int().min(0).max(100_000_000),
    /** Never below what is sold and held of it. */
    capacity: Capacity,
    maxPerOrder: z.int().min(1).max(100),
    /** Across all of one buyer's orders; counts only orders made from now on against it, with those before. */
    maxPerBuyer: MaxPerBuyer.default(null),
    salesStartLocal: LocalDateTime.nullable(),
    salesEndLocal: LocalDateTime.nullable(),
    /** Hidden: kept, with its tickets, but no longer offered to buyers. */
    hidden: z.boolean(),
  })
  .refine((input) => !input.salesStartLocal || !input.salesEndLocal || input.salesEndLocal > input.salesStartLocal, {
    path: ['salesEndLocal'],
    message: 'Sales must end after they start',
  });
export type UpdateTicketTypeInput = z.input<typeof UpdateTicketTypeInput>;
export const updateTicketType = defineCallableContract(
  'events.updateTicketType',
  UpdateTicketTypeInput,
  z.object({ changed: z.array(z.string()) }),
);

export const ReorderTicketTypesInput = z.strictObject({
  eventId: Id,
  /** Every ticket type of the event, once, in the order buyers see them. */
  ticketTypeIds: z.array(Id).min(1).max(200),
});
export const reorderTicketTypes = defineCallableContract(
  'events.reorderTicketTypes',
  ReorderTicketTypesInput,
  z.object({ ok: z.literal(true) }),
);

/** Only a ticket type nobody ever ordered; one with orders is hidden instead. */
export const removeTicketType = defineCallableContract(
  'events.removeTicketType',
  z.strictObject({ ticketTypeId: Id }),
  z.object({ ok: z.literal(true) }),
);

/**
 * The status moves an organizer makes by hand (cancelling is `events.cancel`, which also refunds):
 * publish (draft → published), unpublish (published → draft, while nothing is sold or held),
 * close and reopen sales, and end the event.
 */
export const eventMoves = {
  publish: { from: ['draft'], to: 'published' },
  unpublish: { from: ['published'], to: 'draft' },
  closeSales: { from: ['published'], to: 'sales_closed' },
  reopenSales: { from: ['sales_closed'], to: 'published' },
  end: { from: ['published', 'sales_closed'], to: 'ended' },
} as const satisfies Record<string, { from: readonly EventStatus[]; to: EventStatus }>;
export type EventMove = keyof typeof eventMoves;
export const EventMove = z.enum(Object.keys(eventMoves) as [EventMove, ...EventMove[]]);

/** The moves open to an event in `status`. */
export const movesFrom = (status: EventStatus): EventMove[] =>
  (Object.keys(eventMoves) as EventMove[]).filter((move) => (eventMoves[move].from as readonly EventStatus[]).includes(status));

export const moveEvent = defineCallableContract(
  'events.move',
  z.strictObject({ eventId: Id, move: EventMove }),
  z.object({ status: EventStatus }),
);

/** Whether an event in `status` can still be cancelled (and its paid orders refunded). */
export const cancellable = (status: EventStatus) => status === 'published' || status === 'sales_closed' || status === 'draft';

export const CancelEventInput = z.strictObject({
  eventId: Id,
  /** Told to every buyer in the cancellation email, as the organizer wrote it. */
  message: z.string().trim().max(1_000).default(''),
});
export type CancelEventInput = z.input<typeof CancelEventInput>;
export const cancelEvent = defineCallableContract(
  'events.cancel',
  CancelEventInput,
  z.object({ status: z.literal('cancelled'), ordersToRefund: z.number() }),
);

/** Only a draft that never had an order. */
export const deleteEvent = defineCallableContract(
  'events.delete',
  z.strictObject({ eventId: Id }),
  z.object({ organizationId: z.string() }),
);

/** A ticket type as its organizers manage it, hidden ones included. */
export const ManagedTicketTypeRow = z.object({
  id: z.string(),
  eventId: z.string(),
  name: z.string(),
  /** The name in the event's other languages (event-content.ts). */
  nameTranslations: NameTranslationsRow,
  price: z.number(),
  capacity: z.number(),
  sold: z.number(),
  held: z.number(),
  maxPerOrder: z.number(),
  maxPerBuyer: z.number().nullable(),
  /** Wall-clock times in the event's time zone, as the form shows them. */
  salesStartLocal: z.string().nullable(),
  salesEndLocal: z.string().nullable(),
  hidden: z.boolean(),
  position: z.number(),
});
export type ManagedTicketTypeRow = z.infer<typeof ManagedTicketTypeRow>;
export const managedTicketTypes = defineLiveQueryContract(
  'events.ticketTypes',
  z.strictObject({ eventId: Id }),
  ManagedTicketTypeRow,
);

/** One change to an event, for its admins: who, what, when. */
export const AuditRow = z.object({
  id: z.string(),
  at: z.string(),
  actorName: z.string(),
  /** `event.update`, `event.publish`, `ticketType.update`, `event.cancel`… */
  action: z.string(),
  /** What was changed: the event's or a ticket type's name as it was then. */
  target: z.string(),
  /** The fields changed, or the move's details. */
  details: z.record(z.string(), z.unknown()),
});
export type AuditRow = z.infer<typeof AuditRow>;
export const eventAudit = defineLiveQueryContract('events.audit', z.strictObject({ eventId: Id }), AuditRow);

/** Why an event change cannot be made now: the `reason` in a `failed-precondition` answer's details. */
export const eventChangeFailures = [
  /** Capacity below what is sold and held. */
  z.object({ reason: z.literal('capacity-below-taken'), taken: z.number() }),
  /** Currency or time zone once something was sold or the event left draft. */
  z.object({ reason: z.literal('fixed-after-sales'), field: z.enum(['currency', 'timeZone']) }),
  /** A move not open from this status (unpublish with tickets sold, reopen an ended event…). */
  z.object({ reason: z.literal('move-not-allowed'), status: EventStatus, move: z.union([EventMove, z.literal('delete')]) }),
  z.object({ reason: z.literal('has-sales'), sold: z.number(), held: z.number() }),
  z.object({ reason: z.literal('ticket-type-ordered') }),
  z.object({ reason: z.literal('event-has-orders') }),
  z.object({ reason: z.literal('not-cancellable'), status: EventStatus }),
] as const;
