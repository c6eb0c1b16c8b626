import { z } from 'zod';
import { defineCallableContract } from './callable';
import { Id } from './ids';
import { defineLiveQueryContract } from './live';
import { GuestBuyer, OrderAccessToken } from './orders';

// An event's waiting list (decision 0064). When a ticket type is sold out, a buyer joins its list
// for 1 to the type's per-order maximum of tickets: signed in, or as a guest whose place counts once
// they open the link emailed to them. Places that come free later (a refund,
// a hold that ended, a capacity raised) go to the people waiting, in the order they joined, before
// the public: each offer is a hold of the entry's tickets for the event's offer time, paid (or
// accepted, when free) on the order's page.

export const waitlistLimits = { offerHours: { min: 1, max: 168 }, ticketTypes: 100, shown: 5_000 } as const;

/** An event's list: on or off, for which ticket types, how long an offer holds, and whether an entry may be offered fewer tickets than it asked for. */
export const WaitlistSettings = z.strictObject({
  eventId: Id,
  enabled: z.boolean(),
  /** The ticket types people may wait for; none listed: all of the event's. */
  ticketTypeIds: z.array(Id).max(waitlistLimits.ticketTypes).default([]),
  offerHours: z.int().min(waitlistLimits.offerHours.min).max(waitlistLimits.offerHours.max).default(24),
  /**
   * False (the default): the first entry waits until as many places as it asked for are free, and
   * the entries after it wait behind it. True: the first entry is offered what is free.
   */
  partialOffers: z.boolean().default(false),
  /**
   * A pre-sale list: people may also join for a type not on sale yet. When its sales start, its
   * places go to them in the order they joined, before the public.
   */
  presale: z.boolean().default(false),
});
export type WaitlistSettings = z.input<typeof WaitlistSettings>;
export const configureWaitlist = defineCallableContract(
  'waitlist.configure',
  WaitlistSettings,
  z.object({ enabled: z.boolean() }),
);

/** The list's settings as anyone who may see the event sees them (the public page offers to join). */
export const WaitlistSettingsRow = z.object({
  /** The event's id. */
  id: z.string(),
  enabled: z.boolean(),
  ticketTypeIds: z.array(z.string()),
  offerHours: z.number(),
  partialOffers: z.boolean(),
  presale: z.boolean(),
  /** Ticket types with people waiting: their freed places are offered to the list first. */
  waitingTypeIds: z.array(z.string()),
});
export type WaitlistSettingsRow = z.infer<typeof WaitlistSettingsRow>;
export const waitlistSettings = defineLiveQueryContract(
  'waitlist.settings',
  z.strictObject({ eventId: Id }),
  WaitlistSettingsRow,
);

export const joinWaitlist = defineCallableContract(
  'waitlist.join',
  z.strictObject({
    eventId: Id,
    ticketTypeId: Id,
    quantity: z.int().min(1).max(100),
    /** Without a session: who waits, and where their link and offers go. */
    guest: GuestBuyer.optional(),
  }),
  /** `position` null: a guest's entry counts once they open the link emailed to them (waitlist.confirm). */
  z.object({ entryId: z.string(), position: z.number().nullable() }),
);

/** One entry, as its person opens it: their session, or the token of the link emailed to a guest. */
const EntryAccess = { entryId: Id, token: OrderAccessToken.optional() };

