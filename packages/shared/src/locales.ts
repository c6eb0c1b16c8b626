/** The languages Admit speaks, in the browser and in its emails and text messages. */
export const locales = ['en', 'de', 'fr', 'es', 'ja', 'ar'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'en';

/** Each language's name in itself, as the language switch lists it. */
export const localeNames: Record<Locale, string> = {
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  es: 'Español',
  ja: '日本語',
  ar: 'العربية',
};

/** The languages written right to left: the whole page, the emails and the ticket PDF mirror. */
const rightToLeft: ReadonlySet<Locale> = new Set(['ar']);

export const directionOf = (locale: Locale): 'ltr' | 'rtl' => (rightToLeft.has(locale) ? 'rtl' : 'ltr');

/** The cookie the web app keeps the chosen language in, so that the server writes to a person in it. */
export const localeCookie = 'admit.locale';

export const isLocale = (value: unknown): value is Locale => (locales as readonly unknown[]).includes(value);

/** The first supported language of a list of language tags ("de-AT" → de), or the default. */
export function pickLocale(tags: readonly string[]): Locale {
  for (const tag of tags) {
    const language = tag.trim().split(/[-_]/)[0]?.toLowerCase();
    if (isLocale(language)) return language;
  }
  return defaultLocale;
}

/**
 * The tag dates, times and numbers are written in for a reader of `locale`: the first of their own
 * tags in that language that Intl knows ("en-GB" → 27 Nov 2026, 20:00; "en-US" → Nov 27, 2026,
 * 8:00 PM), else the language itself. The messages stay the language's.
 */
export function regionalTag(locale: Locale, tags: readonly string[]): string {
  for (const tag of tags) {
    if (tag.trim().split(/[-_]/)[0]?.toLowerCase() !== locale) continue;
    try {
      const [canonical] = Intl.getCanonicalLocales(tag.trim().replace(/_/g, '-'));
      if (canonical && Intl.DateTimeFormat.supportedLocalesOf(canonical).length > 0) return canonical;
    } catch {
      // Not a well-formed tag ("en-"): the next one, or the language.
    }
  }
  return locale;
}

/** The languages of an Accept-Language header, most preferred first ("de;q=0.8, en;q=0.9" → en, de). */
export function acceptLanguageTags(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part, index) => {
      const [tag = '', ...parameters] = part.trim().split(';');
      const q = parameters.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag: tag.trim(), quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.tag && entry.tag !== '*' && entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map((entry) => entry.tag);
}

/** Unicode's first-strong isolate and its end: text between them takes its own direction. */
const isolate = { start: '\u2068', end: '\u2069' };

/**
 * A right-to-left catalog whose plain arguments (`{email}`, `{amount}`, `{title}`) are each set in
 * their own direction: an address, a price or a Latin event title inside an Arabic sentence keeps
 * its characters in order and does not pull the punctuation around it. Plural, select and tag
 * arguments are left as they are (their text is the catalog's own).
 */
export function isolateArguments(catalog: Record<string, string>): Record<string, string> {
  const isolated: Record<string, string> = {};
  for (const [id, message] of Object.entries(catalog))
    isolated[id] = message.replace(/\{(\w+)\}/g, `${isolate.start}{$1}${isolate.end}`);
  return isolated;
}
