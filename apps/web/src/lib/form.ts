import { oneLineMessage } from '@admit/shared/text';
import { untyped } from './messages';
import { defineMessages, type IntlShape } from 'react-intl';
import type { z } from 'zod';

const messages = untyped(
  defineMessages({
    required: { id: 'form.required', defaultMessage: 'This field is required.' },
    tooShort: {
      id: 'form.tooShort',
      defaultMessage: '{minimum, plural, one {Enter at least # character.} other {Enter at least # characters.}}',
    },
    tooLong: {
      id: 'form.tooLong',
      defaultMessage: '{maximum, plural, one {Enter at most # character.} other {Enter at most # characters.}}',
    },
    tooSmall: { id: 'form.tooSmall', defaultMessage: 'Enter a number of at least {minimum}.' },
    tooBig: { id: 'form.tooBig', defaultMessage: 'Enter a number of at most {maximum}.' },
    notWhole: { id: 'form.notWhole', defaultMessage: 'Enter a whole number.' },
    badFormat: { id: 'form.badFormat', defaultMessage: 'This is not in the expected format.' },
    email: { id: 'form.email', defaultMessage: 'Enter a valid email address.' },
    endBeforeStart: { id: 'form.endBeforeStart', defaultMessage: 'The event must end after it starts.' },
    timeZone: { id: 'form.timeZone', defaultMessage: 'Choose a time zone from the list.' },
    invalid: { id: 'form.invalid', defaultMessage: 'Check this value.' },
    answerRequired: { id: 'form.answerRequired', defaultMessage: 'Answer this question.' },
    mustCheck: { id: 'form.mustCheck', defaultMessage: 'Check this box to go on.' },
    phone: { id: 'form.phone', defaultMessage: 'Enter the number with its country code, e.g. +44 20 7946 0958.' },
    country: { id: 'form.country', defaultMessage: 'Choose a country from the list.' },
    twoOptions: { id: 'form.twoOptions', defaultMessage: 'Give at least two options.' },
    oneLine: { id: 'form.oneLine', defaultMessage: 'Write this on one line, without tabs or other special characters.' },
  }),
);

/** "This field is required.", for a field checked by hand rather than by a schema. */
export const requiredMessage = (intl: IntlShape): string => intl.formatMessage(messages.required);

// The few custom refinements in packages/shared, by their (English) message.
const customMessages: Record<string, keyof typeof messages> = {
  'The event must end after it starts': 'endBeforeStart',
  'Not an IANA time zone': 'timeZone',
  'Answer this question': 'answerRequired',
  'Check this box to go on': 'mustCheck',
  'Not a phone number': 'phone',
  'Not a country': 'country',
  'A choice question has two options or more': 'twoOptions',
  [oneLineMessage]: 'oneLine',
};

type Issue = z.core.$ZodIssue;

export function issueMessage(issue: Issue, intl: IntlShape): string {
  switch (issue.code) {
    case 'invalid_type':
      return intl.formatMessage(issue.expected === 'number' || issue.expected === 'int' ? messages.notWhole : messages.required);
    case 'too_small':
      if (issue.origin === 'string')
        return intl.formatMessage(Number(issue.minimum) <= 1 ? messages.required : messages.tooShort, {
          minimum: Number(issue.minimum),
        });
      return intl.formatMessage(messages.tooSmall, { minimum: Number(issue.minimum) });
    case 'too_big':
      if (issue.origin === 'string') return intl.formatMessage(messages.tooLong, { maximum: Number(issue.maximum) });
      return intl.formatMessage(messages.tooBig, { maximum: Number(issue.maximum) });
    case 'invalid_format':
      if (issue.message === oneLineMessage) return intl.formatMessage(messages.oneLine);
      return intl.formatMessage(issue.format === 'email' ? messages.email : messages.badFormat);
    case 'custom': {
      const known = customMessages[issue.message];
      return intl.formatMessage(known ? messages[known] : messages.invalid);
    }
    default:
      return intl.formatMessage(messages.invalid);
  }
}

/** A Mantine form `validate` function from a shared zod schema, with translated messages. */
export function validateWith<S extends z.ZodType>(
  schema: S,
  intl: IntlShape,
  transform: (values: never) => unknown = (values) => values,
) {
  return (values: unknown): Record<string, string> => {
    const parsed = schema.safeParse(transform(values as never));
    if (parsed.success) return {};
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const path = issue.path.map(String).join('.');
      errors[path] ??= issueMessage(issue, intl);
    }
    return errors;
  };
}
