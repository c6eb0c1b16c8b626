import type { ShownAnswer } from '@admit/shared/questions';
import { formatPhone } from '@admit/shared/people';
import { Text } from '@mantine/core';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';

/** A country's name in the reader's language ("Germany", "Allemagne"), from its ISO code. */
export function countryName(locale: string, code: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** An answer in words: options chosen joined, a checked box as "Yes", a date and a country as the reader writes them. */
export function answerWords(intl: IntlShape, answer: Pick<ShownAnswer, 'kind' | 'value'>): string {
  const { kind, value } = answer;
  if (Array.isArray(value)) return intl.formatList(value, { type: 'conjunction' });
  if (typeof value === 'boolean')
    return value
      ? intl.formatMessage({ id: 'answers.yes', defaultMessage: 'Yes' })
      : intl.formatMessage({ id: 'answers.no', defaultMessage: 'No' });
  if (typeof value === 'number') return intl.formatNumber(value);
  if (kind === 'date') return intl.formatDate(`${value}T12:00:00Z`, { dateStyle: 'medium', timeZone: 'UTC' });
  if (kind === 'country') return countryName(intl.locale, value);
  if (kind === 'phone') return formatPhone(value);
  return value;
}

/**
 * A ticket's answers as a list of "question: answer" pairs (order pages, the organizer's order
 * detail): the question's words as the organizer wrote them, the answer in the reader's language.
 */
export function AnswerList({ answers, size = 'sm' }: { answers: readonly ShownAnswer[]; size?: 'xs' | 'sm' }) {
  const intl = useIntl();
  if (answers.length === 0) return null;
  return (
    <div data-testid="answers">
      {answers.map((answer) => (
        <Text key={answer.questionId} size={size} component="div" style={{ overflowWrap: 'anywhere' }}>
          <FormattedMessage
            id="answers.pair"
            defaultMessage="{question}: {answer}"
            values={{
              question: (
                <Text span size={size} c="dimmed">
                  {answer.label}
                </Text>
              ),
              answer: (
                <Text span size={size} style={{ whiteSpace: 'pre-line' }}>
                  {answerWords(intl, answer)}
                </Text>
              ),
            }}
          />
        </Text>
      ))}
    </div>
  );
}
