import { updateTicketType, type ManagedTicketTypeRow } from '@admit/shared/event-changes';
import { addTicketType } from '@admit/shared/events';
import { Alert, Button, Checkbox, Grid, Modal, NumberInput, Stack, TextInput, Title } from '@mantine/core';
import { useForm, type UseFormReturnType } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { DialogFooter } from '../../lib/dialog-footer';
import { callFunction } from '../../lib/callable';
import { failureOfError, fieldErrorsOf, useErrorMessage } from '../../lib/error-message';
import { validateWith } from '../../lib/form';
import { currencyDigits, toMinorUnits } from '../../lib/money';
import { buyerLimitOf } from './event-fields';

interface TicketTypeValues {
  name: string;
  /** In the currency's main unit as typed (15.50), sent in minor units (1550). */
  price: number | string;
  capacity: number | string;
  maxPerOrder: number | string;
  /** Empty: no limit per buyer. */
  maxPerBuyer: number | string;
  salesStartLocal: string;
  salesEndLocal: string;
  hidden: boolean;
}

const blank: TicketTypeValues = {
  name: '',
  price: 0,
  capacity: 50,
  maxPerOrder: 10,
  maxPerBuyer: '',
  salesStartLocal: '',
  salesEndLocal: '',
  hidden: false,
};

/** A ticket type's fields; `full` adds the sales window and visibility (the edit dialog). */
function TicketTypeFields({
  form,
  currency,
  full,
}: {
  form: UseFormReturnType<TicketTypeValues>;
  currency: string;
  full: boolean;
}) {
  const intl = useIntl();
  return (
    <Grid align="flex-end">
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <TextInput
          label={intl.formatMessage({ id: 'editor.addType.name', defaultMessage: 'Name' })}
          required
          {...form.getInputProps('name')}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <NumberInput
          label={intl.formatMessage({ id: 'editor.addType.price', defaultMessage: 'Price ({currency})' }, { currency })}
          description={
            full
              ? intl.formatMessage({
                  id: 'editor.type.priceChangeHint',
                  defaultMessage: 'A new price applies to new orders only.',
                })
              : intl.formatMessage({ id: 'editor.addType.priceHint', defaultMessage: '0 for a free ticket' })
          }
          min={0}
          decimalScale={currencyDigits(currency)}
          allowNegative={false}
          {...form.getInputProps('price')}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 6, sm: 3 }}>
        <NumberInput
          label={intl.formatMessage({ id: 'editor.addType.capacity', defaultMessage: 'Capacity' })}
          min={1}
          allowDecimal={false}
          required
          {...form.getInputProps('capacity')}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 6, sm: 3 }}>
        <NumberInput
          label={intl.formatMessage({ id: 'editor.addType.maxPerOrder', defaultMessage: 'Limit per order' })}
          min={1}
          max={100}
          allowDecimal={false}
          required
          {...form.getInputProps('maxPerOrder')}
        />
      </Grid.Col>
      <Grid.Col span={{ base: 12, sm: 6 }}>
        <NumberInput
          label={intl.formatMessage({ id: 'editor.addType.maxPerBuyer', defaultMessage: 'Limit per buyer (optional)' })}
          description={intl.formatMessage({
            id: 'editor.addType.maxPerBuyerHint',
            defaultMessage: 'Across all of a person’s orders, paid or not. Empty: no limit.',
          })}
          min={1}
          max={1000}
          allowDecimal={false}
          {...form.getInputProps('maxPerBuyer')}
        />
      </Grid.Col>
      {full && (
        <>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              type="datetime-local"
              label={intl.formatMessage({ id: 'editor.type.salesStart', defaultMessage: 'Sales start (optional)' })}
              {...form.getInputProps('salesStartLocal')}
            />
          </Grid.Col>
          <Grid.Col span={{ base: 12, sm: 6 }}>
            <TextInput
              type="datetime-local"
              label={intl.formatMessage({ id: 'editor.type.salesEnd', defaultMessage: 'Sales end (optional)' })}
              {...form.getInputProps('salesEndLocal')}
            />
          </Grid.Col>
          <Grid.Col span={12}>
            <Checkbox
              label={intl.formatMessage({ id: 'editor.type.hidden', defaultMessage: 'Hidden from buyers' })}
              description={intl.formatMessage({
                id: 'editor.type.hiddenHint',
                defaultMessage:
                  'Buyers no longer see it; tickets already sold stay valid, and an access code can still show it and sell it.',
              })}
              {...form.getInputProps('hidden', { type: 'checkbox' })}
            />
          </Grid.Col>
        </>
      )}
    </Grid>
  );
}

