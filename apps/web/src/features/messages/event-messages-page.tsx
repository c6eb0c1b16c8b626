import {
  AttendeeMessageDraft,
  eventMessages,
  messageLimits,
  previewAttendeeMessage,
  sendAttendeeMessage,
  type CheckInFilter,
  type EventMessageRow,
} from '@admit/shared/attendee-messages';
import { managedTicketTypes } from '@admit/shared/event-changes';
import { managedEvent } from '@admit/shared/events';
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  Modal,
  Progress,
  Radio,
  Spoiler,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { fieldErrorsOf, useErrorMessage } from '../../lib/error-message';
import { validateWith } from '../../lib/form';
import { BackLink } from '../../lib/links';
import { useLiveQuery } from '../../lib/live';
import { EmptyState, ErrorState, PageLoader } from '../../lib/page-state';
import { usePageTitle } from '../../lib/page-title';
import { MessageRecipients } from './message-recipients';

interface DraftValues {
  who: 'everyone' | 'types';
  ticketTypeIds: string[];
  checkIn: CheckInFilter;
  subject: string;
  body: string;
}

const emptyDraft: DraftValues = { who: 'everyone', ticketTypeIds: [], checkIn: 'any', subject: '', body: '' };

const draftOf = (eventId: string, values: DraftValues): AttendeeMessageDraft => ({
  eventId,
  subject: values.subject,
  body: values.body,
  audience: { ticketTypeIds: values.who === 'types' ? values.ticketTypeIds : [], checkIn: values.checkIn },
});

/**
 * An event's messages to its ticket holders (its admins): a new message (who gets it, subject and
 * text), previewed as the email it becomes before it is sent, and every message sent, with how far
 * its sending has come and who got it, updated live.
 */
export function EventMessagesPage({ eventId }: { eventId: string }) {
  const intl = useIntl();
  const event = useLiveQuery(managedEvent, { eventId });
  const found = event.rows?.[0];
  usePageTitle(
    found && intl.formatMessage({ id: 'messages.tabTitle', defaultMessage: 'Messages for {title}' }, { title: found.title }),
  );
  return (
    <Stack gap="lg">
      <BackLink to="/manage/events/$eventId" params={{ eventId }}>
        <FormattedMessage id="messages.back" defaultMessage="Back to the event" />
      </BackLink>
      <Title order={1}>
        <FormattedMessage id="messages.title" defaultMessage="Messages to attendees" />
        {found && (
          <Text span display="block" fz="lg" c="dimmed" fw={400}>
            {found.title}
          </Text>
        )}
      </Title>
      {event.error && <ErrorState error={event.error} />}
      {!event.error && !found && <PageLoader />}
      {found && (
        <>
          <NewMessage eventId={eventId} />
          <SentMessages eventId={eventId} />
        </>
      )}
    </Stack>
  );
}

