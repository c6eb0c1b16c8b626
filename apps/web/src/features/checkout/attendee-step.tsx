import { hasQuestionsFor, type Answers, type QuestionRow } from '@admit/shared/questions';
import { directionOf } from '@admit/shared/locales';
import { Button, Fieldset, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { useEffect, useRef } from 'react';
import { FormattedMessage, type IntlShape } from 'react-intl';
import { AnswerFields, checkAnswers, type AnswerDraft } from '../../lib/answer-fields';
import type { AskedTicket } from './asked-tickets';

/**
 * The order's lines with each asked ticket's answers, checked in the browser with the server's
 * schema; or, when some are not right yet, the messages by ticket and question.
 */
export function linesWithAnswers(
  intl: IntlShape,
  lines: readonly { ticketTypeId: string; quantity: number }[],
  questions: readonly QuestionRow[],
  drafts: Readonly<Record<string, AnswerDraft>>,
) {
  const errors: Record<string, Record<string, string>> = {};
  const checked = lines.map((line) => {
    if (!hasQuestionsFor(questions, line.ticketTypeId)) return line;
    const answers: Answers[] = [];
    for (let index = 0; index < line.quantity; index++) {
      const key = `${line.ticketTypeId}.${index}`;
      const result = checkAnswers(intl, questions, line.ticketTypeId, drafts[key] ?? {});
      if (result.errors) errors[key] = result.errors;
      else answers.push(result.answers);
    }
    return { ...line, answers };
  });
  return Object.keys(errors).length > 0 ? { lines: null, errors } : { lines: checked, errors: null };
}

const idPrefixOf = (key: string) => `ticket-${key.replaceAll('.', '-')}`;
/** The id of a ticket's field for a question (AnswerFields names them from its prefix). */
const fieldId = (key: string, questionId: string) => `${idPrefixOf(key)}-${questionId}`;

/**
 * The checkout's second step when the event asks questions: for each ticket asked something, its
 * questions, before anything is ordered or paid. Focus moves to the step's heading when it opens,
 * and to the first question to fix when an answer is missing.
 */
export function AttendeeStep({
  questions,
  tickets,
  drafts,
  onDraftsChange,
  errors,
  onBack,
}: {
  questions: readonly QuestionRow[];
  tickets: readonly AskedTicket[];
  drafts: Readonly<Record<string, AnswerDraft>>;
  onDraftsChange: (key: string, draft: AnswerDraft) => void;
  errors: Readonly<Record<string, Record<string, string>>>;
  onBack: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  // After a refused "Get tickets": the first question to fix takes the focus (a radio button or a
  // box of a choice, the field itself otherwise), and the summary below is read out.
  const first = tickets.flatMap((ticket) =>
    questions.filter((question) => errors[ticket.key]?.[question.id]).map((question) => fieldId(ticket.key, question.id)),
  )[0];
  useEffect(() => {
    const field = first ? document.getElementById(first) : null;
    (field?.matches('input, textarea') ? field : field?.querySelector<HTMLElement>('input, textarea'))?.focus();
    // Each refusal (a new `errors`), not each keystroke.
  }, [errors, first]);
  const wrong = Object.values(errors).reduce((sum, byQuestion) => sum + Object.keys(byQuestion).length, 0);

  return (
    <Stack gap="md">
      <Button
        variant="subtle"
        size="compact-sm"
        leftSection={<IconArrowLeft size={16} className="mirror-in-rtl" aria-hidden />}
        onClick={onBack}
        style={{ alignSelf: 'flex-start' }}
      >
        <FormattedMessage id="picker.answers.back" defaultMessage="Back to tickets" />
      </Button>
      <Title order={3} size="h4" ref={heading} tabIndex={-1}>
        <FormattedMessage id="picker.answers.heading" defaultMessage="Questions for each ticket" />
      </Title>
      <Text size="sm" c="dimmed">
        <FormattedMessage
          id="picker.answers.intro"
          defaultMessage="The organizer asks these questions for each ticket. You can change your answers until the event starts."
        />
      </Text>
      {tickets.map((ticket) => (
        <Fieldset
          key={ticket.key}
          data-testid="attendee"
          legend={
            <Text component="span" fw={600} lang={ticket.typeName.locale} dir={directionOf(ticket.typeName.locale)}>
              {ticket.of > 1 ? (
                <FormattedMessage
                  id="picker.answers.ticketOf"
                  defaultMessage="{type}: ticket {number, number} of {count, number}"
                  values={{ type: ticket.typeName.name, number: ticket.index + 1, count: ticket.of }}
                />
              ) : (
                ticket.typeName.name
              )}
            </Text>
          }
        >
          <AnswerFields
            questions={questions}
            ticketTypeId={ticket.ticketTypeId}
            value={drafts[ticket.key] ?? {}}
            onChange={(next) => onDraftsChange(ticket.key, next)}
            errors={errors[ticket.key] ?? {}}
            idPrefix={idPrefixOf(ticket.key)}
          />
        </Fieldset>
      ))}
      <Text size="sm" c="red" role="alert">
        {wrong > 0 && (
          <FormattedMessage
            id="picker.answers.wrong"
            defaultMessage="{count, plural, one {One answer needs your attention.} other {# answers need your attention.}}"
            values={{ count: wrong }}
          />
        )}
      </Text>
    </Stack>
  );
}
