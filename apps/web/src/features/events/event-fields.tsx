import { isTimeZone } from '@admit/shared/dates';
import { Grid, NumberInput, Select, Stack, Textarea, TextInput } from '@mantine/core';
import type { UseFormReturnType } from '@mantine/form';
import { useMemo } from 'react';
import { useIntl } from 'react-intl';
import { viewerTimeZone } from '../../lib/dates';

/** An event's fields as the create and edit forms hold them (capacity as typed). */
export interface EventFieldValues {
  title: string;
  description: string;
  venue: string;
  timeZone: string;
  startsAtLocal: string;
  endsAtLocal: string;
  capacity: number | string;
  /** Empty: no limit per buyer. */
  maxPerBuyer: number | string;
  currency: string;
}

/** The limit per buyer as sent: an empty field is no limit. */
export const buyerLimitOf = (value: number | string) => (value === '' ? null : Number(value));

function timeZones(): string[] {
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const own = viewerTimeZone();
  return zones.includes(own) || !isTimeZone(own) ? zones : [own, ...zones];
}

/**
 * The fields of an event, for creating one and for editing it. `fixed`: the currency and time zone
 * can no longer change (the event has been on sale), shown but not editable, with why.
 */
export function EventFields({ form, fixed = false }: { form: UseFormReturnType<EventFieldValues>; fixed?: boolean }) {
  const intl = useIntl();
  const zones = useMemo(() => timeZones(), []);
  const currencies = useMemo(() => {
    const names = new Intl.DisplayNames([intl.locale], { type: 'currency' });
    return Intl.supportedValuesOf('currency').map((code) => ({ value: code, label: `${code} — ${names.of(code) ?? code}` }));
  }, [intl.locale]);
  const fixedHint = intl.formatMessage({
    id: 'eventFields.fixedHint',
    defaultMessage: 'Fixed once the event has been on sale.',
  });
  return (
    <Stack>
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
        description={
          fixed
            ? fixedHint
            : intl.formatMessage({
                id: 'createEvent.field.timeZoneHint',
                defaultMessage: 'Start and end are the local time at the venue.',
              })
        }
        data={zones}
        searchable
        required
        disabled={fixed}
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
        description={
          fixed
            ? fixedHint
            : intl.formatMessage({
                id: 'createEvent.field.currencyHint',
                defaultMessage: 'Every ticket of the event is priced in it.',
              })
        }
        data={currencies}
        searchable
        required
        disabled={fixed}
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
      <NumberInput
        label={intl.formatMessage({ id: 'createEvent.field.maxPerBuyer', defaultMessage: 'Tickets per buyer (optional)' })}
        description={intl.formatMessage({
          id: 'createEvent.field.maxPerBuyerHint',
          defaultMessage: 'The most tickets one person may have, all types and orders together. Empty: no limit.',
        })}
        min={1}
        max={1000}
        allowDecimal={false}
        {...form.getInputProps('maxPerBuyer')}
      />
    </Stack>
  );
}
