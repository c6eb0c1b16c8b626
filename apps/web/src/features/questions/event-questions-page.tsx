import { managedTicketTypes, type ManagedTicketTypeRow } from '@admit/shared/event-changes';
import { managedEvent } from '@admit/shared/events';
import { deleteQuestion, eventQuestions, moveQuestion, type QuestionRow } from '@admit/shared/questions';
import { Alert, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconPlus } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { DialogFooter } from '../../lib/dialog-footer';
import { useErrorMessage } from '../../lib/error-message';
import { BackLink } from '../../lib/links';
import { useLiveQuery } from '../../lib/live';
import { EmptyState, ErrorState, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { QuestionForm } from './question-form';
import { QuestionItem } from './question-row';

/**
 * An event's questions (its admins): asked of each attendee at checkout, in this order. A new one,
 * and each with whom it is asked of and when, to change, move or delete.
 */
export function EventQuestionsPage({ eventId }: { eventId: string }) {
  const intl = useIntl();
  const event = useLiveQuery(managedEvent, { eventId });
  const types = useLiveQuery(managedTicketTypes, { eventId });
  const questions = useLiveQuery(eventQuestions, { eventId });
  const found = event.rows?.[0];
  usePageTitle(
    found && intl.formatMessage({ id: 'questions.tabTitle', defaultMessage: 'Questions for {title}' }, { title: found.title }),
  );
  const error = event.error ?? types.error ?? questions.error;
  return (
    <Stack gap="lg">
      <BackLink to="/manage/events/$eventId" params={{ eventId }}>
        <FormattedMessage id="questions.back" defaultMessage="Back to the event" />
      </BackLink>
      <Title order={1}>
        <FormattedMessage id="questions.title" defaultMessage="Questions for attendees" />
        {found && (
          <Text span display="block" fz="lg" c="dimmed" fw={400}>
            {found.title}
          </Text>
        )}
      </Title>
      <Text>
        <FormattedMessage
          id="questions.intro"
          defaultMessage="Asked of each attendee when they buy, before they pay. Answers show in the order, the attendee export and, for those you mark, on the scanner."
        />
      </Text>
      {error && <ErrorState error={error} />}
      {!error && (!found || !types.rows || !questions.rows) && <PageLoader />}
      {!error && found && types.rows && questions.rows && (
        <QuestionList eventId={eventId} questions={questions.rows} types={types.rows} />
      )}
    </Stack>
  );
}

function QuestionList({
  eventId,
  questions,
  types,
}: {
  eventId: string;
  questions: readonly QuestionRow[];
  types: readonly ManagedTicketTypeRow[];
}) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  /** The question in the form: a new one, one to change, or none (the form is closed). */
  const [editing, setEditing] = useState<QuestionRow | 'new' | null>(null);
  const [deleting, setDeleting] = useState<QuestionRow | null>(null);
  const move = useMutation({
    mutationFn: (input: { questionId: string; direction: 'up' | 'down' }) => callFunction(moveQuestion, { eventId, ...input }),
  });
  const removal = useMutation({
    mutationFn: (questionId: string) => callFunction(deleteQuestion, { eventId, questionId }),
    onSuccess: () => {
      notifications.show({
        color: 'green',
        message: intl.formatMessage({ id: 'questions.deleted', defaultMessage: 'Question deleted.' }),
      });
      setDeleting(null);
    },
  });
  const closeDeleting = () => {
    setDeleting(null);
    removal.reset();
  };
  const heading = useRef<HTMLHeadingElement>(null);
  // A dialog gives the focus back to the button that opened it; a deleted question's button is
  // gone, and the list's heading takes it instead of the page's start.
  const keepFocusInList = () => {
    if (document.activeElement === null || document.activeElement === document.body) heading.current?.focus();
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="center">
        <Title ref={heading} tabIndex={-1} order={2} size="h4">
          <FormattedMessage id="questions.list" defaultMessage="Questions, in the order asked" />
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setEditing('new')}>
          <FormattedMessage id="questions.add" defaultMessage="Add question" />
        </Button>
      </Group>
      {move.error && (
        <Alert color="red" role="alert" withCloseButton onClose={() => move.reset()}>
          {errorMessage(move.error)}
        </Alert>
      )}
      {questions.length === 0 ? (
        <EmptyState title={intl.formatMessage({ id: 'questions.none', defaultMessage: 'No questions yet' })}>
          <FormattedMessage
            id="questions.none.body"
            defaultMessage="Buyers go straight to paying. Add a question to ask each attendee for their diet, a T-shirt size or their consent to terms."
          />
        </EmptyState>
      ) : (
        <Stack component="ol" gap="sm" p={0} m={0} style={{ listStyle: 'none' }}>
          {questions.map((question, index) => (
            <QuestionItem
              key={question.id}
              question={question}
              index={index}
              questions={questions}
              types={types}
              onEdit={() => setEditing(question)}
              onMove={(direction) => move.mutateAsync({ questionId: question.id, direction })}
              onDelete={() => setDeleting(question)}
            />
          ))}
        </Stack>
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        size="lg"
        title={
          editing === 'new'
            ? intl.formatMessage({ id: 'questions.addTitle', defaultMessage: 'Add a question' })
            : editing &&
              intl.formatMessage({ id: 'questions.editTitle', defaultMessage: 'Edit “{label}”' }, { label: editing.label })
        }
      >
        {editing && (
          <QuestionForm
            eventId={eventId}
            types={types}
            questions={questions}
            question={editing === 'new' ? undefined : editing}
            onClose={() => setEditing(null)}
          />
        )}
      </Modal>
      <Modal
        opened={deleting !== null}
        onClose={closeDeleting}
        onExitTransitionEnd={keepFocusInList}
        title={
          deleting &&
          intl.formatMessage({ id: 'questions.deleteTitle', defaultMessage: 'Delete “{label}”?' }, { label: deleting.label })
        }
      >
        {deleting && (
          <Stack gap="md">
            <Text>
              <FormattedMessage
                id="questions.deleteBody"
                defaultMessage="Answers already given to it will no longer be shown or exported. This cannot be undone."
              />
            </Text>
            <DialogFooter
              error={removal.error && errorMessage(removal.error)}
              cancel={<FormattedMessage id="questions.keep" defaultMessage="Keep it" />}
              confirm={<FormattedMessage id="questions.confirmDelete" defaultMessage="Delete question" />}
              pending={removal.isPending}
              onCancel={closeDeleting}
              onConfirm={() => removal.mutate(deleting.id)}
              danger
            />
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