/** Shows a refusal at its field (capacity below what is taken), or under the form. */
function useTicketTypeErrors(form: UseFormReturnType<TicketTypeValues>) {
  const errorMessage = useErrorMessage();
  return {
    onError(error: unknown) {
      if (failureOfError(error)?.reason === 'capacity-below-taken') form.setFieldError('capacity', errorMessage(error));
      else form.setErrors(fieldErrorsOf(error));
    },
    shown: (error: unknown) => (error && !Object.keys(form.errors).length ? errorMessage(error) : null),
  };
}

export function AddTicketTypeForm({ eventId, currency }: { eventId: string; currency: string }) {
  const intl = useIntl();
  const input = (values: TicketTypeValues) => ({
    eventId,
    name: values.name,
    price: toMinorUnits(Number(values.price) || 0, currency),
    capacity: Number(values.capacity),
    maxPerOrder: Number(values.maxPerOrder),
    maxPerBuyer: buyerLimitOf(values.maxPerBuyer),
  });
  const form = useForm<TicketTypeValues>({ initialValues: blank, validate: validateWith(addTicketType.input, intl, input) });
  const errors = useTicketTypeErrors(form);
  const mutation = useMutation({
    mutationFn: (values: TicketTypeValues) => callFunction(addTicketType, input(values)),
    onSuccess: () => form.reset(),
    onError: errors.onError,
  });
  const shown = errors.shown(mutation.error);
  return (
    <form onSubmit={form.onSubmit((values) => mutation.mutate(values))} noValidate>
      <Stack gap="sm">
        <Title order={3} size="h5">
          <FormattedMessage id="editor.addType.title" defaultMessage="Add a ticket type" />
        </Title>
        <TicketTypeFields form={form} currency={currency} full={false} />
        {shown && (
          <Alert color="red" role="alert">
            {shown}
          </Alert>
        )}
        <Button type="submit" variant="light" loading={mutation.isPending} style={{ alignSelf: 'flex-start' }}>
          <FormattedMessage id="editor.addType.submit" defaultMessage="Add ticket type" />
        </Button>
      </Stack>
    </form>
  );
}

const valuesOf = (type: ManagedTicketTypeRow, currency: string): TicketTypeValues => ({
  name: type.name,
  price: type.price / 10 ** currencyDigits(currency),
  capacity: type.capacity,
  maxPerOrder: type.maxPerOrder,
  maxPerBuyer: type.maxPerBuyer ?? '',
  salesStartLocal: type.salesStartLocal ?? '',
  salesEndLocal: type.salesEndLocal ?? '',
  hidden: type.hidden,
});

export function EditTicketTypeDialog({
  type,
  currency,
  onClose,
}: {
  type: ManagedTicketTypeRow;
  currency: string;
  onClose: () => void;
}) {
  const intl = useIntl();
  const input = (values: TicketTypeValues) => ({
    ticketTypeId: type.id,
    name: values.name,
    price: toMinorUnits(Number(values.price) || 0, currency),
    capacity: Number(values.capacity),
    maxPerOrder: Number(values.maxPerOrder),
    maxPerBuyer: buyerLimitOf(values.maxPerBuyer),
    salesStartLocal: values.salesStartLocal || null,
    salesEndLocal: values.salesEndLocal || null,
    hidden: values.hidden,
  });
  const form = useForm<TicketTypeValues>({
    initialValues: valuesOf(type, currency),
    validate: validateWith(updateTicketType.input, intl, input),
  });
  const errors = useTicketTypeErrors(form);
  const mutation = useMutation({
    mutationFn: (values: TicketTypeValues) => callFunction(updateTicketType, input(values)),
    onSuccess: () => {
      notifications.show({
        color: 'green',
        message: intl.formatMessage({ id: 'editEvent.saved', defaultMessage: 'Changes saved.' }),
      });
      onClose();
    },
    onError: errors.onError,
  });
  const shown = errors.shown(mutation.error);
  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={intl.formatMessage({ id: 'editor.type.editTitle', defaultMessage: 'Edit “{name}”' }, { name: type.name })}
    >
      <form onSubmit={form.onSubmit((values) => mutation.mutate(values))} noValidate>
        <Stack>
          <TicketTypeFields form={form} currency={currency} full />
          <DialogFooter
            error={shown}
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
