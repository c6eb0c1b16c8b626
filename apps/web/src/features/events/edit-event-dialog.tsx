import { instantToZonedLocal } from '@admit/shared/dates';
import { updateEvent } from '@admit/shared/event-changes';
import type { ManagedEventRow } from '@admit/shared/events';
import { Modal, Stack } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { DialogFooter } from '../../lib/dialog-footer';
import { callFunction } from '../../lib/callable';
import { failureOfError, fieldErrorsOf, useErrorMessage } from '../../lib/error-message';
import { validateWith } from '../../lib/form';
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
export function EditEventDialog({ event, opened, onClose }: { event: ManagedEventRow; opened: boolean; onClose: () => void }) {
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
  const mutation = useMutation({
    mutationFn: (values: EventFieldValues) => callFunction(updateEvent, input(values)),
    onSuccess: () => {
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
      onTransitionEnd={() => !opened && form.setValues(valuesOf(event))}
    >
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
    </Modal>
  );
}
