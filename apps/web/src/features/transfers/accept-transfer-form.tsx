import { contractRef } from '@admit/shared/contract-ref';
import type { eventQuestions } from '@admit/shared/questions';
import { hasQuestionsFor } from '@admit/shared/questions-asked';
import type { acceptTransfer, cancelTransfer, IncomingTransferRow } from '@admit/shared/transfers';
import { Alert, Button, Fieldset, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { AnswerFields, checkAnswers, type AnswerDraft } from '../../lib/answer-fields';
import { callFunction } from '../../lib/callable';
import { formatMoment } from '../../lib/dates';
import { DialogFooter } from '../../lib/dialog-footer';
import { fieldErrorsOf, useErrorMessage } from '../../lib/error-message';
import { requiredMessage } from '../../lib/form';
import { useLiveQuery } from '../../lib/live';
import { useSession } from '../../lib/session';

const questionsOf = contractRef<typeof eventQuestions>('questions.ofEvent');
const accepting = contractRef<typeof acceptTransfer>('tickets.acceptTransfer');
const declining = contractRef<typeof cancelTransfer>('tickets.cancelTransfer');

/**
 * Taking a ticket sent to you: your name (the signed-in person's to start with) and the answers the
 * event asks of each attendee of its type, checked as the checkout checks them (required answers,
 * questions shown by an earlier answer), then the ticket's own page. Or declining it, asked first:
 * it goes back to its sender.
 */
export function AcceptTransferForm({
  transfer,
  token,
  onDeclined,
}: {
  transfer: IncomingTransferRow & { shownIn: string };
  token: string;
  onDeclined: () => void;
}) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const navigate = useNavigate();
  const session = useSession();
  const questionList = useLiveQuery(questionsOf, { eventId: transfer.eventId });
  const questions = questionList.rows ?? [];
  const asked = hasQuestionsFor(questions, transfer.ticketTypeId);
  // Untouched, the name is the signed-in person's (known a moment after the page opens).
  const [typedName, setTypedName] = useState<string | null>(null);
  const name = typedName ?? session.data?.user.name ?? '';
  const [draft, setDraft] = useState<AnswerDraft>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [nameError, setNameError] = useState<string | null>(null);
  const [declineAsked, setDeclineAsked] = useState(false);
  // As of when the page opened: the server refuses a late acceptance anyway, and says why.
  const [openedAt] = useState(() => Date.now());
  const open = transfer.acceptUntil !== null && Date.parse(transfer.acceptUntil) > openedAt;

  const accept = useMutation({
    mutationFn: (answers: Record<string, unknown>) =>
      callFunction(accepting, { transferId: transfer.id, token, name: name.trim(), answers: answers as never }),
    onSuccess: ({ ticketId, accessToken }) =>
      void navigate({ to: '/tickets/$ticketId', params: { ticketId }, search: { token: accessToken } }),
    onError: (error) => {
      const fields = fieldErrorsOf(error);
      if (fields.name) setNameError(fields.name);
      const byQuestion = Object.entries(fields).filter(([path]) => path.startsWith('answers.'));
      if (byQuestion.length > 0)
        setErrors(Object.fromEntries(byQuestion.map(([path, message]) => [path.split('.')[1], message])));
    },
  });
  const fieldErrors = nameError !== null || Object.keys(errors).length > 0;

  function submit() {
    const missingName = name.trim() === '' ? requiredMessage(intl) : null;
    setNameError(missingName);
    const checked = checkAnswers(intl, questions, transfer.ticketTypeId, draft);
    setErrors(checked.errors ?? {});
    if (missingName || !checked.answers) {
      // The first field to fix takes the focus.
      const first = missingName ? 'accept-name' : `accept-${Object.keys(checked.errors ?? {})[0]}`;
      const field = document.getElementById(first);
      (field?.matches('input, textarea') ? field : field?.querySelector<HTMLElement>('input, textarea'))?.focus();
      return;
    }
    accept.mutate(checked.answers);
  }

  if (!open)
    return (
      <Alert color="gray" role="status" data-testid="transfer-closed">
        <FormattedMessage
          id="incoming.closed"
          defaultMessage="Tickets to this event can no longer be passed on, so this one cannot be accepted. It stays with {name}."
          values={{ name: <bdi>{transfer.fromName}</bdi> }}
        />
      </Alert>
    );

  return (
    <>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
        noValidate
        aria-labelledby="accept-heading"
      >
        <Stack gap="md">
          <Text id="accept-heading">
            <FormattedMessage
              id="incoming.intro"
              defaultMessage="Accept it by {time}: it is then issued to you with a new code, and the one {name} has no longer admits."
              values={{
                time: (
                  <time dateTime={transfer.acceptUntil!}>
                    {formatMoment(intl.locale, transfer.acceptUntil!, transfer.timeZone)}
                  </time>
                ),
                name: <bdi>{transfer.fromName}</bdi>,
              }}
            />
          </Text>
          <TextInput
            id="accept-name"
            label={intl.formatMessage({ id: 'incoming.name', defaultMessage: 'Your name' })}
            description={intl.formatMessage({ id: 'incoming.nameHint', defaultMessage: 'Shown on the ticket and at the door.' })}
            required
            autoComplete="name"
            maxLength={200}
            value={name}
            onChange={(change) => {
              setTypedName(change.currentTarget.value);
              setNameError(null);
            }}
            error={nameError}
          />
          {asked && (
            <Fieldset
              legend={
                <Text component="span" fw={600}>
                  <FormattedMessage id="incoming.questions" defaultMessage="The organizer’s questions" />
                </Text>
              }
            >
              <AnswerFields
                questions={questions}
                ticketTypeId={transfer.ticketTypeId}
                value={draft}
                onChange={(next) => {
                  // A question's message goes once its answer changes; the others stay until the next try.
                  setErrors((before) =>
                    Object.fromEntries(Object.entries(before).filter(([questionId]) => next[questionId] === draft[questionId])),
                  );
                  setDraft(next);
                }}
                errors={errors}
                idPrefix="accept"
              />
            </Fieldset>
          )}
          {(accept.isError && !fieldErrors) || questionList.error ? (
            <Alert color="red" role="alert">
              {errorMessage(accept.error ?? questionList.error)}
            </Alert>
          ) : null}
          <Group gap="sm">
            <Button
              type="submit"
              loading={accept.isPending}
              // Not before the questions are known: the answers would be checked against none.
              disabled={questionList.rows === undefined}
            >
              <FormattedMessage id="incoming.accept" defaultMessage="Accept the ticket" />
            </Button>
            <Button variant="default" onClick={() => setDeclineAsked(true)} disabled={accept.isPending}>
              <FormattedMessage id="incoming.decline" defaultMessage="Decline" />
            </Button>
          </Group>
        </Stack>
      </form>
      <DeclineDialog
        opened={declineAsked}
        transfer={transfer}
        token={token}
        onClose={() => setDeclineAsked(false)}
        onDeclined={onDeclined}
      />
    </>
  );
}

