import { untyped } from './messages';
import type { CallableErrorCode } from '@admit/shared/callable';
import { defineMessages, useIntl } from 'react-intl';
import { CallError } from './callable';

const messages = untyped(
  defineMessages({
    'invalid-argument': {
      id: 'error.invalidArgument',
      defaultMessage: 'Some of what you entered is not valid. Check the highlighted fields.',
    },
    'failed-precondition': { id: 'error.failedPrecondition', defaultMessage: 'This cannot be done in the current state.' },
    unauthenticated: { id: 'error.unauthenticated', defaultMessage: 'Please sign in to continue.' },
    'permission-denied': { id: 'error.permissionDenied', defaultMessage: 'Your role does not allow this.' },
    'not-found': { id: 'error.notFound', defaultMessage: 'We could not find that. It may have been removed.' },
    'already-exists': { id: 'error.alreadyExists', defaultMessage: 'That already exists.' },
    aborted: { id: 'error.aborted', defaultMessage: 'Someone else changed this at the same moment. Please try again.' },
    'resource-exhausted': {
      id: 'error.resourceExhausted',
      defaultMessage: 'Too many requests. Please wait a moment and try again.',
    },
    cancelled: { id: 'error.cancelled', defaultMessage: 'The request was cancelled.' },
    internal: { id: 'error.internal', defaultMessage: 'Something went wrong on our side. Please try again.' },
    unimplemented: { id: 'error.unimplemented', defaultMessage: 'This is not available yet.' },
    unavailable: {
      id: 'error.unavailable',
      defaultMessage: 'The service is unavailable right now. Please try again in a moment.',
    },
    'deadline-exceeded': {
      id: 'error.deadlineExceeded',
      defaultMessage: 'The server took too long to answer. Please try again.',
    },
    twoFactorRequired: {
      id: 'error.twoFactorRequired',
      defaultMessage:
        'This organization requires two-factor authentication. Turn it on in your account settings, then try again.',
    },
    soldOut: {
      id: 'error.soldOut',
      defaultMessage:
        '{remaining, plural, =0 {Sorry, these tickets are sold out.} one {Only # ticket is left.} other {Only # tickets are left.}}',
    },
    offline: { id: 'error.offline', defaultMessage: 'You seem to be offline. Check your connection and try again.' },
  } satisfies Record<CallableErrorCode | 'soldOut' | 'offline' | 'twoFactorRequired', unknown>),
);

/** Turns any error into a sentence for people, in their language, from its code and details. */
export function useErrorMessage() {
  const intl = useIntl();
  return (error: unknown): string => {
    if (!(error instanceof CallError)) return intl.formatMessage(messages.internal);
    if (error.code === 'resource-exhausted') {
      const remaining = (error.details as { remaining?: unknown } | undefined)?.remaining;
      if (typeof remaining === 'number') return intl.formatMessage(messages.soldOut, { remaining });
    }
    if (
      error.code === 'failed-precondition' &&
      (error.details as { reason?: unknown } | undefined)?.reason === 'two-factor-required'
    )
      return intl.formatMessage(messages.twoFactorRequired);
    if (error.code === 'internal' && error.httpStatus === 0) return intl.formatMessage(messages.offline);
    return intl.formatMessage(messages[error.code]);
  };
}

/** Field errors from an invalid-argument answer, keyed by field path (`lines.0.quantity`). */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof CallError) || error.code !== 'invalid-argument') return {};
  const fields = (error.details as { fields?: { path: string; message: string }[] } | undefined)?.fields ?? [];
  return Object.fromEntries(fields.map((field) => [field.path, field.message]));
}
