import { z } from 'zod';
import { defineCallableContract } from './callable';
import { Id } from './ids';
import { locales, type Locale } from './locales';
import { OneLineText } from './text';

// What an event says, and in which languages: its title, description and venue (and its ticket
// types' names) in its main language, and translations of them into others of the languages Admit
// speaks. Why translations are kept as they are and how a language is chosen:
// docs/decisions/0040-event-content-languages.md.

/** The same limits wherever an event's words are written, in its main language or a translation. */
export const EventTitle = OneLineText.min(2).max(200);
export const EventDescription = z.string().trim().max(10_000);
export const EventVenue = OneLineText.min(1).max(300);
export const TicketTypeName = z.string().trim().min(1).max(100);

/** A language an event can be written in: one of the languages Admit speaks. */
export const ContentLocale = z.enum(locales);

/** An event's words in one other language. */
export const EventTranslation = z.strictObject({
  title: EventTitle,
  description: EventDescription.default(''),
  venue: EventVenue,
});
export type EventTranslation = z.output<typeof EventTranslation>;

/** An event's translations by language: `{ fr: { title, description, venue } }`. */
export const EventTranslations = z.partialRecord(ContentLocale, EventTranslation);
export type EventTranslations = z.output<typeof EventTranslations>;

/** A ticket type's name by language: `{ fr: 'Debout' }`. */
export const NameTranslations = z.partialRecord(ContentLocale, TicketTypeName);
export type NameTranslations = z.output<typeof NameTranslations>;

/**
 * The translations as live rows carry them: the shape only, as the server stored them (every
 * write was checked by the schemas above).
 */
export const EventTranslationsRow = z.partialRecord(
  ContentLocale,
  z.object({ title: z.string(), description: z.string(), venue: z.string() }),
);
export const NameTranslationsRow = z.partialRecord(ContentLocale, z.string());
/** The translated titles and venues alone, for lists that show no description (My tickets, an order). */
export const EventTitlesRow = z.partialRecord(ContentLocale, z.object({ title: z.string(), venue: z.string() }));

export const SetEventContentInput = z
  .strictObject({
    eventId: Id,
    /** The language the event's own title, description, venue and ticket type names are written in. */
    contentLocale: ContentLocale,
    /** Every translation the event keeps; a language left out is removed. */
    translations: EventTranslations,
    /**
     * The ticket types' names in the event's other languages; a ticket type left out keeps no
     * translated name. A name in a language the event has no translation into would never be shown.
     */
    ticketTypes: z
      .array(z.strictObject({ ticketTypeId: Id, nameTranslations: NameTranslations }))
      .max(200)
      .default([]),
  })
  .superRefine((input, ctx) => {
    if (input.translations[input.contentLocale])
      ctx.addIssue({
        code: 'custom',
        path: ['translations', input.contentLocale],
        message: 'The main language needs no translation',
      });
    const named = new Set<string>();
    for (const [index, type] of input.ticketTypes.entries()) {
      if (named.has(type.ticketTypeId))
        ctx.addIssue({ code: 'custom', path: ['ticketTypes', index, 'ticketTypeId'], message: 'Name each ticket type once' });
      named.add(type.ticketTypeId);
      for (const locale of Object.keys(type.nameTranslations) as Locale[]) {
        if (locale === input.contentLocale || !input.translations[locale])
          ctx.addIssue({
            code: 'custom',
            path: ['ticketTypes', index, 'nameTranslations', locale],
            message: 'Translate the event into this language first',
          });
      }
    }
  });
export type SetEventContentInput = z.input<typeof SetEventContentInput>;
export const setEventContent = defineCallableContract(
  'events.setContent',
  SetEventContentInput,
  z.object({ changed: z.boolean() }),
);

export * from './localize-event';
