import {
  AttendeeMessageDraft,
  messageLimits,
  previewAttendeeMessage,
  sendAttendeeMessage,
  type CheckInFilter,
} from '@admit/shared/attendee-messages';
import { managedTicketTypes } from '@admit/shared/event-changes';
import { Alert, Button, Card, Checkbox, Group, Modal, Radio, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { fieldErrorsOf, useErrorMessage } from '../../lib/error-message';
import { validateWith } from '../../lib/form';
import { useKeptForm } from '../../lib/kept-drafts';
import { useLiveQuery } from '../../lib/live';
import { guestMailAllowanceKey } from './guest-mail-left';

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
 * A new message: who gets it, its subject and text, checked by the shared schema; "Preview" shows how
 * many people it reaches and the email itself, from which it is sent. One idempotency key per draft.
 */
export function NewMessage({ eventId }: { eventId: string }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const types = useLiveQuery(managedTicketTypes, { eventId });
  const queryClient = useQueryClient();
  // What is left to email guests changes with each message sent, or refused.
  const refreshAllowance = () => void queryClient.invalidateQueries({ queryKey: guestMailAllowanceKey(eventId) });
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
  useKeptForm('new-message', form);
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
      refreshAllowance();
    },
    onError: (error) => {
      showFieldErrors(error);
      refreshAllowance();
    },
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
                  defaultMessage="{count, plural, one {# of them has no email address (signed up with a phone number, or a guest listed by name only) and gets no email.} other {# of them have no email address (signed up with a phone number, or guests listed by name only) and get no email.}}"
                  values={{ count: previewed.unreachable }}
                />
              </Text>
            )}
            {previewed.guests > 0 && (
              <Text size="sm" c="dimmed">
                <FormattedMessage
                  id="messages.preview.guests"
                  defaultMessage="{count, plural, one {# of them has not bought a ticket (a guest from a list): this email counts against the guest emails you can still send.} other {# of them have not bought a ticket (guests from a list): these emails count against the guest emails you can still send.}}"
                  values={{ count: previewed.guests }}
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
