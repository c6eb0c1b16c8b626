import { AnchorLink, ButtonLink } from '../../lib/links';
import { addTicketType, managedEvent, publishEvent, ticketAvailability } from '@admit/shared/events';
import { Alert, Button, Card, Grid, Group, NumberInput, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { fieldErrorsOf, useErrorMessage } from '../../lib/error-message';
import { validateWith } from '../../lib/form';
import { useLiveQuery } from '../../lib/live';
import { currencyDigits, formatMoney, toMinorUnits } from '../../lib/money';
import { EmptyState, ErrorState, PageLoader } from '../../lib/page-state';
import { EventStatusBadge } from './event-status-badge';
import { EventTime } from './event-time';

interface TicketTypeValues {
  name: string;
  /** In the currency's main unit as typed (15.50), sent in minor units (1550). */
  price: number | string;
  capacity: number | string;
  maxPerOrder: number | string;
}

function AddTicketTypeForm({ eventId, currency }: { eventId: string; currency: string }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const input = (values: TicketTypeValues) => ({
    eventId,
    name: values.name,
    price: toMinorUnits(Number(values.price) || 0, currency),
    capacity: Number(values.capacity),
    maxPerOrder: Number(values.maxPerOrder),
  });
  const form = useForm<TicketTypeValues>({
    initialValues: { name: '', price: 0, capacity: 50, maxPerOrder: 10 },
    validate: validateWith(addTicketType.input, intl, input),
  });
  const mutation = useMutation({
    mutationFn: (values: TicketTypeValues) => callFunction(addTicketType, input(values)),
    onSuccess: () => form.reset(),
    onError: (error) => form.setErrors(fieldErrorsOf(error)),
  });
  return (
    <form onSubmit={form.onSubmit((values) => mutation.mutate(values))} noValidate>
      <Stack gap="sm">
        <Title order={3} size="h5">
          <FormattedMessage id="editor.addType.title" defaultMessage="Add a ticket type" />
        </Title>
        <Grid>
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
              description={intl.formatMessage({ id: 'editor.addType.priceHint', defaultMessage: '0 for a free ticket' })}
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
        </Grid>
        {mutation.error && !Object.keys(fieldErrorsOf(mutation.error)).length && (
          <Alert color="red" role="alert">
            {errorMessage(mutation.error)}
          </Alert>
        )}
        <Button type="submit" variant="light" loading={mutation.isPending} style={{ alignSelf: 'flex-start' }}>
          <FormattedMessage id="editor.addType.submit" defaultMessage="Add ticket type" />
        </Button>
      </Stack>
    </form>
  );
}

function PublishButton({ eventId, hasTicketTypes }: { eventId: string; hasTicketTypes: boolean }) {
  const intl = useIntl();
  const errorMessage = useErrorMessage();
  const mutation = useMutation({
    mutationFn: () => callFunction(publishEvent, { eventId }),
    onSuccess: () =>
      notifications.show({
        color: 'green',
        message: intl.formatMessage({ id: 'editor.published', defaultMessage: 'The event is on sale.' }),
      }),
    onError: (error) =>
      notifications.show({
        color: 'red',
        message: errorMessage(error),
      }),
  });
  return (
    <Button onClick={() => mutation.mutate()} loading={mutation.isPending} disabled={!hasTicketTypes} color="green">
      <FormattedMessage id="editor.publish" defaultMessage="Publish" />
    </Button>
  );
}

export function EventEditorPage({ eventId, orders }: { eventId: string; orders: ReactNode }) {
  const intl = useIntl();
  const eventQuery = useLiveQuery(managedEvent, { eventId });
  const types = useLiveQuery(ticketAvailability, { eventId });
  if (eventQuery.error) return <ErrorState error={eventQuery.error} />;
  const event = eventQuery.rows?.[0];
  if (!event) return <PageLoader />;
  const editable = event.status === 'draft' || event.status === 'published';

  return (
    <Stack gap="lg">
      <AnchorLink to="/manage/orgs/$organizationId" params={{ organizationId: event.organizationId }} size="sm">
        <FormattedMessage id="editor.back" defaultMessage="← All events" />
      </AnchorLink>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="sm">
            <Title order={1}>{event.title}</Title>
            <EventStatusBadge status={event.status} />
          </Group>
          <EventTime startsAt={event.startsAt} endsAt={event.endsAt} timeZone={event.timeZone} />
          <Text c="dimmed">{event.venue}</Text>
        </Stack>
        <Group>
          <ButtonLink to="/e/$slug" params={{ slug: event.slug }} variant="default">
            {event.status === 'draft' ? (
              <FormattedMessage id="editor.preview" defaultMessage="Preview page" />
            ) : (
              <FormattedMessage id="editor.viewPublic" defaultMessage="View public page" />
            )}
          </ButtonLink>
          {event.status === 'draft' && <PublishButton eventId={eventId} hasTicketTypes={(types.rows?.length ?? 0) > 0} />}
        </Group>
      </Group>
      <Text>
        <FormattedMessage
          id="editor.capacity"
          defaultMessage="{sold, number} of {capacity, number} places taken"
          values={{ sold: event.sold, capacity: event.capacity }}
        />
        {event.held > 0 && (
          <>
            {' · '}
            <FormattedMessage
              id="editor.held"
              defaultMessage="{held, plural, one {# place held} other {# places held}} while buyers pay"
              values={{ held: event.held }}
            />
          </>
        )}
      </Text>

      <Card withBorder padding="lg">
        <Stack gap="md">
          <Title order={2} size="h4">
            <FormattedMessage id="editor.ticketTypes" defaultMessage="Ticket types" />
          </Title>
          {types.error && <ErrorState error={types.error} />}
          {types.rows && types.rows.length === 0 && (
            <EmptyState title={intl.formatMessage({ id: 'editor.noTypes', defaultMessage: 'No ticket types yet' })}>
              <FormattedMessage id="editor.noTypes.body" defaultMessage="Add at least one before you publish." />
            </EmptyState>
          )}
          {types.rows && types.rows.length > 0 && (
            <Table.ScrollContainer minWidth={420}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>
                      <FormattedMessage id="editor.col.name" defaultMessage="Name" />
                    </Table.Th>
                    <Table.Th ta="right">
                      <FormattedMessage id="editor.col.price" defaultMessage="Price" />
                    </Table.Th>
                    <Table.Th ta="right">
                      <FormattedMessage id="editor.col.capacity" defaultMessage="Capacity" />
                    </Table.Th>
                    <Table.Th ta="right">
                      <FormattedMessage id="editor.col.remaining" defaultMessage="Remaining" />
                    </Table.Th>
                    <Table.Th ta="right">
                      <FormattedMessage id="editor.col.limit" defaultMessage="Per order" />
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {types.rows.map((type) => (
                    <Table.Tr key={type.id}>
                      <Table.Td>{type.name}</Table.Td>
                      <Table.Td ta="right">
                        {type.price === 0 ? (
                          <FormattedMessage id="picker.free" defaultMessage="Free" />
                        ) : (
                          formatMoney(intl.locale, type.price, event.currency)
                        )}
                      </Table.Td>
                      <Table.Td ta="right">{intl.formatNumber(type.capacity)}</Table.Td>
                      <Table.Td ta="right">{intl.formatNumber(type.remaining)}</Table.Td>
                      <Table.Td ta="right">{intl.formatNumber(type.maxPerOrder)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {editable && <AddTicketTypeForm eventId={eventId} currency={event.currency} />}
        </Stack>
      </Card>
      {orders}
    </Stack>
  );
}
