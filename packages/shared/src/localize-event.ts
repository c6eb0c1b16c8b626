import { locales, type Locale } from './locales';

// An event's words in a reader's language, with no schema: the public pages' first load uses it
// (decision 0050). event-content.ts has the schemas of those words and re-exports these.

/** What localizing needs of an event: its own words, their language and its translations. */
export interface EventContent {
  title: string;
  description: string;
  venue: string;
  contentLocale: Locale;
  /** A list that shows no description may leave it out of the translations. */
  translations: Partial<Record<Locale, { title: string; description?: string; venue: string }>>;
}

export interface LocalizedEvent {
  title: string;
  description: string;
  venue: string;
  /** The language of these words, for the `lang` attribute of what shows them. */
  locale: Locale;
}

/** The event's words in `locale` when it has a translation into it, else in its main language. */
export function localizeEvent(event: EventContent, locale: Locale): LocalizedEvent {
  const translation = locale === event.contentLocale ? undefined : event.translations[locale];
  if (translation)
    return { title: translation.title, description: translation.description ?? '', venue: translation.venue, locale };
  return { title: event.title, description: event.description, venue: event.venue, locale: event.contentLocale };
}

/**
 * A ticket type's name in `locale` when it has one in it, else its name in the event's main
 * language (`contentLocale`), with the language of the name given.
 */
export function localizeTicketTypeName(
  type: { name: string; nameTranslations: Partial<Record<Locale, string>> },
  contentLocale: Locale,
  locale: Locale,
): { name: string; locale: Locale } {
  const translated = locale === contentLocale ? undefined : type.nameTranslations[locale];
  return translated ? { name: translated, locale } : { name: type.name, locale: contentLocale };
}

/** The languages the event can be read in: its main language first, then its translations in Admit's order. */
export function eventLocales(event: Pick<EventContent, 'contentLocale' | 'translations'>): Locale[] {
  return [event.contentLocale, ...locales.filter((locale) => locale !== event.contentLocale && event.translations[locale])];
}
