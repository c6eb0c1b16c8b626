import { isTimeZone } from '@admit/shared/dates';
import { createEvent } from '@admit/shared/events';
import { Button, Card, Grid, NumberInput, Select, Stack, Textarea, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { fieldErrorsOf, useErrorMessage } from '../../lib/error-message';
import { viewerTimeZone } from '../../lib/dates';
import { validateWith } from '../../lib/form';

function timeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const own = viewerTimeZone();
  return zones.includes(own) || !isTimeZone(own) ? zones : [own, ...zones];
}

export function CreateEventForm({ organizationId }: { organizationId: string }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const errorMessage = useErrorMessage();
  const zones = useMemo(() => timeZones(), []);
  const currencies = useMemo(() => {
    const names = new Intl.DisplayNames([intl.locale], { type: 'currency' });
    return Intl.supportedValuesOf('currency').map((code) => ({ value: code, label: `${code} — ${names.of(code) ?? code}` }));
  }, [intl.locale]);
  const form = useForm({
    initialValues: {
      title: '',
      description: '',
      venue: '',
      timeZone: viewerTimeZone(),
      startsAtLocal: '',
      endsAtLocal: '',
      capacity: 100 as number | string,
      currency: 'EUR',
    },
    validate: validateWith(createEvent.input, intl, (values: { capacity: number | string }) => ({ ...values, organizationId })),
  });
  const mutation = useMutation({
    mutationFn: (values: typeof form.values) =>
      callFunction(createEvent, { ...values, organizationId, capacity: Number(values.capacity) }),
    onSuccess: ({ eventId }) => navigate({ to: '/manage/events/$eventId', params: { eventId } }),
    onError: (error) => form.setErrors(fieldErrorsOf(error)),
  });

  return (
    <Card withBorder padding="lg">
      <form onSubmit={form.onSubmit((values) => mutation.mutate(values))} noValidate>
        <Stack>
          <Title order={2} size="h4">
            <FormattedMessage id="createEvent.title" defaultMessage="Create an event" />
          </Title>
          <TextInput
            label={intl.formatMessage({ id: 'createEvent.field.title', defaultMessage: 'Title' })}
            required
            {...form.getInputProps('title')}
          />
          <Textarea
            label={intl.formatMessage({ id: 'createEvent.field.description', defaultMessage: 'Description' })}
            autosize
            minRows={3}
            {...form.getInputProps('description')}
          />
          <TextInput
            label={intl.formatMessage({ id: 'createEvent.field.venue', defaultMessage: 'Venue' })}
            required
            {...form.getInputProps('venue')}
          />
          <Select
            label={intl.formatMessage({ id: 'createEvent.field.timeZone', defaultMessage: 'Time zone of the event' })}
            description={intl.formatMessage({
              id: 'createEvent.field.timeZoneHint',
              defaultMessage: 'Start and end are the local time at the venue.',
            })}
            data={zones}
            searchable
            required
            allowDeselect={false}
            {...form.getInputProps('timeZone')}
          />
          <Grid>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                type="datetime-local"
                label={intl.formatMessage({ id: 'createEvent.field.starts', defaultMessage: 'Starts' })}
                required
                {...form.getInputProps('startsAtLocal')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                type="datetime-local"
                label={intl.formatMessage({ id: 'createEvent.field.ends', defaultMessage: 'Ends' })}
                required
                {...form.getInputProps('endsAtLocal')}
              />
            </Grid.Col>
          </Grid>
          <Select
            label={intl.formatMessage({ id: 'createEvent.field.currency', defaultMessage: 'Currency' })}
            description={intl.formatMessage({
              id: 'createEvent.field.currencyHint',
              defaultMessage: 'Every ticket of the event is priced in it.',
            })}
            data={currencies}
            searchable
            required
            allowDeselect={false}
            {...form.getInputProps('currency')}
          />
          <NumberInput
            label={intl.formatMessage({ id: 'createEvent.field.capacity', defaultMessage: 'Capacity' })}
            description={intl.formatMessage({
              id: 'createEvent.field.capacityHint',
              defaultMessage: 'The most people the venue admits, across all ticket types.',
            })}
            min={1}
            allowDecimal={false}
            required
            {...form.getInputProps('capacity')}
          />
          {mutation.error && !Object.keys(fieldErrorsOf(mutation.error)).length && (
            <div role="alert" style={{ color: 'var(--mantine-color-red-7)' }}>
              {errorMessage(mutation.error)}
            </div>
          )}
          <Button type="submit" loading={mutation.isPending} style={{ alignSelf: 'flex-end' }}>
            <FormattedMessage id="createEvent.submit" defaultMessage="Create event" />
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
