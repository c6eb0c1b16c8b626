import { describe, expect, it } from 'vitest';
import { eventLocales, localizeEvent, localizeTicketTypeName, type EventContent } from './event-content';

const jazzNight: EventContent = {
  title: 'Jazz night',
  description: 'A quartet, all night.',
  venue: 'Club Blau',
  contentLocale: 'en',
  translations: { fr: { title: 'Soirée jazz', description: '', venue: 'Club Blau, salle 2' } },
};

describe('choosing the language of an event’s words', () => {
  it('gives the translation into the language asked for, with that language', () => {
    expect(localizeEvent(jazzNight, 'fr')).toEqual({
      title: 'Soirée jazz',
      description: '',
      venue: 'Club Blau, salle 2',
      locale: 'fr',
    });
  });

  it('falls back to the main language, and says so, when the event has no translation into it', () => {
    expect(localizeEvent(jazzNight, 'ja')).toEqual({
      title: 'Jazz night',
      description: 'A quartet, all night.',
      venue: 'Club Blau',
      locale: 'en',
    });
  });

  it('names a ticket type in the language asked for when it has a name in it, else by its main name', () => {
    const standing = { name: 'Standing', nameTranslations: { fr: 'Debout' } };
    expect(localizeTicketTypeName(standing, 'en', 'fr')).toEqual({ name: 'Debout', locale: 'fr' });
    expect(localizeTicketTypeName(standing, 'en', 'de')).toEqual({ name: 'Standing', locale: 'en' });
  });

  it('lists the main language first, then the translations in Admit’s order', () => {
    const german = {
      contentLocale: 'de' as const,
      translations: { ar: jazzNight.translations.fr, en: jazzNight.translations.fr },
    };
    expect(eventLocales(german)).toEqual(['de', 'en', 'ar']);
    expect(eventLocales(jazzNight)).toEqual(['en', 'fr']);
  });
});
