import { parse } from '@formatjs/icu-messageformat-parser';
import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import en from '../locales/en.json';
import { pseudoLocalize } from './pseudo-locale';

describe('the pseudo-language for development', () => {
  // The build gives the app its catalogs parsed (compiled-messages.ts).
  const pseudo = pseudoLocalize(Object.fromEntries(Object.entries(en).map(([id, message]) => [id, parse(message)])));
  const { formatters } = createIntl({ locale: 'en', messages: pseudo });
  /** A message of the pseudo-language, formatted as react-intl formats it. */
  const shown = (id: keyof typeof en, values?: Record<string, unknown>) =>
    String(formatters.getMessageFormat(pseudo[id]!, 'en').format(values as never));

  it('accents the words, pads them by 40% and puts the message in brackets', () => {
    expect(en['myTickets.title']).toBe('My tickets');
    expect(shown('myTickets.title')).toBe('[Ṁý ţîçķéţš ~~~~]');
  });

  it('keeps every argument, plural and tag working', () => {
    expect(shown('home.remaining', { count: 1 })).toMatch(/^\[1 þļåçé ļéƒţ ~+\]$/);
    expect(shown('home.remaining', { count: 3 })).toMatch(/^\[3 þļåçéš ļéƒţ ~+\]$/);
    const link = (chunks: unknown) => `<${String(chunks)}>`;
    expect(String(formatters.getMessageFormat(pseudo['signUp.haveAccount']!, 'en').format({ link }))).toMatch(
      /^\[.+<Šîĝñ îñ> ~+\]$/,
    );
  });

  it('has every message of the English catalog', () => {
    expect(Object.keys(pseudo)).toEqual(Object.keys(en));
  });
});
