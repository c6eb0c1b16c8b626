/** The languages Admit speaks, in the browser and in its emails and text messages. */
export const locales = ['en', 'de'] as const;
export type Locale = (typeof locales)[number];
export const defaultLocale: Locale = 'en';

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
