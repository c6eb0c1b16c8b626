import { z } from 'zod';
import { defineCallableContract } from './callable';
import {
  ContentLocale,
  EventDescription,
  EventTitle,
  EventTranslationsRow,
  EventVenue,
  NameTranslationsRow,
  TicketTypeName,
} from './event-content';
import { Picture } from './files';
import { LocalDateTime, TimeZone } from './dates';
import { Id } from './ids';
import { defineLiveQueryContract } from './live';

export { Id };

export const EventStatus = z.enum(['draft', 'published', 'sales_closed', 'ended', 'cancelled']);
export type EventStatus = z.infer<typeof EventStatus>;

const Capacity = z.int().min(1).max(1_000_000);
/** Tickets of a type one buyer may have across all their orders; null: as many as they order. */
export const MaxPerBuyer = z.int().min(1).max(1_000).nullable();
/** An ISO 4217 code this runtime can format (EUR, USD, JPY…); prices are in its minor units. */
export const Currency = z
  .string()
  .regex(/^[A-Z]{3}$/, 'Use a three-letter currency code such as EUR')
  .refine((code) => Intl.supportedValuesOf('currency').includes(code), 'Unknown currency');

export const CreateEventInput = z
  .strictObject({
    organizationId: Id,
    title: EventTitle,
    description: EventDescription.default(''),
    venue: EventVenue,
    /** The language of the title, description and venue; the web app sends its creator's. English when not given. */
    contentLocale: ContentLocale.default('en'),
    timeZone: TimeZone,
    startsAtLocal: LocalDateTime,
    endsAtLocal: LocalDateTime,
    capacity: Capacity,
    /** Tickets of the event (all types together) one buyer may have across all their orders; null: no limit. */
    maxPerBuyer: MaxPerBuyer.default(null),
    currency: Currency.default('EUR'),
  })
  .refine((input) => input.endsAtLocal > input.startsAtLocal, {
    path: ['endsAtLocal'],
    message: 'The event must end after it starts',
  });
export type CreateEventInput = z.input<typeof CreateEventInput>;
export const CreateEventOutput = z.object({ eventId: z.string(), slug: z.string() });
export const createEvent = defineCallableContract('events.create', CreateEventInput, CreateEventOutput);

export const AddTicketTypeInput = z
  .strictObject({
    eventId: Id,
    name: TicketTypeName,
    capacity: Capacity,
    maxPerOrder: z.int().min(1).max(100).default(10),
    /** Tickets of this type one buyer may have across all their orders (against resale); null: no limit. */
    maxPerBuyer: MaxPerBuyer.default(null),
    /** In minor units of the event's currency (cents; yen for JPY); 0 is free. */
    price: z.int().min(0).max(100_000_000).default(0),
    /** When sales open and close, as wall-clock times in the event's time zone. */
    salesStartLocal: LocalDateTime.optional(),
    salesEndLocal: LocalDateTime.optional(),
  })
  .refine((input) => !input.salesStartLocal || !input.salesEndLocal || input.salesEndLocal > input.salesStartLocal, {
    path: ['salesEndLocal'],
    message: 'Sales must end after they start',
  });
export type AddTicketTypeInput = z.input<typeof AddTicketTypeInput>;
export const AddTicketTypeOutput = z.object({ ticketTypeId: z.string() });
export const addTicketType = defineCallableContract('events.addTicketType', AddTicketTypeInput, AddTicketTypeOutput);

export const PublishEventInput = z.strictObject({ eventId: Id });
export const PublishEventOutput = z.object({ status: EventStatus });
export const publishEvent = defineCallableContract('events.publish', PublishEventInput, PublishEventOutput);

const eventFields = {
  id: z.string(),
  organizationId: z.string(),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  venue: z.string(),
  timeZone: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  currency: z.string(),
  capacity: z.number(),
  maxPerBuyer: z.number().nullable(),
  status: EventStatus,
  cover: Picture.nullable(),
  /** The language of title, description and venue; `translations` has them in other languages (event-content.ts). */
  contentLocale: ContentLocale,
  translations: EventTranslationsRow,
};

/** An event as anyone may see it once published. */
export const PublicEventRow = z.object({
  ...eventFields,
  organizationName: z.string(),
  organizationLogo: Picture.nullable(),
  remaining: z.number(),
  /** Tickets offered back by their holders that buyers may take (decision 0066): the event is not sold out while there are some. */
  resale: z.number(),
});
export type PublicEventRow = z.infer<typeof PublicEventRow>;
export const publicEvent = defineLiveQueryContract(
  'events.public',
  z.strictObject({ slug: z.string().min(1).max(120) }),
  PublicEventRow,
);

export const publishedEvents = defineLiveQueryContract('events.published', z.strictObject({}), PublicEventRow);

/** A ticket type with what is left of it; `remaining` already takes the event's own capacity into account. */
export const TicketAvailabilityRow = z.object({
  id: z.string(),
  eventId: z.string(),
  name: z.string(),
  /** The name in the event's other languages. */
  nameTranslations: NameTranslationsRow,
  price: z.number(),
  capacity: z.number(),
  maxPerOrder: z.number(),
  maxPerBuyer: z.number().nullable(),
  remaining: z.number(),
  /** Tickets offered back by their holders (decision 0066) a buyer may take once `remaining` is 0. */
  resale: z.number(),
  /** What one of them costs (the price its seller paid, oldest offer first); null when none is offered. */
  resalePrice: z.number().nullable(),
  /** When its sales open and close (null: with the event's); before then a pre-sale list may take people (decision 0064). */
  salesStart: z.string().nullable(),
  salesEnd: z.string().nullable(),
  position: z.number(),
});
export type TicketAvailabilityRow = z.infer<typeof TicketAvailabilityRow>;
export const ticketAvailability = defineLiveQueryContract(
  'events.availability',
  z.strictObject({ eventId: Id }),
  TicketAvailabilityRow,
);

/** An event as its organization's admins manage it. */
export const ManagedEventRow = z.object({
  ...eventFields,
  sold: z.number(),
  /** Places in pending orders, held while their buyers pay. */
  held: z.number(),
  /** The sites allowed to show the event's checkout in a frame (embed.ts). */
  embedSites: z.array(z.string()),
});
export type ManagedEventRow = z.infer<typeof ManagedEventRow>;
export const orgEvents = defineLiveQueryContract('events.forOrg', z.strictObject({ organizationId: Id }), ManagedEventRow);
export const managedEvent = defineLiveQueryContract('events.managed', z.strictObject({ eventId: Id }), ManagedEventRow);

/** Why an event cannot be changed so now: the `reason` in a `failed-precondition` answer's details. */
export const eventFailures = [
  z.object({ reason: z.literal('no-ticket-types') }),
  /** Ended or cancelled: nothing more can be added to it (ticket types, guests). */
  z.object({ reason: z.literal('event-closed'), status: EventStatus }),
  /** Only a draft is published. */
  z.object({ reason: z.literal('not-draft'), status: EventStatus }),
] as const;
