import { configureTransfers, transferLimits, type TransferSettingsRow } from '@admit/shared/transfers';
import { Alert, Button, NumberInput, Stack, Switch } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { fieldErrorsOf, useErrorMessage } from '../../lib/error-message';
import { validateWith } from '../../lib/form';

interface TransferValues {
  enabled: boolean;
  closesHoursBeforeStart: number | string;
}

/** Whether tickets may be sent on and until when, saved with `tickets.configureTransfers`. */
export function TransferSettingsForm({ eventId, settings }: { eventId: string; settings: TransferSettingsRow }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const input = (values: TransferValues) => ({
    eventId,
    enabled: values.enabled,
    closesHoursBeforeStart: values.closesHoursBeforeStart === '' ? Number.NaN : Number(values.closesHoursBeforeStart),
  });
  const form = useForm<TransferValues>({
    initialValues: { enabled: settings.enabled, closesHoursBeforeStart: settings.closesHoursBeforeStart },
    validate: validateWith(configureTransfers.input, intl, input),
  });
  const mutation = useMutation({
    mutationFn: (values: TransferValues) => callFunction(configureTransfers, input(values)),
    onSuccess: ({ enabled }) =>
      notifications.show({
        color: 'green',
        message: intl.formatMessage(
          {
            id: 'transfers.saved',
            defaultMessage:
              '{enabled, select, yes {Saved: ticket holders can send their tickets on.} other {Saved: tickets can no longer be sent on.}}',
          },
          { enabled: enabled ? 'yes' : 'no' },
        ),
      }),
    onError: (error) => form.setErrors(fieldErrorsOf(error)),
  });
  const shown = mutation.error && Object.keys(form.errors).length === 0 ? errorMessage(mutation.error) : null;

  return (
    <form onSubmit={form.onSubmit((values) => mutation.mutate(values))} noValidate>
      <Stack gap="md">
        <Switch
          label={intl.formatMessage({
            id: 'transfers.field.enabled',
            defaultMessage: 'Let ticket holders send tickets to someone else',
          })}
          description={intl.formatMessage({
            id: 'transfers.field.enabledHint',
            defaultMessage:
              'Turning it off stops new transfers and the acceptance of those still waiting; tickets already passed on stay with their new holders.',
          })}
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
        <NumberInput
          label={intl.formatMessage({
            id: 'transfers.field.closes',
            defaultMessage: 'Until how many hours before the start',
          })}
          description={intl.formatMessage(
            {
              id: 'transfers.field.closesHint',
              defaultMessage: 'From {min, number} to {max, number} hours. 0: until the event starts.',
            },
            transferLimits.hoursBeforeStart,
          )}
          required
          min={transferLimits.hoursBeforeStart.min}
          max={transferLimits.hoursBeforeStart.max}
          allowDecimal={false}
          allowNegative={false}
          w={360}
          maw="100%"
          {...form.getInputProps('closesHoursBeforeStart')}
        />
        {shown && (
          <Alert color="red" role="alert">
            {shown}
          </Alert>
        )}
        <Button type="submit" loading={mutation.isPending} style={{ alignSelf: 'flex-start' }}>
          <FormattedMessage id="transfers.save" defaultMessage="Save" />
        </Button>
      </Stack>
    </form>
  );
}
