import { describe, expect, it } from 'vitest';
import { acceptLanguageTags, directionOf, isolateArguments, locales, pickLocale, regionalTag } from './locales';

describe('choosing a language', () => {
  it('orders an Accept-Language header by quality, keeping the order of equals', () => {
    expect(acceptLanguageTags('fr-CH, fr;q=0.9, de;q=0.95, en;q=0.9, *;q=0.5')).toEqual(['fr-CH', 'de', 'fr', 'en']);
  });

  it('ignores languages with quality 0 and an empty or missing header', () => {
    expect(acceptLanguageTags('de;q=0, en')).toEqual(['en']);
    expect(acceptLanguageTags('')).toEqual([]);
    expect(acceptLanguageTags(undefined)).toEqual([]);
  });

  it('takes the first of the six languages Admit speaks, by its primary subtag, or English', () => {
    expect(pickLocale(['pt-BR', 'de-AT', 'en'])).toBe('de');
    expect(pickLocale(['fr-CH', 'de-AT', 'en'])).toBe('fr');
    expect(pickLocale(['ar-EG'])).toBe('ar');
    expect(pickLocale(['EN_gb'])).toBe('en');
    expect(pickLocale(['ja-JP', 'fr'])).toBe('ja');
    expect(pickLocale(['ko', 'pt'])).toBe('en');
    expect(pickLocale([])).toBe('en');
  });

  it('writes dates in the reader’s region of the language shown, else in the language’s own way', () => {
    expect(regionalTag('en', ['en-GB', 'en'])).toBe('en-GB');
    expect(regionalTag('en', ['de-DE', 'en_au'])).toBe('en-AU');
    expect(regionalTag('de', ['en-GB', 'de-CH'])).toBe('de-CH');
    expect(regionalTag('en', ['de-DE'])).toBe('en');
    expect(regionalTag('en', ['en-', 'en-GB'])).toBe('en-GB');
    expect(regionalTag('fr', [])).toBe('fr');
    expect(
      new Intl.DateTimeFormat(regionalTag('en', ['en-GB']), { dateStyle: 'medium', timeZone: 'UTC' }).format(
        new Date('2026-11-27T20:00Z'),
      ),
    ).toBe('27 Nov 2026');
  });
});

describe('writing direction', () => {
  it('writes Arabic right to left and the other five left to right', () => {
    expect(locales.filter((locale) => directionOf(locale) === 'rtl')).toEqual(['ar']);
  });

  it('sets each plain argument of a right-to-left message in its own direction, and leaves plurals and tags alone', () => {
    expect(
      isolateArguments({
        email: 'أرسلنا رابطًا إلى {email}.',
        count: '{count, plural, one {تذكرة} other {# تذاكر}} لـ <b>{name}</b>',
      }),
    ).toEqual({
      email: 'أرسلنا رابطًا إلى \u2068{email}\u2069.',
      count: '{count, plural, one {تذكرة} other {# تذاكر}} لـ <b>\u2068{name}\u2069</b>',
    });
  });
});