/** Declining: the ticket goes back to its sender and the link stops working, so it is asked first. */
function DeclineDialog({
  opened,
  transfer,
  token,
  onClose,
  onDeclined,
}: {
  /** Always drawn, opened or not: closed, it gives the focus back to the button that opened it. */
  opened: boolean;
  transfer: IncomingTransferRow;
  token: string;
  onClose: () => void;
  onDeclined: () => void;
}) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const decline = useMutation({
    mutationFn: () => callFunction(declining, { transferId: transfer.id, token }),
    onSuccess: () => {
      onDeclined();
      onClose();
    },
  });
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={intl.formatMessage({ id: 'incoming.decline.title', defaultMessage: 'Decline this ticket?' })}
    >
      <Stack>
        <Text>
          <FormattedMessage
            id="incoming.decline.body"
            defaultMessage="The ticket stays with {name}, who can send it to someone else. This link will no longer work."
            values={{ name: <bdi>{transfer.fromName}</bdi> }}
          />
        </Text>
        <DialogFooter
          error={decline.error && errorMessage(decline.error)}
          cancel={<FormattedMessage id="incoming.decline.keep" defaultMessage="Go back" />}
          confirm={<FormattedMessage id="incoming.decline.confirm" defaultMessage="Decline the ticket" />}
          pending={decline.isPending}
          onCancel={onClose}
          onConfirm={() => decline.mutate()}
          danger
        />
      </Stack>
    </Modal>
  );
}
