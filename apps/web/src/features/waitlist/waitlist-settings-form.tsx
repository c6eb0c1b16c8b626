import type { ManagedTicketTypeRow } from '@admit/shared/event-changes';
import { configureWaitlist, waitlistLimits, type WaitlistSettingsRow } from '@admit/shared/waitlist';
import { Alert, Button, Checkbox, NumberInput, Stack, Switch } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { fieldErrorsOf, useErrorMessage } from '../../lib/error-message';
import { validateWith } from '../../lib/form';

interface WaitlistValues {
  enabled: boolean;
  /** None: every ticket type. */
  ticketTypeIds: string[];
  offerHours: number | string;
  partialOffers: boolean;
  presale: boolean;
}

/** The list's settings, saved with `waitlist.configure`. */
export function WaitlistSettingsForm({
  eventId,
  settings,
  types,
}: {
  eventId: string;
  settings: WaitlistSettingsRow;
  types: readonly ManagedTicketTypeRow[];
}) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const input = (values: WaitlistValues) => ({
    eventId,
    enabled: values.enabled,
    ticketTypeIds: values.ticketTypeIds,
    offerHours: values.offerHours === '' ? Number.NaN : Number(values.offerHours),
    partialOffers: values.partialOffers,
    presale: values.presale,
  });
  const form = useForm<WaitlistValues>({
    initialValues: {
      enabled: settings.enabled,
      ticketTypeIds: settings.ticketTypeIds,
      offerHours: settings.offerHours,
      partialOffers: settings.partialOffers,
      presale: settings.presale,
    },
    validate: validateWith(configureWaitlist.input, intl, input),
  });
  const mutation = useMutation({
    mutationFn: (values: WaitlistValues) => callFunction(configureWaitlist, input(values)),
    onSuccess: ({ enabled }) =>
      notifications.show({
        color: 'green',
        message: intl.formatMessage(
          {
            id: 'waitlist.saved',
            defaultMessage:
              '{enabled, select, yes {Saved: the waiting list is open.} other {Saved: the waiting list is closed.}}',
          },
          { enabled: enabled ? 'yes' : 'no' },
        ),
      }),
    onError: (error) => form.setErrors(fieldErrorsOf(error)),
  });
  const shown = mutation.error && Object.keys(form.errors).length === 0 ? errorMessage(mutation.error) : null;
  // Nobody waits for a hidden type (it is not on the event's page); one chosen before it was hidden stays to be unchosen.
  const choices = types.filter((type) => !type.hidden || settings.ticketTypeIds.includes(type.id));

  return (
    <form onSubmit={form.onSubmit((values) => mutation.mutate(values))} noValidate>
      <Stack gap="md">
        <Switch
          label={intl.formatMessage({ id: 'waitlist.field.enabled', defaultMessage: 'Open the waiting list' })}
          description={intl.formatMessage({
            id: 'waitlist.field.enabledHint',
            defaultMessage:
              'People can join it when a ticket type is sold out, until the event begins. Closing it takes everyone waiting off the list, and places that come free go on sale again.',
          })}
          {...form.getInputProps('enabled', { type: 'checkbox' })}
        />
        <Checkbox.Group
          label={intl.formatMessage({ id: 'waitlist.field.types', defaultMessage: 'Ticket types' })}
          description={intl.formatMessage({
            id: 'waitlist.field.typesHint',
            defaultMessage: 'The types people can wait for. None chosen: every ticket type on the event’s page.',
          })}
          {...form.getInputProps('ticketTypeIds')}
        >
          <Stack gap={6} mt={6}>
            {choices.map((type) => (
              <Checkbox key={type.id} value={type.id} label={type.name} />
            ))}
          </Stack>
        </Checkbox.Group>
        <NumberInput
          label={intl.formatMessage({ id: 'waitlist.field.offerHours', defaultMessage: 'Hours to take an offer' })}
          description={intl.formatMessage(
            {
              id: 'waitlist.field.offerHoursHint',
              defaultMessage:
                'From {min, number} to {max, number} (a week). The places are held that long, and at the latest until the event begins; then they go to the next person.',
            },
            waitlistLimits.offerHours,
          )}
          required
          min={waitlistLimits.offerHours.min}
          max={waitlistLimits.offerHours.max}
          allowDecimal={false}
          allowNegative={false}
          w={220}
          {...form.getInputProps('offerHours')}
        />
        <Switch
          label={intl.formatMessage({
            id: 'waitlist.field.partialOffers',
            defaultMessage: 'Offer what is free to an entry that asked for more',
          })}
          description={intl.formatMessage({
            id: 'waitlist.field.partialOffersHint',
            defaultMessage:
              'Off: the first person waits until as many places as they asked for are free, and those after them wait too. On: they are offered the places that are free.',
          })}
          {...form.getInputProps('partialOffers', { type: 'checkbox' })}
        />
        <Switch
          label={intl.formatMessage({ id: 'waitlist.field.presale', defaultMessage: 'Also before sales start (pre-sale list)' })}
          description={intl.formatMessage({
            id: 'waitlist.field.presaleHint',
            defaultMessage:
              'People can join for a ticket type that is not on sale yet. When its sales start, its places are offered to them in the order they joined, before anyone else can buy.',
          })}
          {...form.getInputProps('presale', { type: 'checkbox' })}
        />
        {shown && (
          <Alert color="red" role="alert">
            {shown}
          </Alert>
        )}
        <Button type="submit" loading={mutation.isPending} style={{ alignSelf: 'flex-start' }}>
          <FormattedMessage id="waitlist.save" defaultMessage="Save" />
        </Button>
      </Stack>
    </form>
  );
}
