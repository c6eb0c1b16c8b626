import { accountLimits } from '@admit/shared/account';
import { defineMessages, type IntlShape } from 'react-intl';
import { untyped } from '../../lib/messages';

const messages = untyped(
  defineMessages({
    invalidCredentials: { id: 'auth.error.invalidCredentials', defaultMessage: 'That email and password do not match.' },
    notVerified: {
      id: 'auth.error.notVerified',
      defaultMessage: 'Please verify your email address first. We have sent you a new link.',
    },
    exists: {
      id: 'auth.error.exists',
      defaultMessage: 'Could not sign up with that email. If you already have an account, sign in instead.',
    },
    weakPassword: {
      id: 'auth.error.weakPassword',
      defaultMessage: 'Choose a password of at least {minimum} characters.',
    },
    commonPassword: {
      id: 'auth.error.commonPassword',
      defaultMessage: 'This password is too common or has appeared in a data leak. Choose another one.',
    },
    tooLong: { id: 'auth.error.tooLong', defaultMessage: 'One of the entries is too long.' },
    invalidCharacters: {
      id: 'auth.error.invalidCharacters',
      defaultMessage: 'One of the entries contains characters that cannot be used, such as a line break.',
    },
    wrongCurrentPassword: { id: 'auth.error.wrongCurrentPassword', defaultMessage: 'Your current password is not right.' },
    invalidResetLink: {
      id: 'auth.error.invalidResetLink',
      defaultMessage: 'This reset link has expired or was used already. Ask for a new one.',
    },
    sessionExpired: { id: 'auth.error.sessionExpired', defaultMessage: 'You have been signed out. Please sign in again.' },
    rateLimited: { id: 'auth.error.rateLimited', defaultMessage: 'Too many attempts. Please wait a minute and try again.' },
    rateLimitedSeconds: {
      id: 'auth.error.rateLimitedSeconds',
      defaultMessage: 'Too many attempts. Try again in {seconds, plural, one {# second} other {# seconds}}.',
    },
    rateLimitedMinutes: {
      id: 'auth.error.rateLimitedMinutes',
      defaultMessage: 'Too many attempts. Try again in {minutes, plural, one {# minute} other {# minutes}}.',
    },
    generic: { id: 'auth.error.generic', defaultMessage: 'That did not work. Please try again.' },
    passwordRule: {
      id: 'signUp.passwordHint',
      defaultMessage: 'At least {minimum} characters, and not a common password or one known from a data leak.',
    },
  }),
);

/** The rule for a new password, shown under every field that sets one (with `minimum`). */
export const passwordRuleMessage = messages.passwordRule;

/** A sentence for a Better Auth error, by its code and status (never whether an email is registered). */
export function authErrorMessage(intl: IntlShape, error: { code?: string; status?: number; retryAfter?: number }): string {
  if (error.status === 429) {
    // The server puts the wait (also the Retry-After header) into the body, which the client keeps.
    const seconds = typeof error.retryAfter === 'number' && error.retryAfter > 0 ? Math.ceil(error.retryAfter) : null;
    if (seconds === null) return intl.formatMessage(messages.rateLimited);
    return seconds < 60
      ? intl.formatMessage(messages.rateLimitedSeconds, { seconds })
      : intl.formatMessage(messages.rateLimitedMinutes, { minutes: Math.ceil(seconds / 60) });
  }
  switch (error.code) {
    case 'INVALID_EMAIL_OR_PASSWORD':
      return intl.formatMessage(messages.invalidCredentials);
    case 'EMAIL_NOT_VERIFIED':
      return intl.formatMessage(messages.notVerified);
    case 'USER_ALREADY_EXISTS':
    case 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL':
      return intl.formatMessage(messages.exists);
    case 'INVALID_PASSWORD':
      return intl.formatMessage(messages.wrongCurrentPassword);
    case 'INVALID_TOKEN':
      return intl.formatMessage(messages.invalidResetLink);
    case 'PASSWORD_TOO_SHORT':
      return intl.formatMessage(messages.weakPassword, { minimum: accountLimits.passwordMin });
    case 'PASSWORD_COMPROMISED':
      return intl.formatMessage(messages.commonPassword);
    case 'PASSWORD_TOO_LONG':
    case 'VALUE_TOO_LONG':
      return intl.formatMessage(messages.tooLong);
    case 'INVALID_CHARACTERS':
      return intl.formatMessage(messages.invalidCharacters);
    default:
      // Wrong credentials are 401 too, but carry their own code (above).
      return intl.formatMessage(error.status === 401 ? messages.sessionExpired : messages.generic);
  }
}
