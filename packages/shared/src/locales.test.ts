import { describe, expect, it } from 'vitest';
import { acceptLanguageTags, pickLocale } from './locales';

describe('choosing a language', () => {
  it('orders an Accept-Language header by quality, keeping the order of equals', () => {
    expect(acceptLanguageTags('fr-CH, fr;q=0.9, de;q=0.95, en;q=0.9, *;q=0.5')).toEqual(['fr-CH', 'de', 'fr', 'en']);
  });

  it('ignores languages with quality 0 and an empty or missing header', () => {
    expect(acceptLanguageTags('de;q=0, en')).toEqual(['en']);
    expect(acceptLanguageTags('')).toEqual([]);
    expect(acceptLanguageTags(undefined)).toEqual([]);
  });

  it('takes the first language Admit speaks, by its primary subtag, or English', () => {
    expect(pickLocale(['fr-CH', 'de-AT', 'en'])).toBe('de');
    expect(pickLocale(['EN_gb'])).toBe('en');
    expect(pickLocale(['ja', 'fr'])).toBe('en');
    expect(pickLocale([])).toBe('en');
  });
});
