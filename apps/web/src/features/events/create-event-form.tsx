import { createEvent } from '@admit/shared/events';
import { Button, Card, Stack, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { FormattedMessage, useIntl } from 'react-intl';
import { callFunction } from '../../lib/callable';
import { fieldErrorsOf, useErrorMessage } from '../../lib/error-message';
import { viewerTimeZone } from '../../lib/dates';
import { validateWith } from '../../lib/form';
import { useLocale } from '../../lib/i18n';
import { useKeptForm } from '../../lib/kept-drafts';
import { buyerLimitOf, EventFields, type EventFieldValues } from './event-fields';

export function CreateEventForm({ organizationId }: { organizationId: string }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const errorMessage = useErrorMessage();
  // The organizer writes the event in the language they use Admit in; the Languages card changes it.
  const { locale } = useLocale();
  const form = useForm<EventFieldValues>({
    initialValues: {
      title: '',
      description: '',
      venue: '',
      timeZone: viewerTimeZone(),
      startsAtLocal: '',
      endsAtLocal: '',
      capacity: 100,
      maxPerBuyer: '',
      currency: 'EUR',
    },
    validate: validateWith(createEvent.input, intl, (values: EventFieldValues) => ({
      ...values,
      organizationId,
      maxPerBuyer: buyerLimitOf(values.maxPerBuyer),
    })),
  });
  useKeptForm('create-event', form);
  const mutation = useMutation({
    mutationFn: (values: EventFieldValues) =>
      callFunction(createEvent, {
        ...values,
        organizationId,
        capacity: Number(values.capacity),
        maxPerBuyer: buyerLimitOf(values.maxPerBuyer),
        contentLocale: locale,
      }),
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
          <EventFields form={form} />
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
