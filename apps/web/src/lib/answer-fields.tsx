import { attendeeAnswers, countryCodes } from '@admit/shared/question-answers';
import { shownQuestions, type Answers, type QuestionRow } from '@admit/shared/questions';
import { Checkbox, NumberInput, Radio, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useMemo } from 'react';
import { useIntl, type IntlShape } from 'react-intl';
import { countryName } from './answers';
import { issueMessage } from './form';

/** One ticket's answers as the buyer types them: anything a field holds, checked when sent. */
export type AnswerDraft = Record<string, unknown>;

/**
 * A ticket's answers checked with the schema the server checks them with: the answers to send, or
 * a message in the buyer's language for each question to fix (by question id).
 */
export function checkAnswers(
  intl: IntlShape,
  questions: readonly QuestionRow[],
  ticketTypeId: string,
  draft: AnswerDraft,
): { answers: Answers; errors: null } | { answers: null; errors: Record<string, string> } {
  const parsed = attendeeAnswers(questions, ticketTypeId).safeParse(normalized(questions, draft));
  if (parsed.success) return { answers: parsed.data, errors: null };
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[String(issue.path[0])] ??= issueMessage(issue, intl);
  return { answers: null, errors };
}

/**
 * What the fields hold, as the schema reads answers: a number as typed ("-1.5", kept as text while
 * it is typed) as a number; options the organizer has since renamed or removed left out, so that an
 * old answer never blocks saving new ones (there is no box left to untick it).
 */
function normalized(questions: readonly QuestionRow[], draft: AnswerDraft): AnswerDraft {
  const result: AnswerDraft = { ...draft };
  for (const question of questions) {
    const value = draft[question.id];
    if (question.kind === 'number' && typeof value === 'string')
      result[question.id] = value.trim() === '' ? null : Number.isFinite(Number(value)) ? Number(value) : value;
    if (question.kind === 'choice' && typeof value === 'string' && !question.options.includes(value)) result[question.id] = null;
    if (question.kind === 'choices' && Array.isArray(value))
      result[question.id] = value.filter((option) => question.options.includes(option as string));
  }
  return result;
}

/** A choice question with this many options or fewer shows them all (radio buttons); more, a list to open. */
const radioLimit = 6;

/**
 * The questions shown for one ticket, each as the field its kind needs; a question that depends on
 * an earlier answer appears as soon as that answer has one of its options. `idPrefix` keeps the
 * fields of several tickets on one page apart.
 */
export function AnswerFields({
  questions,
  ticketTypeId,
  value,
  onChange,
  errors,
  idPrefix,
}: {
  questions: readonly QuestionRow[];
  ticketTypeId: string;
  value: AnswerDraft;
  onChange: (next: AnswerDraft) => void;
  errors: Record<string, string>;
  idPrefix: string;
}) {
  const intl = useIntl();
  const countries = useMemo(
    () =>
      countryCodes
        .map((code) => ({ value: code, label: countryName(intl.locale, code) }))
        .sort((a, b) => a.label.localeCompare(b.label, intl.locale)),
    [intl.locale],
  );
  const set = (questionId: string, answer: unknown) => onChange({ ...value, [questionId]: answer });

  return (
    <Stack gap="sm">
      {shownQuestions(questions, ticketTypeId, value).map((question) => {
        const common = {
          id: `${idPrefix}-${question.id}`,
          label: question.label,
          description: question.help || undefined,
          error: errors[question.id],
          required: question.required,
          'data-question': question.label,
        };
        const text = typeof value[question.id] === 'string' ? (value[question.id] as string) : '';
        switch (question.kind) {
          case 'text':
          case 'email':
          case 'phone':
            return (
              <TextInput
                key={question.id}
                {...common}
                type={question.kind === 'text' ? 'text' : question.kind === 'email' ? 'email' : 'tel'}
                autoComplete={question.kind === 'email' ? 'email' : question.kind === 'phone' ? 'tel' : undefined}
                placeholder={
                  question.kind === 'phone'
                    ? intl.formatMessage({ id: 'answers.phonePlaceholder', defaultMessage: '+44 20 7946 0958' })
                    : undefined
                }
                value={text}
                onChange={(event) => set(question.id, event.currentTarget.value)}
              />
            );
          case 'longText':
            return (
              <Textarea
                key={question.id}
                {...common}
                autosize
                minRows={2}
                maxRows={8}
                value={text}
                onChange={(event) => set(question.id, event.currentTarget.value)}
              />
            );
          case 'date':
            return (
              <TextInput
                key={question.id}
                {...common}
                type="date"
                value={text}
                onChange={(event) => set(question.id, event.currentTarget.value)}
              />
            );
          case 'number':
            return (
              <NumberInput
                key={question.id}
                {...common}
                // Kept as typed ("-", "1.") until it is checked: a number field must let a minus or a point be typed.
                value={
                  typeof value[question.id] === 'number' || typeof value[question.id] === 'string'
                    ? (value[question.id] as number | string)
                    : ''
                }
                onChange={(next) => set(question.id, next)}
              />
            );
          case 'checkbox':
            return (
              <Checkbox
                key={question.id}
                {...common}
                checked={value[question.id] === true}
                onChange={(event) => set(question.id, event.currentTarget.checked)}
              />
            );
          case 'country':
            return (
              <Select
                key={question.id}
                {...common}
                data={countries}
                searchable
                clearable={!question.required}
                value={text || null}
                onChange={(next) => set(question.id, next ?? '')}
              />
            );
          case 'choice':
            return question.options.length <= radioLimit ? (
              <Radio.Group key={question.id} {...common} value={text} onChange={(next) => set(question.id, next)}>
                <Stack gap={6} mt={6}>
                  {question.options.map((option) => (
                    <Radio key={option} value={option} label={option} />
                  ))}
                </Stack>
              </Radio.Group>
            ) : (
              <Select
                key={question.id}
                {...common}
                data={question.options}
                searchable
                clearable={!question.required}
                value={text || null}
                onChange={(next) => set(question.id, next ?? '')}
              />
            );
          case 'choices':
            return (
              <Checkbox.Group
                key={question.id}
                {...common}
                value={
                  Array.isArray(value[question.id])
                    ? (value[question.id] as string[]).filter((option) => question.options.includes(option))
                    : []
                }
                onChange={(next) => set(question.id, next)}
              >
                <Stack gap={6} mt={6}>
                  {question.options.map((option) => (
                    <Checkbox key={option} value={option} label={option} />
                  ))}
                </Stack>
              </Checkbox.Group>
            );
        }
      })}
    </Stack>
  );
}

/** A ticket's answers as shown (by question id), back into the fields that change them. */
export const draftOf = (answers: readonly { questionId: string; value: unknown }[]): AnswerDraft =>
  Object.fromEntries(answers.map((answer) => [answer.questionId, answer.value]));
