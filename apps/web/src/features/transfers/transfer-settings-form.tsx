import { resaleLimits } from '@admit/shared/resale';
import { configureTransfers, transferLimits, type TransferSettingsRow } from '@admit/shared/transfers';
import { Alert, Button, NumberInput, Stack, Switch } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { fieldErrorsOf, useErrorMessage } from '../../lib/error-message';
import { validateWith } from '../../lib/form';
import { currencyDigits, toMinorUnits } from '../../lib/money';

interface TransferValues {
  enabled: boolean;
  closesHoursBeforeStart: number | string;
  resaleEnabled: boolean;
  /** In the event's currency as typed (2.5 for €2.50); sent in minor units. */
  resaleFee: number | string;
}

/**
 * Whether tickets may be sent on and until when, and whether they may be offered back for resale at
 * face value and for what fee (decision 0066), saved with `tickets.configureTransfers`. `currency`:
 * the event's, the fee's.
 */
export function TransferSettingsForm({
  eventId,
  currency,
  settings,
}: {
  eventId: string;
  currency: string;
  settings: TransferSettingsRow;
}) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const digits = currencyDigits(currency);
  const input = (values: TransferValues) => ({
    eventId,
    enabled: values.enabled,
    closesHoursBeforeStart: values.closesHoursBeforeStart === '' ? Number.NaN : Number(values.closesHoursBeforeStart),
    resaleEnabled: values.resaleEnabled,
    // Off, the fee is kept as it was: turning resale on again brings it back.
    resaleFee: toMinorUnits(Number(values.resaleFee) || 0, currency),
  });
  const form = useForm<TransferValues>({
    initialValues: {
      enabled: settings.enabled,
      closesHoursBeforeStart: settings.closesHoursBeforeStart,
      resaleEnabled: settings.resaleEnabled,
      resaleFee: settings.resaleFee / 10 ** digits,
    },
    validate: validateWith(configureTransfers.input, intl, input),
  });
  const mutation = useMutation({
    mutationFn: (values: TransferValues) => callFunction(configureTransfers, input(values)),
    onSuccess: ({ enabled }, values) =>
      notifications.show({
        color: 'green',
        message: intl.formatMessage(
          {
            id: 'transfers.saved',
            defaultMessage:
              '{enabled, select, yes {{resale, select, yes {Saved: ticket holders can send their tickets on, and offer them back for resale.} other {Saved: ticket holders can send their tickets on.}}} other {{resale, select, yes {Saved: tickets can no longer be sent on; holders can offer them back for resale.} other {Saved: tickets can no longer be sent on.}}}}',
          },
          { enabled: enabled ? 'yes' : 'no', resale: values.resaleEnabled ? 'yes' : 'no' },
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
        <Switch
          label={intl.formatMessage({ id: 'transfers.field.resale', defaultMessage: 'Allow resale at face value' })}
          description={intl.formatMessage({
            id: 'transfers.field.resaleHint',
            defaultMessage:
              'Once a ticket type is sold out, a holder who cannot go may offer their ticket back. The next person on the waiting list, or the next buyer, pays the price the holder paid; the holder’s ticket then turns void and they are refunded, less the fee. Resale closes when transfers would.',
          })}
          {...form.getInputProps('resaleEnabled', { type: 'checkbox' })}
        />
        {form.values.resaleEnabled && (
          <NumberInput
            label={intl.formatMessage(
              { id: 'transfers.field.resaleFee', defaultMessage: 'Resale fee ({currency})' },
              { currency },
            )}
            description={intl.formatMessage({
              id: 'transfers.field.resaleFeeHint',
              defaultMessage: 'Kept from each resold ticket’s refund. Holders see it before they offer.',
            })}
            min={0}
            max={resaleLimits.fee.max / 10 ** digits}
            decimalScale={digits}
            allowNegative={false}
            w={360}
            maw="100%"
            {...form.getInputProps('resaleFee')}
          />
        )}
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
