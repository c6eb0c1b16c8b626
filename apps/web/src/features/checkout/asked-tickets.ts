import { fieldIssuesIn } from '@admit/shared/callable-errors';
import type { localizeTicketTypeName } from '@admit/shared/localize-event';
import type { QuestionRow } from '@admit/shared/questions';
import { hasQuestionsFor } from '@admit/shared/questions-asked';
import type { IntlShape } from 'react-intl';
import { CallError } from '../../lib/callable';
import { issueMessage } from '../../lib/form';

// Which tickets of an order are asked questions, and the server's refusal of answers, as the picker
// needs them before the questions' step (attendee-step.tsx, a chunk of its own with its fields and
// the phone number rules) is loaded.

type TypeName = ReturnType<typeof localizeTicketTypeName>;

/** One ticket of the order that is asked questions: its type, and which of the type's tickets it is. */
export interface AskedTicket {
  key: string;
  ticketTypeId: string;
  typeName: TypeName;
  index: number;
  of: number;
}

/** The tickets of the chosen lines whose types are asked anything, one by one. */
export function askedTickets(
  lines: readonly { ticketTypeId: string; quantity: number }[],
  questions: readonly QuestionRow[],
  typeNameOf: (ticketTypeId: string) => TypeName,
): AskedTicket[] {
  return lines
    .filter((line) => hasQuestionsFor(questions, line.ticketTypeId))
    .flatMap((line) =>
      Array.from({ length: line.quantity }, (_, index) => ({
        key: `${line.ticketTypeId}.${index}`,
        ticketTypeId: line.ticketTypeId,
        typeName: typeNameOf(line.ticketTypeId),
        index,
        of: line.quantity,
      })),
    );
}

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
