import { choiceKinds, type QuestionKind, type QuestionRow } from '@admit/shared/questions';
import { defineMessages, type MessageDescriptor } from 'react-intl';
import { untyped } from '../../lib/messages';

/** A question's kind in words: in the list, and in the form's choice of kinds. A kind added in shared without words here does not compile. */
export const kindMessages = untyped(
  defineMessages({
    text: { id: 'questions.kind.text', defaultMessage: 'Short text' },
    longText: { id: 'questions.kind.longText', defaultMessage: 'Long text' },
    choice: { id: 'questions.kind.choice', defaultMessage: 'Choice (one)' },
    choices: { id: 'questions.kind.choices', defaultMessage: 'Choices (several)' },
    checkbox: { id: 'questions.kind.checkbox', defaultMessage: 'Checkbox' },
    number: { id: 'questions.kind.number', defaultMessage: 'Number' },
    date: { id: 'questions.kind.date', defaultMessage: 'Date' },
    email: { id: 'questions.kind.email', defaultMessage: 'Email' },
    phone: { id: 'questions.kind.phone', defaultMessage: 'Phone' },
    country: { id: 'questions.kind.country', defaultMessage: 'Country' },
  } satisfies Record<QuestionKind, MessageDescriptor>),
);

/** Whether a question's answers are among its options: the only questions a condition can read. */
export const isChoiceKind = (kind: QuestionKind) => choiceKinds.includes(kind);

/**
 * The questions one may depend on: the choice questions before it in the list. A new question
 * comes last, so it may depend on any of them; so may one deleted while its form was open.
 */
export function earlierChoiceQuestions(questions: readonly QuestionRow[], questionId?: string): QuestionRow[] {
  const index = questions.findIndex((question) => question.id === questionId);
  return questions.slice(0, index === -1 ? questions.length : index).filter((question) => isChoiceKind(question.kind));
}
