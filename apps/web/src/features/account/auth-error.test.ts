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