/** A guest opened the link emailed when they joined: their entry takes its place in the queue (once). */
export const confirmWaitlistEntry = defineCallableContract(
  'waitlist.confirm',
  z.strictObject({ entryId: Id, token: OrderAccessToken }),
  z.object({ status: z.string(), position: z.number().nullable() }),
);
/** The person leaves the list (waiting, or turning down an offer: its hold ends at once). */
export const leaveWaitlist = defineCallableContract(
  'waitlist.leave',
  z.strictObject(EntryAccess),
  z.object({ status: z.string() }),
);
/** A free offer taken: its held places become tickets. (An offer to pay is taken by paying its order.) */
export const acceptWaitlistOffer = defineCallableContract(
  'waitlist.accept',
  z.strictObject(EntryAccess),
  z.object({ orderId: z.string(), status: z.string() }),
);
/** An admin removes an entry that waits (not one offered: its offer runs its course). */
export const removeWaitlistEntry = defineCallableContract(
  'waitlist.remove',
  z.strictObject({ entryId: Id }),
  z.object({ status: z.string() }),
);
/** An admin offers places to one waiting entry now, out of turn, when enough are free. */
export const offerWaitlistEntry = defineCallableContract(
  'waitlist.offer',
  z.strictObject({ entryId: Id }),
  z.object({ orderId: z.string() }),
);

/**
 * Where an entry is: `unconfirmed` a guest's, until they open the emailed link; `waiting` on the list; `offered` a hold it may take; `accepted` the hold
 * became tickets; `expired` the hold ended untaken; `left` the person left; `removed` by an admin;
 * `closed` the list closed (turned off, or the event began) while it waited.
 */
export const WaitlistStatus = z.enum(['unconfirmed', 'waiting', 'offered', 'accepted', 'expired', 'left', 'removed', 'closed']);
export type WaitlistStatus = z.infer<typeof WaitlistStatus>;

const EntryFields = {
  id: z.string(),
  eventId: z.string(),
  ticketTypeId: z.string(),
  /** The tickets asked for. */
  quantity: z.number(),
  status: WaitlistStatus,
  /** 1 for the first entry waiting for its ticket type; null when not waiting. */
  position: z.number().nullable(),
  joinedAt: z.string(),
  /** The offer, once made: its order (paid or accepted on the order's page), how many tickets, until when. */
  offer: z
    .object({
      orderId: z.string(),
      quantity: z.number(),
      total: z.number(),
      offeredAt: z.string(),
      expiresAt: z.string(),
      /** A guest's offer: the token that opens its order's page (to pay). */
      accessToken: z.string().optional(),
    })
    .nullable(),
};

/** The signed-in person's entries for one event, with their place in the queue, live. */
export const MyWaitlistEntryRow = z.object(EntryFields);
export type MyWaitlistEntryRow = z.infer<typeof MyWaitlistEntryRow>;
export const myWaitlistEntries = defineLiveQueryContract('waitlist.mine', z.strictObject({ eventId: Id }), MyWaitlistEntryRow);
/** A guest's entry, opened by the token of the link emailed to them, live. */
export const guestWaitlistEntry = defineLiveQueryContract(
  'waitlist.guestEntry',
  z.strictObject({ entryId: Id, token: OrderAccessToken }),
  MyWaitlistEntryRow.extend({ eventSlug: z.string(), eventTitle: z.string(), ticketTypeName: z.string() }),
);

/** An event's list as its admins see it, first entry first, live (guests' unconfirmed entries left out). */
export const WaitlistEntryRow = z.object({ ...EntryFields, name: z.string(), email: z.string() });
export type WaitlistEntryRow = z.infer<typeof WaitlistEntryRow>;
export const eventWaitlist = defineLiveQueryContract('waitlist.forEvent', z.strictObject({ eventId: Id }), WaitlistEntryRow);

/** Why a join or an offer is refused: the `reason` in a `failed-precondition` answer's details. */
export const waitlistFailures = [
  z.object({ reason: z.literal('waitlist-closed') }),
  /** Places are free: buy them instead. */
  z.object({ reason: z.literal('not-sold-out'), remaining: z.number() }),
  z.object({ reason: z.literal('already-on-list'), entryId: z.string() }),
  /** An offer by hand: fewer places are free than the entry asked for. */
  z.object({ reason: z.literal('too-few-places'), free: z.number() }),
  z.object({ reason: z.literal('not-waiting'), status: WaitlistStatus }),
] as const;