function NewMessage({ eventId }: { eventId: string }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const types = useLiveQuery(managedTicketTypes, { eventId });
  // One key per draft: sending it twice (a double click, a retry) is one message.
  const [idempotencyKey, setIdempotencyKey] = useState(() => crypto.randomUUID());
  const form = useForm<DraftValues>({
    initialValues: emptyDraft,
    validate: (values) => {
      const errors: Record<string, string> = validateWith(AttendeeMessageDraft, intl)(draftOf(eventId, values));
      if (values.who === 'types' && values.ticketTypeIds.length === 0)
        errors.ticketTypeIds = intl.formatMessage({
          id: 'messages.types.required',
          defaultMessage: 'Choose at least one ticket type.',
        });
      return errors;
    },
  });
  const showFieldErrors = (error: unknown) => {
    const fields = fieldErrorsOf(error);
    if (fields.subject) form.setFieldError('subject', fields.subject);
    if (fields.body) form.setFieldError('body', fields.body);
  };
  const preview = useMutation({
    mutationFn: (values: DraftValues) => callFunction(previewAttendeeMessage, draftOf(eventId, values)),
    onError: showFieldErrors,
  });
  const send = useMutation({
    mutationFn: (values: DraftValues) => callFunction(sendAttendeeMessage, { ...draftOf(eventId, values), idempotencyKey }),
    onSuccess: (result) => {
      notifications.show({
        color: 'green',
        message: intl.formatMessage(
          {
            id: 'messages.sending',
            defaultMessage: '{count, plural, one {Sending to # person.} other {Sending to # people.}}',
          },
          { count: result.recipients },
        ),
      });
      preview.reset();
      send.reset();
      form.reset();
      setIdempotencyKey(crypto.randomUUID());
    },
    onError: showFieldErrors,
  });
  const previewed = preview.data;

  return (
    <Card withBorder padding="lg">
      <form onSubmit={form.onSubmit((values) => preview.mutate(values))} noValidate>
        <Stack gap="md">
          <Title order={2} size="h4">
            <FormattedMessage id="messages.new" defaultMessage="New message" />
          </Title>
          <Radio.Group
            label={intl.formatMessage({ id: 'messages.who', defaultMessage: 'Who gets it' })}
            {...form.getInputProps('who')}
          >
            <Stack gap="xs" mt={6}>
              <Radio
                value="everyone"
                label={intl.formatMessage({ id: 'messages.who.everyone', defaultMessage: 'Everyone with a valid ticket' })}
              />
              <Radio
                value="types"
                label={intl.formatMessage({ id: 'messages.who.types', defaultMessage: 'Holders of chosen ticket types' })}
              />
            </Stack>
          </Radio.Group>
          {form.values.who === 'types' && (
            <Checkbox.Group
              label={intl.formatMessage({ id: 'messages.types', defaultMessage: 'Ticket types' })}
              {...form.getInputProps('ticketTypeIds')}
            >
              <Stack gap="xs" mt={6}>
                {(types.rows ?? []).map((type) => (
                  <Checkbox key={type.id} value={type.id} label={type.name} />
                ))}
              </Stack>
            </Checkbox.Group>
          )}
          <Radio.Group
            label={intl.formatMessage({ id: 'messages.door', defaultMessage: 'At the door' })}
            {...form.getInputProps('checkIn')}
          >
            <Stack gap="xs" mt={6}>
              <Radio value="any" label={intl.formatMessage({ id: 'messages.door.any', defaultMessage: 'Anyone' })} />
              <Radio
                value="checked-in"
                label={intl.formatMessage({ id: 'messages.door.in', defaultMessage: 'Only those let in' })}
              />
              <Radio
                value="not-checked-in"
                label={intl.formatMessage({ id: 'messages.door.notIn', defaultMessage: 'Only those not let in yet' })}
              />
            </Stack>
          </Radio.Group>
          <TextInput
            label={intl.formatMessage({ id: 'messages.subject', defaultMessage: 'Subject' })}
            required
            maxLength={messageLimits.subject}
            {...form.getInputProps('subject')}
          />
          <Textarea
            label={intl.formatMessage({ id: 'messages.body', defaultMessage: 'Message' })}
            description={intl.formatMessage({
              id: 'messages.body.description',
              defaultMessage:
                'Sent as you write it. Admit adds a greeting, the event and your organization’s name in each person’s language. A blank line starts a new paragraph.',
            })}
            required
            autosize
            minRows={6}
            maxRows={16}
            maxLength={messageLimits.body}
            {...form.getInputProps('body')}
          />
          {preview.isError && (
            <Alert color="red" role="alert">
              {errorMessage(preview.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={preview.isPending}>
              <FormattedMessage id="messages.preview" defaultMessage="Preview" />
            </Button>
          </Group>
        </Stack>
      </form>
      <Modal
        opened={previewed !== undefined}
        onClose={() => preview.reset()}
        size="xl"
        title={<FormattedMessage id="messages.preview.title" defaultMessage="Check before sending" />}
      >
        {previewed && (
          <Stack gap="md">
            <Text fw={600} data-testid="message-reach">
              <FormattedMessage
                id="messages.preview.reach"
                defaultMessage="{count, plural, =0 {Nobody holds a valid ticket that matches your choice.} one {Goes to # person.} other {Goes to # people.}}"
                values={{ count: previewed.recipients }}
              />
            </Text>
            {previewed.unreachable > 0 && (
              <Text size="sm" c="dimmed">
                <FormattedMessage
                  id="messages.preview.unreachable"
                  defaultMessage="{count, plural, one {# of them has no email address (signed up with a phone number) and reads it on their order only.} other {# of them have no email address (signed up with a phone number) and read it on their order only.}}"
                  values={{ count: previewed.unreachable }}
                />
              </Text>
            )}
            <Text size="sm">
              <FormattedMessage
                id="messages.preview.subject"
                defaultMessage="Subject: {subject}"
                values={{ subject: <strong>{previewed.email.subject}</strong> }}
              />
            </Text>
            <iframe
              title={intl.formatMessage({ id: 'messages.preview.frame', defaultMessage: 'The email as you would get it' })}
              srcDoc={previewed.email.html}
              sandbox=""
              style={{ width: '100%', height: 440, border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}
            />
            {send.isError && (
              <Alert color="red" role="alert">
                {errorMessage(send.error)}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => preview.reset()}>
                <FormattedMessage id="messages.preview.edit" defaultMessage="Back to editing" />
              </Button>
              <Button
                disabled={previewed.recipients === 0}
                loading={send.isPending}
                onClick={() => send.mutate(form.values)}
                data-autofocus
              >
                <FormattedMessage
                  id="messages.send"
                  defaultMessage="{count, plural, one {Send to # person} other {Send to # people}}"
                  values={{ count: previewed.recipients }}
                />
              </Button>
            </Group>
          </Stack>
        )}
      </Modal>
    </Card>
  );
}

function SentMessages({ eventId }: { eventId: string }) {
  const intl = useIntl();
  const { rows, isLoading, error } = useLiveQuery(eventMessages, { eventId });
  return (
    <Stack gap="md" component="section" aria-labelledby="sent-messages">
      <Title order={2} size="h4" id="sent-messages">
        <FormattedMessage id="messages.sent.title" defaultMessage="Sent messages" />
      </Title>
      {error && <ErrorState error={error} />}
      {isLoading && <PageLoader />}
      {rows && rows.length === 0 && (
        <EmptyState title={intl.formatMessage({ id: 'messages.sent.empty.title', defaultMessage: 'No messages yet' })}>
          <FormattedMessage
            id="messages.sent.empty.body"
            defaultMessage="Messages you send appear here, with how far their sending has come."
          />
        </EmptyState>
      )}
      {rows?.map((message) => (
        <SentMessage key={message.id} eventId={eventId} message={message} />
      ))}
    </Stack>
  );
}

function SentMessage({ eventId, message }: { eventId: string; message: EventMessageRow }) {
  const intl = useIntl();
  const [showRecipients, setShowRecipients] = useState(false);
  const reachable = message.recipients - message.unreachable;
  const done = message.finishedAt !== null;
  return (
    <Card withBorder padding="lg" component="article" aria-label={message.subject}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" wrap="nowrap">
          <Title order={3} size="h5" dir="auto">
            {message.subject}
          </Title>
          <Badge color={done ? 'green' : 'blue'} variant="light" style={{ flexShrink: 0 }}>
            {done ? (
              <FormattedMessage id="messages.status.sent" defaultMessage="Sent" />
            ) : (
              <FormattedMessage id="messages.status.sending" defaultMessage="Sending" />
            )}
          </Badge>
        </Group>
        <Text size="sm" c="dimmed">
          <FormattedMessage
            id="messages.sentBy"
            defaultMessage="{author, select, none {Sent} other {By {author}}} · {when} · {audience}"
            values={{
              author: message.authorName ?? 'none',
              when: intl.formatDate(message.createdAt, { dateStyle: 'medium', timeStyle: 'short' }),
              audience: <AudienceSummary key="audience" message={message} />,
            }}
          />
        </Text>
        <Spoiler
          maxHeight={88}
          showLabel={intl.formatMessage({ id: 'messages.body.more', defaultMessage: 'Show all' })}
          hideLabel={intl.formatMessage({ id: 'messages.body.less', defaultMessage: 'Show less' })}
        >
          <Text size="sm" style={{ whiteSpace: 'pre-line' }} dir="auto">
            {message.body}
          </Text>
        </Spoiler>
        <Progress
          value={reachable === 0 ? 100 : (100 * message.sent) / reachable}
          color={done ? 'green' : 'blue'}
          aria-label={intl.formatMessage({ id: 'messages.progress', defaultMessage: 'Emails sent' })}
        />
        <Group justify="space-between">
          <Text size="sm" data-testid="message-progress">
            <FormattedMessage
              id="messages.progress.count"
              defaultMessage="{sent, number} of {count, plural, one {# email} other {# emails}} sent"
              values={{ sent: message.sent, count: reachable }}
            />
            {message.unreachable > 0 && (
              <>
                {' · '}
                <FormattedMessage
                  id="messages.progress.unreachable"
                  defaultMessage="{count, plural, one {# person without an email address} other {# people without an email address}}"
                  values={{ count: message.unreachable }}
                />
              </>
            )}
          </Text>
          <Button
            variant="subtle"
            size="compact-sm"
            onClick={() => setShowRecipients(true)}
            aria-label={intl.formatMessage(
              { id: 'messages.recipients.openFor', defaultMessage: 'Who got it: {subject}' },
              { subject: message.subject },
            )}
          >
            <FormattedMessage id="messages.recipients.open" defaultMessage="Who got it" />
          </Button>
        </Group>
      </Stack>
      <Modal
        opened={showRecipients}
        onClose={() => setShowRecipients(false)}
        size="lg"
        title={
          <FormattedMessage
            id="messages.recipients.title"
            defaultMessage="Who got “{subject}”"
            values={{ subject: message.subject }}
          />
        }
      >
        {showRecipients && <MessageRecipients eventId={eventId} messageId={message.id} total={message.recipients} />}
      </Modal>
    </Card>
  );
}

function AudienceSummary({ message }: { message: EventMessageRow }) {
  const { ticketTypeIds, checkIn } = message.audience;
  return (
    <FormattedMessage
      id="messages.audience"
      defaultMessage="{types, plural, =0 {every ticket type} one {# ticket type} other {# ticket types}}{door, select, checkedIn {, those let in} notCheckedIn {, those not let in yet} other {}}"
      values={{
        types: ticketTypeIds.length,
        door: checkIn === 'checked-in' ? 'checkedIn' : checkIn === 'not-checked-in' ? 'notCheckedIn' : 'any',
      }}
    />
  );
}
