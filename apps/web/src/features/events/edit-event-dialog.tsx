import { instantToZonedLocal } from '@admit/shared/dates';
import { updateEvent } from '@admit/shared/event-changes';
import type { ManagedEventRow } from '@admit/shared/events';
import { sendChangeNotice } from '@admit/shared/attendee-messages';
import { Modal, Stack, Text } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { DialogFooter } from '../../lib/dialog-footer';
import { callFunction } from '../../lib/callable';
import { failureOfError, fieldErrorsOf, useErrorMessage } from '../../lib/error-message';
import { validateWith } from '../../lib/form';
import { useKeptForm } from '../../lib/kept-drafts';
import { buyerLimitOf, EventFields, type EventFieldValues } from './event-fields';

const valuesOf = (event: ManagedEventRow): EventFieldValues => ({
  title: event.title,
  description: event.description,
  venue: event.venue,
  timeZone: event.timeZone,
  startsAtLocal: instantToZonedLocal(event.startsAt, event.timeZone),
  endsAtLocal: instantToZonedLocal(event.endsAt, event.timeZone),
  capacity: event.capacity,
  maxPerBuyer: event.maxPerBuyer ?? '',
  currency: event.currency,
});

/** The event's fields in a dialog, prefilled; the server's refusals show at the field they concern. */
export function EditEventDialog({
  event,
  opened,
  onOpen,
  onClose,
}: {
  event: ManagedEventRow;
  opened: boolean;
  /** Opens it again with what was typed in it before the page reloaded for a new build. */
  onOpen: () => void;
  onClose: () => void;
}) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const input = (values: EventFieldValues) => ({
    ...values,
    eventId: event.id,
    capacity: Number(values.capacity),
    maxPerBuyer: buyerLimitOf(values.maxPerBuyer),
  });
  const form = useForm<EventFieldValues>({
    initialValues: valuesOf(event),
    validate: validateWith(updateEvent.input, intl, input),
  });
  useKeptForm(`edit-event ${event.id}`, form, { enabled: opened, onRestored: onOpen });
  // After a change of time or place that people hold tickets for: whether to tell them is asked next.
  const [notice, setNotice] = useState<{ id: string; holders: number } | null>(null);
  const mutation = useMutation({
    mutationFn: (values: EventFieldValues) => callFunction(updateEvent, input(values)),
    onSuccess: (result) => {
      // The question that follows says what was saved; a toast over the dialog would hide its title.
      if (result.change && result.change.holders > 0) return setNotice(result.change);
      notifications.show({
        color: 'green',
        message: intl.formatMessage({ id: 'editEvent.saved', defaultMessage: 'Changes saved.' }),
      });
      onClose();
    },
    onError: (error) => {
      const failure = failureOfError(error);
      if (failure?.reason === 'capacity-below-taken') form.setFieldError('capacity', errorMessage(error));
      else if (failure?.reason === 'fixed-after-sales') form.setFieldError(failure.field, errorMessage(error));
      else form.setErrors(fieldErrorsOf(error));
    },
  });
  const shownError = mutation.error && !Object.keys(form.errors).length ? errorMessage(mutation.error) : null;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="lg"
      title={intl.formatMessage({ id: 'editEvent.title', defaultMessage: 'Edit the event' })}
      onTransitionEnd={() => {
        if (opened) return;
        form.setValues(valuesOf(event));
        setNotice(null);
        mutation.reset();
      }}
    >
      {notice ? (
        <ChangeNoticeOffer eventId={event.id} change={notice} onDone={onClose} />
      ) : (
        <form onSubmit={form.onSubmit((values) => mutation.mutate(values))} noValidate>
          <Stack>
            <EventFields form={form} fixed={event.status !== 'draft' || event.sold + event.held > 0} />
            <DialogFooter
              error={shownError}
              cancel={<FormattedMessage id="editEvent.cancel" defaultMessage="Discard" />}
              confirm={<FormattedMessage id="editEvent.submit" defaultMessage="Save changes" />}
              pending={mutation.isPending}
              onCancel={onClose}
            />
          </Stack>
        </form>
      )}
    </Modal>
  );
}

/**
 * Asked after saving a new time or place: the organizer chooses whether Admit emails everyone
 * holding a ticket what changed (in their language, with the updated calendar file).
 */
function ChangeNoticeOffer({
  eventId,
  change,
  onDone,
}: {
  eventId: string;
  change: { id: string; holders: number };
  onDone: () => void;
}) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const send = useMutation({
    mutationFn: () => callFunction(sendChangeNotice, { eventId, changeId: change.id }),
    onSuccess: (result) => {
      notifications.show({
        color: 'green',
        message: intl.formatMessage(
          {
            id: 'editEvent.notice.sent',
            defaultMessage: '{count, plural, one {Sending the notice to # person.} other {Sending the notice to # people.}}',
          },
          { count: result.recipients },
        ),
      });
      onDone();
    },
  });
  return (
    <Stack>
      <Text>
        <FormattedMessage
          id="editEvent.notice.question"
          defaultMessage="The time or place changed. {count, plural, one {# person holds} other {# people hold}} tickets for this event: Admit can email them what changed, in their language, with the updated calendar entry."
          values={{ count: change.holders }}
        />
      </Text>
      <DialogFooter
        error={send.error ? errorMessage(send.error) : null}
        cancel={<FormattedMessage id="editEvent.notice.skip" defaultMessage="Don’t email" />}
        confirm={
          <FormattedMessage
            id="editEvent.notice.send"
            defaultMessage="{count, plural, one {Email the ticket holder about this change} other {Email the # ticket holders about this change}}"
            values={{ count: change.holders }}
          />
        }
        pending={send.isPending}
        onCancel={onDone}
        onConfirm={() => send.mutate()}
      />
    </Stack>
  );
}
