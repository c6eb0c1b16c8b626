import { createIntl } from 'react-intl';
import { describe, expect, it } from 'vitest';
import de from '../../locales/de.json';
import { authErrorMessage } from './auth-error';

const english = createIntl({ locale: 'en', defaultLocale: 'en', messages: {} });
const german = createIntl({ locale: 'de', defaultLocale: 'en', messages: de });

describe('authErrorMessage for too many attempts', () => {
  it('says how many seconds to wait when it is under a minute', () => {
    expect(authErrorMessage(english, { status: 429, retryAfter: 1 })).toBe('Too many attempts. Try again in 1 second.');
    expect(authErrorMessage(english, { status: 429, retryAfter: 45 })).toBe('Too many attempts. Try again in 45 seconds.');
  });

  it('rounds longer waits up to whole minutes, in German too', () => {
    expect(authErrorMessage(english, { status: 429, retryAfter: 61 })).toBe('Too many attempts. Try again in 2 minutes.');
    expect(authErrorMessage(german, { status: 429, retryAfter: 898 })).toBe(
      'Zu viele Versuche. Versuchen Sie es in 15 Minuten erneut.',
    );
  });

  it('falls back to a minute when the server names no wait', () => {
    expect(authErrorMessage(english, { status: 429 })).toBe('Too many attempts. Please wait a minute and try again.');
  });
});

describe('authErrorMessage for a refused password', () => {
  it('names the 12-character minimum when a password is too short, in German too', () => {
    expect(authErrorMessage(english, { code: 'PASSWORD_TOO_SHORT', status: 400 })).toBe(
      'Choose a password of at least 12 characters.',
    );
    expect(authErrorMessage(german, { code: 'PASSWORD_TOO_SHORT', status: 400 })).toBe(
      'Wählen Sie ein Passwort mit mindestens 12 Zeichen.',
    );
  });

  it('says that a common or leaked password is refused, in German too', () => {
    expect(authErrorMessage(english, { code: 'PASSWORD_COMPROMISED', status: 400 })).toBe(
      'This password is too common or has appeared in a data leak. Choose another one.',
    );
    expect(authErrorMessage(german, { code: 'PASSWORD_COMPROMISED', status: 400 })).toBe(
      'Dieses Passwort ist zu verbreitet oder ist schon in einem Datenleck aufgetaucht. Wählen Sie ein anderes.',
    );
  });

  it('says an entry is too long or has characters that cannot be used, not just that it did not work', () => {
    expect(authErrorMessage(english, { code: 'VALUE_TOO_LONG', status: 400 })).toBe('One of the entries is too long.');
    expect(authErrorMessage(english, { code: 'INVALID_CHARACTERS', status: 400 })).toBe(
      'One of the entries contains characters that cannot be used, such as a line break.',
    );
  });
});
