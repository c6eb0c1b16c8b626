import type { ManagedTicketTypeRow } from '@admit/shared/event-changes';
import { createQuestion, questionLimits, QuestionKind, updateQuestion, type QuestionRow } from '@admit/shared/questions';
import { ActionIcon, Button, Checkbox, Group, Input, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { IconPlus, IconX } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { DialogFooter } from '../../lib/dialog-footer';
import { failureOfError, fieldErrorsOf, useErrorMessage } from '../../lib/error-message';
import { validateWith } from '../../lib/form';
import { inputOf, renamed, valuesOf, type QuestionValues } from './question-values';
import { earlierChoiceQuestions, isChoiceKind, kindMessages } from './question-words';

/**
 * One question's fields, to add one (`question` absent) or change one, in a dialog. Its kind is
 * chosen once: answers already given are of that kind.
 */
export function QuestionForm({
  eventId,
  types,
  questions,
  question,
  onClose,
}: {
  eventId: string;
  types: readonly ManagedTicketTypeRow[];
  /** The event's questions in order, live: a condition names an earlier one. */
  questions: readonly QuestionRow[];
  question?: QuestionRow;
  onClose: () => void;
}) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const optionsId = useId();
  const sources = earlierChoiceQuestions(questions, question?.id);
  // The option field just added, which takes the focus as it appears.
  const [addedOption, setAddedOption] = useState<number | null>(null);

  const check = question
    ? validateWith(updateQuestion.input, intl, (values: QuestionValues) => ({
        ...inputOf(values, eventId),
        questionId: question.id,
      }))
    : validateWith(createQuestion.input, intl, (values: QuestionValues) => ({ ...inputOf(values, eventId), kind: values.kind }));
  const form = useForm<QuestionValues>({
    initialValues: valuesOf(question, sources),
    validate: (values) => {
      const errors = renamed(check(values));
      // An empty option says so under its field; the list's own sentences (two empty options are
      // "the same option") would say it twice, and are the schema's, untranslated.
      if (Object.keys(errors).some((path) => path.startsWith('options.'))) delete errors.options;
      else if (errors.options)
        errors.options =
          values.options.length < 2
            ? intl.formatMessage({ id: 'questions.field.optionsTooFew', defaultMessage: 'Give at least two options.' })
            : intl.formatMessage({ id: 'questions.field.optionsTwice', defaultMessage: 'Each option can appear only once.' });
      return errors;
    },
  });
  const mutation = useMutation({
    mutationFn: async (values: QuestionValues) => {
      if (question) await callFunction(updateQuestion, { ...inputOf(values, eventId), questionId: question.id });
      else await callFunction(createQuestion, { ...inputOf(values, eventId), kind: values.kind });
    },
    onSuccess: () => {
      notifications.show({
        color: 'green',
        message: question
          ? intl.formatMessage({ id: 'questions.saved', defaultMessage: 'Question saved.' })
          : intl.formatMessage({ id: 'questions.added', defaultMessage: 'Question added.' }),
      });
      onClose();
    },
    onError: (error) => {
      const reason = failureOfError(error)?.reason;
      if (reason === 'bad-condition') form.setFieldError('conditionQuestionId', errorMessage(error));
      // A change refused because a later question reads an option it takes away.
      else if (reason === 'question-in-use') form.setFieldError('options', errorMessage(error));
      else form.setErrors(renamed(fieldErrorsOf(error)));
    },
  });
  const shown = mutation.error && Object.keys(form.errors).length === 0 ? errorMessage(mutation.error) : null;

  const { kind, options, conditionQuestionId } = form.values;
  const source = sources.find((candidate) => candidate.id === conditionQuestionId);
  const addOption = () => {
    setAddedOption(options.length);
    form.insertListItem('options', '');
  };
  const removeOption = (index: number) => {
    form.removeListItem('options', index);
    // The field that takes this one's place keeps the focus (the last one's is gone: the one before).
    form.getInputNode(`options.${Math.min(index, options.length - 2)}`)?.focus();
  };

  return (
    <form onSubmit={form.onSubmit((values) => mutation.mutate(values))} noValidate>
      <Stack gap="md">
        <TextInput
          label={intl.formatMessage({ id: 'questions.field.label', defaultMessage: 'Question' })}
          description={intl.formatMessage({
            id: 'questions.field.labelHint',
            defaultMessage: 'As attendees read it: “Diet”, “T-shirt size”, “I accept the terms”.',
          })}
          required
          maxLength={200}
          data-autofocus
          {...form.getInputProps('label')}
        />
        <TextInput
          label={intl.formatMessage({ id: 'questions.field.help', defaultMessage: 'Help text (optional)' })}
          description={intl.formatMessage({
            id: 'questions.field.helpHint',
            defaultMessage: 'A line under the question: what it is for, or the format you expect.',
          })}
          maxLength={500}
          {...form.getInputProps('help')}
        />
        <Select
          label={intl.formatMessage({ id: 'questions.field.kind', defaultMessage: 'Kind of answer' })}
          description={
            question
              ? intl.formatMessage({
                  id: 'questions.field.kindFixed',
                  defaultMessage: 'The kind of a question cannot change once it is made: delete it and add another.',
                })
              : undefined
          }
          data={QuestionKind.options.map((value) => ({ value, label: intl.formatMessage(kindMessages[value]) }))}
          allowDeselect={false}
          disabled={question !== undefined}
          {...form.getInputProps('kind')}
        />
        {isChoiceKind(kind) && (
          <Input.Wrapper
            id={optionsId}
            labelElement="div"
            label={intl.formatMessage({ id: 'questions.field.options', defaultMessage: 'Options' })}
            description={intl.formatMessage({
              id: 'questions.field.optionsHint',
              defaultMessage: 'In the order attendees see them; each is what an answer is saved and exported as.',
            })}
            required
            error={form.errors.options}
          >
            <Stack
              gap={6}
              mt={6}
              role="group"
              aria-labelledby={`${optionsId}-label`}
              aria-describedby={`${optionsId}-description`}
            >
              {options.map((_option, index) => (
                // Keyed by place: a field keeps its element (and the focus) as the options before it change.
                <Group key={index} gap="xs" wrap="nowrap" align="flex-start">
                  <TextInput
                    style={{ flex: 1 }}
                    aria-label={intl.formatMessage(
                      { id: 'questions.field.option', defaultMessage: 'Option {number, number}' },
                      { number: index + 1 },
                    )}
                    maxLength={100}
                    autoFocus={index === addedOption}
                    {...form.getInputProps(`options.${index}`)}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    size="input-sm"
                    disabled={options.length <= 2}
                    onClick={() => removeOption(index)}
                    aria-label={intl.formatMessage(
                      { id: 'questions.field.removeOption', defaultMessage: 'Remove option {number, number}' },
                      { number: index + 1 },
                    )}
                  >
                    <IconX size={18} aria-hidden />
                  </ActionIcon>
                </Group>
              ))}
              {options.length < questionLimits.options && (
                <Button
                  variant="subtle"
                  size="compact-sm"
                  leftSection={<IconPlus size={16} aria-hidden />}
                  onClick={addOption}
                  style={{ alignSelf: 'flex-start' }}
                >
                  <FormattedMessage id="questions.field.addOption" defaultMessage="Add option" />
                </Button>
              )}
            </Stack>
          </Input.Wrapper>
        )}
        <Checkbox
          label={
            kind === 'checkbox'
              ? intl.formatMessage({
                  id: 'questions.field.mustCheck',
                  defaultMessage: 'Required: it must be checked to buy (to accept terms, for example)',
                })
              : intl.formatMessage({
                  id: 'questions.field.required',
                  defaultMessage: 'Required: attendees must answer it to buy',
                })
          }
          {...form.getInputProps('required', { type: 'checkbox' })}
        />
        {types.length > 0 && (
          <Checkbox.Group
            label={intl.formatMessage({ id: 'questions.field.types', defaultMessage: 'Ticket types' })}
            description={intl.formatMessage({
              id: 'questions.field.typesHint',
              defaultMessage: 'Asked for tickets of the types chosen. None chosen: asked for every ticket type.',
            })}
            {...form.getInputProps('ticketTypeIds')}
          >
            <Stack gap={6} mt={6}>
              {types.map((type) => (
                <Checkbox
                  key={type.id}
                  value={type.id}
                  label={
                    type.hidden
                      ? intl.formatMessage(
                          { id: 'questions.field.hiddenType', defaultMessage: '{name} (hidden)' },
                          { name: type.name },
                        )
                      : type.name
                  }
                />
              ))}
            </Stack>
          </Checkbox.Group>
        )}
        <Select
          label={intl.formatMessage({ id: 'questions.field.condition', defaultMessage: 'Show only when… (optional)' })}
          description={
            sources.length > 0
              ? intl.formatMessage({
                  id: 'questions.field.conditionHint',
                  defaultMessage: '…an earlier choice question is answered with options you choose. Empty: always shown.',
                })
              : intl.formatMessage({
                  id: 'questions.field.conditionNone',
                  defaultMessage:
                    'A question can be shown depending on the answer to a choice question before it; there is none yet.',
                })
          }
          placeholder={intl.formatMessage({ id: 'questions.field.always', defaultMessage: 'Always shown' })}
          data={sources.map((candidate) => ({ value: candidate.id, label: candidate.label }))}
          disabled={sources.length === 0}
          clearable
          {...form.getInputProps('conditionQuestionId')}
          onChange={(chosen) => {
            form.setFieldValue('conditionQuestionId', chosen);
            // Another question has other options.
            form.setFieldValue('conditionValues', []);
          }}
        />
        {source && (
          <Checkbox.Group
            label={intl.formatMessage(
              { id: 'questions.field.conditionValues', defaultMessage: 'When “{question}” is answered with' },
              { question: source.label },
            )}
            description={intl.formatMessage({
              id: 'questions.field.conditionValuesHint',
              defaultMessage: 'Any of the options chosen. None chosen: always shown.',
            })}
            {...form.getInputProps('conditionValues')}
          >
            <Stack gap={6} mt={6}>
              {source.options.map((option) => (
                <Checkbox key={option} value={option} label={option} />
              ))}
            </Stack>
          </Checkbox.Group>
        )}
        <Checkbox
          label={intl.formatMessage({ id: 'questions.field.onScanner', defaultMessage: 'Show the answer on the scanner' })}
          description={intl.formatMessage({
            id: 'questions.field.onScannerHint',
            defaultMessage: 'Door staff see it when they scan the ticket: a wheelchair, a diet.',
          })}
          {...form.getInputProps('onScanner', { type: 'checkbox' })}
        />
        <DialogFooter
          error={shown}
          cancel={<FormattedMessage id="questions.discard" defaultMessage="Discard" />}
          confirm={
            question ? (
              <FormattedMessage id="questions.save" defaultMessage="Save changes" />
            ) : (
              <FormattedMessage id="questions.create" defaultMessage="Add question" />
            )
          }
          pending={mutation.isPending}
          onCancel={onClose}
        />
      </Stack>
    </form>
  );
}
