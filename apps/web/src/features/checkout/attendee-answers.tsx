import type { MyOrderRow } from '@admit/shared/orders';
import { changeAnswers, eventQuestions } from '@admit/shared/questions';
import { Button, Card, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { AnswerList } from '../../lib/answers';
import { callFunction } from '../../lib/callable';
import { ticketChangesOpen } from '../../lib/order-changes';
import { DialogFooter } from '../../lib/dialog-footer';
import { fieldErrorsOf, useErrorMessage } from '../../lib/error-message';
import { useLiveQuery } from '../../lib/live';
import { AnswerFields, checkAnswers, draftOf, type AnswerDraft } from '../../lib/answer-fields';

type Attendee = MyOrderRow['attendees'][number];

/**
 * Each ticket's answers to the event's questions on the buyer's order page: held places' before
 * the payment, the tickets' after it, each of which can be changed until the event starts.
 */
export function AttendeeAnswers({ order, accessToken }: { order: MyOrderRow & { shownIn: string }; accessToken?: string }) {
  const intl = useIntl();
  const [editing, setEditing] = useState<{ attendee: Attendee; name: string } | null>(null);
  if (order.attendees.length === 0) return null;
  const open = ticketChangesOpen(order);
  const typeName = (ticketTypeId: string) => order.lines.find((line) => line.ticketTypeId === ticketTypeId)?.ticketTypeName ?? '';

  return (
    <Card withBorder padding="lg">
      <Stack gap="md">
        <Title order={2} size="h3">
          <FormattedMessage id="order.answers.title" defaultMessage="Your answers" />
        </Title>
        {order.attendees.map((attendee, index) => {
          // Numbered within its type, as at checkout: "Workshop: ticket 2 of 2" is the same person.
          const ofType = order.attendees.filter((other) => other.ticketTypeId === attendee.ticketTypeId);
          const name = ticketName(intl, typeName(attendee.ticketTypeId), ofType.indexOf(attendee), ofType.length);
          return (
            <Stack key={attendee.ticketId ?? index} gap={4} data-testid="attendee-answers">
              <Group justify="space-between" wrap="wrap" gap="xs">
                <Stack gap={0}>
                  <Text fw={600} lang={order.shownIn}>
                    {name}
                  </Text>
                  {attendee.holderName && (
                    <Text size="sm" c="dimmed">
                      {attendee.holderName}
                    </Text>
                  )}
                </Stack>
                {open && attendee.ticketId && (
                  <Button
                    variant="light"
                    size="compact-sm"
                    aria-label={intl.formatMessage(
                      { id: 'order.answers.changeFor', defaultMessage: 'Change answers: {ticket}' },
                      { ticket: name },
                    )}
                    onClick={() => setEditing({ attendee, name })}
                  >
                    <FormattedMessage id="order.answers.change" defaultMessage="Change answers" />
                  </Button>
                )}
              </Group>
              {attendee.answers.length > 0 ? (
                <AnswerList answers={attendee.answers} />
              ) : (
                <Text size="sm" c="dimmed">
                  <FormattedMessage id="order.answers.none" defaultMessage="Nothing was asked, or nothing answered." />
                </Text>
              )}
            </Stack>
          );
        })}
        {open ? (
          <Text size="xs" c="dimmed">
            <FormattedMessage id="order.answers.until" defaultMessage="You can change your answers until the event starts." />
          </Text>
        ) : null}
      </Stack>
      {editing && (
        <ChangeAnswersDialog
          orderId={order.id}
          accessToken={accessToken}
          eventId={order.eventId}
          attendee={editing.attendee}
          name={editing.name}
          onClose={() => setEditing(null)}
        />
      )}
    </Card>
  );
}

/** "Workshop: ticket 2 of 2", or the type's name alone for its only ticket (the checkout's words). */
function ticketName(intl: IntlShape, type: string, index: number, count: number): string {
  if (count === 1) return type;
  return intl.formatMessage(
    { id: 'picker.answers.ticketOf', defaultMessage: '{type}: ticket {number, number} of {count, number}' },
    { type, number: index + 1, count },
  );
}

function ChangeAnswersDialog({
  orderId,
  accessToken,
  eventId,
  attendee,
  name,
  onClose,
}: {
  orderId: string;
  /** A guest's: the token that opens the order. */
  accessToken?: string;
  eventId: string;
  attendee: Attendee;
  name: string;
  onClose: () => void;
}) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const questionList = useLiveQuery(eventQuestions, { eventId });
  const questions = questionList.rows ?? [];
  const [draft, setDraft] = useState<AnswerDraft>(() => draftOf(attendee.answers));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useMutation({
    mutationFn: (answers: AnswerDraft) =>
      callFunction(changeAnswers, { orderId, accessToken, ticketId: attendee.ticketId!, answers: answers as never }),
    onSuccess: () => {
      notifications.show({
        color: 'green',
        message: intl.formatMessage({ id: 'order.answers.saved', defaultMessage: 'Answers saved' }),
      });
      onClose();
    },
    onError: (error) => {
      const fields = fieldErrorsOf(error);
      if (Object.keys(fields).length > 0)
        setErrors(Object.fromEntries(Object.keys(fields).map((path) => [path.split('.')[1], fields[path]!])));
    },
  });

  function submit() {
    const checked = checkAnswers(intl, questions, attendee.ticketTypeId, draft);
    setErrors(checked.errors ?? {});
    if (checked.answers) save.mutate(checked.answers);
  }

  return (
    <Modal
      opened
      onClose={onClose}
      title={intl.formatMessage({ id: 'order.answers.dialogTitleFor', defaultMessage: 'Answers: {ticket}' }, { ticket: name })}
    >
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        noValidate
      >
        <Stack gap="md">
          <AnswerFields
            questions={questions}
            ticketTypeId={attendee.ticketTypeId}
            value={draft}
            onChange={setDraft}
            errors={errors}
            idPrefix="change"
          />
          <DialogFooter
            error={save.isError ? errorMessage(save.error) : questionList.error ? errorMessage(questionList.error) : undefined}
            cancel={<FormattedMessage id="order.answers.cancel" defaultMessage="Cancel" />}
            confirm={<FormattedMessage id="order.answers.save" defaultMessage="Save answers" />}
            // Not before the questions are known: the answers would be checked against none.
            pending={save.isPending || questionList.rows === undefined}
            onCancel={onClose}
          />
        </Stack>
      </form>
    </Modal>
  );
}
