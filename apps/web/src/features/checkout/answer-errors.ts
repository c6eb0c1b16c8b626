import { fieldIssuesIn } from '@admit/shared/callable-errors';
import type { IntlShape } from 'react-intl';
import { CallError } from '../../lib/callable';
import { issueMessage } from '../../lib/form';

// The server's refusal of an order's answers, read when an order fails: a module of its own, loaded
// then, so that the picker's first load carries neither it nor the form's messages.

/**
 * The server's refusal of some answers (`lines.0.answers.1.<question>`), as the step's messages
 * (null when it refused something else). The server's words are English: each is shown as the
 * browser's check would word it.
 */
export function answerErrorsOf(
  intl: IntlShape,
  error: unknown,
  lines: readonly { ticketTypeId: string }[],
): Record<string, Record<string, string>> | null {
  if (!(error instanceof CallError) || error.code !== 'invalid-argument') return null;
  const errors: Record<string, Record<string, string>> = {};
  let aboutAnswers = false;
  for (const field of fieldIssuesIn(error.details)) {
    const [first, lineIndex, second, ticketIndex, questionId] = field.path.split('.');
    const line = lines[Number(lineIndex)];
    if (first !== 'lines' || second !== 'answers' || !line) continue;
    // Answers missing for a whole line (questions added since the page loaded) open the step too.
    aboutAnswers = true;
    if (ticketIndex === undefined || !questionId) continue;
    // The checks' own words (a required answer) are known; anything else is "Check this value."
    const issue = field.code === 'custom' ? { code: 'custom', message: field.message } : { code: 'invalid_value', message: '' };
    (errors[`${line.ticketTypeId}.${ticketIndex}`] ??= {})[questionId] = issueMessage(
      issue as Parameters<typeof issueMessage>[0],
      intl,
    );
  }
  return aboutAnswers ? errors : null;
}
